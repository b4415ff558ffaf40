"""LAMA Dice (Reiner Knizia, AMIGO 2021): pure rules engine, rulings D-1 .. D-11."""

from lamagames.dice.game import (
    STANDARD_DICE,
    DiceGame,
    DiceState,
    as_dice_state,
    round_end_reason,
    row_score,
    validate_dice,
)

__all__ = [
    "STANDARD_DICE",
    "DiceGame",
    "DiceState",
    "as_dice_state",
    "round_end_reason",
    "row_score",
    "validate_dice",
]
