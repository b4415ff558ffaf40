"""LAMA Dice batch engine: many games as NumPy arrays, rules compiled with Numba.

The same rules (D-1 .. D-11), action ids and chance outcome ids as the scalar engine
(:mod:`lamagames.dice.game`, ``docs/dice.md``), for research at scale:

* :func:`init` makes a :class:`DiceBatchState` of ``B`` games from per-game seeds,
  :func:`current_player`, :func:`legal_mask`, :func:`step` and :func:`policy_actions` move
  them on together (an OpenSpiel-style loop with the batch as the first axis);
* :func:`play` runs whole games inside the kernel with the in-kernel policies ``random``,
  ``benchmark`` (the policy of :class:`lamagames.bots.dice.DiceBenchmarkBot`) and
  ``heuristic`` (the decisions of :class:`lamagames.bots.dice.DiceHeuristicBot`,
  :mod:`lamagames.dice.batch_heuristic`) and returns
  :class:`~lamagames.core.batch.BatchResults`;
  :func:`play_traced` also returns every game's ``(player, action)`` trace, which replays
  through the scalar engine action for action;
* :data:`ENGINE` is this game's :class:`~lamagames.core.batch.BatchEngine` for
  ``lama simulate``.

Chance comes only from each game's seed (SplitMix64: stream 0 for chance, stream 1 for the
random policy), so game ``g`` is the same whatever else is in the batch. The first call of
each kernel compiles it (a few seconds); the machine code is cached on disk next to the
modules (``lamagames/dice/__pycache__``, or ``$NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from lamagames.core.batch import BatchResults, check_policies
from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.dice import batch_kernel as K
from lamagames.dice.actions import DISCARDS, HANDS, NUM_ROLLS, NUM_SYMBOLS
from lamagames.dice.batch_heuristic import roll_table
from lamagames.dice.batch_play import (
    Results,
    Tables,
    TraceArrays,
    init_states,
    legal_masks,
    new_seats,
    play_games,
    step_states,
)
from lamagames.dice.batch_play import (
    policy_actions as _policy_actions,
)
from lamagames.dice.game import DiceGame
from lamagames.dice.rules import Phase

#: Names of the in-kernel policies, in code order (the code is the index).
POLICIES: Final = ("random", "benchmark", "heuristic")


def _tables() -> tuple[npt.NDArray[Any], ...]:
    """Lookup tables between count vectors and the scalar engine's ids (docs/dice.md)."""
    hand_ids = np.full(7**NUM_SYMBOLS, -1, dtype=np.int16)
    hand_counts = np.zeros((NUM_ROLLS + len(HANDS), NUM_SYMBOLS), dtype=np.int8)
    for i, hand in enumerate(HANDS):
        hand_ids[sum(c * 7**s for s, c in enumerate(hand))] = NUM_ROLLS + i
        hand_counts[NUM_ROLLS + i] = hand
    discard_ids = np.full(4**NUM_SYMBOLS, -1, dtype=np.int16)
    discard_counts = np.zeros((K.NUM_ACTIONS, NUM_SYMBOLS), dtype=np.int8)
    for i, counts in enumerate(DISCARDS):
        discard_ids[sum(c * 4**s for s, c in enumerate(counts))] = K.A_DISCARD + i
        discard_counts[K.A_DISCARD + i] = counts
    return hand_ids, hand_counts, discard_ids, discard_counts


#: count code (sum counts[s] * 7**s) -> deal outcome id; deal id -> counts; discard code
#: (sum counts[s] * 4**s) -> discard action id; action id -> discarded counts.
HAND_IDS, HAND_COUNTS, DISCARD_IDS, DISCARD_COUNTS = _tables()


