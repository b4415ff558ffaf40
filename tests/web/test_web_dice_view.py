"""The LAMA Dice web view carries the legal actions of the seat to act (``turn_actions``),
so the renderer highlights matching and takeable cards from them instead of re-deriving
D-8.2 / D-8.3 in the browser (issue 17)."""

from __future__ import annotations

import random

from lamagames.core.registry import make
from lamagames.web.dice import DiceWebAdapter


def test_turn_actions_are_the_legal_actions_of_the_seat_to_act_for_everyone() -> None:
    adapter = DiceWebAdapter()
    rng = random.Random(11)
    state = make("dice", num_players=3).new_initial_state()
    seen = set()
    for _ in range(400):
        if state.is_terminal():
            break
        player = state.current_player()
        expected = (
            [state.action_to_string(a, player) for a in state.legal_actions()]
            if player >= 0
            else []
        )
        for viewer in (None, 0, 1, 2):
            assert adapter.view(state, viewer)["turn_actions"] == expected
        phase = adapter.view(state, None)["phase"]
        seen.add(phase)
        if phase == "discard":
            assert all(a.startswith("discard ") for a in expected) and expected
        if phase == "take":
            assert all(a.startswith("take ") for a in expected) and expected
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert {"discard", "take", "turn"} <= seen
