"""LAMA Dice (Reiner Knizia, AMIGO 2021): pure rules engine, rulings D-1 .. D-11."""

from lamagames.dice.game import DiceGame, as_dice_state, round_end_reason
from lamagames.dice.primitives import row_score
from lamagames.dice.rules import (
    STANDARD_DICE,
    validate_dice,
)
from lamagames.dice.state import DiceState

__all__ = [
    "STANDARD_DICE",
    "DiceGame",
    "DiceState",
    "as_dice_state",
    "round_end_reason",
    "row_score",
    "validate_dice",
]
