"""Every game with a batch engine agrees with its scalar engine step by step
(:func:`lamagames.core.testing.check_batch_engine`, as Pgx's ``api_test``)."""

from __future__ import annotations

import pytest

from lamagames.core.errors import ParameterError
from lamagames.core.testing import check_batch_engine

pytest.importorskip("numba")


@pytest.mark.parametrize("game_id", ["dice", "express"])
def test_batch_engine_agrees_with_scalar_engine(game_id: str) -> None:
    """D-1..D-11, E-1..E-12: traces, masks and states agree at every step, every player
    count and variant."""
    assert check_batch_engine(game_id, games=3, seed=1, max_steps=300) > 0


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ParameterError, match="no-such-game"):
        check_batch_engine("no-such-game")
