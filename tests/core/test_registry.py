"""The game registry: parameter names are checked and reported by name (never a TypeError)."""

from __future__ import annotations

from typing import Any

import pytest

from lamagames.core.errors import ParameterError
from lamagames.core.game import Game
from lamagames.core.registry import game_title, make, parameter_names, register


def test_parameter_names_come_from_the_factory_signature() -> None:
    assert parameter_names("dice") == ("num_players", "dice", "end_score", "starting_seat")
    assert parameter_names("express") == (
        "num_players", "colours", "starting_seat", "llamas_to_win", "board", "turn_limit",
    )  # fmt: skip
    assert game_title("dice") == "LAMA Dice"


@pytest.mark.parametrize("key", ["foo", "end_score_", "game_id", "factory"])
def test_unknown_parameter_is_named_with_the_known_ones(key: str) -> None:
    params: dict[str, Any] = {key: 1}
    with pytest.raises(ParameterError) as info:
        make("dice", **params)
    assert str(info.value) == (
        f"unknown parameter {key!r} for LAMA Dice; "
        "known: num_players, dice, end_score, starting_seat"
    )


def test_foreign_parameter_of_the_other_game_is_refused_by_name() -> None:
    with pytest.raises(ParameterError, match="unknown parameter 'end_score' for Lama Express"):
        make("express", end_score=50)
    with pytest.raises(ParameterError, match="unknown parameter 'llamas_to_win' for LAMA Dice"):
        make("dice", llamas_to_win=3)


def test_factory_with_kwargs_and_required_parameters() -> None:
    def picky(size: int) -> Game:
        raise ParameterError(f"size {size} is wrong")

    def loose(**params: Any) -> Game:
        raise TypeError(f"loose() got an unexpected keyword argument {next(iter(params))!r}")

    register("test-picky", picky, "Picky")
    register("test-loose", loose)
    with pytest.raises(ParameterError, match="missing parameter 'size' for Picky"):
        make("test-picky")
    with pytest.raises(ParameterError, match="size 3 is wrong"):
        make("test-picky", size=3)
    assert parameter_names("test-loose") is None
    with pytest.raises(ParameterError, match="bad parameters for test-loose"):
        make("test-loose", x=1)
