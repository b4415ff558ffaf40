"""LAMA Dice passes the public protocol conformance check (lamagames.core.testing)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lamagames.core import make
from lamagames.core.testing import check_random_playthrough


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_dice_conforms_to_the_protocol(seed: int, players: int) -> None:
    state = check_random_playthrough(make("dice", num_players=players), seed)
    assert state.is_terminal()


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_dice_conforms_to_the_protocol_thoroughly(seed: int, players: int) -> None:
    assert check_random_playthrough(make("dice", num_players=players), seed).is_terminal()
