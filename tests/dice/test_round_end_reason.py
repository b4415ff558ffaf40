"""round_end_reason(): why a round ended (D-9, D-8.4, D-8.5), checked over random games."""

from __future__ import annotations

import random

from lamagames.core import make
from lamagames.dice import DiceState, round_end_reason

from .helpers import act, make_state


def test_d9_round_end_reason_matches_the_position_after() -> None:
    seen: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        state = make("dice", num_players=2 + seed % 5).new_initial_state()
        assert isinstance(state, DiceState)
        while not state.is_terminal():
            player = state.current_player()
            action = (
                state.sample_chance_outcome(rng)
                if state.is_chance_node()
                else rng.choice(state.legal_actions())
            )
            after = state.child(action)
            reason = round_end_reason(state, player, action, after)
            ended = len(after.round_points) > len(state.round_points)
            assert (reason is not None) == ended
            # ``after`` may already be the next round's deal, so check ``state``.
            text = state.action_to_string(action)
            if reason == "bust":
                assert player < 0 and text.startswith("dice") and text != "dice L L L"
            elif reason == "emptied":
                assert text.startswith("discard")
                assert len(text.split()) - 1 == sum(state.rows[player])
            elif reason == "llama_row":
                assert text.startswith("take") and sum(state.llama_row) == 1
            elif reason == "all_quit":
                assert text == "quit" and sum(state.quit) == len(state.quit) - 1
            if reason:
                seen.add(reason)
            state = after
    assert seen >= {"bust", "emptied", "all_quit"}  # "llama_row": see the test below


def test_d9_round_end_reason_llama_row_emptied_by_a_take() -> None:
    state = make_state(["2 2", "1"], llama_row="L")
    act(state, "roll", "dice L 1 3")
    take = state.string_to_action("take L")
    after = state.child(take)
    assert round_end_reason(state, 0, take, after) == "llama_row"
