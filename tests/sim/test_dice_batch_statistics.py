"""Benchmark self-play statistics of the batch engine match the scalar engine.

Independent seeds on each side; every figure must agree within 4 standard errors of the
difference (a false alarm has odds below 1 in 15,000 per figure). Modest sizes here; the
big comparison is ``benchmarks/bench_batch_dice.py --compare``.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

from lamagames.bots.base import make_bot
from lamagames.core.registry import make
from lamagames.dice import batch
from lamagames.dice.game import as_dice_state
from lamagames.sim.runner import play_game


def _scalar_figures(players: int, games: int) -> dict[str, npt.NDArray[np.float64]]:
    game = make("dice", num_players=players)
    rounds, per_round, win0, win_last = [], [], [], []
    for seed in range(games):
        bots = [make_bot("benchmark", game, seat, seed) for seat in range(players)]
        state = as_dice_state(play_game(game, bots, seed + 10**6).state)
        points = np.array(state.round_points)
        rounds.append(len(points))
        per_round.append(points.sum() / points.size)
        returns = state.returns()
        win0.append(returns[0])
        win_last.append(returns[-1])
    return {
        "rounds": np.array(rounds, dtype=float),
        "points_per_round": np.array(per_round),
        "win_seat_0": np.array(win0),
        "win_last_seat": np.array(win_last),
    }


def _batch_figures(players: int, games: int) -> dict[str, npt.NDArray[np.float64]]:
    params = batch.check_params(players, {})
    results = batch.play(np.arange(games, dtype=np.uint64), ["benchmark"] * players, params)
    rounds = results.length.astype(float)
    return {
        "rounds": rounds,
        "points_per_round": results.extra["round_points"].sum(axis=1) / (rounds * players),
        "win_seat_0": results.wins[:, 0].astype(float),
        "win_last_seat": results.wins[:, -1].astype(float),
    }


@pytest.mark.parametrize(("players", "scalar_games"), [(2, 300), (4, 300)])
def test_benchmark_self_play_matches_scalar_within_4_standard_errors_d11(
    players: int, scalar_games: int
) -> None:
    scalar = _scalar_figures(players, scalar_games)
    fast = _batch_figures(players, 20_000)
    for name, values in scalar.items():
        other = fast[name]
        se = math.sqrt(values.var(ddof=1) / len(values) + other.var(ddof=1) / len(other))
        gap = abs(values.mean() - other.mean())
        assert gap <= 4 * se, f"{name}: scalar {values.mean():.4f}, batch {other.mean():.4f}"


def test_batch_deal_draw_follows_the_scalar_deal_probabilities_d5() -> None:
    """D-5 has two forms: the scalar engine lists every hand with its probability
    (``rules.deal_outcomes``), the batch engine samples one (``batch_kernel.draw_hand``).
    The sampled first hands must follow those probabilities: the llamas and the distinct
    numbers in seat 0's hand, chi-square at the 0.1% level (fixed seeds: no flakiness)."""
    from lamagames.dice.actions import HAND_ID, HANDS
    from lamagames.dice.rules import DECK_CARDS, deal_outcomes

    games = 20_000
    states = batch.init(np.arange(games), {"num_players": 3})
    batch.step(states, np.full(games, -1))  # the first deal chance node: seat 0's hand
    hands = states.rows[:, 0, :]
    expected_llamas = np.zeros(7)
    expected_distinct = np.zeros(7)
    hand_of = {HAND_ID[hand]: hand for hand in HANDS}
    for hand_id, p in deal_outcomes(DECK_CARDS):
        hand = hand_of[hand_id]
        expected_llamas[hand[6]] += p
        expected_distinct[sum(1 for k in hand[:6] if k)] += p
    for observed, expected in (
        (np.bincount(hands[:, 6], minlength=7), expected_llamas),
        (np.bincount((hands[:, :6] > 0).sum(axis=1), minlength=7), expected_distinct),
    ):
        keep = expected * games >= 5  # chi-square needs expected counts of at least 5
        e = expected[keep] * games
        o = observed[keep]
        chi2 = float(((o - e) ** 2 / e).sum())
        assert observed[~keep].sum() <= 5 + expected[~keep].sum() * games * 3
        # 0.1% critical values of chi-square for 1..6 degrees of freedom
        critical = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46}
        assert chi2 < critical[int(keep.sum()) - 1], (chi2, o.tolist(), e.tolist())
