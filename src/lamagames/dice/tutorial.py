"""The LAMA Dice walkthrough of ``lama tutorial dice``: what each kind of decision is, with
its ruling ids, and what to do there and why.

:class:`DiceTutor` is the spec's ``tutorial`` extra (generic driver:
:mod:`lamagames.cli.tutorial`): :meth:`DiceTutor.lessons` names the kinds of decision in a
position (each explained once per game), :meth:`DiceTutor.advice` the suggested move and
why: the exact solver's best move in plain words (:mod:`lamagames.dice.words`) when numba
is installed, else the ``heuristic`` bot's move.
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.bots.dice import DiceHeuristicBot
from lamagames.core.game import Game, State
from lamagames.core.i18n import translator, web_text
from lamagames.dice.actions import player_action_to_string
from lamagames.dice.game import as_dice_state
from lamagames.dice.primitives import is_last_standing
from lamagames.dice.rules import Phase

#: The walkthrough's game: two players, a short game to 20 points (D-11), fixed seed.
PARAMS: Final = {"num_players": 2, "end_score": 20}
SEED: Final = 11

#: Where the texts are: the game's browser catalogs, one per language (``static/<lang>.json``,
#: keys ``dice.tut.<kind>`` and ``dice.tut.why.<move>``), shared by the terminal and the web
#: walkthrough so that each lesson has one source.
WORDS: Final = "lamagames.dice:static"

#: Kind of decision -> the ruling ids its lesson cites (the lesson text is the catalogs').
RULINGS: Final = {
    "start": ("D-10", "D-11"),
    "turn": ("D-6", "D-7", "D-10", "D-8"),
    "discard": ("D-8.2", "D-9", "D-10"),
    "take": ("D-8.3", "D-10"),
    "give_llamas": ("D-8.1",),
    "give_empty": ("D-10",),
    "last_standing": ("D-8.5", "D-8.4"),
}


def lesson_text(kind: str, language: str = "en") -> str:
    """The lesson of ``kind`` (a key of :data:`RULINGS`) in ``language`` (one of
    :data:`~lamagames.core.i18n.LANGUAGES`) followed by its ruling ids:
    ``"Your turn: roll ... [D-6, D-7, D-10, D-8]"``.

    Raises:
        KeyError: an unknown kind.
        ValueError: an unknown language.
    """
    rulings = RULINGS[kind]
    return f"{web_text(WORDS, f'dice.tut.{kind}', language)} [{', '.join(rulings)}]"


def why_text(notation: str, language: str = "en") -> str:
    """Why a move of this kind is suggested (the first word of its notation: ``roll``,
    ``quit``, ``discard``, ``take``, ``give``), in ``language``.

    Raises:
        KeyError: an unknown kind of move.
        ValueError: an unknown language.
    """
    return web_text(WORDS, f"dice.tut.why.{notation.split(' ')[0]}", language)


class DiceTutor:
    """Lessons and advice for the LAMA Dice walkthrough (see the module docstring)."""

    params = PARAMS
    seed = SEED

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.bot = DiceHeuristicBot(game, seat, 0)

    def lessons(self, state: State, player: int) -> list[str]:
        """The kinds of decision in this position (keys of :data:`RULINGS`)."""
        s = as_dice_state(state)
        kinds = ["start"]
        if is_last_standing(s.quit, player):  # D-8.5
            kinds.append("last_standing")
        kinds.append(
            {
                Phase.TURN: "turn",
                Phase.DISCARD: "discard",
                Phase.TAKE: "take",
                Phase.GIVE_LLAMAS: "give_llamas",
                Phase.GIVE_EMPTY: "give_empty",
            }.get(s.phase, "turn")
        )
        return kinds

    def lesson(self, kind: str, language: str = "en") -> str:
        """The explanation of ``kind`` in ``language``, with its ruling ids
        (:func:`lesson_text`)."""
        return lesson_text(kind, language)

    def advice(self, state: State, player: int, language: str = "en") -> tuple[int, str]:
        """The suggested move and why, in plain words in ``language``: the exact solver's
        best move with every move's value (:mod:`lamagames.dice.words`) when numba is
        installed, else the ``heuristic`` bot's move."""
        try:
            from lamagames.dice.hints import hints
            from lamagames.dice.words import hint_words

            found = hints(state, player)
        except ImportError:  # no numba: the heuristic's move
            action = self.bot.step(state)
            return action, why_text(player_action_to_string(action), language)
        best = next(h for h in found if h.best)
        return best.action, "\n".join(
            [why_text(best.notation, language), *hint_words(found, translator(language))]
        )


def make_tutor(game: Game, seat: int) -> Any:
    """The spec's ``tutorial`` extra: a :class:`DiceTutor`."""
    return DiceTutor(game, seat)
