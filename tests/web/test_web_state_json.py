"""The state message's fast JSON (log entries serialised once) is the model's own JSON."""

from __future__ import annotations

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
    window and the cache is pruned), for every seat and for spectators, with a turn clock
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
        assert len(live._log_texts) == settings.event_window


def test_log_json_follows_the_window_and_starts_again_on_new_entries(tmp_path: Path) -> None:
    """The kept log JSON slides with the window (entries dropped at the front, added at
    the back), and entries that are new objects (a table rebuilt from the database) are
    serialised again, never mixed with the old ones."""
    from lamagames.web.schemas import EventOut

    def log(first: int, last: int, by: str = "bot") -> list[EventOut]:
        return [EventOut(index=i, player=0, action=f"a{i}", by=by) for i in range(first, last)]

    def plain(events: list[EventOut]) -> str:
        return ",".join(e.model_dump_json() for e in events)

    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Ann"}]
    seats += [{"kind": "bot", "bot_kind": "random"}]
    with make_client(tmp_path / "t.sqlite3") as client:
        live = live_table(client, create(client, seats)["code"])
        history = log(0, 12)
        for end in range(0, 13):
            window = history[max(0, end - 5) : end]
            assert live._log_json(window) == plain(window)
        assert live._log_json(history[3:9]) == plain(history[3:9])  # back in time
        rebuilt = log(0, 12, by="human")  # same indices, other entries
        assert live._log_json(rebuilt[7:12]) == plain(rebuilt[7:12])
        assert live._log_json(rebuilt[8:12] + log(12, 13)) == plain(rebuilt[8:12] + log(12, 13))
        assert live._log_json([]) == ""
