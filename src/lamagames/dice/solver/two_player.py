"""Exact round values of two-player LAMA Dice (D-1 .. D-10), where tractable.

**Objective.** For the seat to act, the *margin* ``W``: the expected points the opponent
scores in this round minus the expected points the seat scores (D-10 row scores at the round's
end, minus the points of chips given back from now on, D-8.1 / D-10). Both seats play to
maximise their own margin (a zero-sum game with chance), so ``W`` is the minimax value of the
rest of the round. Alongside ``W`` the solver carries the expected further points of each seat
under the same (first-best) policies, so hints can show points as well as the margin.

**Positions.**

* One seat has quit (D-7): the other is the last player standing (D-8.5); its expected points
  come from the exact :class:`~lamagames.dice.solver.last_standing.LastStandingTable`, the
  quitter's points are its row score. Exact for every position.
* Both seats still in, ``engine="compiled"`` (default): the compiled tables of
  :mod:`lamagames.dice.solver.pair_table` (Numba, disk cache). A table rooted at a position
  covers every position reachable from it at the root's level pair and one greedy
  give-back below; the solver keeps the last few tables and solves a new one when a query
  falls outside them. A fresh deal takes about 1.5 s (``benchmarks/bench_two_player.py``).
  A solve larger than ``max_work`` (indices times level pairs) or ``max_bytes`` raises
  :class:`NotTractableError`.
* Both seats still in, ``engine="recursion"``: the reference, an exact memoised recursion
  over ``(own row, opponent row, llama row, own score, opponent score)`` at the start of a
  turn. Every discard (D-8.2) or take (D-8.3) lowers ``2 * |llama row| + |row 1| + |row 2|``
  and every give-back (D-8.1) lowers a score, so the only cycle is three llamas without a
  give-back passing the turn back and forth; the two states of such a pair are solved
  together by value iteration of a contraction with factor ``P(three llamas)`` to
  ``1e-14``. It optimises over every give-back choice (the compiled tables give back
  greedily, which :func:`~lamagames.dice.solver.pair_table.greedy_chain` proves optimal).
  Pure Python (about 5,000 states per second); above ``max_states`` it raises
  :class:`NotTractableError` instead of guessing.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Final, Literal

from lamagames.core.errors import ParameterError, quoted
from lamagames.dice import primitives
from lamagames.dice.actions import NUM_SYMBOLS
from lamagames.dice.primitives import best_chip, row_score
from lamagames.dice.rules import (
    after_bust,
    discard_codes,
)
from lamagames.dice.solver.last_standing import LastStandingSolver, NotTractableError
from lamagames.dice.solver.pair_table import (
    Found,
    PairTable,
    solve_table,
    table_bytes,
    table_work,
)
from lamagames.dice.solver.space import (
    TAKE_MASKS,
    PositionError,
    as_int,
    check_copies,
    check_counts,
    check_give,
    give_choices,
    llama_mask,
    presence_row,
    symbols_of,
)

#: Default cap on distinct states of one recursion.
DEFAULT_MAX_STATES: Final = 200_000
#: Default cap on one compiled solve: indices times level pairs (about 0.9 million a second).
DEFAULT_MAX_WORK: Final = 500_000_000
#: Default cap on the value arrays of one compiled solve (bytes).
DEFAULT_MAX_BYTES: Final = 4 * 1024**3
#: Compiled tables kept in memory per solver.
MEMORY_PAIR_TABLES: Final = 4
#: Values closer than this (points) end the three-llama pair iteration.
PAIR_TOL: Final = 1e-14

Row = tuple[int, ...]
#: ``(own row, opponent row, llama row mask, own score, opponent score)``, own seat to act.
Key = tuple[Row, Row, int, int, int]


@dataclass(frozen=True)
class Outcome:
    """Value of a position or action for the seat to act (points of the round from now on).

    Attributes:
        margin: expected opponent points minus own points (the objective, maximised).
        own: expected own further points under the solved policies.
        other: expected opponent further points under the solved policies.
    """

    margin: float
    own: float
    other: float

    def swap(self) -> Outcome:
        """The same outcome seen by the other seat."""
        return Outcome(-self.margin, self.other, self.own)

    def shift_own(self, points: float) -> Outcome:
        """Add ``points`` to the own points (a chip given back is ``-chip``)."""
        return Outcome(self.margin - points, self.own + points, self.other)


def _end(own: float, other: float) -> Outcome:
    return Outcome(other - own, own, other)


def _best(options: list[Outcome]) -> Outcome:
    best = options[0]
    for o in options[1:]:
        if o.margin > best.margin + 1e-12:
            best = o
    return best


def _mix(parts: list[tuple[float, Outcome]]) -> Outcome:
    return Outcome(
        sum(p * o.margin for p, o in parts),
        sum(p * o.own for p, o in parts),
        sum(p * o.other for p, o in parts),
    )


@dataclass(frozen=True)
class _RowRolls:
    """Roll classes of a row: matching groups ``(probability, rows left by each legal
    discard)`` (D-8.2) and non-matching ``(probability, mask of the symbols shown)``."""

    matches: tuple[tuple[float, tuple[Row, ...]], ...]
    misses: tuple[tuple[float, int], ...]


class TwoPlayerSolver:
    """Exact two-player round values (see the module docstring).

    Args:
        last_standing: the one-player solver (its dice and disk-cache setting are used).
        max_states: most distinct states one query of the recursion may create before
            :class:`NotTractableError`.
        engine: ``"compiled"`` (tables, default) or ``"recursion"`` (the Python reference).
        max_work: most indices times level pairs of one compiled solve.
        max_bytes: most bytes of value arrays of one compiled solve.
        disk_cache: read and write compiled tables in the disk cache (default: as
            ``last_standing``); positions of a round rarely recur, so bots turn it off.

    Raises:
        ParameterError: (a ``ValueError``) ``last_standing`` is not a
            :class:`~lamagames.dice.solver.last_standing.LastStandingSolver`, ``engine`` is
            unknown, ``max_states``, ``max_work`` or ``max_bytes`` is not a positive
            integer, or ``disk_cache`` is neither ``None`` nor a bool.
    """

    def __init__(
        self,
        last_standing: LastStandingSolver,
        max_states: int = DEFAULT_MAX_STATES,
        engine: Literal["compiled", "recursion"] = "compiled",
        max_work: int = DEFAULT_MAX_WORK,
        max_bytes: int = DEFAULT_MAX_BYTES,
        disk_cache: bool | None = None,
    ) -> None:
        if not isinstance(last_standing, LastStandingSolver):
            raise ParameterError(
                f"last_standing must be a LastStandingSolver, got {quoted(last_standing)}"
            )
        if engine not in ("compiled", "recursion"):
            raise ParameterError(f"engine must be 'compiled' or 'recursion', got {quoted(engine)}")
        for name, limit in (("max_states", max_states), ("max_work", max_work),
                            ("max_bytes", max_bytes)):  # fmt: skip
            if type(limit) is not int or limit < 1:
                raise ParameterError(f"{name} must be a positive integer, got {quoted(limit)}")
        if disk_cache is not None and not isinstance(disk_cache, bool):
            raise ParameterError(f"disk_cache must be None or a bool, got {quoted(disk_cache)}")
        self.last = last_standing
        self.max_states = max_states
        self.engine = engine
        self.max_work = max_work
        self.max_bytes = max_bytes
        self.disk_cache = last_standing.use_disk_cache if disk_cache is None else disk_cache
        self.p_llamas = last_standing.rolls.three_llamas
        self._memo: dict[Key, Outcome] = {}
        self._row_rolls: dict[Row, _RowRolls] = {}
        self._tables: list[PairTable] = []
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ one seat has quit
    def last_standing_outcome(self, row: Row, other_row: Row, mask: int, score: int) -> Outcome:
        """Seat with ``row`` to act, the other has quit with ``other_row`` (D-8.5)."""
        own = self.last.table(mask, score).value(row, score)
        return _end(own, float(row_score(other_row)))

    # ------------------------------------------------------------------ both seats in
    def value(self, key: Key) -> Outcome:
        """Turn value with both seats in, own seat to act (D-6).

        Raises:
            NotTractableError: the solve would exceed ``max_states`` (recursion) or
                ``max_work`` / ``max_bytes`` (compiled).
            PositionError: an empty row or llama row (the round would be over, D-9), more
                cards of a symbol than exist (D-3), or a negative score.
        """
        key = _check(key)
        if self.engine == "compiled":
            return self._value(key)
        start = len(self._memo)
        try:
            return self._pair(key)
        except NotTractableError:
            self._memo = dict(list(self._memo.items())[:start])
            raise

    def quit_outcome(self, key: Key) -> Outcome:
        """Quitting now (D-7): the opponent becomes the last player standing."""
        if self.engine == "compiled":
            key = _check(key)
            table, found = self._table(key)
            margin, own = table.quit_value(found, float(row_score(key[0])))
            return Outcome(margin, own, own + margin)
        row, other, mask, _, other_score = key
        return self.last_standing_outcome(other, row, mask, other_score).swap()

    def roll_outcome(self, key: Key) -> Outcome:
        """Rolling now (D-8) and then playing the solved policies."""
        if self.engine == "compiled":
            key = _check(key)
            table, found = self._table(key)
            rolled = table.roll_value(found)
            if rolled is None:  # the level pair below is not kept: solve from here
                table, found = self._table(key, fresh=True)
                rolled = table.roll_value(found)
                assert rolled is not None
            return Outcome(rolled[0], rolled[1], rolled[1] + rolled[0])
        self._pair(key)
        partner = self._memo[_swap(key)]
        return self._roll(key, self._after_llamas(key, partner))

    def discard_outcome(self, key: Key, row_after: Row) -> Outcome:
        """After a discard leaves ``row_after`` (D-8.2): round over if empty (D-9, D-10)."""
        _row, other, mask, score, other_score = key
        if primitives.is_empty(row_after):  # D-9
            return _end(-float(best_chip(score)), float(row_score(other)))
        return self._value((other, row_after, mask, other_score, score)).swap()

    def take_outcome(self, key: Key, symbol: int) -> Outcome:
        """After taking llama-row card ``symbol`` (D-8.3); the round ends if the llama row
        is then empty (D-9)."""
        row, other, mask, score, other_score = key
        new_row, new_llama = primitives.take(row, presence_row(mask), symbol)  # D-8.3
        new_mask = llama_mask(new_llama)
        if primitives.is_empty(new_llama):  # D-9
            return _end(float(row_score(new_row)), float(row_score(other)))
        return self._value((other, new_row, new_mask, other_score, score)).swap()

    def give_outcome(self, key: Key, chip: int) -> Outcome:
        """After three llamas (D-8.1), giving back a chip of ``chip`` points (0 = none);
        the turn passes to the opponent (D-6).

        Raises:
            PositionError: ``chip`` is not the points of a chip or cannot be given back
                with the seat's score (D-4, :func:`~lamagames.dice.solver.space.check_give`).
        """
        row, other, mask, score, other_score = key
        chip = check_give(score, chip)  # D-4, D-8.1
        after = (other, row, mask, other_score, score - chip)
        return self._value(after).swap().shift_own(-chip)

    # ------------------------------------------------------------------ compiled tables
    def _value(self, key: Key) -> Outcome:
        if self.engine == "recursion":
            return self._pair(key)
        table, found = self._table(key)
        margin, own = table.value(found)
        return Outcome(margin, own, own + margin)

    def _table(self, key: Key, fresh: bool = False) -> tuple[PairTable, Found]:
        """A kept table holding ``key`` (most recent first), else one solved from ``key``."""
        with self._lock:
            if not fresh:
                for table in reversed(self._tables):
                    found = table.find(*key)
                    if found is not None:
                        return table, found
            row, other, mask, score, other_score = key
            work = table_work(row, other, mask, score, other_score)
            if work > self.max_work:
                raise NotTractableError(
                    f"the exact two-player solve from this position sweeps {work:,} states "
                    f"(indices x score-level pairs), more than the limit {self.max_work:,}"
                )
            size = table_bytes(row, other, mask, score, other_score)
            if size > self.max_bytes:
                raise NotTractableError(
                    f"the exact two-player solve from this position needs {size / 1e6:,.0f} MB "
                    f"of value arrays, more than the limit {self.max_bytes / 1e6:,.0f} MB"
                )
            table = solve_table(
                self.last.dice, row, other, mask, score, other_score,
                use_disk_cache=self.disk_cache,
            )  # fmt: skip
            if len(self._tables) >= MEMORY_PAIR_TABLES:
                self._tables.pop(0)
            self._tables.append(table)
            found = table.find(*key)
            assert found is not None  # the root of its own table
            return table, found

    # ------------------------------------------------------------------ recursion
    def _pair(self, key: Key) -> Outcome:
        known = self._memo.get(key)
        if known is not None:
            return known
        if len(self._memo) + 2 > self.max_states:
            raise NotTractableError(
                f"the exact two-player recursion needs more than {self.max_states} states "
                "from this position"
            )
        partner = _swap(key)
        # Everything except the three-llama loop is strictly smaller: solve it first.
        rest_x = self._rest(key)
        rest_y = self._rest(partner)
        gives_x = self._gives(key)
        gives_y = self._gives(partner)
        quit_x = self.quit_outcome(key)
        quit_y = self.quit_outcome(partner)
        x, y = quit_x, quit_y
        p3 = self.p_llamas
        for _ in range(10_000):
            cont_x = _best([*gives_x, y.swap()])
            cont_y = _best([*gives_y, x.swap()])
            roll_x = _mix([(p3, cont_x), (1.0, rest_x)])
            roll_y = _mix([(p3, cont_y), (1.0, rest_y)])
            nx = _best([quit_x, roll_x])
            ny = _best([quit_y, roll_y])
            done = abs(nx.margin - x.margin) < PAIR_TOL and abs(ny.margin - y.margin) < PAIR_TOL
            done = done and abs(nx.own - x.own) < PAIR_TOL and abs(ny.own - y.own) < PAIR_TOL
            x, y = nx, ny
            if done:
                break
        self._memo[key] = x
        self._memo[partner] = y
        return x

    def _after_llamas(self, key: Key, partner: Outcome) -> Outcome:
        return _best([*self._gives(key), partner.swap()])

    def _roll(self, key: Key, after_llamas: Outcome) -> Outcome:
        return _mix([(self.p_llamas, after_llamas), (1.0, self._rest(key))])

    def _gives(self, key: Key) -> list[Outcome]:
        return [self.give_outcome(key, chip) for chip in give_choices(key[3])]  # D-4, D-8.1

    def _rest(self, key: Key) -> Outcome:
        """Probability-weighted outcome of every roll except three llamas (D-8.2 .. D-8.4);
        its weights sum to ``1 - P(three llamas)``."""
        row, other, mask, _, _ = key
        rolls = self._rolls_of(row)
        parts: list[tuple[float, Outcome]] = []
        for p, rows_after in rolls.matches:
            parts.append((p, _best([self.discard_outcome(key, r) for r in rows_after])))
        bust = _end(float(row_score(after_bust(row, presence_row(mask)))), float(row_score(other)))
        for p, shown in rolls.misses:
            takes = int(TAKE_MASKS[shown, mask])  # D-8.3
            if not takes:  # D-8.4
                parts.append((p, bust))
                continue
            options = [self.take_outcome(key, s) for s in range(NUM_SYMBOLS) if takes >> s & 1]
            parts.append((p, _best(options)))
        return _mix(parts)

    def _rolls_of(self, row: Row) -> _RowRolls:
        cached = self._row_rolls.get(row)
        if cached is not None:
            return cached
        matches: dict[int, float] = {}
        misses: dict[int, float] = {}
        rolls = self.last.rolls
        for counts, p in zip(rolls.counts.tolist(), rolls.probs.tolist(), strict=True):
            a, b, c = symbols_of(counts)
            kind = primitives.roll_result(row, row, a, b, c, True)  # D-8, takes apart
            if kind == primitives.THREE_LLAMAS:
                continue
            if kind == primitives.MATCH:  # D-8.2
                code = primitives.max_discard(row, a, b, c)
                matches[code] = matches.get(code, 0.0) + p
            else:
                shown = sum(1 << s for s in range(NUM_SYMBOLS) if counts[s])
                misses[shown] = misses.get(shown, 0.0) + p
        match_list = []
        for code, p in matches.items():
            after = tuple(primitives.discard(row, sub) for sub in discard_codes(code))  # D-8.2
            match_list.append((p, after))
        result = _RowRolls(tuple(match_list), tuple((p, m) for m, p in misses.items()))
        self._row_rolls[row] = result
        return result

    @property
    def states(self) -> int:
        """Distinct both-in states solved so far by the recursion."""
        return len(self._memo)

    @property
    def tables(self) -> list[PairTable]:
        """The compiled tables kept in memory (oldest first)."""
        return list(self._tables)


def _check(key: Key) -> Key:
    """``key`` with Python ints throughout (NumPy integers and 1-d arrays are accepted, as
    by the last-standing tables); refuses positions no round can reach
    (:class:`PositionError`). The row checks are shared with the last-standing tables
    (:func:`~lamagames.dice.solver.space.check_counts`,
    :func:`~lamagames.dice.solver.space.check_copies`)."""
    if not isinstance(key, tuple) or len(key) != 5:
        raise PositionError(
            "a position is a 5-tuple (own row, opponent row, llama row mask, own score, "
            f"opponent score), got {quoted(key)}"
        )
    row, other = check_counts(key[0]), check_counts(key[1])
    mask = as_int(key[2])
    if mask is None or not 0 <= mask < 1 << NUM_SYMBOLS:
        raise PositionError(f"llama row mask {quoted(key[2])} is not a 7-bit mask")
    if any(primitives.is_empty(r) for r in (row, other, presence_row(mask))):
        raise PositionError("an empty row or llama row: the round is over (D-9)")
    check_copies((row, other), mask)
    scores = [as_int(sc) for sc in key[3:]]
    for given, sc in zip(key[3:], scores, strict=True):
        if sc is None or sc < 0:
            raise PositionError(f"scores must be non-negative integers, got {quoted(given)}")
    score, other_score = (sc for sc in scores if sc is not None)
    return (row, other, mask, score, other_score)


def _swap(key: Key) -> Key:
    row, other, mask, score, other_score = key
    return (other, row, mask, other_score, score)


def state_bound(key: Key) -> int:
    """A cheap upper bound on the ``(row, row, llama row)`` combinations reachable from a
    both-in position (scores and the seat to act not counted): per symbol, each seat keeps
    0..its count of the symbol, plus the llama-row card if a seat takes it (D-8.2, D-8.3)."""
    row, other, mask, _, _ = key
    bound = 1
    for s in range(NUM_SYMBOLS):
        a, b = row[s], other[s]
        if mask >> s & 1:
            bound *= (a + 1) * (b + 1) + (a + 2) * (b + 1) + (a + 1) * (b + 2)
        else:
            bound *= (a + 1) * (b + 1)
    return bound
