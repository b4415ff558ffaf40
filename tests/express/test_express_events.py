"""Lama Express events: one test per event kind (with the ruling it tells) and a Hypothesis
property that the events of random games agree with the state changes."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lamagames.core.events import Event
from lamagames.core.game import Termination
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.events import (
    Boarded,
    Chance,
    Detoured,
    Exited,
    ExpressEventKind,
    GameEnded,
    NoMove,
    Passed,
    Reboarded,
    Rolled,
    TrainMoved,
    WindowOpened,
    events,
)
from lamagames.express.rules import WindowStage

from .conftest import TINY_BOARD


def step(state: ExpressState, notation: str, seat: int | None = None) -> list[Event]:
    """Apply one step in notation (``"roll R"`` at a chance node) and return its events."""
    action = state.string_to_action(notation, seat)
    before = state.clone()
    state.apply_action(action, seat)
    return events(before, action, seat, state)


def test_e6_roll_names_the_roller_and_a_chosen_move(std2: ExpressGame) -> None:
    state = std2.new_initial_state()
    assert step(state, "roll R") == [Rolled(0, "R", 1)]
    # R is next at space 8: train A goes 0 -> 8 (E-6); both trains could move, A was chosen.
    assert step(state, "move A") == [TrainMoved(0, "A", 0, 8, 8, True)]


def test_e6_forced_move_when_only_one_train_can_move(std2: ExpressGame) -> None:
    # A (tip 10) has one free space ahead of B's last car (space 11): G is too far for A.
    state = std2.build_state(trains={"A": 10, "B": 18})
    assert step(state, "roll G") == [Rolled(0, "G", 1), TrainMoved(0, "B", 18, 20, 2, False)]


def test_e6_no_move_when_neither_train_can_move() -> None:
    state = ExpressGame(num_players=2, board=TINY_BOARD).new_initial_state()
    assert step(state, "roll P") == [Rolled(0, "P", 1), NoMove(0, "P")]


def test_e9_window_after_the_roll_lists_the_chances(std2: ExpressGame) -> None:
    # Car A3 stands on yellow's boarding space 0 (tip 5).
    state = std2.build_state(trains={"A": 5})
    got = step(state, "roll O")
    assert got == [
        Rolled(0, "O", 1),
        WindowOpened(WindowStage.AFTER_ROLL, (Chance(0, ("board A3",)),)),
    ]


def test_e7_board(std2: ExpressGame) -> None:
    state = std2.build_state(trains={"A": 5})
    step(state, "roll O")
    assert step(state, "board A3") == [Boarded(0, "A", 3, 0, 3)]


def test_e7_pass_names_the_missed_chances(std2: ExpressGame) -> None:
    state = std2.build_state(trains={"A": 5})
    step(state, "roll O")
    assert step(state, "pass") == [Passed(0, ("board A3",))]


def test_e7_e8_exit_after_the_lap(std2: ExpressGame) -> None:
    # Car A3 on yellow's exit space 45 (tip 2) with a yellow llama that has ridden 45 spaces.
    state = std2.build_state(trains={"A": 2}, cars={"A3": 0})
    step(state, "roll O")
    assert step(state, "exit A3") == [Exited(0, "A", 3, 45, 1, 4)]


def test_e10_the_last_exit_ends_the_game(std2: ExpressGame) -> None:
    state = std2.build_state(trains={"A": 2}, cars={"A3": 0}, houses=[3, 0])
    step(state, "roll O")
    got = step(state, "exit A3")
    assert got == [Exited(0, "A", 3, 45, 4, 4), GameEnded(Termination.GOAL, (0,), (4, 0), 1)]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


def test_e7_detour_names_owner_and_footpath(std2: ExpressGame) -> None:
    # Car A3 on the white arrow at 6 (tip 11) carries a green llama; yellow may detour it.
    state = std2.build_state(trains={"A": 11}, cars={"A3": 1})
    step(state, "roll O")
    assert step(state, "detour A3", 0) == [Detoured(0, 1, "A", 3, 0, 6, 3)]


def test_e7_reboard_from_the_front_of_the_footpath(std2: ExpressGame) -> None:
    # Car A3 on re-boarding space 3 (tip 8); a green llama waits on footpath 0.
    state = std2.build_state(trains={"A": 8}, footpaths={0: [1]})
    step(state, "roll O")
    assert step(state, "reboard A3", 1) == [Reboarded(1, "A", 3, 0, 6, 3)]


def test_e11_turn_limit_ends_without_a_winner() -> None:
    state = ExpressGame(num_players=2, board=TINY_BOARD, turn_limit=1).new_initial_state()
    got = step(state, "roll P")
    assert got[-1] == GameEnded(Termination.TURN_LIMIT, (), (0, 0), 1)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == Termination.TURN_LIMIT


def test_events_to_json_is_plain_json(std2: ExpressGame) -> None:
    state = std2.build_state(trains={"A": 5})
    got = [e.to_json() for e in step(state, "roll O")]
    assert got == [
        {"kind": "roll", "seat": 0, "colour": "O", "roll": 1},
        {
            "kind": "window",
            "stage": "after_roll",
            "chances": [{"seat": 0, "actions": ["board A3"]}],
        },
    ]


def test_every_event_kind_has_an_event_class() -> None:
    classes: list[type[Event]] = [Rolled, TrainMoved, NoMove, WindowOpened, Passed, Boarded]
    classes += [Exited, Detoured, Reboarded, GameEnded]
    assert {c.kind for c in classes} == set(ExpressEventKind)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), num_players=st.integers(2, 4))
def test_events_of_random_games_agree_with_the_state_change(seed: int, num_players: int) -> None:
    """Tips change exactly with a TrainMoved (from/to as in the states); houses with Exited;
    waiting llamas with Boarded; footpath llamas with Detoured minus Reboarded; a Rolled by
    the active player at each chance node; GameEnded exactly when the game ends."""
    rng = random.Random(seed)
    state = ExpressGame(num_players=num_players, turn_limit=150).new_initial_state()
    n = num_players
    while not state.is_terminal():
        chance = state.is_chance_node()
        player = None if chance else rng.choice(state.acting_players())
        legal = state.legal_actions(player)
        action = state.sample_chance_outcome(rng) if chance else rng.choice(legal)
        after = state.child(action, player)
        got = events(state, action, player, after)
        kinds = [e.kind for e in got]
        moves = [e for e in got if isinstance(e, TrainMoved)]
        changed = [t for t in range(2) if state.train_tip(t) != after.train_tip(t)]
        assert [("AB"[t], state.train_tip(t), after.train_tip(t)) for t in changed] == [
            (m.train, m.from_tip, m.to_tip) for m in moves
        ]
        for seat in range(n):
            exits = sum(1 for e in got if isinstance(e, Exited) and e.seat == seat)
            boards = sum(1 for e in got if isinstance(e, Boarded) and e.seat == seat)
            assert after.house_llamas(seat) - state.house_llamas(seat) == exits
            assert state.waiting_llamas(seat) - after.waiting_llamas(seat) == boards
        walkers = sum(len(state.footpath_llamas(i)) for i in range(len(state.board.footpaths)))
        walkers_after = sum(
            len(after.footpath_llamas(i)) for i in range(len(after.board.footpaths))
        )
        detours = sum(1 for e in got if isinstance(e, Detoured))
        reboards = sum(1 for e in got if isinstance(e, Reboarded))
        assert walkers_after - walkers == detours - reboards
        assert (ExpressEventKind.ROLL in kinds) == chance
        if chance:
            assert got[0] == Rolled(state.active_player(), after.die() or "", after.rolls())
        assert (ExpressEventKind.GAME_END in kinds) == after.is_terminal()
        for event in got:
            assert json.loads(json.dumps(event.to_json()))["kind"] == event.kind.value
        state = after
