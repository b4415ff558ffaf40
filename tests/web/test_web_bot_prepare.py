"""The table driver tells its bots each new position (``Bot.prepare``, issue 18), so the
``exact`` bot can solve a round's deal while people think and during the bot pause."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from web_helpers import create, live_table, start, wait_status

from lamagames.bots import base
from lamagames.bots.base import RandomBot
from lamagames.core.game import State


class PrepareRecorder(RandomBot):
    """A random bot that records which seat was to act at each ``prepare`` and ``step``."""

    kind = "prepare-recorder"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.events: list[tuple[str, int]] = []

    def prepare(self, state: State) -> None:
        self.events.append(("prepare", state.current_player()))

    def step(self, state: State) -> int:
        self.events.append(("step", state.current_player()))
        return super().step(state)


def test_driver_prepares_its_bots_before_each_decision_and_while_others_act(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(base._REGISTERED, ("dice", PrepareRecorder.kind), PrepareRecorder)
    seats = [
        {"kind": "bot", "bot_kind": PrepareRecorder.kind},
        {"kind": "bot", "bot_kind": "random"},
    ]
    table = create(client, seats)
    start(client, table)
    wait_status(client, table["code"], "finished")
    bot = live_table(client, table["code"]).driver._bots[(0, PrepareRecorder.kind)]
    events = bot.events
    steps = [i for i, event in enumerate(events) if event[0] == "step"]
    assert steps
    for i in steps:  # told the very position it then decides on
        assert events[i - 1] == ("prepare", 0)
    assert ("prepare", 1) in events  # and the positions where the other seat acts
