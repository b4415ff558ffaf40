"""core: Outcome/Termination (python-chess style) and the Event base's JSON."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from lamagames.core.events import Event
from lamagames.core.game import Outcome, State, Termination
from lamagames.dice import DiceGame


class _Kind(StrEnum):
    PING = "ping"


@dataclass(frozen=True, slots=True)
class _Inner:
    seat: int
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Ping(Event):
    kind: ClassVar[_Kind] = _Kind.PING
    seats: tuple[int, ...]
    how: Termination
    inner: _Inner


def test_event_to_json_converts_enums_tuples_and_nested_dataclasses() -> None:
    event = _Ping((1, 2), Termination.GOAL, _Inner(0, ("a",)))
    assert event.to_json() == {
        "kind": "ping",
        "seats": [1, 2],
        "how": "goal",
        "inner": {"seat": 0, "notes": ["a"]},
    }


def test_default_outcome_is_none_until_terminal_then_the_seats_with_returns() -> None:
    state = DiceGame(num_players=2, end_score=5).new_initial_state()
    rng = random.Random(4)
    assert State.outcome(state) is None
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(
            state.sample_chance_outcome(rng) if state.is_chance_node() else rng.choice(legal)
        )
    winners = tuple(s for s, r in enumerate(state.returns()) if r > 0)
    assert State.outcome(state) == Outcome(Termination.FINISHED, winners)
    assert state.outcome() == Outcome(Termination.END_SCORE, winners)
    assert Outcome(Termination.TURN_LIMIT, ()).to_json() == {
        "termination": "turn_limit",
        "winners": [],
    }
