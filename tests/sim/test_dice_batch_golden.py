"""The LAMA Dice batch engine against the golden playthrough file (issue 17).

The batch engine's agreement tests compare it with the scalar engine; since both now call
the same rule primitives, a broken primitive breaks both alike and those tests still pass.
This test holds the batch step path and its in-kernel ``benchmark`` policy to the fixed text
of ``tests/golden/dice_playthrough.txt`` instead (three ``benchmark`` bots, custom dice, rulings
D-1 .. D-11): every chance outcome and action of the file is stepped through ``batch.step``,
the legal actions at each decision must be the file's, the policy must choose the file's
action, and the final scores must be the file's.
"""

from __future__ import annotations

import numpy as np

from lamagames.core.game import TERMINAL_PLAYER
from lamagames.dice import batch
from lamagames.dice.actions import player_action_to_string
from tests.dice.helpers import golden_playthrough


def test_batch_step_path_plays_the_golden_game() -> None:
    params, steps, final_scores = golden_playthrough()
    states = batch.init([0], dict(params))
    policies = ["benchmark"] * int(params["num_players"])  # type: ignore[call-overload]
    decisions = 0
    for player, action, legal in steps:
        assert int(batch.current_player(states)[0]) == player
        if player >= 0:
            mask = batch.legal_mask(states)[0]
            shown = [player_action_to_string(int(a)) for a in np.flatnonzero(mask)]
            assert sorted(shown) == sorted(legal or [])  # D-6 .. D-10, as in the file
            assert int(batch.policy_actions(states, policies)[0]) == action
            decisions += 1
        batch.step(states, np.array([action]))
    assert decisions > 100
    assert int(batch.current_player(states)[0]) == TERMINAL_PLAYER  # over (D-11)
    assert states.scores[0].tolist() == final_scores


def test_batch_play_wins_are_the_lowest_scores_d11() -> None:
    """Whole kernel games: a seat wins exactly when no seat has fewer points (D-11, ties
    all win), checked against the final scores here, not against the scalar engine (which
    shares the primitive)."""
    params = batch.check_params(3, {"end_score": 15})
    results = batch.play(np.arange(300, dtype=np.uint64), ["benchmark"] * 3, params)
    ties = 0
    for scores, wins in zip(results.scores.tolist(), results.wins.tolist(), strict=True):
        assert wins == [1 if s == min(scores) else 0 for s in scores]
        ties += sum(wins) > 1
    assert ties > 0  # the rule's tie case is reached


def test_batch_game_ends_when_a_score_reaches_the_end_score_exactly_d11() -> None:
    """D-11: the game is over once a score has *reached* the end score, so a round that
    leaves a seat at exactly the end score ends it. Seed 2 of three ``benchmark`` seats with
    end score 15 is such a game (golden: two rounds, scores 11 15 5, seat 2 wins); and in
    300 games some end at exactly 15, none below it."""
    params = batch.check_params(3, {"end_score": 15})
    one = batch.play(np.array([2], dtype=np.uint64), ["benchmark"] * 3, params)
    assert one.finished.tolist() == [True]
    assert one.scores[0].tolist() == [11, 15, 5]
    assert int(one.length[0]) == 2  # over after the round that reached 15, not later
    assert one.wins[0].tolist() == [0, 0, 1]
    many = batch.play(np.arange(300, dtype=np.uint64), ["benchmark"] * 3, params)
    top = many.scores.max(axis=1)
    assert bool(many.finished.all()) and int(top.min()) >= 15
    assert int((top == 15).sum()) > 0  # the exact case is reached
