"""LAMA Dice reviewer: what each decision of a recorded game cost, in expected points.

The value of an action for the seat to act is the **expected points margin of the round**:
the mean expected further points of the other seats minus the seat's own, from the position
until the round has been scored (D-10 row scores at the round's end, chips given back from
now on counted as negative points, D-8.1 / D-10); higher is better. With two players this
is exactly the two-player solver's objective (opponent's points minus own); for the last
player standing the others' points are fixed (their rows are final, D-7), so the margin
differs from minus the own expected points only by a constant.

Where values come from (``Evaluation.basis``):

* ``exact: row is final``: the give-back after emptying the row (D-10): the chip itself;
* ``exact: last standing``: every other seat has quit (D-8.5) and the score is within the
  last-standing solver's size budget (``LastStandingSolver.covers``: scores 0..99);
* ``exact: two players``: two players both in, when the compiled two-player solve fits
  :data:`REVIEW_MAX_WORK` (indices times score-level pairs; every fresh deal at scores
  0/0 does) or a table kept from an earlier position of the round answers it;
* ``estimate: N rollouts``: everything else (three or more seats in, two-player positions
  beyond the budget): ``N`` compiled rollouts per action to the end of the round, every
  seat then playing the ``heuristic`` policy (the ``search`` bot's machinery,
  :func:`lamagames.dice.batch_rollout.rollouts`), rollout ``k`` of every action on the
  same seed (common random numbers), so losses come with a paired standard error.

The budget is at most the ``exact`` bot's (``DiceExactBot.MAX_WORK``), so wherever the
review is exact with both seats in, the ``exact`` bot played the solver's move too.

Marks (:data:`THRESHOLDS`, loss in points of the round): inaccuracy from 1 point, mistake
from 2.5, blunder from 5. The chart plots each seat's expected score at the end of the
round after its move (``score + expected further points``, lower is better, D-11).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from lamagames.bots.dice_exact import DiceExactBot
from lamagames.bots.search import check_count
from lamagames.coach.review import CONFIRM_FACTOR, ActionValue, Evaluation, Thresholds
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.core.i18n import ENGLISH, Translator
from lamagames.core.rng import derive_seed
from lamagames.dice import batch_heuristic, batch_rollout
from lamagames.dice.actions import (
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    QUIT,
    ROLL,
    TAKE_BASE,
    player_action_to_string,
)
from lamagames.dice.game import DiceGame, as_dice_state
from lamagames.dice.hints import BASIS_FINAL, BASIS_LAST, BASIS_TWO
from lamagames.dice.primitives import chip_points, row_score
from lamagames.dice.rules import (
    Phase,
    after_discard,
)
from lamagames.dice.solver import NotTractableError, PositionError, get_solver
from lamagames.dice.solver.space import llama_mask
from lamagames.dice.solver.two_player import Key, Outcome, TwoPlayerSolver
from lamagames.dice.state import DiceState
from lamagames.dice.words import amount

#: Mark thresholds in expected points of the round.
THRESHOLDS: Final = Thresholds(inaccuracy=1.0, mistake=2.5, blunder=5.0)
#: Largest two-player solve (indices x score-level pairs, about 0.9 million a second) a
#: review starts; at most the ``exact`` bot's budget.
REVIEW_MAX_WORK: Final = min(3_000_000, DiceExactBot.MAX_WORK)
#: Default rollouts per action where values are estimated.
ROLLOUTS: Final = 256
CHIPS: Final = {a: chip_points(a) for a in (GIVE_BLACK, GIVE_WHITE, GIVE_NONE)}  # D-4


def points(value: float, tr: Translator = ENGLISH) -> str:
    """``value`` points in plain words: ``"about 6 points"``, ``"about 0.4 points"``
    (whole points from 1.5 on, else one decimal; the size, never negative), in the language
    of ``tr`` (``ngettext`` on the whole number; a decimal takes the plural form)."""
    text = amount(value)  # the hints' rounding (lamagames.dice.words), written once
    count = int(text) if "." not in text else 2  # "0.4 points": the form for many
    return tr.ngettext("about {points} point", "about {points} points", count).format(points=text)


def move_words(notation: str, tr: Translator = ENGLISH) -> str:
    """A move as the subject of a sentence: ``"quitting"``, ``"discarding 3 3"``,
    ``"giving back a black chip"``, ``"giving back no chip"`` (in the language of ``tr``:
    ``"Aussteigen"``, ``"3 3 ablegen"``...). An unknown notation is returned as it is."""
    _ = tr.gettext
    head, _sep, rest = notation.partition(" ")
    if head == "roll":
        return _("rolling")
    if head == "quit":
        return _("quitting")
    if head == "discard":
        return _("discarding {cards}").format(cards=rest)
    if head == "take":
        return _("taking {card}").format(card=rest)
    if head == "give":
        chip = {"black": _("giving back a black chip"), "white": _("giving back a white chip"),
                "none": _("giving back no chip")}  # fmt: skip
        return chip.get(rest, notation)
    return notation


def loss_words(loss: float, best: str, tr: Translator = ENGLISH) -> str:
    """``"You lost about 6 points here: quitting was better"`` (in the language of ``tr``)."""
    return tr.gettext("You lost {points} here: {move} was better").format(
        points=points(loss, tr), move=move_words(best, tr)
    )


class DiceReviewer:
    """Values every legal action of a LAMA Dice position (see the module docstring).

    Args:
        game: a :class:`~lamagames.dice.game.DiceGame`.
        seed: root seed of the rollouts; the position before record action ``i`` uses
            ``derive_seed(seed, "review", i)``.
        rollouts: rollouts per action where values are estimated (1 .. 100,000); ``None``:
            :data:`ROLLOUTS`.
        max_work: two-player solve budget (default :data:`REVIEW_MAX_WORK`).

    Raises:
        IllegalActionError: not LAMA Dice.
        ParameterError: ``rollouts`` or ``max_work`` not a positive integer.
    """

    unit = "points"
    thresholds = THRESHOLDS
    level_label = "expected score at the end of the round (lower is better)"

    def __init__(
        self,
        game: Game,
        *,
        seed: int = 0,
        rollouts: int | None = None,
        max_work: int = REVIEW_MAX_WORK,
    ) -> None:
        if not isinstance(game, DiceGame):
            raise IllegalActionError("the LAMA Dice reviewer reviews LAMA Dice only")
        self.game = game
        self.seed = seed
        self.rollouts = check_count(
            "rollouts", ROLLOUTS if rollouts is None else rollouts, most=100_000
        )
        self.solver = get_solver(tuple(game.dice))
        self.two = TwoPlayerSolver(
            self.solver, max_work=check_count("max_work", max_work), disk_cache=False
        )
        self._memo = batch_heuristic.new_memo(1 << 16)
        self._round = -1

    # ------------------------------------------------------------------ words
    def amount(self, value: float, tr: Translator = ENGLISH) -> str:
        """``"about 6 points"`` (:func:`points`)."""
        return points(value, tr)

    def loss_words(self, loss: float, best: str, tr: Translator = ENGLISH) -> str:
        """``"You lost about 6 points here: quitting was better"`` (:func:`loss_words`)."""
        return loss_words(loss, best, tr)

    def move_words(self, notation: str, tr: Translator = ENGLISH) -> str:
        """``"quitting"`` (:func:`move_words`)."""
        return move_words(notation, tr)

    # ------------------------------------------------------------------ values
    def evaluate(self, state: State, player: int, index: int) -> Evaluation:
        """Every legal action of ``player`` with its value (module docstring).

        Raises:
            IllegalActionError: not a LAMA Dice state, or ``player`` is not to act.
        """
        s = as_dice_state(state)
        if player != s.current_player():
            raise IllegalActionError(f"seat {player} has no decision here")
        legal = s.legal_actions(player)
        if s.round != self._round:  # positions of earlier rounds never come back
            self._round = s.round
            self.two = TwoPlayerSolver(self.solver, max_work=self.two.max_work, disk_cache=False)
        exact = self._exact(s, player, legal)
        if exact is not None:
            return exact
        return self._rollouts(s, player, legal, index)

    def _exact(self, s: DiceState, player: int, legal: list[int]) -> Evaluation | None:
        n = s.game.num_players
        score = s.scores[player]
        if s.phase == Phase.GIVE_EMPTY:  # D-10: the round is scored, the chip is all
            values = [_value(a, CHIPS[a], score - CHIPS[a]) for a in legal]
            return Evaluation(values, BASIS_FINAL)
        others = [i for i in range(n) if i != player]
        others_in = [i for i in others if not s.quit[i]]
        try:
            if not others_in and self.solver.covers(score):
                rest = sum(row_score(s.rows[i]) for i in others) / len(others)
                values = []
                for action in legal:
                    own = self._last_standing(s, player, action)
                    values.append(_value(action, rest - own, score + own))
                return Evaluation(values, BASIS_LAST)
            if n == 2 and others_in:
                values = []
                for action in legal:
                    o = self._two_player(s, player, action)
                    values.append(_value(action, o.margin, score + o.own))
                return Evaluation(values, BASIS_TWO)
        except (NotTractableError, PositionError, IllegalActionError):
            return None
        return None

    def _last_standing(self, s: DiceState, player: int, action: int) -> float:
        row = tuple(s.rows[player])
        score = s.scores[player]
        table = self.solver.table(llama_mask(s.llama_row), score)
        if s.phase == Phase.TURN:
            return table.quit_value(row) if action == QUIT else table.roll_value(row, score)
        if s.phase == Phase.DISCARD:
            after = after_discard(row, action)  # D-8.2
            return table.after_discard_value(after, score)
        if s.phase == Phase.GIVE_LLAMAS:  # three llamas: a chip or none (D-8.1)
            return table.give_value(row, score, CHIPS[action])
        raise IllegalActionError("no last-standing value for this phase")

    def _two_player(self, s: DiceState, player: int, action: int) -> Outcome:
        other = 1 - player
        row = tuple(s.rows[player])
        key: Key = (
            row,
            tuple(s.rows[other]),
            llama_mask(s.llama_row),
            s.scores[player],
            s.scores[other],
        )
        if s.phase == Phase.TURN:
            return self.two.roll_outcome(key) if action == ROLL else self.two.quit_outcome(key)
        if s.phase == Phase.DISCARD:
            after = after_discard(row, action)  # D-8.2
            return self.two.discard_outcome(key, after)
        if s.phase == Phase.TAKE:
            return self.two.take_outcome(key, action - TAKE_BASE)
        if s.phase == Phase.GIVE_LLAMAS:
            return self.two.give_outcome(key, CHIPS[action])
        raise IllegalActionError("no two-player value for this phase")

    def confirm(self, state: State, player: int, index: int, actions: list[int]) -> Evaluation:
        """A fresh estimate of ``actions`` with :data:`~lamagames.coach.review.CONFIRM_FACTOR`
        times the rollouts on an independent seed (``derive_seed(seed, "confirm", index)``),
        to confirm a mark (:func:`lamagames.coach.review.review_record`)."""
        count = CONFIRM_FACTOR * self.rollouts
        evaluation = self._rollouts(as_dice_state(state), player, actions, index, count, "confirm")
        return Evaluation(evaluation.actions, f"estimate: {count} rollouts (confirmed)")

    def _rollouts(
        self,
        s: DiceState,
        player: int,
        legal: list[int],
        index: int,
        count: int | None = None,
        label: str = "review",
    ) -> Evaluation:
        count = self.rollouts if count is None else count
        base = derive_seed(self.seed, label, index) >> 2  # room for + k below 2**64
        seeds = np.arange(count, dtype=np.uint64) + np.uint64(base)
        result = batch_rollout.rollouts(s, legal, seeds, rounds=1, memo=self._memo)
        changes = result.changes.astype(np.float64)  # (actions, K, seats)
        own = changes[..., player]
        n = s.game.num_players
        margins = (changes.sum(axis=-1) - own) / (n - 1) - own
        score = s.scores[player]
        values = [
            ActionValue(
                action=a,
                notation=player_action_to_string(a),
                value=float(margins[i].mean()),
                level=score + float(own[i].mean()),
                samples=tuple(margins[i].tolist()),
                exact=False,
            )
            for i, a in enumerate(legal)
        ]
        return Evaluation(values, f"estimate: {count} rollouts")


def _value(action: int, value: float, level: float) -> ActionValue:
    return ActionValue(action, player_action_to_string(action), float(value), float(level),
                       None, True)  # fmt: skip


def make_reviewer(game: Game, *, seed: int = 0, rollouts: int | None = None) -> Any:
    """The spec's ``review`` extra: a :class:`DiceReviewer` (see there for errors)."""
    return DiceReviewer(game, seed=seed, rollouts=rollouts)
