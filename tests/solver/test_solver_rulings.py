"""The solvers read D-10 row scores and D-4 chips from the rule primitives (issue 17: each
ruling written once): the tables they are built from agree with ``row_score``,
``chip_choices`` and ``chip_points`` everywhere they are used."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lamagames.dice import primitives
from lamagames.dice.actions import GIVE_BLACK, GIVE_WHITE, NUM_SYMBOLS
from lamagames.dice.game import DiceGame
from lamagames.dice.rules import STANDARD_DICE
from lamagames.dice.solver import LastStandingSolver, PositionError, kernel2p
from lamagames.dice.solver.last_standing import _kernel_inputs
from lamagames.dice.solver.space import (
    BUST_SCORES,
    PRESENCE_SCORES,
    SYMBOL_SCORES,
    TAKE_MASKS,
    check_give,
    give_choices,
    llama_mask,
    presence,
    roll_table,
    row_universe,
)
from lamagames.dice.solver.two_player import TwoPlayerSolver
from tests.dice.helpers import counts


@pytest.fixture(scope="module")
def own_solver() -> LastStandingSolver:
    """A solver of this module's own: its tables reach higher scores than the session's
    shared ``solver`` fixture, whose table sizes other tests rely on."""
    return LastStandingSolver()


def test_d10_presence_scores_are_row_score_of_every_universe_row() -> None:
    # D-10 counts each symbol a row holds once: the table by presence mask equals the
    # primitive on every row the solver covers, whatever the count of each symbol.
    u = row_universe()
    rows = u.rows.tolist()
    expected = [primitives.row_score(r) for r in rows]
    assert u.scores.tolist() == expected
    assert PRESENCE_SCORES[presence(u.rows)].tolist() == expected


def test_d10_a_row_scores_the_sum_of_its_symbols_points() -> None:
    # The two-player kernels sum SYMBOL_SCORES over the symbols a row holds: row_score
    # must add up that way for every set of symbols (D-10), or these kernels would differ.
    for mask in range(1 << NUM_SYMBOLS):
        held = [s for s in range(NUM_SYMBOLS) if mask >> s & 1]
        assert PRESENCE_SCORES[mask] == sum(int(SYMBOL_SCORES[s]) for s in held)


@pytest.mark.parametrize("mask", [0b0000001, 0b1000000, 0b0110101, 0b1111111])
def test_d8_4_bust_values_are_row_score_of_the_row_joined_by_the_llama_row(mask: int) -> None:
    u = row_universe()
    quit_values, bust_values = _kernel_inputs(u, mask)
    llama = np.array([mask >> s & 1 for s in range(NUM_SYMBOLS)], dtype=np.int64)
    for i in range(0, u.size, 97):  # every 97th row: all card counts and symbol sets
        row = u.rows[i]
        assert quit_values[i] == primitives.row_score(row.tolist())
        assert bust_values[i] == primitives.row_score((row + llama).tolist())


def test_d8_4_two_player_bust_scores_are_the_row_joined_by_the_llama_row() -> None:
    # kernel2p reads a bust's score here by the symbols of the row and of the llama row:
    # D-8.4 puts every llama-row card into the row, D-10 scores each symbol held once (a
    # number at its value, 10 for a llama).
    values = (1, 2, 3, 4, 5, 6, 10)
    for held in range(128):
        for cards in range(128):
            both = held | cards
            expected = sum(v for s, v in enumerate(values) if both >> s & 1)
            assert BUST_SCORES[held, cards] == expected, (held, cards)


@pytest.mark.parametrize("score", range(0, 45))
def test_d4_give_choices_are_the_chips_chip_choices_allows(score: int) -> None:
    choices = primitives.chip_choices(score)
    expected = [primitives.chip_points(GIVE_BLACK)] if choices & 1 else []
    expected += [primitives.chip_points(GIVE_WHITE)] if choices & 2 else []
    assert give_choices(score) == expected
    for chip in expected:
        assert check_give(score, chip) == chip
    assert check_give(score, 0) == 0  # declining is always allowed (D-8.1)


@pytest.mark.parametrize(("score", "chip", "message"), [
    (5, 10, "a chip of 10 points cannot be given back with score 5"),
    (20, 1, "a chip of 1 points cannot be given back with score 20"),
    (0, 1, "a chip of 1 points cannot be given back with score 0"),
    (12, 5, "chip must be 0, 1 or 10 points, got 5"),
    (12, True, "chip must be 0, 1 or 10 points, got True"),
    (12, "10", "chip must be 0, 1 or 10 points"),
])  # fmt: skip
def test_d4_check_give_refuses_a_chip_the_score_cannot_give(
    score: int, chip: object, message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        check_give(score, chip)


def test_d8_1_give_value_gives_the_chip_points_back(own_solver: LastStandingSolver) -> None:
    # A give-back lowers the score by the chip's points and counts them as given back.
    table = own_solver.table(counts("1L"), 23)
    row = counts("35")
    for chip in give_choices(23):
        assert table.give_value(row, 23, chip) == -chip + table.value(row, 23 - chip)
    with pytest.raises(PositionError, match="cannot be given back with score 20"):
        own_solver.table(counts("1L"), 20).give_value(row, 20, 1)


def test_d8_3_take_masks_are_the_shown_cards_still_in_the_llama_row() -> None:
    # D-8.3 from the rules text: a card may be taken when a die shows its symbol and it is
    # still in the llama row. The two-player solvers read their takes from this table.
    rolls = roll_table(DiceGame(num_players=2))
    for shown_counts in rolls.counts.tolist():
        shown = sum(1 << s for s in range(NUM_SYMBOLS) if shown_counts[s])
        for llama in range(1 << NUM_SYMBOLS):
            assert TAKE_MASKS[shown, llama] == shown & llama, (shown_counts, llama)


def test_d8_3_die_c_alone_shows_the_card_to_take() -> None:
    # A roll showing 1, 2 and 5 (the third symbol on the third die) beside a llama row
    # holding only the 5: the 5 may be taken.
    assert TAKE_MASKS[0b0010011, 0b0010000] == 0b0010000
    assert TAKE_MASKS[0b0000001, 0b1111110] == 0  # nothing shown is left: a bust (D-8.4)


def test_d9_empty_tables_of_the_two_player_kernels() -> None:
    # D-9: a row (capped counts, base 3) or llama row (bit mask) is empty without a card.
    assert kernel2p.EMPTY_PATTERNS.tolist() == [p == 0 for p in range(3**NUM_SYMBOLS)]
    assert kernel2p.EMPTY_MASKS.tolist() == [m == 0 for m in range(1 << NUM_SYMBOLS)]


# ---------------------------------------------------------------------------------------
# Independent oracles: positions small enough to solve from the rules text alone, with the
# D-2 / D-10 card values and the D-4 chips written here, not read from the primitives, so
# a broken primitive (a llama worth 20, a black chip worth 9) fails these solver tests
# even though the brute force over the engine (tests/solver/brute.py) breaks along with it.

#: D-2, D-10: a number scores its pips, a llama 10 (each symbol of a row once).
RULES_VALUES = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "L": 10}
#: D-4: a black chip is 10 points, a white one 1.
BLACK, WHITE = 10, 1
ORACLE = 1e-9


def _points(symbols: str) -> float:
    """D-10 score of a row holding ``symbols`` (each distinct symbol once)."""
    return float(sum(RULES_VALUES[s] for s in set(symbols)))


def _chips(score: int) -> list[int]:
    """Chips a seat with ``score`` points holds to give back (D-4): as many black as the
    tens, a white for each unit; 0 stands for giving none."""
    tens, units = divmod(score, 10)
    return [0] + ([BLACK] if tens else []) + ([WHITE] if units else [])


def _roll_chances(card: str, out: str) -> tuple[float, float, float]:
    """``(three llamas, a die shows card, else a die shows a symbol of out)`` over the 216
    equally likely rolls of the standard dice (D-1)."""
    p3 = match = shown = 0
    for roll in itertools.product(*STANDARD_DICE):
        if roll == ("L", "L", "L"):  # D-8.1
            p3 += 1
        elif card in roll:  # D-8.2
            match += 1
        elif any(s in roll for s in out):  # D-8.3 (a take unless last standing)
            shown += 1
    return p3 / 216, match / 216, shown / 216


def _last_standing_oracle(card: str, llama_row: str, top: int) -> list[float]:
    """Expected further points of a last player standing (D-8.5) holding one ``card``
    beside ``llama_row``, for scores ``0 .. top``: quit (D-7) and score the card; or roll:
    three llamas give a chip or none (D-8.1) and the player goes on; a match discards the
    card, the row is empty and the best chip goes back (D-8.2, D-9, D-10); anything else is
    a bust (D-8.4, D-8.5)."""
    p3, match, _ = _roll_chances(card, "")
    bust = _points(card + llama_row)
    values: list[float] = []
    for score in range(top + 1):
        empty = -float(max(_chips(score)))
        give = min((-c + values[score - c] for c in _chips(score) if c), default=np.inf)
        v = _points(card)
        for _ in range(200):  # contraction by p3 = 1/27
            v = min(_points(card), p3 * min(v, give) + match * empty + (1 - p3 - match) * bust)
        values.append(v)
    return values


@pytest.mark.parametrize(("card", "llama_row"), [("L", "6"), ("6", "1"), ("L", "1L")])
def test_last_standing_values_equal_an_oracle_from_the_rules_text(
    own_solver: LastStandingSolver, card: str, llama_row: str
) -> None:
    oracle = _last_standing_oracle(card, llama_row, 23)
    table = own_solver.table(counts(llama_row), 23)
    for score in range(24):
        assert table.value(counts(card), score) == pytest.approx(oracle[score], abs=ORACLE)


def _pair_oracle(card: str, llama_row: str) -> float:
    """Expected points of a last player standing (D-8.5) at score 0 holding two ``card``
    beside ``llama_row``: quit (D-10) or roll. Three llamas change nothing (no chip, D-8.1);
    a roll showing ``card`` once puts down one card (D-8.2) and leaves one ``card``; two
    dice showing it allow both cards, which empties the row (0 points, no chip to give,
    D-9, D-10); anything else is a bust (D-8.4, D-8.5)."""
    one = _last_standing_oracle(card, llama_row, 0)[0]
    p3 = two = single = 0
    for roll in itertools.product(*STANDARD_DICE):
        if roll == ("L", "L", "L"):
            p3 += 1
        elif roll.count(card) == 2:
            two += 1
        elif roll.count(card) == 1:
            single += 1
    bust = (216 - p3 - two - single) * _points(card + llama_row)
    v = _points(card)
    for _ in range(200):  # contraction by p3 = 1/27
        v = min(_points(card), (p3 * v + two * min(one, 0.0) + single * one + bust) / 216)
    return v


@pytest.mark.parametrize(("card", "llama_row"), [("L", "6"), ("6", "1")])
def test_d8_2_two_dice_showing_a_symbol_put_down_two_of_its_cards(
    own_solver: LastStandingSolver, card: str, llama_row: str
) -> None:
    table = own_solver.table(counts(llama_row), 0)
    assert table.value(counts(card * 2), 0) == pytest.approx(
        _pair_oracle(card, llama_row), abs=ORACLE
    )


def _two_player_oracle(cards: tuple[str, str], out: str, top: tuple[int, int]) -> float:
    """Margin of seat A to act (B's expected points of the round minus A's, both seats
    maximising their margin) when A holds one card, B one card, and the llama row the one
    card ``out``, scores ``top``. Every roll but three llamas ends the round: a match empties
    the roller's row (D-8.2, D-9, the best chip back, D-10), a take empties the llama row
    (D-8.3, D-9) and a bust joins it to the row (D-8.4), both leaving the roller the card and
    ``out``. Quitting (D-7) leaves the other seat the last player standing (D-8.5). Three
    llamas: a chip or none back (D-8.1), then the other seat acts."""
    alone = [_last_standing_oracle(cards[1 - a], out, top[1 - a]) for a in (0, 1)]
    chances = [_roll_chances(cards[a], out) for a in (0, 1)]
    grid = list(itertools.product(range(top[0] + 1), range(top[1] + 1)))
    w = {(a, sa, sb): 0.0 for a in (0, 1) for sa, sb in grid}
    for _ in range(300):  # contraction by p3
        for a, sa, sb in w:
            own, opp = (sa, sb) if a == 0 else (sb, sa)
            p3, match, _ = chances[a]
            gives = []
            for chip in _chips(own):
                below = (sa - chip, sb) if a == 0 else (sa, sb - chip)
                gives.append(chip - w[(1 - a, *below)])
            ends = match * (_points(cards[1 - a]) + max(_chips(own)))
            ends += (1 - p3 - match) * (_points(cards[1 - a]) - _points(cards[a] + out))
            roll = p3 * max(gives) + ends
            quit_ = alone[a][opp] - _points(cards[a])
            w[(a, sa, sb)] = max(quit_, roll)
    return w[(0, *top)]


@pytest.mark.parametrize("engine", ["compiled", "recursion"])
@pytest.mark.parametrize(("cards", "out", "scores"), [
    (("L", "3"), "6", (12, 3)),  # chips on both sides (D-4, D-8.1), a llama in a row
    (("6", "L"), "1", (0, 11)),  # busts worth rolling for (D-8.4), a white chip for B
])  # fmt: skip
def test_two_player_margin_equals_an_oracle_from_the_rules_text(
    own_solver: LastStandingSolver,
    engine: str,
    cards: tuple[str, str],
    out: str,
    scores: tuple[int, int],
) -> None:
    key = (tuple(counts(cards[0])), tuple(counts(cards[1])), llama_mask(counts(out)), *scores)
    exact = TwoPlayerSolver(own_solver, engine=engine).value(key)  # type: ignore[arg-type]
    assert exact.margin == pytest.approx(_two_player_oracle(cards, out, scores), abs=ORACLE)