def check_params(num_players: int, params: Mapping[str, Any]) -> dict[str, Any]:
    """Validate LAMA Dice rule parameters exactly as :class:`DiceGame` does.

    Args:
        num_players: 2..6 seats.
        params: any of ``end_score`` (points, D-11), ``dice`` (three face strings, D-1),
            ``starting_seat`` (D-5).

    Returns:
        ``{"num_players", "dice", "end_score", "starting_seat"}`` with defaults filled in.

    Raises:
        ParameterError: an unknown name, or a value :class:`DiceGame` refuses.
    """
    known = ("end_score", "dice", "starting_seat")
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ParameterError(
            f"unknown LAMA Dice parameter(s) {', '.join(unknown)}; known: {', '.join(known)}"
        )
    game = DiceGame(num_players=num_players, **dict(params))
    return game.params


def _faces(params: Mapping[str, Any]) -> npt.NDArray[np.int8]:
    """Dice faces as symbol indices, int8 ``(3, 6)`` (validated by D-1)."""
    return _dice_tables(tuple(params["dice"]))[0]


@functools.lru_cache(maxsize=16)
def _dice_tables(
    dice: tuple[str, ...],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8], Any]:
    """Faces (int8 ``(3, 6)``) and the heuristic's roll table (``rvec``, ``rsym``, ``rp``,
    :func:`lamagames.dice.batch_heuristic.roll_table`) of a face set (validated, D-1)."""
    game = DiceGame(num_players=2, dice=list(dice))
    faces = np.array(game.dice_faces, dtype=np.int8)
    return (faces, *roll_table(game.roll_outcomes))


def heuristic_tables(
    params: Mapping[str, Any],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.float64]]:
    """The roll table of the in-kernel heuristic for these parameters' dice (D-1):
    ``rvec`` int8 ``(R, 7)``, ``rsym`` int8 ``(R, 3)``, ``rp`` float64 ``(R,)``."""
    _, rvec, rsym, rp = _dice_tables(tuple(params["dice"]))
    return rvec, rsym, rp


@dataclass(slots=True)
class DiceBatchState:
    """``B`` LAMA Dice games with ``n`` seats each (row ``g`` of every array is game ``g``).

    Attributes:
        params: the rule parameters (:func:`check_params` output) shared by all games.
        ctrl: int32 ``(B, 6)``: phase (the scalar engine's numbers: 0 deal, 1 turn, 2 dice,
            3 discard, 4 take, 5 give after three llamas, 6 give after an empty row,
            7 over), seat to act, round starter (D-5), last seat that rolled or quit,
            next seat to be dealt, round number from 1.
        dice: int8 ``(B, 3)``: symbols (0..5 numbers 1..6, 6 llama) of dice A, B, C while
            a roll is shown, else -1.
        scores: int32 ``(B, n)``: scores in points (chips, D-4).
        rows: int8 ``(B, n, 7)``: each seat's row as counts of symbols 1..6, L.
        quit: bool ``(B, n)``: the seat has quit this round (D-7).
        llama_row: int8 ``(B, 7)``: llama-row cards present (0/1 per symbol, D-3).
        setaside: int8 ``(B, 7)``: deck cards not dealt this round, per symbol.
        discards: int8 ``(B, 7)``: cards discarded this round, per symbol.
        give: bool ``(B, n)``: seats still to be asked to give back a chip after a round
            that emptied their row (D-10), asked in seat order.
        round_points: int32 ``(B, n)``: sum of minus points scored in finished rounds,
            before give-backs (D-10).
        rng: uint64 ``(B, 2)``: SplitMix64 states of the chance stream and the random
            policy's stream.
    """

    params: dict[str, Any]
    ctrl: npt.NDArray[np.int32]
    dice: npt.NDArray[np.int8]
    scores: npt.NDArray[np.int32]
    rows: npt.NDArray[np.int8]
    quit: npt.NDArray[np.bool_]
    llama_row: npt.NDArray[np.int8]
    setaside: npt.NDArray[np.int8]
    discards: npt.NDArray[np.int8]
    give: npt.NDArray[np.bool_]
    round_points: npt.NDArray[np.int32]
    rng: npt.NDArray[np.uint64]

    @property
    def batch_size(self) -> int:
        """Number of games ``B``."""
        return int(self.ctrl.shape[0])

    @property
    def phase(self) -> npt.NDArray[np.int32]:
        """int32 ``(B,)``: phase of each game (see :attr:`ctrl`)."""
        return self.ctrl[:, K.PHASE]

    @property
    def round(self) -> npt.NDArray[np.int32]:
        """int32 ``(B,)``: round number of each game, from 1."""
        return self.ctrl[:, K.ROUND]

    def is_terminal(self) -> npt.NDArray[np.bool_]:
        """bool ``(B,)``: the game is over (D-11)."""
        return np.equal(self.phase, Phase.OVER)

    def _arrays(self) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any]:
        return (
            self.ctrl, self.dice, self.scores, self.rows, self.quit, self.llama_row,
            self.setaside, self.discards, self.give, self.round_points, self.rng,
        )  # fmt: skip


