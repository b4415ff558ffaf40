"""Invariants of the LAMA Dice batch state under random play (Hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lamagames.dice import batch

#: Copies of each symbol among the 43 cards (D-3): llama row plus deck.
TOTAL = np.array([6, 6, 6, 6, 6, 6, 7])


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**63))
def test_cards_conserved_and_masks_match_the_seat_to_act_d3_d4(players: int, seed: int) -> None:
    params = batch.check_params(players, {"end_score": 15})
    states = batch.init(np.arange(seed, seed + 4, dtype=np.uint64), params)
    policies = ["random"] * players
    for _ in range(600):
        cards = states.llama_row + states.setaside + states.discards + states.rows.sum(axis=1)
        assert (cards == TOTAL).all()  # D-3: every card in exactly one place
        assert (states.scores >= 0).all()  # D-4: chips never go below zero
        current = batch.current_player(states)
        mask = batch.legal_mask(states)
        assert (mask.any(axis=1) == (current >= 0)).all()
        if states.is_terminal().all():
            break
        batch.step(states, batch.policy_actions(states, policies))
    over = states.is_terminal()
    assert (states.scores[over].max(axis=1) >= 15).all()  # D-11
