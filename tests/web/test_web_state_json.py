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
        sent = json.loads(client.portal.call(live.state_json, None))["events"]
        assert [e["index"] for e in sent] == list(range(live.version - 5, live.version))

