"""LAMA Dice bots: ``benchmark`` (a fixed reference policy) and ``heuristic``."""

from __future__ import annotations

import threading
from collections import defaultdict
from types import ModuleType
from typing import Any, Final

from lamagames.bots.base import Bot
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.dice import primitives
from lamagames.dice.actions import (
    DISCARD_BASE,
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    NUM_SYMBOLS,
    QUIT,
    ROLL,
    TAKE_BASE,
    roll_symbols,
)
from lamagames.dice.game import DiceGame, as_dice_state
from lamagames.dice.primitives import best_chip, is_last_standing, row_score
from lamagames.dice.rules import (
    RollResult,
    after_bust,
    after_discard,
    legal_discards,
    roll_result,
)

#: The benchmark bot quits when its row scores at most this many minus points.
BENCHMARK_QUIT_AT: Final = 6


class DiceBenchmarkBot(Bot):
    """The fixed reference policy used for speed measurements and cross-checks.

    Exactly: quit if and only if the own row scores at most 6 (D-10), otherwise roll; on a
    match discard as many cards as the dice allow; on no match take the lowest-valued
    matching llama-row card (numbers before the llama); give back a black chip when possible,
    else a white one. It draws no random numbers.
    """

    kind = "benchmark"

    def step(self, state: State) -> int:
        """Return the policy's action for :attr:`seat` (see the class docstring)."""
        dice_state = as_dice_state(state)
        legal = dice_state.legal_actions(self.seat)
        first = legal[0]
        if first == ROLL:
            return QUIT if dice_state.row_score(self.seat) <= BENCHMARK_QUIT_AT else ROLL
        if first >= DISCARD_BASE:
            # Discard ids grow with the number of cards, and the largest legal discard is
            # the unique maximal one (each die allows one card of its symbol, D-8.2).
            return legal[-1]
        # take: lowest symbol first; give: black (9) < white (10) < none (11).
        return first


Row = tuple[int, ...]
#: Aggregated roll distribution: (symbol counts of the three dice, the symbols, probability).
RollTable = tuple[tuple[tuple[int, ...], tuple[int, ...], float], ...]


Memo = dict[tuple[Row, Row, bool, int], float]
#: Roll values of :class:`DiceHeuristicBot` per roll distribution, shared by all its bots.
_SHARED_MEMO: dict[RollTable, Memo] = {}
#: Entries a shared memo may hold before it starts again (bounded memory on a server).
_MEMO_LIMIT: Final = 500_000
#: Roll tables as NumPy arrays for the compiled ``roll_value``, per roll distribution.
_ROLL_ARRAYS: dict[RollTable, tuple[Any, Any, Any]] = {}
#: Roll distributions already aggregated, per game dice (``DiceGame.roll_outcomes``).
_ROLL_TABLES: dict[tuple[tuple[int, float], ...], RollTable] = {}
#: :mod:`lamagames.dice.batch_heuristic` once :func:`warm_compiled_heuristic` has compiled
#: (or loaded from Numba's disk cache) its ``roll_value``; ``None``: the Python path.
_KERNEL: ModuleType | None = None
_WARM_LOCK = threading.Lock()


def warm_compiled_heuristic() -> bool:
    """Compile (or load from Numba's on-disk cache) the Numba form of the heuristic's roll
    value, :func:`lamagames.dice.batch_heuristic.roll_value`, and from then on let every
    :class:`DiceHeuristicBot` of this process compute its roll values with it.

    The decisions do not change: the compiled function sums the same values in the same
    order with the same probabilities (bit-identical floats, checked by
    ``tests/bots/test_dice_bots.py``); it is about a thousand times faster than the Python
    lookahead, which a web server running many bots spends most of its time in. Slow the
    first time (Numba compiles, a few seconds), so a server calls it in a background thread
    (:meth:`lamagames.web.live.Hub.startup`); until it returns, bots use the Python path.
    Thread-safe; later calls return at once.

    Returns:
        True if the compiled path is on; False if numba is not installed (the ``solver``
        or ``sim`` extra) or compiling failed (the Python path stays).
    """
    global _KERNEL
    if _KERNEL is not None:
        return True
    from lamagames.core.extras import is_installed

    if not is_installed("numba"):
        return False
    with _WARM_LOCK:
        if _KERNEL is None:
            try:
                import numpy as np

                from lamagames.dice import batch_heuristic

                rvec, rsym, rp = batch_heuristic.roll_table(DiceGame(num_players=2).roll_outcomes)
                ones = np.ones(7, dtype=np.int8)
                batch_heuristic.roll_value(ones, ones, False, 1, rvec, rsym, rp)
            except Exception:  # pragma: no cover - a broken numba install: stay in Python
                import logging

                logging.getLogger(__name__).exception("compiled heuristic unavailable")
                return False
            _KERNEL = batch_heuristic
    return True


