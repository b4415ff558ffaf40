"""Lama Express (Manfred Ludwig, Piatnik 2020): rules engine, boards, notation and rendering.

See docs/rules.md E-1 .. E-12. Public entry points: :class:`ExpressGame` (``make("express")``),
:func:`load_board` / :func:`parse_board` / :func:`standard_board`, and the action helpers of
:mod:`lamagames.express.actions`.
"""

from lamagames.express.actions import (
    FreeAction,
    decode_free_action,
    free_action_id,
    is_free_action,
)
from lamagames.express.board import Board, load_board, parse_board, standard_board
from lamagames.express.game import ExpressGame
from lamagames.express.state import ExpressState

__all__ = [
    "Board",
    "ExpressGame",
    "ExpressState",
    "FreeAction",
    "decode_free_action",
    "free_action_id",
    "is_free_action",
    "load_board",
    "parse_board",
    "standard_board",
]
