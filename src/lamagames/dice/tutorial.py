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
from lamagames.dice.actions import player_action_to_string
from lamagames.dice.game import (
    PHASE_DISCARD,
    PHASE_GIVE_EMPTY,
    PHASE_GIVE_LLAMAS,
    PHASE_TAKE,
    PHASE_TURN,
    as_dice_state,
)

#: The walkthrough's game: two players, a short game to 20 points (D-11), fixed seed.
PARAMS: Final = {"num_players": 2, "end_score": 20}
SEED: Final = 11

#: Kind of decision -> its explanation (ruling ids in brackets).
LESSONS: Final = {
    "start": (
        "LAMA Dice: every player has a row of cards; at the end of a round your row scores "
        "each different number once plus 10 for llamas, and the lowest score wins when "
        "someone reaches the end score [D-10, D-11]. Press Enter to take the suggested move, "
        "or type your own; 'hint details' shows the exact values."
    ),
    "turn": (
        "Your turn: roll the three dice or quit the round [D-6]. Quitting keeps your row as "
        "it is and it scores at the end of the round [D-7, D-10]; rolling may let you shed "
        "cards, but a roll that matches nothing costs a card [D-8]."
    ),
    "discard": (
        "The dice match cards in your row: discard one matching card per die, at least one "
        "[D-8.2]. Fewer cards usually mean fewer points, and an empty row ends the round "
        "and lets you give a chip back [D-9, D-10]."
    ),
    "take": (
        "No die matches your row: take a card from the llama row of a symbol the dice show "
        "[D-8.3]. A number you already hold costs nothing more at scoring [D-10]."
    ),
    "give_llamas": (
        "Three llamas: you may give back one chip (black 10, white 1) or none, and your turn "
        "ends [D-8.1]."
    ),
    "give_empty": (
        "Your row is empty: the round is over and you give back a chip, black (10 points) "
        "if you can [D-10]."
    ),
    "last_standing": (
        "Everybody else has quit: you are the last player standing. No cards are taken "
        "any more; a roll that matches nothing is a bust and adds the whole llama row to "
        "your row [D-8.5, D-8.4]."
    ),
}


class DiceTutor:
    """Lessons and advice for the LAMA Dice walkthrough (see the module docstring)."""

    params = PARAMS
    seed = SEED

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.bot = DiceHeuristicBot(game, seat, 0)

    def lessons(self, state: State, player: int) -> list[str]:
        """The kinds of decision in this position (keys of :data:`LESSONS`)."""
        s = as_dice_state(state)
        kinds = ["start"]
        others_in = [i for i in range(s.game.num_players) if i != player and not s.quit[i]]
        if not others_in:
            kinds.append("last_standing")
        kinds.append(
            {
                PHASE_TURN: "turn",
                PHASE_DISCARD: "discard",
                PHASE_TAKE: "take",
                PHASE_GIVE_LLAMAS: "give_llamas",
                PHASE_GIVE_EMPTY: "give_empty",
            }.get(s.phase, "turn")
        )
        return kinds

    def lesson(self, kind: str) -> str:
        """The explanation of ``kind``."""
        return LESSONS[kind]

    def advice(self, state: State, player: int) -> tuple[int, str]:
        """The suggested move and why, in plain words."""
        try:
            from lamagames.dice.hints import hints
            from lamagames.dice.words import hint_words

            found = hints(state, player)
        except ImportError:  # no numba: the heuristic's move
            action = self.bot.step(state)
            return action, f"The heuristic bot would {player_action_to_string(action)}."
        best = next(h for h in found if h.best)
        return best.action, "\n".join(hint_words(found))


def make_tutor(game: Game, seat: int) -> Any:
    """The spec's ``tutorial`` extra: a :class:`DiceTutor`."""
    return DiceTutor(game, seat)
