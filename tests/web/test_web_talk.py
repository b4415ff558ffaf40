"""Talk at the table (issue 19, item 3): quick reactions relayed to every seat and
spectator, the per-seat rate limit, the host's chat switch (off by default) and the
refusals of bad reactions and chat lines (an ``error`` back, nothing relayed)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from web_helpers import FAST, Peer, TestClient, create, make_client, start

import lamagames.web
from lamagames.web.talk import (
    MAX_CHAT_CHARS,
    REACTIONS,
    TalkLimiter,
    TalkRefused,
    check_chat_text,
)

HUMAN = {"kind": "human"}


def _is(kind: str) -> Any:
    return lambda m: m["type"] == kind


def _table(client: TestClient, **extra: Any) -> dict[str, Any]:
    table = create(client, [HUMAN, HUMAN], **extra)
    start(client, table)
    return table


def _no_relay(peer: Peer) -> None:
    """Nothing was relayed to ``peer``: the next talk message it gets is the marker."""
    relayed = peer.until(lambda m: m["type"] in ("reaction", "chat"))
    assert relayed.get("reaction") == "llama", relayed


def test_a_reaction_reaches_the_other_seat_and_spectators(client: TestClient) -> None:
    table = _table(client)
    code = table["code"]
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
        client.websocket_connect(f"/ws/{code}") as ws2,
    ):
        mum, kid, watcher = Peer(ws0), Peer(ws1), Peer(ws2)
        mum.hello(table["seats"][0]["token"])
        kid.hello(table["seats"][1]["token"])
        assert watcher.hello(None)["chat"] is False
        mum.send({"type": "react", "reaction": "good_game"})
        for peer in (mum, kid, watcher):
            assert peer.until(_is("reaction")) == {
                "type": "reaction",
                "seat": 0,
                "reaction": "good_game",
            }


def test_a_spectator_cannot_react(client: TestClient) -> None:
    table = _table(client)
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        watcher = Peer(ws)
        watcher.hello(None)
        watcher.send({"type": "react", "reaction": "wow"})
        assert watcher.error()["code"] == "spectator"


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({"type": "react", "reaction": "rude"}, "unknown_reaction", "unknown reaction 'rude'"),
        ({"type": "react", "reaction": ""}, "invalid", "reaction"),
        ({"type": "react"}, "invalid", "reaction"),
        ({"type": "say", "text": "hello"}, "chat_off", "chat is off"),
    ],
)
def test_bad_reactions_and_chat_off_are_refused(
    client: TestClient, message: dict[str, Any], code: str, words: str
) -> None:
    """Chat is off by default: ``say`` is refused like an unknown reaction."""
    table = _table(client)
    assert client.get(f"/api/tables/{table['code']}").json()["chat"] is False
    with (
        client.websocket_connect(f"/ws/{table['code']}") as ws0,
        client.websocket_connect(f"/ws/{table['code']}") as ws1,
    ):
        mum, kid = Peer(ws0), Peer(ws1)
        mum.hello(table["seats"][0]["token"])
        kid.hello(table["seats"][1]["token"])
        mum.send(message)
        error = mum.error()
        assert error["code"] == code and words in error["message"], error
        mum.send({"type": "react", "reaction": "llama"})  # still usable; nothing relayed
        _no_relay(kid)


def test_the_host_turns_chat_on_and_lines_are_checked(client: TestClient) -> None:
    table = _table(client, chat=True)
    code = table["code"]
    assert client.get(f"/api/tables/{code}").json()["chat"] is True
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
    ):
        mum, watcher = Peer(ws0), Peer(ws1)
        assert mum.hello(table["seats"][0]["token"])["chat"] is True
        watcher.hello(None)
        mum.send({"type": "say", "text": "  Nice one, Tom! 🦙  "})
        said = watcher.until(_is("chat"))
        assert said == {"type": "chat", "seat": 0, "text": "Nice one, Tom! 🦙"}
        refusals = [
            ("x" * (MAX_CHAT_CHARS + 1), "too_long"),
            ("two\nlines", "control_chars"),
            ("bell\x07", "control_chars"),
            ("evil\u202etxt", "control_chars"),
            ("   ", "empty"),
        ]
        for text, code_wanted in refusals:
            mum.send({"type": "say", "text": text})
            error = mum.error()
            assert error["code"] == code_wanted, (text, error)
        mum.send({"type": "react", "reaction": "llama"})
        _no_relay(watcher)  # none of the refused lines reached anybody


def test_chat_must_be_a_boolean(client: TestClient) -> None:
    body = {"game": "dice", "seats": [HUMAN, HUMAN], "chat": "yes"}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422 and "chat" in response.json()["message"]


def test_reactions_are_rate_limited_per_seat(tmp_path: Path) -> None:
    settings = dataclasses.replace(FAST, talk_per_minute=6.0, talk_burst=3)
    with make_client(tmp_path / "db.sqlite3", settings) as client:
        table = _table(client)
        code = table["code"]
        with (
            client.websocket_connect(f"/ws/{code}") as ws0,
            client.websocket_connect(f"/ws/{code}") as ws1,
            client.websocket_connect(f"/ws/{code}") as ws2,
        ):
            mum, tab2, kid = Peer(ws0), Peer(ws1), Peer(ws2)
            mum.hello(table["seats"][0]["token"])
            tab2.hello(table["seats"][0]["token"])  # same seat, second tab: same budget
            kid.hello(table["seats"][1]["token"])
            for _ in range(2):
                mum.send({"type": "react", "reaction": "clap"})
            tab2.send({"type": "react", "reaction": "clap"})
            tab2.send({"type": "react", "reaction": "clap"})
            error = tab2.error()
            assert error["code"] == "talk_rate" and "wait 10 s" in error["message"], error
            kid.send({"type": "react", "reaction": "llama"})  # another seat's own budget
            seen: list[tuple[int, str]] = []
            while not seen or seen[-1] != (1, "llama"):
                m = kid.until(_is("reaction"))
                seen.append((m["seat"], m["reaction"]))
            assert seen == [(0, "clap")] * 3 + [(1, "llama")]


def test_reactions_and_chat_are_not_recorded(client: TestClient) -> None:
    table = _table(client, chat=True)
    code = table["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        mum = Peer(ws)
        mum.hello(table["seats"][0]["token"])
        before = mum.turn(0)["version"]  # the table waits for seat 0 now
        mum.send({"type": "say", "text": "hi"})
        mum.until(_is("chat"))
        mum.send({"type": "react", "reaction": "wow"})
        mum.until(_is("reaction"))
    assert client.get(f"/api/tables/{code}").json()["version"] == before
    record = client.get(f"/api/tables/{code}/record").text
    assert "wow" not in record and '"hi"' not in record


def test_the_limiter_refills_and_the_chat_check_keeps_emoji_sequences() -> None:
    limiter = TalkLimiter(per_minute=60.0, burst=2)
    assert [limiter.allow(0, now=0.0) for _ in range(3)] == [True, True, False]
    assert limiter.allow(1, now=0.0)
    assert limiter.allow(0, now=1.0) and not limiter.allow(0, now=1.0)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # zero-width joiners stay
    assert check_chat_text(family) == family
    with pytest.raises(TalkRefused, match=r"U\+0009"):
        check_chat_text("tab\there")
    assert len(REACTIONS) == 12


def test_the_page_offers_the_servers_reactions_in_every_language() -> None:
    """The page's button list (table/talk.js) is the server's, and every catalog names
    every reaction (the emoji ones too: their button's label for screen readers)."""
    static = Path(lamagames.web.__file__).parent / "static"
    script = (static / "table" / "talk.js").read_text(encoding="utf-8")
    block = script.split("export const REACTIONS = {", 1)[1].split("};", 1)[0]
    ids = re.findall(r"^\s*(\w+):", block, flags=re.MULTILINE)
    assert ids == list(REACTIONS)
    assert f"MAX_CHAT = {MAX_CHAT_CHARS};" in script
    for catalog in sorted((static / "i18n").glob("*.json")):
        words = json.loads(catalog.read_text(encoding="utf-8"))
        missing = [i for i in REACTIONS if not words.get(f"react.{i}")]
        assert not missing, (catalog.name, missing)


def test_the_host_turns_chat_on_and_off_during_the_game(client: TestClient) -> None:
    table = _table(client)
    code = table["code"]
    switch = f"/api/tables/{code}/chat"
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
    ):
        mum, watcher = Peer(ws0), Peer(ws1)
        mum.hello(table["seats"][0]["token"])
        watcher.hello(None)
        seat_token = table["seats"][0]["token"]
        refused = client.post(switch, json={"host_token": seat_token, "chat": True})
        assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
        assert client.post(switch, json={"host_token": table["host_token"]}).status_code == 422
        assert client.get(f"/api/tables/{code}").json()["chat"] is False  # nothing changed
        answer = client.post(switch, json={"host_token": table["host_token"], "chat": True})
        assert answer.status_code == 200 and answer.json()["chat"] is True
        assert watcher.until(lambda m: m["type"] == "state" and m["chat"])
        mum.until(lambda m: m["type"] == "state" and m["chat"])
        mum.send({"type": "say", "text": "now we can talk"})
        assert watcher.until(_is("chat"))["text"] == "now we can talk"
        client.post(switch, json={"host_token": table["host_token"], "chat": False})
        mum.until(lambda m: m["type"] == "state" and not m["chat"])
        mum.send({"type": "say", "text": "still there?"})
        assert mum.error()["code"] == "chat_off"
    assert client.get(f"/api/tables/{code}").json()["chat"] is False
