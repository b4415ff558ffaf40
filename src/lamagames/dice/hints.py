"""Hints for LAMA Dice: every legal action with its value from the exact solver.

``hints(state, player)`` lists the legal actions of the seat to act with

* ``expected_points``: the seat's expected further points of the round if it takes the
  action and then plays on optimally (D-10 row score at the round's end minus the points of
  chips given back from now on, D-8.1 / D-10; lower is better);
* ``margin`` (two players only): expected opponent points minus own points of the round
  (higher is better), the objective of the two-player solver;
* ``bust_chance`` (``roll`` only): the probability that the next roll is a bust
  (D-8.4, or D-8.5 for the last player standing);
* ``exact``: whether the value is exact, and ``basis`` saying where it comes from.

Exact values: the last player standing (D-8.5) always; two players with both still in when
the compiled solve fits :data:`HINT_MAX_WORK` (every fresh deal of a first round does; see
:mod:`lamagames.dice.solver.two_player`); quitting
(D-7, the own row is final) and the give-back after emptying the row (D-10) always. Other
values are *estimates*: the exact value of the position after the action (for ``roll``: after
the roll and the seat's best answer to it, under the real rules) as if every other seat quit
right then.

Scores beyond the last-standing solver's size budget (``LastStandingSolver.covers``: scores
0..99, so every end score up to 100 is exact) are valued at the highest covered score with
the same last digit (``90 + score % 10``): the same chips can be given back, up to nine
black ones in the round, so the value only differs if a tenth black chip would be given in
this round. Those values are labelled :data:`BASIS_CAPPED` (estimates), also for the last
player standing.

The best action is flagged: the fewest expected points, except with exact two-player values,
where it is the highest margin (opponent's expected points minus own), the two-player
solver's objective. That best move may cost a little more of the seat's own points when it
costs the opponent more.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from lamagames.core.errors import IllegalActionError
from lamagames.core.game import State
from lamagames.dice import primitives
from lamagames.dice.actions import (
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    NUM_SYMBOLS,
    QUIT,
    ROLL,
    TAKE_BASE,
    player_action_to_string,
)
from lamagames.dice.game import as_dice_state
from lamagames.dice.primitives import chip_points, row_score
from lamagames.dice.rules import (
    Phase,
    after_bust,
    after_discard,
    discard_codes,
)
from lamagames.dice.solver import LastStandingSolver, NotTractableError, bust_chance, get_solver
from lamagames.dice.solver.last_standing import LEVEL_BLOCK
from lamagames.dice.solver.space import give_choices, llama_mask, presence_row
from lamagames.dice.solver.two_player import Key, Outcome, TwoPlayerSolver
from lamagames.dice.state import DiceState

#: Largest compiled two-player solve (indices times score-level pairs; about 0.9 million
#: per second on one core, so at most about 15 s) a hint may start; larger positions get
#: the labelled estimate. A fresh deal at scores 0 is 1.3-1.7 million; every score level
#: of either seat's greedy chain multiplies it.
HINT_MAX_WORK: Final = 12_000_000
CHIPS: Final = {a: chip_points(a) for a in (GIVE_BLACK, GIVE_WHITE, GIVE_NONE)}  # D-4
# Basis labels are short (they fit an 80-column hint table); BASIS_NOTES explains them.
BASIS_LAST: Final = "exact: last standing"
BASIS_TWO: Final = "exact: two players"
BASIS_FINAL: Final = "exact: row is final"
BASIS_ESTIMATE: Final = "estimate: others quit"
BASIS_CAPPED: Final = "estimate: score cap"
#: What each basis label means, in a sentence (legends of the terminal hint table).
BASIS_NOTES: Final = {
    BASIS_LAST: "solved exactly: every other player has quit",
    BASIS_TWO: "solved exactly for both players",
    BASIS_FINAL: "the points are final (quitting, or the chip after emptying the row)",
    BASIS_ESTIMATE: "valued as if the other players quit right after this move",
    BASIS_CAPPED: (
        "the score is beyond the solver's budget (scores up to 99): valued at 90-99 "
        "(same last digit) as if the other players quit right after this move"
    ),
}


@dataclass(frozen=True)
class ActionHint:
    """One legal action and what it is worth (see the module docstring).

    Attributes:
        action: the action id; ``notation``: its notation (``roll``, ``discard 3 3``...).
        expected_points: expected further points of the round for the seat (lower is
            better), or ``None`` if unknown.
        margin: expected opponent minus own points (two players, exact), else ``None``.
        bust_chance: probability (0..1) that the next roll busts, for ``roll``; else ``None``.
        exact: the values are exact (solved to convergence), not estimates.
        basis: where the value comes from, a short label (:data:`BASIS_NOTES` explains it).
        best: this is the solver's choice among the listed actions: the fewest expected
            points, or the highest margin when exact two-player margins are given.
    """

    action: int
    notation: str
    expected_points: float | None
    margin: float | None
    bust_chance: float | None
    exact: bool
    basis: str
    best: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON-able dict with the attribute names as keys."""
        return {
            "action": self.action,
            "notation": self.notation,
            "expected_points": self.expected_points,
            "margin": self.margin,
            "bust_chance": self.bust_chance,
            "exact": self.exact,
            "basis": self.basis,
            "best": self.best,
        }


