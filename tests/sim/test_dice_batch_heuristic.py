"""The in-kernel ``heuristic`` policy makes exactly the decisions of DiceHeuristicBot.

Whole heuristic games of the compiled loop (:func:`batch.play_traced`) replay through the
scalar engine with :class:`DiceHeuristicBot` in the heuristic seats, every decision equal
(roll or quit with ``ROLL_MARGIN``, discards and takes with their tie-breaking, D-8.1 ..
D-8.5, D-10), for 2..6 players, mixed with the other policies, a dice variant (D-1) and a
short game. The step API's heuristic is checked against the bot in
``test_dice_batch_agreement.py`` (random scalar games reach many more positions).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest

from lamagames.bots.dice import DiceBenchmarkBot, DiceHeuristicBot
from lamagames.core.registry import make
from lamagames.dice import batch, batch_heuristic
from lamagames.dice.game import DiceGame, as_dice_state

#: (num_players, seat policies, extra parameters)
CASES = [
    (2, ["heuristic", "heuristic"], {}),
    (3, ["heuristic", "benchmark", "heuristic"], {"dice": ["LL1234", "LL3456", "LL1256"]}),
    (4, ["heuristic"] * 4, {"starting_seat": 3}),
    (5, ["heuristic", "random", "heuristic", "heuristic", "benchmark"], {"end_score": 25}),
    (6, ["heuristic"] * 6, {}),
]


@pytest.mark.parametrize(("players", "policies", "extra"), CASES)
def test_kernel_heuristic_replays_as_the_scalar_heuristic_bot_d8_d10(
    players: int, policies: list[str], extra: dict[str, object]
) -> None:
    params = batch.check_params(players, extra)
    seeds = np.arange(700 + 10 * players, 703 + 10 * players, dtype=np.uint64)
    results, trace = batch.play_traced(seeds, policies, params, capacity=6000)
    assert (trace.length <= 6000).all()
    game = make("dice", **params)
    for g in range(len(seeds)):
        state = as_dice_state(game.new_initial_state())
        bots = {
            s: (DiceHeuristicBot if p == "heuristic" else DiceBenchmarkBot)(game, s)
            for s, p in enumerate(policies)
            if p != "random"
        }
        for t in range(int(trace.length[g])):
            player, action = int(trace.player[g, t]), int(trace.action[g, t])
            assert state.current_player() == player, (g, t)
            if player in bots:
                assert bots[player].step(state) == action, (g, t)
            state.apply_action(action)
        assert state.is_terminal()
        assert state.scores == results.scores[g].tolist()


def test_roll_table_and_margin_are_the_bots_d1() -> None:
    """Same aggregated roll distribution, bit for bit, and the same roll margin."""
    for dice in (None, ["LL1234", "LL3456", "LL1256"]):
        game = DiceGame(num_players=3) if dice is None else DiceGame(num_players=3, dice=dice)
        rvec, rsym, rp = batch_heuristic.roll_table(game.roll_outcomes)
        bot_rolls = DiceHeuristicBot(game, 0)._rolls
        assert [tuple(v) for v in rvec.tolist()] == [v for v, _, _ in bot_rolls]
        assert [sorted(s) for s in rsym.tolist()] == [sorted(s) for _, s, _ in bot_rolls]
        assert rp.tolist() == [p for _, _, p in bot_rolls]
        assert abs(rp.sum() - 1.0) < 1e-12
    assert batch_heuristic.ROLL_MARGIN == DiceHeuristicBot.ROLL_MARGIN


def test_roll_value_memo_returns_exact_values() -> None:
    """The memo only saves time: memoised and fresh roll values are equal, also when the
    table is full (it then stops storing)."""
    game = DiceGame(num_players=3)
    rvec, rsym, rp = batch_heuristic.roll_table(game.roll_outcomes)
    memo, vals = batch_heuristic.new_memo(4)
    llama = np.ones(7, dtype=np.int8)
    rng = np.random.default_rng(5)
    for _ in range(20):
        row = rng.integers(0, 3, size=7).astype(np.int8)
        row[0] = 1
        for last in (False, True):
            for chip in (0, 1, 10):
                fresh = batch_heuristic.roll_value(row, llama, last, chip, rvec, rsym, rp)
                for _ in range(2):
                    got = batch_heuristic.memo_roll_value(
                        row, llama, last, chip, rvec, rsym, rp, memo, vals
                    )
                    assert got == fresh
    assert memo[-1] == 2  # half of the 4 slots
    with pytest.raises(ValueError, match="power of two"):
        batch_heuristic.new_memo(3)


def test_simulate_accepts_the_heuristic_seats() -> None:
    from lamagames.sim.batch_protocol import load_engine
    from lamagames.sim.simulate import make_configs, simulate

    configs = make_configs(load_engine("dice"), [3], ["heuristic"], [("", {})])
    summary, _ = simulate("dice", configs, games=50, seed=1)
    assert summary.to_dict()


def test_best_discard_is_the_largest_discard_d8_2_d10() -> None:
    """The in-kernel heuristic values a match by the largest legal discard alone
    (``_best_discard`` of :func:`~lamagames.dice.primitives.max_discard`): checked
    against the lowest static value over every legal discard of the scalar rules (D-8.2),
    for every row of at most 2 cards per symbol, every roll that matches it and a chip of
    0, 1 and 10 points (D-4, D-10: an emptied row)."""
    from itertools import product

    from lamagames.dice.actions import DISCARD_BASE, DISCARDS
    from lamagames.dice.primitives import max_discard, row_score
    from lamagames.dice.rules import legal_discards

    best = cast(Any, batch_heuristic._best_discard).py_func  # the very code, as Python
    checked = 0
    for counts in product(range(3), repeat=7):
        row = np.array(counts, dtype=np.int8)
        for a, b, c in product(range(7), repeat=3):
            if a > b or b > c or not (row[a] or row[b] or row[c]):
                continue
            lefts = [
                [r - d for r, d in zip(counts, DISCARDS[action - DISCARD_BASE], strict=True)]
                for action in legal_discards(counts, (a, b, c))
            ]
            for chip in (0, 1, 10):
                lowest = min(float(row_score(x)) if sum(x) else float(-chip) for x in lefts)
                got = best(row, max_discard(row, a, b, c), chip)
                assert got == lowest, (counts, (a, b, c), chip)
                checked += 1
    assert checked > 100_000
#: Hand-written points of the symbols (D-2, D-10) and the standard dice faces (D-1), for
#: the golden roll values below: written here, not read from the package, so that a broken
#: row score in the kernels cannot change both sides.
_POINTS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "L": 10}
_FACES = ("LL3456", "12LL56", "1234LL")


def _by_hand(row: str, llama: str, last: bool, chip: int) -> float:
    """One roll then stopping, by hand (the heuristic's roll value): three llamas a chip
    back (D-8.1); a match discards every card the dice allow (the lowest value, D-8.2); no
    match takes the cheapest llama-row card shown (D-8.3) unless last standing (D-8.5);
    else the llama row joins the row (D-8.4). A row scores each symbol once (D-10); an
    empty row is worth minus a chip."""

    def value(cards: list[str]) -> float:
        return float(sum(_POINTS[s] for s in set(cards))) if cards else float(-chip)

    total = 0.0
    for shown in ((a, b, c) for a in _FACES[0] for b in _FACES[1] for c in _FACES[2]):
        if shown == ("L", "L", "L"):
            result = value(list(row)) - chip
        elif any(s in row for s in shown):
            left = list(row)
            for s in shown:
                if s in left:
                    left.remove(s)
            result = value(left)
        elif not last and any(s in llama for s in shown):
            result = min(value([*row, s]) for s in shown if s in llama)
        else:
            result = value(list(row + llama))
        total += result / 216
    return total


@pytest.mark.parametrize(
    ("row", "llama", "last", "chip"),
    [
        ("L", "", True, 0),  # 10/3: a llama kept or discarded
        ("1", "56", False, 0),  # takes of a 5 or a 6, bust with both
        ("133L", "6", True, 10),  # discards leaving cards, a black chip, a bust of 20
        ("2446", "13L", False, 1),
    ],
)
def test_kernel_roll_value_equals_the_hand_computed_value_d8_d10(
    row: str, llama: str, last: bool, chip: int
) -> None:
    """The compiled heuristic's roll value (discards, takes and busts scored by the rule
    primitives) on fixed positions equals a value computed by hand with the points of
    D-10 written in the test: a broken ``row_score`` fails here even though the scalar
    bot, which uses the same primitive, would still agree with the kernel."""
    game = DiceGame(num_players=3)
    rvec, rsym, rp = batch_heuristic.roll_table(game.roll_outcomes)

    def counts(cards: str) -> np.ndarray:
        return np.array([cards.count(s) for s in "123456L"], dtype=np.int8)

    got = batch_heuristic.roll_value(counts(row), counts(llama), last, chip, rvec, rsym, rp)
    assert got == pytest.approx(_by_hand(row, llama, last, chip), abs=1e-12)
    if (row, llama) == ("L", ""):
        assert got == pytest.approx(10 / 3, abs=1e-12)


def _plain_roll_value(
    row: np.ndarray, llama: np.ndarray, last: bool, chip: int, rsym: np.ndarray, rp: np.ndarray
) -> float:
    """``roll_value`` as it read before its per-call tables of discard and take values:
    every roll's value worked out from the primitives, summed in the same order."""
    from lamagames.dice import primitives as p

    static = -chip if p.is_empty(row) else p.row_score(row)
    busted_row, busted_llama = list(row), list(llama)
    p.bust(busted_row, busted_llama)
    busted = float(p.row_score(busted_row))
    total = 0.0
    for r in range(rp.shape[0]):
        a, b, c = (int(x) for x in rsym[r])
        result = p.roll_result(row, llama, a, b, c, last)
        if result == p.THREE_LLAMAS:
            value = float(static - chip)
        elif result == p.MATCH:
            left = p.discard(row, p.max_discard(row, a, b, c))
            value = float(-chip) if p.is_empty(left) else float(p.row_score(left))
        elif result == p.TAKE:
            value = min(
                float(p.row_score(p.take(row, llama, s)[0]))
                for s in (a, b, c)
                if p.can_take(llama, a, b, c, s)
            )
        else:
            value = busted
        total += float(rp[r]) * value
    return total


def test_roll_value_tables_give_the_same_floats_as_rolls_valued_one_by_one() -> None:
    """``roll_value`` keeps the values of recent discard codes and of each take (issue 19:
    a third less interpreted work); on random rows and llama rows, compiled and
    interpreted, it equals every roll valued on its own bit for bit."""
    game = DiceGame(num_players=4)
    rvec, rsym, rp = batch_heuristic.roll_table(game.roll_outcomes)
    compiled = batch_heuristic.roll_value
    plain = cast(Any, batch_heuristic.roll_value).py_func  # the very code, as Python
    rng = np.random.default_rng(19)
    for _ in range(400):
        row = rng.integers(0, 4, size=7).astype(np.int8)
        llama = rng.integers(0, 2, size=7).astype(np.int8)
        last = bool(rng.integers(0, 2))
        chip = int(rng.choice([0, 1, 10]))
        want = _plain_roll_value(row, llama, last, chip, rsym, rp)
        assert compiled(row, llama, last, chip, rvec, rsym, rp) == want
        assert plain(row, llama, last, chip, rvec, rsym, rp) == want
