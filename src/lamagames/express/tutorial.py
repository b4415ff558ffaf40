"""The Lama Express walkthrough of ``lama tutorial express``: what each kind of decision is,
with its ruling ids, and what to do there and why (the ``heuristic`` bot's move).

:class:`ExpressTutor` is the spec's ``tutorial`` extra (generic driver:
:mod:`lamagames.cli.tutorial`).
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.bots.express import ExpressHeuristicBot
from lamagames.core.game import Game, State
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

LESSONS: Final = {
    "start": (
        "Lama Express: bring your llamas by train around the track and into your house; the "
        "first with 3 llamas home wins this short game [E-10]. Press Enter to take the "
        "suggested move, or type your own."
    ),
    "move": (
        "Your turn: the die showed a colour and you choose train A or B; it runs to the "
        "next space of that colour [E-6]."
    ),
    "board": (
        "An empty car stands on your boarding space: put a llama in from your station "
        "[E-7]. Llamas only travel by train."
    ),
    "exit": (
        "A llama of yours has completed its lap and its car stands on one of your exit "
        "spaces: put it in your house now [E-7, E-8]. If you pass, the train moves on and "
        "the llama rides another lap."
    ),
    "detour": (
        "An opponent's llama stands on a white arrow: you may send it onto the footpath, "
        "which costs it spaces [E-7, E-8]."
    ),
    "reboard": (
        "Your llama waits at the front of a footpath and an empty car stands on its "
        "re-boarding space: get in [E-7]."
    ),
    "pass": (
        "Free actions happen in windows after each roll and each move; every player is "
        "asked in turn and may pass, which lets the chance go [E-9]."
    ),
}

WHY: Final = {
    "move": "It moves your llamas furthest, or keeps the opponent's from their exits.",
    "board": "A llama waiting at the station cannot get home.",
    "exit": "Every llama in the house brings you closer to winning.",
    "detour": "It sets the opponent back.",
    "reboard": "Your llama is back on the track.",
    "pass": "Nothing here helps you now.",
}


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
        """The kinds of decision in this position (keys of :data:`LESSONS`)."""
        legal = as_express_state(state).legal_actions(player)
        kinds = ["start"]
        kinds += list(dict.fromkeys(kind_of(a) for a in legal if kind_of(a) != "pass"))
        if PASS in legal:
            kinds.append("pass")
        return kinds

    def lesson(self, kind: str) -> str:
        """The explanation of ``kind``."""
        return LESSONS[kind]

    def advice(self, state: State, player: int) -> tuple[int, str]:
        """The heuristic bot's move and why."""
        action = self.bot.step(state)
        return action, WHY[kind_of(action)]


def make_tutor(game: Game, seat: int) -> Any:
    """The spec's ``tutorial`` extra: an :class:`ExpressTutor`."""
    return ExpressTutor(game, seat)
