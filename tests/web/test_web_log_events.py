"""The move log's events: every applied action carries the game's events as JSON (issue 7.2),
live and in replays; nothing in the web layer compares states."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create, start, wait_status

from lamagames import make
from lamagames.bots import make_bot
from lamagames.core.game import State
from lamagames.core.rng import make_rng
from lamagames.dice.events import events as dice_events
from lamagames.express.events import events as express_events
from lamagames.web.adapters import get_adapter

BOT = {"kind": "bot", "bot_kind": "random"}


def _steps(game_id: str, seed: int, **params: Any) -> list[tuple[State, int | None, int, State]]:
    """Every step of one seeded game of random bots: (before, player, action, after)."""
    game = make(game_id, **params)
    state = game.new_initial_state()
    bots = [make_bot("random", game, s, seed * 10 + s) for s in range(game.num_players)]
    out: list[tuple[State, int | None, int, State]] = []
    while not state.is_terminal() and len(out) < 3000:
        if state.is_chance_node():
            player, action = None, state.sample_chance_outcome(make_rng(seed, "c", len(out)))
        else:
            player = state.acting_players()[0]
            action = bots[player].step(state)
        after = state.child(action, player)
        out.append((state, player, action, after))
        state = after
    return out


@pytest.mark.parametrize(
    ("game_id", "function", "params"),
    [
        ("dice", dice_events, {"num_players": 3}),
        ("express", express_events, {"num_players": 2, "llamas_to_win": 3}),
    ],
)
def test_adapter_events_are_the_games_events_as_json(
    game_id: str, function: Any, params: dict[str, Any]
) -> None:
    adapter = get_adapter(game_id)
    kinds: set[str] = set()
    for before, player, action, after in _steps(game_id, 1, **params):
        got = adapter.events(before, player, action, after)
        assert got == [e.to_json() for e in function(before, action, player, after)]
        kinds.update(e["kind"] for e in got)
    assert "game_end" in kinds and "roll" in kinds


def tips(state: State) -> list[int]:
    return [train["tip"] for train in state.observation(0)["trains"]]


def test_express_log_has_every_roll_with_its_roller_and_every_train_move_E6() -> None:
    adapter = get_adapter("express")
    rolls = moves = forced = 0
    for before, player, action, after in _steps("express", 2, num_players=2, llamas_to_win=3):
        got = adapter.events(before, player, action, after)
        if player is None:  # a die roll: always told, with whose roll it was
            assert got[0]["kind"] == "roll"
            assert got[0]["seat"] == before.observation(0)["active_player"]
            rolls += 1
        if tips(before) != tips(after):
            move = [e for e in got if e["kind"] == "move"]
            assert len(move) == 1, got  # every train move is in the log, chosen or not
            moves += 1
            forced += not move[0]["chosen"]
    assert rolls > 10 and moves > 10 and forced > 0


def test_log_events_live_and_in_replay(client: TestClient) -> None:
    table = create(client, [BOT, BOT], seed=3)
    start(client, table)
    wait_status(client, table["code"], "finished")
    log = client.get(f"/api/tables/{table['code']}/replay").json()["events"]
    happened = [e for entry in log for e in entry["events"]]
    kinds = [e["kind"] for e in happened]
    assert kinds[0] == "deal" and "round_start" in kinds and "round_end" in kinds
    assert kinds[-1] == "game_end"
    start_of_round = next(e for e in happened if e["kind"] == "round_start")
    assert start_of_round == {"kind": "round_start", "round": 1, "starter": 0}
    rolls = [(entry, e) for entry in log for e in entry["events"] if e["kind"] == "roll"]
    assert rolls and all(entry["player"] == -1 and e["seat"] >= 0 for entry, e in rolls)
