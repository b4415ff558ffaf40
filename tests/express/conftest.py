"""Shared fixtures for the Lama Express tests: games on the standard and a small test board."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lamagames.express import ExpressGame, ExpressState

#: A 20-space test board (E-12 valid). Stations at 0, 5, 10, 15; purple only at 7 and 17, so a
#: purple roll blocks both trains in the setup position (A tip 0, B tip 10). Arrow 1 sends
#: llamas back to re-boarding space 16, *behind* yellow's exits 17..19 (E-8 test); arrow 11
#: re-boards at 6.
TINY_BOARD: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "tiny_board.json").read_text("utf-8")
)

Runner = Callable[..., None]


def run_steps(state: ExpressState, *steps: str) -> None:
    """Apply steps in notation: ``"roll B"`` (chance), ``"pass"`` / ``"move A"`` (current
    player) or ``"2: detour A1"`` (seat 2 acting, live play)."""
    for step in steps:
        seat: int | None = None
        text = step
        if ":" in step:
            head, text = step.split(":", 1)
            seat = int(head)
        state.apply_action(state.string_to_action(text.strip(), seat), seat)


@pytest.fixture
def run() -> Runner:
    """The :func:`run_steps` helper."""
    return run_steps


@pytest.fixture
def std2() -> ExpressGame:
    """Two players (yellow, green) on the standard board."""
    return ExpressGame(num_players=2)


@pytest.fixture
def std4() -> ExpressGame:
    """Four players (yellow, pink, green, blue) on the standard board."""
    return ExpressGame(num_players=4)


@pytest.fixture
def tiny2() -> ExpressGame:
    """Two players (yellow, green) on :data:`TINY_BOARD`."""
    return ExpressGame(num_players=2, board=TINY_BOARD)