def use_compiled_heuristic(on: bool) -> bool:
    """Turn the compiled roll values of :class:`DiceHeuristicBot` on (compiling them if
    needed, :func:`warm_compiled_heuristic`) or off (tests compare both paths).

    Returns:
        Whether the compiled path is on now.
    """
    global _KERNEL
    if not on:
        _KERNEL = None
        return False
    return warm_compiled_heuristic()


def _roll_table(game: DiceGame) -> RollTable:
    """The roll distribution of ``game``'s dice aggregated by symbol counts (D-1):
    (counts, the symbols of the last roll with those counts, probability), in order of
    first appearance; made once per set of dice."""
    outcomes = tuple(game.roll_outcomes)
    table = _ROLL_TABLES.get(outcomes)
    if table is None:
        counts: dict[tuple[int, ...], float] = defaultdict(float)
        shown: dict[tuple[int, ...], tuple[int, ...]] = {}
        for outcome, probability in outcomes:
            vector = [0] * NUM_SYMBOLS
            symbols = roll_symbols(outcome)
            for s in symbols:
                vector[s] += 1
            counts[tuple(vector)] += probability
            shown[tuple(vector)] = symbols
        table = _ROLL_TABLES[outcomes] = tuple((v, shown[v], p) for v, p in counts.items())
    return table