def hints(
    state: State, player: int, *, two_player_solver: TwoPlayerSolver | None = None
) -> list[ActionHint]:
    """Every legal action of ``player`` with its value (see the module docstring).

    Args:
        state: a LAMA Dice position.
        player: the seat asking; it must be the seat to act.
        two_player_solver: the two-player solver to ask; default a process-wide one per dice
            set limited to :data:`HINT_MAX_WORK` (it keeps its last tables, and solved
            tables are in the disk cache).

    Returns:
        One :class:`ActionHint` per legal action, in action-id order; exactly one is
        flagged ``best``.

    Raises:
        IllegalActionError: not a LAMA Dice state, or ``player`` has no decision now.
        PositionError: the position is outside what the solver covers (an impossible row).
    """
    s = as_dice_state(state)
    legal = s.legal_actions(player) if type(player) is int and player >= 0 else []
    if not legal or player != s.current_player():
        raise IllegalActionError(f"seat {player!r} has no decision to hint in this position")
    solver = get_solver(tuple(s.game.dice))
    n = s.game.num_players
    others_in = [i for i in range(n) if i != player and not s.quit[i]]
    row = tuple(s.rows[player])
    score = s.scores[player]
    if s.phase == Phase.GIVE_EMPTY:  # D-10: the round is over, the chip is all that is left
        out = [_hint(a, 0.0 - CHIPS[a], None, None, True, BASIS_FINAL) for a in legal]
        return _flag_best(out, by_margin=False)
    bust = bust_chance(solver.rolls, row, s.llama_row, last_standing=not others_in)
    if n == 2 and others_in:
        two = two_player_solver or _shared_two_player(solver.dice)
        # Too large to solve exactly: fall through to the labelled one-player estimate.
        with contextlib.suppress(NotTractableError):
            return _two_player_hints(s, player, legal, two, bust)
    # Beyond the size budget of the last-standing tables: the capped score (module doc).
    table_score = value_score(solver, score)
    exact = not others_in and table_score == score
    basis = BASIS_CAPPED if table_score != score else BASIS_LAST if exact else BASIS_ESTIMATE
    out = []
    for action in legal:
        value = _solo_value(s, player, action, row, table_score)
        if action == QUIT:
            out.append(_hint(action, value, None, None, True, BASIS_FINAL))
        else:
            chance = bust if action == ROLL else None
            out.append(_hint(action, value, None, chance, exact, basis))
    return _flag_best(out, by_margin=False)


def value_score(solver: LastStandingSolver, score: int) -> int:
    """The score at which the last-standing tables value a position: ``score`` itself
    within the solver's size budget, else the highest covered score with the same last
    digit (the same chips to give back, up to nine black ones; see the module docstring)."""
    if solver.covers(score):
        return score
    top = solver.max_levels - solver.max_levels % LEVEL_BLOCK
    return top - LEVEL_BLOCK + score % LEVEL_BLOCK


@lru_cache(maxsize=4)
def _shared_two_player(dice: tuple[str, ...]) -> TwoPlayerSolver:
    """A process-wide two-player solver per dice set, limited to :data:`HINT_MAX_WORK`."""
    return TwoPlayerSolver(get_solver(dice), max_work=HINT_MAX_WORK)


def _hint(
    action: int,
    points: float | None,
    margin: float | None,
    bust: float | None,
    exact: bool,
    basis: str,
) -> ActionHint:
    return ActionHint(action, player_action_to_string(action), points, margin, bust, exact, basis)


def _flag_best(out: list[ActionHint], *, by_margin: bool) -> list[ActionHint]:
    def key(h: ActionHint) -> float:
        if by_margin:
            return -(h.margin if h.margin is not None else float("-inf"))
        return h.expected_points if h.expected_points is not None else float("inf")

    best = min(range(len(out)), key=lambda i: key(out[i]))
    return [ActionHint(**{**h.__dict__, "best": i == best}) for i, h in enumerate(out)]


