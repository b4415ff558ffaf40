"""The game protocol for Lama Express: notation, errors, data round trips, records, views."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from lamagames.core import (
    CHANCE_PLAYER,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    make,
    record_from_state,
    replay,
)
from lamagames.express import ExpressGame, ExpressState, decode_free_action, free_action_id
from lamagames.express.actions import (
    KIND_DETOUR,
    MOVE_A,
    NUM_DISTINCT_ACTIONS,
    PASS,
    chance_to_string,
    player_action_to_string,
    string_to_chance,
    string_to_player_action,
)

from .conftest import Runner


def test_e1_notation_round_trips_for_every_id() -> None:
    seen = set()
    for action in range(NUM_DISTINCT_ACTIONS):
        text = player_action_to_string(action)
        assert string_to_player_action(text) == action
        seen.add(text)
    assert len(seen) == NUM_DISTINCT_ACTIONS
    assert [chance_to_string(c) for c in range(6)] == [f"roll {c}" for c in "ROYGBP"]
    assert all(string_to_chance(chance_to_string(c)) == c for c in range(6))
    assert player_action_to_string(free_action_id(KIND_DETOUR, 1, 5)) == "detour B5"
    assert decode_free_action(string_to_player_action("reboard A2")) == (3, 0, 2)
    assert string_to_player_action("  Exit   b2 ") == string_to_player_action("exit B2")


@pytest.mark.parametrize(
    "text", ["", "move", "move C", "exit B6", "exit B0", "exit", "board AA", "jump A1", "roll R"]
)
def test_e1_malformed_player_notation_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        string_to_player_action(text)


@pytest.mark.parametrize("text", ["roll", "roll X", "roll RR", "pass", "roll R G"])
def test_e1_malformed_chance_notation_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        string_to_chance(text)


def test_e6_notation_in_context(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    assert state.action_to_string(2) == "roll Y"
    assert state.string_to_action("roll Y") == 2
    with pytest.raises(InvalidActionError):
        state.string_to_action("move A")  # a chance node expects a roll
    with pytest.raises(InvalidActionError):
        state.action_to_string(6)
    run(state, "roll G")
    assert state.action_to_string(MOVE_A) == "move A"
    with pytest.raises(InvalidActionError):
        state.string_to_action("roll G")


@pytest.mark.parametrize("bad", [-1, NUM_DISTINCT_ACTIONS, 1.0, "1", None, True])
def test_e6_invalid_action_leaves_state_unchanged(
    std2: ExpressGame, run: Runner, bad: object
) -> None:
    state = std2.new_initial_state()
    run(state, "roll G")
    before = state.to_dict()
    with pytest.raises(InvalidActionError):
        state.apply_action(bad)  # type: ignore[arg-type]
    assert state.to_dict() == before
    chance = std2.new_initial_state()
    with pytest.raises(InvalidActionError):
        chance.apply_action(6)
    assert chance.to_dict() == std2.new_initial_state().to_dict()


def test_e7_illegal_action_leaves_state_unchanged(std2: ExpressGame, run: Runner) -> None:
    state = std2.build_state(trains={"A": 9, "B": 33}, cars={"A1": 1})
    run(state, "roll O")  # yellow may detour A1
    before = state.to_dict()
    for action, player in [
        (string_to_player_action("exit A1"), 0),
        (string_to_player_action("detour A1"), 1),  # own llama
        (MOVE_A, 0),  # not before the window closes
        (PASS, 1),  # green has nothing to pass on
        (PASS, 7),  # no such seat
        (3, CHANCE_PLAYER),
    ]:
        with pytest.raises(IllegalActionError):
            state.apply_action(action, player)
        assert state.to_dict() == before
    with pytest.raises(IllegalActionError):
        std2.new_initial_state().apply_action(0, 0)  # a seat at a chance node


def test_e11_to_dict_from_dict_round_trip(std4: ExpressGame, run: Runner) -> None:
    state = std4.build_state(trains={"A": 9, "B": 21}, cars={"A1": 2, "B1": 2}, active=1)
    run(state, "roll O", "pass", "detour A1")
    data = state.to_dict()
    json.dumps(data)
    again = std4.state_from_dict(copy.deepcopy(data))
    assert again == state and again.to_dict() == data
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    assert again.acting_players() == state.acting_players()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(phase="dance"), r"state\.phase"),
        (lambda d: d.update(extra=1), r"state\.extra"),
        (lambda d: d["trains"].update(B=3), r"state\.trains: trains at tips .* overlap"),
        (lambda d: d["trains"].update(A=48), r"state\.trains\.A: space 48 out of range"),
        (lambda d: d.update(stations=[3, 4]), r"seat 0 has 3 llamas in all"),
        (lambda d: d["cars"]["A"].__setitem__(0, {"owner": 0, "progress": 1}), r"progress"),
        (lambda d: d["cars"]["A"].__setitem__(0, {"owner": 5, "progress": 1}), r"no seat 5"),
        (lambda d: d.update(footpaths=[[]]), r"state\.footpaths: the board has 4"),
        (lambda d: d.update(phase="window"), r"state\.die"),
        (lambda d: d.update(phase="over"), r"needs a winner"),
        (lambda d: d.update(winner=0), r"state\.winner"),
    ],
)
def test_e11_from_dict_rejects_inconsistent_data(std2: ExpressGame, change, message) -> None:  # type: ignore[no-untyped-def]
    data = std2.new_initial_state().to_dict()
    change(data)
    with pytest.raises(RecordError, match=message):
        std2.state_from_dict(data)


def test_e9_from_dict_checks_the_window(std2: ExpressGame, run: Runner) -> None:
    state = std2.build_state(trains={"A": 9, "B": 33}, cars={"A1": 1})
    run(state, "roll O")
    data = state.to_dict()
    data["window"]["asked"] = 1  # green has no action
    with pytest.raises(RecordError, match=r"state\.window\.asked"):
        std2.state_from_dict(data)


def test_e9_record_with_live_actions_replays(std4: ExpressGame, run: Runner) -> None:
    state = std4.new_initial_state()
    run(state, "roll G", "move A")  # car A1 on yellow's boarding space
    run(state, "0: board A1")
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.rolls() % 6)
        else:
            players = state.acting_players()
            seat = players[-1]  # the last one: out of order when several may act
            state.apply_action(state.legal_actions(seat)[-1], seat)
    record = record_from_state(state, [(f"p{i}", "test") for i in range(4)], seed=1)
    again = replay(record)
    assert again == state


def test_e5_registry_and_params_are_json(std4: ExpressGame) -> None:
    game = make("express", num_players=3, starting_seat=2, llamas_to_win=3, turn_limit=50)
    assert isinstance(game, ExpressGame)
    params = json.loads(json.dumps(game.params))
    assert make("express", **params).params == game.params
    assert game.new_initial_state().active_player() == 2


def test_e1_observation_json_and_tensor(std4: ExpressGame, run: Runner) -> None:
    state = std4.build_state(trains={"A": 9, "B": 21}, cars={"A1": 2, "B1": 2}, active=1)
    run(state, "roll O")
    obs = state.observation(3)
    json.dumps(obs)
    assert obs["player"] == 3 and obs["phase"] == "window"
    assert obs["window"] == {"stage": "after_roll", "asked": 1, "passed": [], "acting": [1, 3, 0]}
    assert obs["trains"][0]["cars"][0] == {
        "car": 1,
        "space": 6,
        "llama": {"owner": 2, "colour": "green", "progress": 30},
    }
    assert obs["legal_actions"] == ["pass", "detour A1", "detour B1"]
    assert obs["die"] == "O" and obs["active_player"] == 1
    assert obs["waiting"] == [4, 4, 2, 4] and obs["houses"] == [0, 0, 0, 0]
    tensor = state.observation_tensor(3)
    assert tensor.dtype == np.float32 and tensor.shape == std4.info.observation_shape
    assert std4.info.observation_shape == (2 * 48 + 50 + 5 * 12 + 32,)
    assert tensor[9] == 1.0 and tensor[48 + 21] == 1.0  # tips
    # car A1: owner green is seat 2, relative to seat 3 that is slot (2 - 3) % 4 = 3
    assert list(tensor[96 : 96 + 5]) == [0, 0, 0, 1, pytest.approx(30 / 48)]
    other = state.observation_tensor(2)
    assert list(other[96 : 96 + 4]) == [1, 0, 0, 0]  # own llama in slot 0
    assert not np.array_equal(tensor, other)


def test_e6_legal_actions_mask(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    assert state.legal_actions_mask().shape == (6,)
    run(state, "roll G")
    mask = state.legal_actions_mask()
    assert mask.shape == (NUM_DISTINCT_ACTIONS,) and list(np.flatnonzero(mask)) == [1, 2]


def test_e6_clone_is_independent(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    run(state, "roll G")
    copy_ = state.clone()
    run(copy_, "move A")
    assert state.train_tip(0) == 0 and copy_.train_tip(0) == 3
    assert state.child(MOVE_A) == copy_
    assert isinstance(copy_, ExpressState)


def test_docs_observation_tensor_size_matches_the_engine() -> None:
    """docs/express.md states the standard board's tensor size and its layout table."""
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "express.md").read_text("utf-8")
    size = ExpressGame(num_players=2).info.observation_shape[0]
    assert size == 238
    assert f"**{size}** on the standard board" in docs
    rows = [line.split("|") for line in docs.splitlines() if line.startswith("| ")]
    sizes = [int(r[3]) for r in rows if r[3].strip().isdigit() and r[1].strip() != "block"]
    assert sum(sizes) == size
