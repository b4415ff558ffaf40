"""The Lama Express walkthrough of ``lama tutorial express``: what each kind of decision is,
with its ruling ids, and what to do there and why (the ``heuristic`` bot's move).

:class:`ExpressTutor` is the spec's ``tutorial`` extra (generic driver:
:mod:`lamagames.cli.tutorial`).
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.bots.express import ExpressHeuristicBot
from lamagames.core.game import Game, State
from lamagames.core.i18n import web_text
from lamagames.express.actions import (
    BOARD_BASE,
    DETOUR_BASE,
    EXIT_BASE,
    MOVE_A,
    MOVE_B,
    PASS,
    REBOARD_BASE,
)
from lamagames.express.game import as_express_state

#: The walkthrough's game: two players, the short game (3 llamas home wins, E-10).
PARAMS: Final = {"num_players": 2, "llamas_to_win": 3}
SEED: Final = 3

#: Where the texts are: the game's browser catalogs, one per language (``static/<lang>.json``,
#: keys ``express.tut.<kind>`` and ``express.tut.why.<kind>``), shared by the terminal and
#: the web walkthrough so that each lesson has one source.
WORDS: Final = "lamagames.express:static"

#: Kind of decision -> the ruling ids its lesson cites (the lesson text is the catalogs').
RULINGS: Final = {
    "start": ("E-10",),
    "move": ("E-6",),
    "board": ("E-7",),
    "exit": ("E-7", "E-8"),
    "detour": ("E-7", "E-8"),
    "reboard": ("E-7",),
    "pass": ("E-9",),
}


def lesson_text(kind: str, language: str = "en") -> str:
    """The lesson of ``kind`` (a key of :data:`RULINGS`) in ``language`` (one of
    :data:`~lamagames.core.i18n.LANGUAGES`) followed by its ruling ids: ``"... [E-7, E-8]"``.

    Raises:
        KeyError: an unknown kind.
        ValueError: an unknown language.
    """
    rulings = RULINGS[kind]
    return f"{web_text(WORDS, f'express.tut.{kind}', language)} [{', '.join(rulings)}]"


def why_text(kind: str, language: str = "en") -> str:
    """Why a move of ``kind`` (:func:`kind_of`) is suggested, in ``language``.

    Raises:
        KeyError: an unknown kind.
        ValueError: an unknown language.
    """
    return web_text(WORDS, f"express.tut.why.{kind}", language)


def kind_of(action: int) -> str:
    """The kind of an action id (E-6, E-7, E-9)."""
    if action == PASS:
        return "pass"
    if action in (MOVE_A, MOVE_B):
        return "move"
    if action < EXIT_BASE:
        return "board" if action >= BOARD_BASE else "move"
    if action < DETOUR_BASE:
        return "exit"
    return "detour" if action < REBOARD_BASE else "reboard"


class ExpressTutor:
    """Lessons and advice for the Lama Express walkthrough (see the module docstring)."""

    params = PARAMS
    seed = SEED

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.bot = ExpressHeuristicBot(game, seat, 0)

    def lessons(self, state: State, player: int) -> list[str]:
        """The kinds of decision in this position (keys of :data:`RULINGS`)."""
        legal = as_express_state(state).legal_actions(player)
        kinds = ["start"]
        kinds += list(dict.fromkeys(kind_of(a) for a in legal if kind_of(a) != "pass"))
        if PASS in legal:
            kinds.append("pass")
        return kinds

    def lesson(self, kind: str, language: str = "en") -> str:
        """The explanation of ``kind`` in ``language``, with its ruling ids
        (:func:`lesson_text`)."""
        return lesson_text(kind, language)

    def advice(self, state: State, player: int, language: str = "en") -> tuple[int, str]:
        """The heuristic bot's move and why, in ``language``."""
        action = self.bot.step(state)
        return action, why_text(kind_of(action), language)


def make_tutor(game: Game, seat: int) -> Any:
    """The spec's ``tutorial`` extra: an :class:`ExpressTutor`."""
    return ExpressTutor(game, seat)
