"""LAMA Dice in the research adapters (:mod:`lamagames.rl`): the ``"rl"`` extra of the spec.

OpenSpiel deals two cards at a time: a deal (D-5, up to 918 hands of six cards) is three
chance nodes of at most 28 outcomes (the next two cards, drawn without replacement); after
the third pair the engine gets the hand's own outcome id, whose probability (multivariate
hypergeometric) is the sum over the pair sequences giving it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

from lamagames.core.game import Game, State
from lamagames.core.rlspec import LIST_SEPARATOR, RLSpec, split_list
from lamagames.dice.actions import HAND_ID, HAND_SIZE, NUM_SYMBOLS, SYMBOLS
from lamagames.dice.game import DiceGame
from lamagames.dice.rules import Phase
from lamagames.dice.state import DiceState as _DiceState

#: Default cap on decisions (all seats) of a LAMA Dice game in the OpenSpiel adapter. D-8.1
#: lets a round go on forever in principle (three llamas without chips change nothing), so
#: OpenSpiel's ``max_game_length`` needs a cap; random games average 13 (2 players) to 36
#: (6 players) decisions.
MAX_GAME_LENGTH: Final = 1000


class DealInPairs:
    """A :class:`~lamagames.core.rlspec.ChanceSplit`: one seat's deal (D-5) as three draws
    of two cards each. Step id ``7a + b`` (``a <= b`` symbol indices, ``0..5`` for ``1``..
    ``6``, ``6`` for ``L``) is the pair ``{a, b}``, with probability
    ``2 d[a] d[b] / (N (N - 1))`` (``a < b``) or ``d[a] (d[a] - 1) / (N (N - 1))``
    (``a = b``) for a deck of ``N`` cards with ``d[s]`` of symbol ``s``."""

    def applies(self, state: State) -> bool:
        """True at a deal (not at a roll of the dice)."""
        return isinstance(state, _DiceState) and state.phase == Phase.DEAL

    def step_outcomes(self, state: State, prefix: Sequence[int]) -> list[tuple[int, float]]:
        """The next pair of cards with its probability (ascending ids)."""
        assert isinstance(state, _DiceState)
        deck = state.setaside  # a new list
        for step in prefix:
            deck[step // NUM_SYMBOLS] -= 1
            deck[step % NUM_SYMBOLS] -= 1
        return list(_next_pair(tuple(deck)))

    def outcome(self, state: State, prefix: Sequence[int]) -> int | None:
        """The deal's outcome id (``343 + i``, docs/dice.md) after three pairs."""
        if 2 * len(prefix) < HAND_SIZE:
            return None
        counts = [0] * NUM_SYMBOLS
        for step in prefix:
            counts[step // NUM_SYMBOLS] += 1
            counts[step % NUM_SYMBOLS] += 1
        return HAND_ID[tuple(counts)]

    def step_to_string(self, step: int) -> str:
        """``cards 3 L``."""
        first, second = divmod(step, NUM_SYMBOLS)
        return f"cards {SYMBOLS[first]} {SYMBOLS[second]}"


@functools.lru_cache(maxsize=1 << 14)
def _next_pair(deck: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``(7a + b, probability)`` of the next two cards ``{a, b}`` drawn from ``deck``."""
    left = sum(deck)
    ways = left * (left - 1)
    out = []
    for a in range(NUM_SYMBOLS):
        if deck[a] > 1:
            out.append((NUM_SYMBOLS * a + a, deck[a] * (deck[a] - 1) / ways))
        if deck[a]:
            for b in range(a + 1, NUM_SYMBOLS):
                if deck[b]:
                    out.append((NUM_SYMBOLS * a + b, 2 * deck[a] * deck[b] / ways))
    return tuple(out)


def _engine_params(params: dict[str, Any]) -> dict[str, Any]:
    return {
        "num_players": params["players"],
        "dice": split_list(str(params["dice"])),
        "end_score": params["end_score"],
        "starting_seat": params["starting_seat"],
    }


def _never_bounded(game: Game) -> int | None:
    return None  # D-8.1: a round may go on forever


def _defaults() -> dict[str, Any]:
    defaults = DiceGame().params
    return {
        "players": defaults["num_players"],
        "dice": LIST_SEPARATOR.join(defaults["dice"]),
        "end_score": defaults["end_score"],
        "starting_seat": defaults["starting_seat"],
    }


#: The adapters' view of LAMA Dice (``extras["rl"]`` of :data:`lamagames.dice.spec.SPEC`).
RL: Final = RLSpec(
    openspiel_name="python_lama_dice",
    openspiel_long_name="Python LAMA Dice",
    openspiel_parameters=_defaults(),
    to_engine_params=_engine_params,
    pettingzoo_name="lama_dice_v0",
    gymnasium_id="lamagames/LamaDice-v0",
    max_game_length=_never_bounded,
    decision_cap=MAX_GAME_LENGTH,
    chance_split=DealInPairs(),
)