def _seeds(seeds: npt.ArrayLike) -> npt.NDArray[np.uint64]:
    """Seeds as uint64 ``(G,)``; an empty sequence is an empty batch (``G = 0``).

    Raises:
        ParameterError: not a 1-D array of non-negative integers.
    """
    array = np.asarray(seeds)
    if array.ndim == 1 and array.size == 0:
        return np.zeros(0, dtype=np.uint64)
    if array.ndim != 1 or not (array.dtype.kind in "ui" and (array >= 0).all()):
        raise ParameterError("seeds must be a 1-D array of non-negative integers")
    return np.ascontiguousarray(array, dtype=np.uint64)


def _full_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`check_params` of a parameter dict that includes ``num_players``.

    Raises:
        ParameterError: ``params`` is not a mapping, has no ``num_players``, or holds a
            value :func:`check_params` refuses.
    """
    if not isinstance(params, Mapping):
        raise ParameterError(f"params must be a dict of rule parameters, got {params!r}")
    if "num_players" not in params:
        raise ParameterError(
            "params has no num_players (2..6 seats); pass the output of check_params"
        )
    rest = {k: v for k, v in params.items() if k != "num_players"}
    return check_params(params["num_players"], rest)


def init(seeds: npt.ArrayLike, params: Mapping[str, Any] | None = None) -> DiceBatchState:
    """``len(seeds)`` games before their first deal, game ``g`` drawing from ``seeds[g]``.

    Args:
        seeds: 1-D non-negative integers (uint64), one per game; empty for an empty batch.
        params: :func:`check_params` output (default: 3 players, standard rules).

    Raises:
        ParameterError: bad seeds, or parameters without ``num_players`` or with a value
            :func:`check_params` refuses.
    """
    full = check_params(3, {}) if params is None else _full_params(params)
    seeds_u = _seeds(seeds)
    b, n = len(seeds_u), full["num_players"]
    state = DiceBatchState(
        params=full,
        ctrl=np.zeros((b, K.CTRL_SIZE), dtype=np.int32),
        dice=np.zeros((b, 3), dtype=np.int8),
        scores=np.zeros((b, n), dtype=np.int32),
        rows=np.zeros((b, n, NUM_SYMBOLS), dtype=np.int8),
        quit=np.zeros((b, n), dtype=np.bool_),
        llama_row=np.zeros((b, NUM_SYMBOLS), dtype=np.int8),
        setaside=np.zeros((b, NUM_SYMBOLS), dtype=np.int8),
        discards=np.zeros((b, NUM_SYMBOLS), dtype=np.int8),
        give=np.zeros((b, n), dtype=np.bool_),
        round_points=np.zeros((b, n), dtype=np.int32),
        rng=np.zeros((b, 2), dtype=np.uint64),
    )
    init_states(seeds_u, full["starting_seat"], state._arrays())
    return state


def current_player(states: DiceBatchState) -> npt.NDArray[np.int32]:
    """int32 ``(B,)``: the seat to act, -1 at a chance node, -4 once the game is over
    (the core protocol's ``CHANCE_PLAYER`` and ``TERMINAL_PLAYER``)."""
    phase = states.phase
    out = states.ctrl[:, K.PLAYER].copy()
    out[(phase == Phase.DEAL) | (phase == Phase.DICE)] = -1
    out[phase == Phase.OVER] = -4
    return out


def legal_mask(states: DiceBatchState) -> npt.NDArray[np.bool_]:
    """bool ``(B, 131)``: ``mask[g, a]`` = player action ``a`` (docs/dice.md ids) is legal
    for the seat to act in game ``g``; all False at chance nodes and finished games."""
    mask = np.zeros((states.batch_size, K.NUM_ACTIONS), dtype=np.bool_)
    s = states
    legal_masks(s.ctrl, s.dice, s.scores, s.rows, s.llama_row, DISCARD_IDS, mask)
    return mask


_ERRORS: Final = {
    K.ERR_ILLEGAL: "is not a legal action of the seat to act",
    K.ERR_CHANCE: "is not a possible chance outcome here (use -1 to draw one)",
    K.ERR_OVER: "was given for a finished game (give -1)",
}


def step(states: DiceBatchState, actions: npt.ArrayLike) -> None:
    """Apply one action to every game, in place.

    Args:
        states: the batch.
        actions: integers ``(B,)`` (empty for an empty batch): at a seat's decision a
            player action id; at a chance node a chance outcome id (docs/dice.md) or -1 to
            draw it from the game's own chance stream; -1 for a finished game.

    Raises:
        InvalidActionError: ``actions`` is not ``B`` integers.
        IllegalActionError: some action is not legal (naming the first such game, the
            action and what is legal); then no game changes.
    """
    array = np.asarray(actions)
    if states.batch_size == 0 and array.shape == (0,):  # [] is float64 to NumPy
        array = array.astype(np.int32)
    if array.shape != (states.batch_size,) or array.dtype.kind not in "ui":
        raise InvalidActionError(
            f"actions must be {states.batch_size} integers, got shape {array.shape} "
            f"of {array.dtype}"
        )
    if array.size and (array.min() < -1 or array.max() >= K.NUM_OUTCOMES):
        raise InvalidActionError("actions must be -1 or ids in 0..1266")
    err = np.zeros(2, dtype=np.int32)
    step_states(
        np.ascontiguousarray(array, dtype=np.int32), states.params["end_score"],
        (_faces(states.params), HAND_IDS, HAND_COUNTS, DISCARD_IDS, DISCARD_COUNTS),
        states._arrays(), err,
    )  # fmt: skip
    if err[1] != K.OK:
        g = int(err[0])
        legal = np.flatnonzero(legal_mask(states)[g]).tolist()
        raise IllegalActionError(
            f"game {g}: action {int(array[g])} {_ERRORS[int(err[1])]}"
            + (f"; legal: {legal}" if legal else "")
        )


def policy_codes(policies: Sequence[str], num_players: int) -> npt.NDArray[np.int8]:
    """int8 ``(n,)`` codes of policy names (index in :data:`POLICIES`).

    Raises:
        ParameterError: ``policies`` is a single string or not a sequence, or not one known
            policy per seat.
    """
    check_policies(policies, num_players, POLICIES)
    return np.array([POLICIES.index(p) for p in policies], dtype=np.int8)


def policy_actions(states: DiceBatchState, policies: Sequence[str]) -> npt.NDArray[np.int32]:
    """int32 ``(B,)``: the action each game's seat to act takes under its policy (-1 at
    chance nodes and finished games). Random choices advance the games' policy streams.

    Raises:
        ParameterError: ``policies`` is not a sequence of one known policy name per seat
            (then no stream advances).
    """
    codes = policy_codes(policies, states.params["num_players"])
    out = np.zeros(states.batch_size, dtype=np.int32)
    s = states
    _policy_actions(codes, s._arrays(), DISCARD_IDS, heuristic_tables(s.params), out)
    return out


@dataclass(frozen=True, slots=True)
class Trace:
    """Every game's actions in order, as recorded by :func:`play_traced`.

    Attributes:
        player: int8 ``(G, capacity)``: seat that acted, -1 for a chance outcome.
        action: int16 ``(G, capacity)``: player action id or chance outcome id.
        length: int32 ``(G,)``: actions in game ``g`` (entries past ``capacity`` are not
            kept: check ``length <= capacity``).
    """

    player: npt.NDArray[np.int8]
    action: npt.NDArray[np.int16]
    length: npt.NDArray[np.int32]


def play_traced(
    seeds: npt.ArrayLike,
    policies: Sequence[str],
    params: Mapping[str, Any],
    capacity: int = 0,
) -> tuple[BatchResults, Trace]:
    """Play whole games in the kernel and keep up to ``capacity`` actions of each.

    Args:
        seeds: one non-negative integer per game (empty: no game, empty results).
        policies: a sequence of one in-kernel policy name per seat (:data:`POLICIES`).
        params: :func:`check_params` output (``num_players`` included).
        capacity: trace entries kept per game (0: none).

    Returns:
        The results (``extra``: ``round_points`` int32 ``(G, n)``, summed minus points of
        finished rounds before give-backs; ``decisions`` int32 ``(G,)``, actions chosen by
        seats) and the trace.

    Raises:
        ParameterError: bad seeds, parameters (``num_players`` missing) or policies, or a
            capacity that is not a non-negative integer.
    """
    full = _full_params(params)
    n = full["num_players"]
    codes = policy_codes(policies, n)
    seeds_u = _seeds(seeds)
    if isinstance(capacity, bool) or not isinstance(capacity, int | np.integer) or capacity < 0:
        raise ParameterError(f"capacity must be a non-negative integer, got {capacity!r}")
    capacity = int(capacity)
    g = len(seeds_u)
    scores = np.zeros((g, n), dtype=np.int32)
    wins = np.zeros((g, n), dtype=np.int8)
    length = np.zeros(g, dtype=np.int32)
    rpts = np.zeros((g, n), dtype=np.int32)
    decisions = np.zeros(g, dtype=np.int32)
    trace = Trace(
        player=np.zeros((g, capacity), dtype=np.int8),
        action=np.zeros((g, capacity), dtype=np.int16),
        length=np.zeros(g, dtype=np.int32),
    )
    play_games(
        seeds_u, full["starting_seat"], full["end_score"], new_seats(codes),
        Tables(
            _faces(full), HAND_IDS, HAND_COUNTS, DISCARD_IDS, DISCARD_COUNTS,
            *heuristic_tables(full),
        ),
        Results(scores, wins, length, rpts, decisions),
        TraceArrays(trace.player, trace.action, trace.length),
    )  # fmt: skip
    results = BatchResults(
        scores=scores,
        wins=wins,
        length=length,
        starter=np.full(g, full["starting_seat"], dtype=np.int8),
        finished=np.ones(g, dtype=np.bool_),
        extra={"round_points": rpts, "decisions": decisions},
    )
    return results, trace


def play(seeds: npt.ArrayLike, policies: Sequence[str], params: Mapping[str, Any]) -> BatchResults:
    """Play whole games in the kernel (see :func:`play_traced`, without the trace)."""
    return play_traced(seeds, policies, params, 0)[0]


class DiceStepper:
    """The step API of :func:`init` / :func:`step` in the form
    :func:`lamagames.core.testing.check_batch_engine` drives: seat decisions come from the
    caller, chance outcomes are drawn from each game's chance stream and recorded.

    Args:
        params: :func:`check_params` output.
    """

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = dict(params)
        #: The scalar game of the same parameters.
        self.game = DiceGame(**self.params)
        self._faces = _faces(self.params)
        self._history: list[list[tuple[int, int]]] = []

    def init(self, seeds: npt.ArrayLike) -> DiceBatchState:
        """The games before their first deal, run to the first seat decision."""
        states = init(seeds, self.params)
        self._history = [[] for _ in range(states.batch_size)]
        self._chance(states)
        return states

    def _chance(self, states: DiceBatchState) -> None:
        """Apply chance outcomes from each game's stream until every game waits for a seat."""
        while True:
            phase = states.phase
            chance = np.flatnonzero((phase == Phase.DEAL) | (phase == Phase.DICE))
            if chance.size == 0:
                return
            for g in chance:
                outcome = K.sample_chance(
                    states.ctrl[g], states.setaside[g], states.rng[g], self._faces, HAND_IDS
                )
                self._history[g].append((-1, int(outcome)))
                K.apply_chance(
                    states.ctrl[g], states.dice[g], states.scores[g], states.rows[g],
                    states.quit[g], states.llama_row[g], states.setaside[g],
                    states.discards[g], states.give[g], states.round_points[g], outcome,
                    HAND_COUNTS, self.params["end_score"],
                )  # fmt: skip

    def legal_mask(self, states: DiceBatchState) -> npt.NDArray[np.bool_]:
        """See :func:`legal_mask`."""
        return legal_mask(states)

    def done(self, states: DiceBatchState) -> npt.NDArray[np.bool_]:
        """bool ``(B,)``: the game is over."""
        return states.is_terminal()

    def step(self, states: DiceBatchState, actions: npt.ArrayLike) -> None:
        """Apply one seat action per unfinished game (-1 for finished ones), then chance."""
        acts = np.asarray(actions)
        players = current_player(states)
        step(states, acts)
        for g in np.flatnonzero(players >= 0):
            self._history[g].append((int(players[g]), int(acts[g])))
        self._chance(states)

    def history(self, states: DiceBatchState, g: int) -> list[tuple[int, int]]:
        """Game ``g``'s ``(player, action)`` pairs so far (player -1: chance)."""
        return list(self._history[g])

    def state_dict(self, states: DiceBatchState, g: int) -> dict[str, Any]:
        """Game ``g`` as the matching entries of :meth:`DiceState.to_dict`."""
        ctrl = states.ctrl[g]
        dice = states.dice[g]
        return {
            "phase": int(ctrl[K.PHASE]),
            "player": int(ctrl[K.PLAYER]),
            "starter": int(ctrl[K.STARTER]),
            "last_actor": int(ctrl[K.LAST_ACTOR]),
            "deal_seat": int(ctrl[K.DEAL_SEAT]),
            "round": int(ctrl[K.ROUND]),
            "dice": None if dice[0] < 0 else [int(x) for x in dice],
            "scores": states.scores[g].tolist(),
            "rows": states.rows[g].tolist(),
            "quit": states.quit[g].tolist(),
            "llama_row": states.llama_row[g].tolist(),
            "setaside": states.setaside[g].tolist(),
            "discards": states.discards[g].tolist(),
        }


class DiceBatchEngine:
    """:class:`~lamagames.core.batch.BatchEngine` of LAMA Dice for ``lama simulate``.

    Scores are minus points (lowest wins, D-11); length is rounds per game; ``extra`` holds
    ``round_points`` and ``decisions`` (see :func:`play_traced`).
    """

    game_id = "dice"
    min_players = 2
    max_players = 6
    policies: tuple[str, ...] = POLICIES
    score_name = "points"
    lower_score_wins = True
    length_name = "rounds"

    #: Parameter variants :func:`lamagames.core.testing.check_batch_engine` plays.
    check_variants: tuple[dict[str, Any], ...] = (
        {},
        {"end_score": 12, "starting_seat": 1},
        {"dice": ["LL1234", "LL3456", "LL5612"]},
    )

    def check_params(self, num_players: int, params: Mapping[str, Any]) -> dict[str, Any]:
        """See :func:`check_params`."""
        return check_params(num_players, params)

    def stepper(self, num_players: int, params: Mapping[str, Any]) -> DiceStepper:
        """The step API for :func:`lamagames.core.testing.check_batch_engine`."""
        return DiceStepper(check_params(num_players, params))

    def play(
        self,
        seeds: npt.NDArray[np.uint64],
        policies: Sequence[str],
        params: Mapping[str, Any],
    ) -> BatchResults:
        """See :func:`play`."""
        return play(seeds, policies, params)


#: The engine ``lama simulate`` finds through the ``batch`` extra of ``lamagames.dice.spec``.
ENGINE: Final = DiceBatchEngine()
