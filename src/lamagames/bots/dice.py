"""LAMA Dice bots: ``benchmark`` (a fixed reference policy) and ``heuristic``."""

from __future__ import annotations

from typing import Final

from lamagames.bots.base import Bot
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import State
from lamagames.dice.actions import DISCARD_BASE, QUIT, ROLL
from lamagames.dice.game import DiceState

#: The benchmark bot quits when its row scores at most this many minus points.
BENCHMARK_QUIT_AT: Final = 6


def _dice_state(state: State) -> DiceState:
    if not isinstance(state, DiceState):
        raise IllegalActionError("a LAMA Dice bot needs a LAMA Dice state")
    return state


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
        dice_state = _dice_state(state)
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