class DiceHeuristicBot(Bot):
    """A one-roll lookahead player that counts duplicates and busts.

    Idea: the value of a row is the minus points it would score now (D-10), less the chip it
    may give back when it is empty. Before each turn the bot computes the expected value of
    rolling once more and then stopping, over the exact roll distribution of the game's dice
    (D-1), answering each roll as well as it can: the discard (D-8.2) or the llama-row card
    (D-8.3) that leaves the lowest row value, a chip back on three llamas (D-8.1), the whole
    llama row on a bust (D-8.4; also the last-player-standing bust of D-8.5). It rolls when
    that expectation is lower than its current row value by more than a small margin, and
    quits otherwise. Discards and takes are chosen by the same lookahead one level deeper:
    the bot prefers the result whose *next* roll is best, so it keeps a duplicate when that
    keeps a chance of matching without adding minus points, and it takes a llama-row card
    whose symbol it already holds (free under D-10) whenever it can. Chips: black first.
    Values are memoised per (row, llama row, last standing, chips), shared by every bot of
    games with the same dice (a web server runs many bots at once).
    """

    kind = "heuristic"

    #: Roll only if the expected row value after one more roll is this many points lower.
    ROLL_MARGIN: Final = 0.25

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        if not isinstance(game, DiceGame):
            raise IllegalActionError("the dice heuristic bot plays LAMA Dice only")
        self._rolls: RollTable = _roll_table(game)
        # Shared by every heuristic bot of games with the same dice (a server runs many):
        # the values depend only on the key and the roll distribution.
        self._memo = _SHARED_MEMO.setdefault(self._rolls, {})
        if len(self._memo) > _MEMO_LIMIT:
            self._memo.clear()

    # ---------------------------------------------------------------- evaluation
    @staticmethod
    def _chip_value(score: int) -> int:
        """Points a chip give-back is worth to a player with this score (D-4, D-8.1)."""
        return best_chip(score)

    def _static_value(self, row: Row, chip: int) -> float:
        """Row value if the player stopped now: its score, or minus a chip if it is empty."""
        return -chip if primitives.is_empty(row) else float(row_score(row))  # D-9

    def _best_discard(self, row: Row, symbols: Row, chip: int) -> float:
        """Lowest static value reachable by a legal discard (D-8.2, the engine's
        :func:`~lamagames.dice.rules.legal_discards`) of the roll ``symbols``."""
        best = float("inf")
        for action in legal_discards(row, symbols):
            best = min(best, self._static_value(after_discard(row, action), chip))  # D-8.2
        return best

    def _roll_value(self, row: Row, llama: Row, last: bool, chip: int) -> float:
        """Expected row value after one more roll answered greedily, then stopping."""
        key = (row, llama, last, chip)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        kernel = _KERNEL
        if kernel is not None:  # the same sums in Numba (warm_compiled_heuristic)
            total = self._compiled_roll_value(kernel, row, llama, last, chip)
            self._memo[key] = total
            return total
        total = 0.0
        static = self._static_value(row, chip)
        for _dice, symbols, probability in self._rolls:
            result = roll_result(row, llama, symbols, last_standing=last)  # D-8, the engine's
            if result == RollResult.THREE_LLAMAS:  # D-8.1
                value = static - chip
            elif result == RollResult.MATCH:  # D-8.2
                value = self._best_discard(row, symbols, chip)
            elif result == RollResult.TAKE:  # D-8.3
                a, b, c = symbols
                takes = [s for s in range(NUM_SYMBOLS) if primitives.can_take(llama, a, b, c, s)]
                value = min(
                    self._static_value(primitives.take(row, llama, s)[0], chip) for s in takes
                )
            else:  # D-8.4 / D-8.5 bust
                value = float(row_score(after_bust(row, llama)))
            total += probability * value
        self._memo[key] = total
        return total

    def _compiled_roll_value(
        self, kernel: ModuleType, row: Row, llama: Row, last: bool, chip: int
    ) -> float:
        """:meth:`_roll_value` computed by ``kernel.roll_value`` (bit-identical)."""
        import numpy as np

        arrays = _ROLL_ARRAYS.get(self._rolls)
        if arrays is None:
            rvec = np.array([v for v, _, _ in self._rolls], dtype=np.int8)
            rsym = np.array([s for _, s, _ in self._rolls], dtype=np.int8)
            rp = np.array([p for _, _, p in self._rolls], dtype=np.float64)
            arrays = _ROLL_ARRAYS[self._rolls] = (rvec, rsym, rp)
        rvec, rsym, rp = arrays
        value: float = kernel.roll_value(
            np.array(row, dtype=np.int8),
            np.array(llama, dtype=np.int8),
            last,
            chip,
            rvec,
            rsym,
            rp,
        )
        return value

    def _position_value(self, row: Row, llama: Row, last: bool, chip: int) -> float:
        """Value of a position where the bot may still choose to roll or stop."""
        if primitives.is_empty(row):  # D-9
            return -chip
        if primitives.is_empty(llama):
            return float(row_score(row))  # the round is over (D-9)
        return min(self._static_value(row, chip), self._roll_value(row, llama, last, chip))

    # ---------------------------------------------------------------- policy
    def step(self, state: State) -> int:
        """Choose roll/quit, a discard, a llama-row card or a chip (see class docstring)."""
        s = as_dice_state(state)
        legal = s.legal_actions(self.seat)
        first = legal[0]
        if first in (GIVE_BLACK, GIVE_WHITE, GIVE_NONE):
            return first  # black before white before none
        seat = self.seat
        row: Row = tuple(s.rows[seat])
        llama: Row = tuple(s.llama_row)
        last = is_last_standing(s.quit, seat)  # D-8.5
        chip = self._chip_value(s.scores[seat])
        if first == ROLL:
            rolled = self._roll_value(row, llama, last, chip)
            return ROLL if rolled < self._static_value(row, chip) - self.ROLL_MARGIN else QUIT
        if first >= DISCARD_BASE:
            best_action, best_value = legal[-1], float("inf")
            for action in reversed(legal):  # more cards first on ties
                value = self._position_value(after_discard(row, action), llama, last, chip)
                if value < best_value - 1e-9:
                    best_action, best_value = action, value
            return best_action
        # Take a llama-row card (D-8.3).
        best_action, best_value = first, float("inf")
        for action in legal:
            new_row, new_llama = primitives.take(row, llama, action - TAKE_BASE)  # D-8.3
            value = self._position_value(new_row, new_llama, last, chip)
            if value < best_value - 1e-9:
                best_action, best_value = action, value
        return best_action
