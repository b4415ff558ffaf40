"""LAMA Dice in the research adapters (:mod:`lamagames.rl`): the ``"rl"`` extra of the spec.

OpenSpiel deals card by card: a deal (D-5, up to 918 hands of six cards) is six chance nodes
of at most seven outcomes (the symbol of the next card, in proportion to the cards left in
the deck); after the sixth card the engine gets the hand's own outcome id, whose
probability (multivariate hypergeometric) is the sum over the card orders giving it.
"""

from __future__ import annotations

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


class DealByCard:
    """A :class:`~lamagames.core.rlspec.ChanceSplit`: one seat's deal (D-5) as six draws
    of one card each; step ids are symbol indices ``0..6`` (``1``..``6``, ``L``)."""

    def applies(self, state: State) -> bool:
        """True at a deal (not at a roll of the dice)."""
        return isinstance(state, _DiceState) and state.phase == Phase.DEAL

    def step_outcomes(self, state: State, prefix: Sequence[int]) -> list[tuple[int, float]]:
        """The next card's symbol with probability ``cards of it left / cards left``."""
        assert isinstance(state, _DiceState)
        deck = state.setaside
        for symbol in prefix:
            deck[symbol] -= 1
        left = sum(deck)
        return [(s, deck[s] / left) for s in range(NUM_SYMBOLS) if deck[s]]

    def outcome(self, state: State, prefix: Sequence[int]) -> int | None:
        """The deal's outcome id (``343 + i``, docs/dice.md) after six cards."""
        if len(prefix) < HAND_SIZE:
            return None
        counts = [0] * NUM_SYMBOLS
        for symbol in prefix:
            counts[symbol] += 1
        return HAND_ID[tuple(counts)]

    def step_to_string(self, step: int) -> str:
        """``card 3`` .. ``card L``."""
        return f"card {SYMBOLS[step]}"


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
    chance_split=DealByCard(),
)
