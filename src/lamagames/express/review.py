"""Lama Express reviewer: what each decision of a recorded game cost, in win chance.

The value of an action for the seat to act is its **win chance** (E-10): the share of
``rollouts`` simulations, started after the action and played to the end of the game with
every seat on the ``heuristic`` policy (the base policy of the ``search`` bot,
:mod:`lamagames.bots.express_search`), that the seat wins. The simulations run on the
compiled batch engine (:meth:`lamagames.express.batch.ExpressBatch.from_state` and its
in-kernel ``heuristic``, the very choices of
:class:`~lamagames.bots.express.ExpressHeuristicBot`), so reviews need numba (the ``solver``
extra, as LAMA Dice reviews). Simulation ``k`` of every action of a position is seeded with
``derive_seed(seed, "review", index) + k`` (common random numbers: it draws the same die
stream after each action), so losses come with a paired standard error. A simulated game
that reaches :data:`MAX_ROLLOUT_ROLLS` die rolls from its start (or the game's own turn
limit) counts as no win (as a truncated game, E-11). Every value is an estimate: nothing
here is solved.

Defaults (:data:`ROLLOUTS`, :data:`ROLLOUTS_FOUR_SEATS`), measured with compiled code warm,
CPU time of one core, confirmations included: a 2-player game of 160 decisions 11.6 s at
512 rollouts, a 4-player game of 207 decisions 14.0 s at 256 (goal: 30 s). With the 12
Python rollouts of before, every difference was within noise and no seat ever lost
anything (issue 18).

Every window action is a decision (E-7, E-9): boarding, exiting, detours, re-boarding and
passing, as is the train choice (E-6). A **pass while one of the seat's exits was legal**
lets the llama ride another lap (E-7): it is marked at least ``mistake``, whatever the
estimate, with the best exit named as the better move.

Marks (:data:`THRESHOLDS`, loss in win chance): inaccuracy from 5 percentage points,
mistake from 10, blunder from 20. The chart plots each seat's win chance after its move.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from lamagames.bots.search import check_count
from lamagames.coach.review import CONFIRM_FACTOR, ActionValue, Evaluation, Floor, Thresholds
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.core.i18n import ENGLISH, Translator
from lamagames.core.i18n import mark as _mark
from lamagames.core.rng import derive_seed
from lamagames.express.actions import DETOUR_BASE, EXIT_BASE, PASS
from lamagames.express.game import ExpressGame, as_express_state
from lamagames.express.state import ExpressState

#: Mark thresholds in win chance (0..1).
THRESHOLDS: Final = Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.20)
#: Default simulations per action (2 and 3 seats).
ROLLOUTS: Final = 512
#: Default simulations per action at four seats (longer games, more decisions and longer
#: simulations: 256 keep a review under 30 s of one core).
ROLLOUTS_FOUR_SEATS: Final = 256
#: A simulation stops with no win (E-11) after this many die rolls from its start (games of
#: heuristic seats take about 60..150 rolls from the setup).
MAX_ROLLOUT_ROLLS: Final = 1000
#: The batch engine's turn limit for a game without one (never reached: rolls are int32).
NO_TURN_LIMIT: Final = 1 << 30


def chance(value: float, tr: Translator = ENGLISH) -> str:
    """A win chance or its loss in plain words: ``"about 12% win chance"`` (the size, never
    negative; in the language of ``tr``)."""
    return tr.gettext("about {percent}% win chance").format(percent=f"{100 * abs(value):.0f}")


def move_words(notation: str, tr: Translator = ENGLISH) -> str:
    """A move as the subject of a sentence: ``"passing"``, ``"exiting from car A3"`` (in
    the language of ``tr``). An unknown notation is returned as it is."""
    _ = tr.gettext
    head, _sep, rest = notation.partition(" ")
    if head == "pass":
        return _("passing")
    words = {
        "move": _("moving train {what}"),
        "board": _("boarding car {what}"),
        "exit": _("exiting from car {what}"),
        "detour": _("detouring the llama in car {what}"),
        "reboard": _("re-boarding car {what}"),
    }.get(head)
    return notation if words is None else words.format(what=rest)


def loss_words(loss: float, best: str, tr: Translator = ENGLISH) -> str:
    """``"You lost about 12% win chance here: exiting from car A3 was better"`` (in the
    language of ``tr``)."""
    return tr.gettext("You lost {chance} here: {move} was better").format(
        chance=chance(loss, tr), move=move_words(best, tr)
    )


#: Why a pass that lets an exit go earns at least a mistake (E-7; a message id, translated
#: where it is shown).
LET_AN_EXIT_GO: Final = _mark("You let an exit go here (E-7)")
#: The same about another seat than the person reviewed (``lama review``, issue 19).
LET_AN_EXIT_GO_NAMED: Final = _mark("{name} let an exit go here (E-7)")


def is_exit(action: int) -> bool:
    """True for an exit free action (E-7)."""
    return EXIT_BASE <= action < DETOUR_BASE


class ExpressReviewer:
    """Values every legal action of a Lama Express position (see the module docstring).

    Args:
        game: an :class:`~lamagames.express.game.ExpressGame`.
        seed: root seed of the rollouts.
        rollouts: simulations per action (1 .. 100,000); ``None``: :data:`ROLLOUTS`
            (:data:`ROLLOUTS_FOUR_SEATS` at four seats).

    Raises:
        IllegalActionError: not Lama Express.
        ParameterError: ``rollouts`` not a positive integer.
        ImportError: numba is not installed (:func:`lamagames.coach.review.load_reviewer`
            says so first, naming the ``solver`` extra).
    """

    unit = "win chance"
    thresholds = THRESHOLDS
    level_label = "win chance"

    def __init__(self, game: Game, *, seed: int = 0, rollouts: int | None = None) -> None:
        if not isinstance(game, ExpressGame):
            raise IllegalActionError("the Lama Express reviewer reviews Lama Express only")
        self.game = game
        self.seed = seed
        self.rollouts = check_count(
            "rollouts",
            (ROLLOUTS_FOUR_SEATS if game.num_players >= 4 else ROLLOUTS)
            if rollouts is None
            else rollouts,
            most=100_000,
        )
        from lamagames.express.batch import ExpressBatch  # numba: the spec requires it

        params = game.params
        #: The game's own turn limit (E-11), or none (``NO_TURN_LIMIT``).
        self.turn_limit = NO_TURN_LIMIT if game.turn_limit is None else game.turn_limit
        #: The compiled batch engine the simulations run on (the game's rules and board).
        self.engine = ExpressBatch(
            game.num_players,
            colours=params["colours"],
            starting_seat=game.starting_seat,
            llamas_to_win=game.llamas_to_win,
            board=params["board"],
            turn_limit=self.turn_limit,
        )
        self.policies = ["heuristic"] * game.num_players

    def amount(self, value: float, tr: Translator = ENGLISH) -> str:
        """``"about 12% win chance"`` (:func:`chance`)."""
        return chance(value, tr)

    def loss_words(self, loss: float, best: str, tr: Translator = ENGLISH) -> str:
        """``"You lost about 12% win chance here: exiting from car A3 was better"``
        (:func:`loss_words`)."""
        return loss_words(loss, best, tr)

    def move_words(self, notation: str, tr: Translator = ENGLISH) -> str:
        """``"exiting from car A3"`` (:func:`move_words`)."""
        return move_words(notation, tr)

    def evaluate(self, state: State, player: int, index: int) -> Evaluation:
        """Every legal action of ``player`` with its estimated win chance.

        Raises:
            IllegalActionError: not a Lama Express state, or ``player`` has no decision.
        """
        s = as_express_state(state)
        legal = s.legal_actions(player) if player >= 0 else []
        if not legal:
            raise IllegalActionError(f"seat {player} has no decision here")
        values = self._values(s, player, legal, index, self.rollouts, "review")
        floors = {}
        exits = [v for v in values if is_exit(v.action)]
        if PASS in legal and exits:  # E-7: the llama would ride another lap
            better = max(exits, key=lambda v: v.value).action
            floors[PASS] = Floor("mistake", better, LET_AN_EXIT_GO, LET_AN_EXIT_GO_NAMED)
        return Evaluation(values, f"estimate: {self.rollouts} rollouts", floors)

    def confirm(self, state: State, player: int, index: int, actions: list[int]) -> Evaluation:
        """A fresh estimate of ``actions`` with :data:`~lamagames.coach.review.CONFIRM_FACTOR`
        times the rollouts on an independent seed (``derive_seed(seed, "confirm", index)``),
        to confirm a mark (:func:`lamagames.coach.review.review_record`)."""
        count = CONFIRM_FACTOR * self.rollouts
        values = self._values(as_express_state(state), player, actions, index, count, "confirm")
        return Evaluation(values, f"estimate: {count} rollouts (confirmed)")

    def _values(
        self, s: ExpressState, player: int, actions: list[int], index: int, count: int, label: str
    ) -> list[ActionValue]:
        base = derive_seed(self.seed, label, index)
        seeds = (np.arange(count, dtype=np.uint64) + np.uint64(base % 2**64)).astype(np.uint64)
        engine = self.engine
        values = []
        for action in actions:
            after = s.child(action, player)
            if after.is_terminal():  # E-10: won at once (no simulation to run)
                wins = np.full(count, 1.0 if after.winner() == player else 0.0)
            else:
                rows = engine.from_state(after, count, seeds)
                limit = int(rows.rolls.max()) + MAX_ROLLOUT_ROLLS
                engine.play(rows, self.policies, turn_limit=min(limit, self.turn_limit))
                wins = (rows.winner == player).astype(np.float64)  # E-11: truncated = no win
            mean = float(wins.mean())
            values.append(
                ActionValue(
                    action=action,
                    notation=s.action_to_string(action, player),
                    value=mean,
                    level=mean,
                    samples=tuple(wins.tolist()),
                    exact=False,
                )
            )
        return values


def make_reviewer(game: Game, *, seed: int = 0, rollouts: int | None = None) -> Any:
    """The spec's ``review`` extra: an :class:`ExpressReviewer` (see there for errors)."""
    return ExpressReviewer(game, seed=seed, rollouts=rollouts)