def _solo_value(s: DiceState, player: int, action: int, row: tuple[int, ...], score: int) -> float:
    """Value of ``action`` by the last-standing tables (exact when the others have quit)."""
    solver = get_solver(tuple(s.game.dice))
    mask = llama_mask(s.llama_row)
    if action == QUIT:
        return float(row_score(row))
    if action == ROLL:
        if primitives.is_last_standing(s.quit, player):  # D-8.5
            return solver.table(mask, score).roll_value(row, score)
        return _roll_estimate(s, row, score)
    if s.phase == Phase.DISCARD:
        after = after_discard(row, action)  # D-8.2
        return solver.table(mask, score).after_discard_value(after, score)
    if s.phase == Phase.TAKE:
        return _take_value(solver, row, mask, action - TAKE_BASE, score)
    if s.phase == Phase.GIVE_LLAMAS:
        return solver.table(mask, score).give_value(row, score, CHIPS[action])
    raise IllegalActionError(f"no hint for {player_action_to_string(action)!r} here")


def _key(s: DiceState, player: int) -> Key:
    other = 1 - player
    return (
        tuple(s.rows[player]),
        tuple(s.rows[other]),
        llama_mask(s.llama_row),
        s.scores[player],
        s.scores[other],
    )


def _roll_estimate(s: DiceState, row: tuple[int, ...], score: int) -> float:
    """Roll with others still in: the next roll resolved under the real rules (D-8.1 ..
    D-8.4, takes allowed), each result valued as if every other seat quit right after it."""
    solver = get_solver(tuple(s.game.dice))
    mask = llama_mask(s.llama_row)
    table = solver.table(mask, score)
    total = 0.0
    llama = [mask >> k & 1 for k in range(NUM_SYMBOLS)]
    for counts, p in zip(solver.rolls.counts.tolist(), solver.rolls.probs.tolist(), strict=True):
        a, b, c = (k for k in range(NUM_SYMBOLS) for _ in range(counts[k]))
        result = primitives.roll_result(row, llama, a, b, c, False)  # D-8, takes allowed
        if result == primitives.THREE_LLAMAS:  # D-8.1: a chip or none, then the same seat
            chips = [0, *give_choices(score)]  # D-4: from chip_choices and chip_points
            value = min(table.give_value(row, score, chip) for chip in chips)
        elif result == primitives.MATCH:  # D-8.2
            code = primitives.max_discard(row, a, b, c)
            value = min(
                table.after_discard_value(primitives.discard(row, sub), score)
                for sub in discard_codes(code)
            )
        elif result == primitives.TAKE:  # D-8.3
            takes = [k for k in range(NUM_SYMBOLS) if primitives.can_take(llama, a, b, c, k)]
            value = min(_take_value(solver, row, mask, k, score) for k in takes)
        else:  # D-8.4
            value = float(primitives.row_score(after_bust(row, llama)))
        total += p * value
    return total


def _take_value(
    solver: LastStandingSolver, row: tuple[int, ...], mask: int, symbol: int, score: int
) -> float:
    """After taking llama-row card ``symbol`` (D-8.3), as if the others quit now."""
    new_row, new_llama = primitives.take(row, presence_row(mask), symbol)
    if primitives.is_empty(new_llama):  # D-9: the llama row is empty, the round ends
        return float(row_score(new_row))
    new_mask = llama_mask(new_llama)
    return solver.table(new_mask, score).value(new_row, score)


def _two_player_hints(
    s: DiceState, player: int, legal: list[int], two: TwoPlayerSolver, bust: float
) -> list[ActionHint]:
    row = tuple(s.rows[player])
    key = _key(s, player)
    out = []
    for action in legal:
        outcome: Outcome
        if s.phase == Phase.TURN:
            outcome = two.roll_outcome(key) if action == ROLL else two.quit_outcome(key)
        elif s.phase == Phase.DISCARD:
            outcome = two.discard_outcome(key, after_discard(row, action))  # D-8.2
        elif s.phase == Phase.TAKE:
            outcome = two.take_outcome(key, action - TAKE_BASE)
        else:  # Phase.GIVE_LLAMAS
            outcome = two.give_outcome(key, CHIPS[action])
        chance = bust if action == ROLL else None
        out.append(_hint(action, outcome.own, outcome.margin, chance, True, BASIS_TWO))
    return _flag_best(out, by_margin=True)
