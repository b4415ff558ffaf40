"""Game review: every decision of a recorded game, what it cost, and a mark.

A game's spec names its reviewer factory in ``extras["review"]`` (LAMA Dice:
:func:`lamagames.dice.review.make_reviewer`, Lama Express:
:func:`lamagames.express.review.make_reviewer`). A reviewer values every legal action of the
seat to act (:meth:`Reviewer.evaluate`), exactly where the game's solver is exact, else by
common-random-number rollouts with their per-simulation values kept, so this module can give
standard errors. :func:`review_record` walks a record and builds a :class:`Review`:

* a **decision** is a position where a seat has more than one legal action (a forced move
  teaches nothing and is skipped);
* **value**: the reviewer's objective for the seat, higher is better, in the reviewer's
  ``unit`` (LAMA Dice: expected points of the round, as a margin; Lama Express: win
  chance);
* **best**: the action of highest value (the taken action when it is within
  :data:`TIE` of the best);
* **loss** = best value - taken value, at least 0 (below :data:`TIE` it is 0);
* **stderr**: ``None`` when both values are exact; else the standard error of the
  difference between the taken action and the best-looking one, paired over the common
  random numbers (0 when the taken action looks best). An *estimated* difference below
  :data:`MARK_Z` standard errors cannot be told from noise: the taken action then counts
  as best and the loss is 0 (so the winner's curse of picking the best of noisy means
  does not add up to phantom losses);
* **confirmation**: an estimated loss that survives that test is measured again on a
  fresh sample of :data:`CONFIRM_FACTOR` times the rollouts with independent seeds, of
  the taken and the best-looking action only (the reviewer's ``confirm``); the decision is
  judged on that sample (so the choice of the best action and its loss are not measured
  on the same noise, and a false alarm must pass the test twice);
* **mark**: ``blunder`` / ``mistake`` / ``inaccuracy`` when the loss reaches the reviewer's
  :class:`Thresholds`. A reviewer may raise a mark to a floor (Lama Express: a pass while
  an exit was available, E-7);
* per seat (:class:`SeatTotals`): decisions, total and mean loss, the number of each mark,
  and the **accuracy**: the percentage of the seat's decisions without a mark.

Errors are :class:`~lamagames.core.errors.RecordError` (one line each): not a record, an
unknown game or format version, a record that does not replay, ``player`` out of range, a
game without a reviewer (or one whose packages are missing).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from lamagames.core.errors import LamaError, ParameterError, RecordError
from lamagames.core.game import State
from lamagames.core.i18n import ENGLISH, Translator
from lamagames.core.records import GameRecord, iter_replay
from lamagames.core.spec import get_spec
from lamagames.sim.summary import seat_label

#: Name of the reviewer factory in a game's spec (``GameSpec.extras``).
REVIEW_EXTRA: Final = "review"
#: Losses below this (in the reviewer's unit) are ties: loss 0, the taken action is best.
TIE: Final = 1e-9
#: An estimated loss is marked only if it is at least this many standard errors.
MARK_Z: Final = 2.0
#: A mark on an estimate is confirmed by a fresh sample this many times larger (see
#: :func:`review_record`).
CONFIRM_FACTOR: Final = 4
#: The marks, worst first.
MARKS: Final = ("blunder", "mistake", "inaccuracy")


@dataclass(frozen=True)
class Thresholds:
    """Smallest loss (in the reviewer's unit) of each mark; ``inaccuracy < mistake <
    blunder``.

    Raises:
        ParameterError: the thresholds are not positive and increasing.
    """

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy < self.mistake < self.blunder:
            raise ParameterError("thresholds must be positive and increasing")

    def mark(self, loss: float) -> str | None:
        """The mark of ``loss``: ``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None``."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


@dataclass(frozen=True)
class ActionValue:
    """What one legal action is worth to the seat to act.

    Attributes:
        action: the action id; ``notation``: its notation.
        value: the reviewer's objective, higher is better (its ``unit``).
        level: what the chart plots for the seat after this action (LAMA Dice: expected
            score at the end of the round; Lama Express: win chance), or ``None``.
        samples: per-simulation values (simulation ``k`` of every action of the position
            on the same random numbers), ``None`` when ``exact``.
        exact: the value is exact (solved), not estimated.
    """

    action: int
    notation: str
    value: float
    level: float | None
    samples: tuple[float, ...] | None
    exact: bool


@dataclass(frozen=True)
class Floor:
    """The least mark of a move, whatever its estimated loss: ``mark``, the ``better``
    action id to name, and the plain ``words`` (``"You let an exit go here (E-7)"``: an
    English message id of the terminal's catalogs, translated where it is shown); ``named``
    the same words about a seat named ``{name}``, for a seat that is not the person reviewed
    (``"{name} let an exit go here (E-7)"``; ``None``: ``words`` serve for every seat)."""

    mark: str
    better: int
    words: str
    named: str | None = None


@dataclass(frozen=True)
class Evaluation:
    """Every legal action of a position with its value.

    Attributes:
        actions: one :class:`ActionValue` per legal action.
        basis: where the values come from, a short label (``"exact: two players"``,
            ``"estimate: 128 rollouts"``).
        floors: action id -> the :class:`Floor` of a move that earns a mark whatever its
            estimated loss (Lama Express: a pass that lets an exit go, E-7).
    """

    actions: list[ActionValue]
    basis: str
    floors: dict[int, Floor] = field(default_factory=dict)


class Reviewer(Protocol):
    """What a game's ``review`` extra makes (``make_reviewer(game, seed=..., rollouts=...)``).

    A reviewer with estimates should also have ``confirm(state, player, index, actions) ->
    Evaluation``: a fresh estimate of ``actions`` on :data:`CONFIRM_FACTOR` times the
    rollouts and independent seeds (used to confirm a loss, see the module docstring)."""

    #: The value's unit for people: ``"points"`` or ``"win chance"``.
    unit: str
    #: The thresholds of the marks, in ``unit``.
    thresholds: Thresholds
    #: The chart's y-axis label (what :attr:`ActionValue.level` is).
    level_label: str

    def evaluate(self, state: State, player: int, index: int) -> Evaluation:
        """Value every legal action of ``player`` (the seat to act) in ``state``, the
        position before action ``index`` of the record (seeds the rollouts)."""
        ...

    def loss_words(self, loss: float, best: str, tr: Translator = ENGLISH) -> str:
        """Plain words for a loss: ``"You lost about 6 points here: quitting was better"``
        (in the language of ``tr``)."""
        ...

    def amount(self, value: float, tr: Translator = ENGLISH) -> str:
        """A value or loss in plain words: ``"6 points"``, ``"12% win chance"``."""
        ...

    def move_words(self, notation: str, tr: Translator = ENGLISH) -> str:
        """A move as the subject of a sentence: ``"quitting"``, ``"exiting from car A3"``."""
        ...


@dataclass(frozen=True)
class Decision:
    """One reviewed decision (see the module docstring for the fields' meaning).

    ``index`` is the action's index in the record's ``actions``; ``seat`` counts from 0 (as
    in records), its JSON ``seat_label`` from 1 (``"Seat 1"``, as the text and ``--player``);
    ``level`` is the chart value after the taken action; ``words`` the plain sentence in
    English (the JSON's; :meth:`Review.words_in` gives it in another language); ``floor``
    the words of the :class:`Floor` that raised the mark, if any, and ``floor_named`` its
    words about a named seat (neither in the JSON).
    """

    index: int
    seat: int
    action: str
    best: str
    value: float
    best_value: float
    loss: float
    mark: str | None
    exact: bool
    stderr: float | None
    value_stderr: float | None
    level: float | None
    basis: str
    words: str
    floor: str | None = None
    floor_named: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``--json``'s ``"decisions"``."""
        return {
            "index": self.index,
            "seat": self.seat,
            "seat_label": seat_label(self.seat),
            "action": self.action,
            "best": self.best,
            "value": self.value,
            "best_value": self.best_value,
            "loss": self.loss,
            "mark": self.mark,
            "exact": self.exact,
            "stderr": self.stderr,
            "value_stderr": self.value_stderr,
            "level": self.level,
            "basis": self.basis,
            "words": self.words,
        }


@dataclass(frozen=True)
class SeatTotals:
    """Per-seat totals: decisions reviewed, total and mean loss (the reviewer's unit), the
    count of each mark, and the accuracy (percent of decisions without a mark; ``None``
    without decisions)."""

    seat: int
    name: str
    decisions: int
    total_loss: float
    mean_loss: float | None
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float | None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``--json``'s ``"seats"`` (``seat`` from 0, ``seat_label``
        ``"Seat 1"`` from 1)."""
        return {
            "seat": self.seat,
            "seat_label": seat_label(self.seat),
            "name": self.name,
            "decisions": self.decisions,
            "total_loss": self.total_loss,
            "mean_loss": self.mean_loss,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "accuracy": self.accuracy,
        }


@dataclass(frozen=True)
class Review:
    """A reviewed record: its decisions in game order and the per-seat totals.

    Attributes:
        game: The game id.
        title: The game's name.
        unit: The reviewer's unit of value (points or win chance).
        thresholds: The reviewer's mark thresholds.
        level_label: The reviewer's label for a decision's level.
        finished: Whether the record's game is over.
        actions: The number of recorded actions.
        names: The seats' names.
        decisions: The reviewed decisions, in game order.
        seats: Totals of the reviewed seats (all, or the one asked for).
        reviewer: The reviewer that made it (for :meth:`words_in`; not in the JSON), or
            ``None``.
    """

    game: str
    title: str
    unit: str
    thresholds: Thresholds
    level_label: str
    finished: bool
    actions: int
    names: list[str]
    decisions: list[Decision]
    seats: list[SeatTotals]
    reviewer: Any = field(default=None, compare=False, repr=False)

    def words_in(
        self, decision: Decision, tr: Translator = ENGLISH, *, who: str | None = None
    ) -> str:
        """The plain words of ``decision`` in the language of ``tr`` (:func:`decision_words`
        with the reviewer's words), addressed to the person reviewed (``"You lost ..."``),
        or about the seat named ``who`` (``"Bot 2 lost ..."``, for a seat that is not that
        person, issue 19); ``decision.words`` (English, "you") for English without ``who``
        or when the reviewer has no translated words."""
        if self.reviewer is None or not hasattr(self.reviewer, "move_words"):
            return decision.words
        if tr is ENGLISH and who is None:
            return decision.words
        floor = None if decision.floor is None else (decision.floor, decision.floor_named)
        return decision_words(
            self.reviewer,
            floor=floor,
            action=decision.action,
            best=decision.best,
            loss=decision.loss,
            mark=decision.mark,
            tr=tr,
            who=who,
        )

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``game``, ``unit``, ``thresholds``, ``finished``,
        ``decisions`` (game order) and ``seats``."""
        return {
            "game": self.game,
            "unit": self.unit,
            "thresholds": {
                "inaccuracy": self.thresholds.inaccuracy,
                "mistake": self.thresholds.mistake,
                "blunder": self.thresholds.blunder,
            },
            "mark_z": MARK_Z,
            "finished": self.finished,
            "actions": self.actions,
            "decisions": [d.to_json() for d in self.decisions],
            "seats": [s.to_json() for s in self.seats],
        }


def load_reviewer(game_id: str, *, seed: int = 0, rollouts: int | None = None) -> Any:
    """Make the reviewer of a game from its spec's ``extras["review"]`` factory.

    Raises:
        RecordError: an unknown game, a game without reviews, or a reviewer that needs a
            package that is not installed (the message says which extra to install).
    """
    try:
        spec = get_spec(game_id)
    except ParameterError as exc:
        raise RecordError(str(exc)) from None
    if REVIEW_EXTRA not in spec.extras:
        raise RecordError(f"{spec.title} has no reviews")
    missing = spec.extra_unavailable(REVIEW_EXTRA)
    if missing is not None:
        needs = missing.startswith("needs ")
        reason = "need " + missing.removeprefix("needs ") if needs else missing
        raise RecordError(f"{spec.title} reviews {reason}")
    try:
        factory = spec.load_extra(REVIEW_EXTRA)
    except ImportError as exc:
        raise RecordError(f"{spec.title} reviews: {exc}") from None
    return factory


def _stderr(samples: Sequence[float]) -> float:
    k = len(samples)
    if k < 2:
        return 0.0
    mean = sum(samples) / k
    return math.sqrt(sum((x - mean) ** 2 for x in samples) / (k - 1) / k)


def judge(
    evaluation: Evaluation, taken: int, thresholds: Thresholds
) -> tuple[ActionValue, ActionValue, float, float | None, float | None, str | None]:
    """The taken and best actions, the loss, its standard error, the taken value's
    standard error and the mark of one decision (rules in the module docstring).

    Raises:
        RecordError: the taken action is not among the evaluated ones.
    """
    by_id = {a.action: a for a in evaluation.actions}
    if taken not in by_id:
        raise RecordError(f"the reviewer did not value the action taken ({taken})")
    mine = by_id[taken]
    best = max(evaluation.actions, key=lambda a: a.value)
    if best.value - mine.value < TIE:
        best = mine
    loss = max(0.0, best.value - mine.value)
    exact = mine.exact and best.exact
    value_se = None if mine.exact or mine.samples is None else _stderr(mine.samples)
    if exact:
        stderr = None
        mark = thresholds.mark(loss)
    else:
        if best is mine:
            stderr = 0.0
        elif mine.samples is not None and best.samples is not None:
            stderr = _stderr([b - m for b, m in zip(best.samples, mine.samples, strict=True)])
        else:  # one side exact, the other estimated: the estimate's own error
            side = best if best.samples is not None else mine
            stderr = _stderr(side.samples or ())
        if loss < MARK_Z * stderr:  # within noise: the rollouts cannot tell them apart
            best, loss = mine, 0.0
        mark = thresholds.mark(loss)
    floor = evaluation.floors.get(taken)
    if floor is not None:
        if mark is None or MARKS.index(mark) > MARKS.index(floor.mark):
            mark = floor.mark
        if best is mine and floor.better in by_id:
            best = by_id[floor.better]
    return mine, best, loss, stderr, value_se, mark


def review_record(
    record: GameRecord,
    *,
    player: int | None = None,
    seed: int = 0,
    rollouts: int | None = None,
    reviewer: Any = None,
    progress: Callable[[int, int], object] | None = None,
) -> Review:
    """Review every decision of a record (of one seat, ``player``, counted from 0).

    Args:
        record: a validated record (:func:`lamagames.core.records.validate_record`); an
            unfinished game is reviewed up to its last action (``Review.finished`` False).
        player: the seat to review, or ``None`` for all.
        seed: root seed of the rollouts (same seed, same review).
        rollouts: simulations per action where values are estimated (``None``: the
            reviewer's default).
        reviewer: a ready reviewer (tests); default the game's, from its spec.
        progress: called with ``(done, total)`` actions after each recorded action.

    Raises:
        RecordError: the record does not replay, ``player`` is out of range, or the game
            has no reviewer (see :func:`load_reviewer`).
    """
    n = len(record.seats)
    if player is not None and not (type(player) is int and 0 <= player < n):
        shown = player + 1 if type(player) is int else player
        raise RecordError(f"--player {shown}: the game has {n} seats; choose 1 to {n}")
    states = list(iter_replay(record))  # checks the whole record before any work
    if reviewer is None:
        factory = load_reviewer(record.game)
        try:
            reviewer = factory(states[0].game, seed=seed, rollouts=rollouts)
        except LamaError as exc:
            raise RecordError(str(exc)) from None
    decisions: list[Decision] = []
    total = len(record.actions)
    for index, entry in enumerate(record.actions):
        state = states[index]
        seat = entry.player
        if seat >= 0 and (player is None or seat == player):
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                taken = state.string_to_action(entry.action, seat)
                decisions.append(_decision(reviewer, state, seat, index, taken))
        if progress is not None:
            progress(index + 1, total)
    seats = [s for s in range(n) if player is None or s == player]
    names = [seat.name for seat in record.seats]
    totals = [_totals(s, names[s], [d for d in decisions if d.seat == s]) for s in seats]
    spec = get_spec(record.game)
    return Review(
        game=record.game,
        title=spec.title,
        unit=reviewer.unit,
        thresholds=reviewer.thresholds,
        level_label=reviewer.level_label,
        finished=states[-1].is_terminal(),
        actions=total,
        names=names,
        decisions=decisions,
        seats=totals,
        reviewer=reviewer,
    )


def _decision(reviewer: Any, state: State, seat: int, index: int, taken: int) -> Decision:
    evaluation: Evaluation = reviewer.evaluate(state, seat, index)
    mine, best, loss, stderr, value_se, mark = judge(evaluation, taken, reviewer.thresholds)
    if loss > 0 and not (mine.exact and best.exact) and hasattr(reviewer, "confirm"):
        # The best-looking action was picked by the same noisy sample that measured the loss:
        # judge it again on a fresh, larger one (only the two actions, and a floor's).
        floor = evaluation.floors.get(taken)
        wanted = list(dict.fromkeys([taken, best.action, *([floor.better] if floor else [])]))
        fresh: Evaluation = reviewer.confirm(state, seat, index, wanted)
        evaluation = Evaluation(fresh.actions, fresh.basis, evaluation.floors)
        mine, best, loss, stderr, value_se, mark = judge(evaluation, taken, reviewer.thresholds)
    exact = mine.exact and best.exact
    floor = evaluation.floors.get(taken)
    floor_words = None if floor is None else floor.words
    floor_named = None if floor is None else floor.named
    words = decision_words(
        reviewer, floor=None if floor is None else (floor.words, floor.named),
        action=mine.notation, best=best.notation, loss=loss, mark=mark,
    )  # fmt: skip
    return Decision(
        index=index,
        seat=seat,
        action=mine.notation,
        best=best.notation,
        value=mine.value,
        best_value=best.value,
        loss=loss,
        mark=mark,
        exact=exact,
        stderr=stderr,
        value_stderr=value_se,
        level=mine.level,
        basis=evaluation.basis,
        words=words,
        floor=floor_words,
        floor_named=floor_named,
    )


def decision_words(
    reviewer: Any,
    *,
    floor: tuple[str, str | None] | None,
    action: str,
    best: str,
    loss: float,
    mark: str | None,
    tr: Translator = ENGLISH,
    who: str | None = None,
) -> str:
    """The plain sentence of one decision in the language of ``tr``: a floor's reason and
    the better move (``"You let an exit go here (E-7): exiting from car A3 was better."``),
    ``"Good: the best move here."``, ``"About as good as quitting (the difference is
    small)."`` or the reviewer's ``loss_words`` (``"You lost about 6 points here: quitting
    was better."``). Moves are named by the reviewer's ``move_words`` (the notation for a
    reviewer without them). With ``who`` the sentence is about the seat of that name, not
    "you": ``"Bot 2 lost about 6 points here: quitting was better."``. ``floor``: the
    floor's words and its words about a named seat (``None``: its words serve for every
    seat), or ``None`` for a decision without a floor."""
    _ = tr.gettext

    def move(notation: str) -> str:
        if hasattr(reviewer, "move_words"):
            return str(reviewer.move_words(notation, tr))
        return notation

    if floor is not None:
        floor_words, floor_named = floor
        if who is not None and floor_named is not None:
            reason = _(floor_named).format(name=who)
        else:
            reason = _(floor_words)
        return _("{reason}: {move} was better.").format(reason=reason, move=move(best))
    if best == action:
        return _("Good: the best move here.")
    if mark is None:
        return _("About as good as {move} (the difference is small).").format(move=move(best))
    if who is not None and hasattr(reviewer, "amount"):
        amount = reviewer.amount(loss) if tr is ENGLISH else reviewer.amount(loss, tr)
        return _("{name} lost {amount} here: {move} was better.").format(
            name=who, amount=amount, move=move(best)
        )
    words = (
        reviewer.loss_words(loss, best) if tr is ENGLISH else reviewer.loss_words(loss, best, tr)
    )
    return f"{words}."


def _totals(seat: int, name: str, decisions: list[Decision]) -> SeatTotals:
    count = len(decisions)
    total = sum(d.loss for d in decisions)
    marks = [d.mark for d in decisions]
    clean = sum(1 for m in marks if m is None)
    return SeatTotals(
        seat=seat,
        name=name,
        decisions=count,
        total_loss=total,
        mean_loss=total / count if count else None,
        inaccuracies=marks.count("inaccuracy"),
        mistakes=marks.count("mistake"),
        blunders=marks.count("blunder"),
        accuracy=100.0 * clean / count if count else None,
    )
