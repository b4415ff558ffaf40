"""The state message's fast JSON (log entries serialised once) is the model's own JSON."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from web_helpers import FAST, Peer, create, live_table, make_client, start

from lamagames.web.schemas import StateMsg

CLOCK = re.compile(r',"remaining":[-+.e0-9]+')


@pytest.mark.parametrize("game", ["dice", "express"])
def test_state_json_is_model_dump_json_at_every_version(tmp_path: Path, game: str) -> None:
    """At every version of a game played past the event window (so entries leave the
    window), for every seat and for spectators, with a turn clock
    running: ``state_json`` is exactly ``state_message(...).model_dump_json()``, which is
    also what a connected player receives."""
    settings = replace(FAST, event_window=5)
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Ann"}] + [
        {"kind": "bot", "bot_kind": "random"} for _ in range(2)
    ]
    with make_client(tmp_path / "t.sqlite3", settings) as client:
        table = create(client, seats, game=game, seed=5, turn_clock=60)
        start(client, table)
        assert client.portal is not None
        live = live_table(client, table["code"])
        checked = 0
        with client.websocket_connect(f"/ws/{table['code']}") as ws:
            peer = Peer(ws)
            peer.hello(table["seats"][0]["token"])
            for _ in range(40):
                state = peer.turn(0)
                if state["status"] == "finished":
                    break

                def both(seat: int | None) -> tuple[str, str, str]:
                    # the clock's seconds left differ between the two calls
                    fast = live.state_json(seat)
                    message = live.state_message(seat)
                    slow = message.model_dump_json()
                    # the seats are built without validation (LiveSeat.out): the message
                    # validated from its own data gives the same JSON
                    valid = StateMsg.model_validate(message.model_dump()).model_dump_json()
                    return CLOCK.sub("", fast), CLOCK.sub("", slow), CLOCK.sub("", valid)

                for seat in (None, 0, 1, 2):
                    fast, slow, valid = client.portal.call(both, seat)
                    assert fast == slow == valid
                    assert '"events":[{' in fast and '"remaining"' not in fast
                    checked += 1
                peer.act()
        assert checked >= 40
        assert live.version > settings.event_window
        version, text = client.portal.call(lambda: (live.version, live.state_json(None)))
        sent = json.loads(text)["events"]
        assert [e["index"] for e in sent] == list(range(version - 5, version))





def _keep(kept: dict[int, dict[str, Any]], message: dict[str, Any]) -> None:
    kept.update((e["index"], e) for e in message["events"])


def _one_turn(player: Peer, kept: dict[int, dict[str, Any]], sizes: list[int]) -> None:
    """Seat 0 acts (unless it is not its turn); keep the log entries of every state
    message until its next turn."""
    if player.state is not None and 0 in player.state["acting"] and player.state["legal"]:
        player.act()
    while True:
        state = player.until(lambda m: m["type"] == "state")
        sizes.append(len(state["events"]))
        _keep(kept, state)
        if 0 in state["acting"] and state["legal"]:
            return


def test_later_state_messages_carry_only_the_new_log_entries(tmp_path: Path) -> None:
    """A connection's first state message carries the log window; the later ones the
    entries since the previous message (at least ``update_window``), so a client that keeps
    what it was sent has every entry, in order, for a player and for a watcher who came in
    mid-game (issue 16: every message resent the 60 latest entries)."""
    settings = replace(FAST, event_window=12, update_window=2)
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Ann"}] + [
        {"kind": "bot", "bot_kind": "random"} for _ in range(2)
    ]
    with make_client(tmp_path / "t.sqlite3", settings) as client:
        table = create(client, seats, seed=5, params={"end_score": 1000})
        start(client, table)
        code = table["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            player = Peer(ws)
            kept: dict[int, dict[str, Any]] = {}
            sizes: list[int] = []
            _keep(kept, player.hello(table["seats"][0]["token"]))
            _one_turn(player, kept, [])  # until the first turn
            for _ in range(10):
                _one_turn(player, kept, sizes)
            with client.websocket_connect(f"/ws/{code}") as watching:
                watcher = Peer(watching)
                first = watcher.hello(None)
                assert len(first["events"]) == settings.event_window
                seen: dict[int, dict[str, Any]] = {}
                _keep(seen, first)
                for _ in range(5):
                    _one_turn(player, kept, sizes)
                version = max(kept) + 1
                while max(seen) < version - 1:
                    _keep(seen, watcher.until(lambda m: m["type"] == "state"))
        assert sorted(kept) == list(range(version))  # no gap
        assert max(sizes) < settings.event_window and min(sizes) >= settings.update_window
        assert sorted(seen) == list(range(first["version"] - settings.event_window, version))
        assert all(kept[i] == e for i, e in seen.items())
