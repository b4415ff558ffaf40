"""Long invalid input is echoed in messages at most 60 characters long."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from typer.testing import Result

from lamagames.cli.session import interpret
from lamagames.core.errors import quoted
from lamagames.core.registry import make

Lama = Callable[..., Result]
LONG = "discard " + "3" * 500


def test_quoted_cuts_long_input() -> None:
    assert quoted("take 5") == "'take 5'"
    assert quoted("x" * 61) == f"{'x' * 60!r}... (61 characters)"
    assert quoted(7) == "7"


@pytest.mark.parametrize("game", ["dice", "express"])
def test_a_long_line_at_a_prompt_is_not_echoed_whole(game: str) -> None:
    state = make(game, num_players=2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    reply = interpret(LONG, state, player, state.legal_actions(player))
    assert reply.problem is not None and "(508 characters)" in reply.problem
    assert "3" * 61 not in reply.problem


def test_long_command_line_values_are_not_echoed_whole(lama: Lama) -> None:
    for args in (
        ["play", "dice", "--seats", "human," + "w" * 300],
        ["play", "dice", "--seats", "random,random", "--param", "k" * 300],
        ["play", "dice", "--seats", "random,random", "--param", "k" * 300 + "=1"],
    ):
        result = lama(*args)
        assert result.exit_code == 2, result.output
        flat = "".join(result.output.replace("│", "").split())
        assert "(300characters)" in flat and "w" * 61 not in flat and "k" * 61 not in flat
