"""The WebSocket ``hint`` message (issue 10): hints for the seat to act, errors otherwise."""

from __future__ import annotations

import math

from fastapi.testclient import TestClient
from web_helpers import Peer, create, start

HUMAN = {"kind": "human"}


def test_games_and_tables_say_whether_they_have_hints(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["dice"]["hints"] is True
    assert games["express"]["hints"] is False
    table = create(client, [HUMAN, HUMAN])
    assert client.get(f"/api/tables/{table['code']}").json()["hints"] is True


def test_hint_for_the_seat_to_act_lists_its_legal_actions(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN, HUMAN], seed=5)
    start(client, table)
    code = table["code"]
    t0, t1 = (s["token"] for s in table["seats"][:2])
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
        client.websocket_connect(f"/ws/{code}") as ws2,
    ):
        p0, p1, watcher = Peer(ws0), Peer(ws1), Peer(ws2)
        p0.hello(t0)
        p1.hello(t1)
        watcher.hello(None)
        state = p0.turn(0)
        p0.send({"type": "hint", "ref": "h1"})
        answer = p0.until(lambda m: m["type"] in ("hints", "error"))
        assert answer["type"] == "hints", answer
        assert answer["ref"] == "h1" and answer["version"] == state["version"]
        hints = answer["hints"]
        assert sorted(h["action"] for h in hints) == sorted(a["action"] for a in state["legal"])
        assert sum(h["best"] for h in hints) == 1
        for h in hints:
            assert math.isfinite(h["expected_points"]) and h["basis"]
        roll = next(h for h in hints if h["action"] == "roll")
        assert 0.0 <= roll["bust_chance"] <= 1.0
        quit_ = next(h for h in hints if h["action"] == "quit")
        assert quit_["exact"] is True and quit_["bust_chance"] is None
        # Not this seat's turn, and a spectator: refused, the sockets stay usable (D-6 turns).
        p1.send({"type": "hint", "ref": "h2"})
        assert p1.error() == {
            "type": "error",
            "code": "not_your_turn",
            "message": "hints are given when it is your turn",
            "version": state["version"],
            "ref": "h2",
        }
        watcher.send({"type": "hint"})
        assert watcher.error()["code"] == "spectator"
        p0.act("quit")
        assert p0.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        p1.send({"type": "ping"})
        assert p1.until(lambda m: m["type"] == "pong")


def test_hint_refused_in_a_game_without_hints(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN], game="express")
    start(client, table)
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        peer.send({"type": "hint", "ref": "x"})
        error = peer.error()
        assert error["code"] == "no_hints" and error["ref"] == "x"
        peer.send({"type": "hint", "ref": "y" * 33})
        assert peer.error()["code"] == "invalid"


def test_hint_panel_says_why_the_best_move_is_best(client: TestClient) -> None:
    # Two-player best moves are by margin and may cost more own points: the panel's legend
    # says so (EN and DE), instead of only "fewer is better" beside a higher value.
    js = client.get("/static/table/hints.js").text
    assert '"hints.best_margin"' in js and '"hints.best_points"' in js
    en = client.get("/static/i18n/en.json").json()
    de = client.get("/static/i18n/de.json").json()
    for key in ("hints.best_margin", "hints.best_points", "hints.note"):
        assert en[key] and de[key], key
    assert "minus yours" in en["hints.best_margin"]
    assert "cost a little more of your own points" in en["hints.best_margin"]
    assert "fewest expected points" in en["hints.best_points"]
    assert "minus deine" in de["hints.best_margin"]
    assert "wenigsten erwarteten Punkte" in de["hints.best_points"]
