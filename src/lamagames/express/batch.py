"""Lama Express batch engine: many games at once as NumPy arrays, stepped by Numba kernels.

The same rules as :class:`lamagames.express.game.ExpressState` (docs/rules.md E-2 .. E-11) with
turn-by-turn windows (E-9) and the same action encoding (:mod:`lamagames.express.actions`:
0 ``pass``, 1/2 ``move A/B``, 3..42 free actions ``3 + 10 * kind + 5 * train + car - 1``).
States are struct-of-arrays over a batch of ``B`` games (:class:`ExpressBatchState`); the
kernels live in :mod:`lamagames.express.batch_kernels` (``numba.njit(cache=True)``).

Chance nodes never rest in a batch state: every die roll (E-6) is drawn at once from the
game's own chance stream, seeded by its entry of ``seeds``, so a batch state always waits
for a seat's decision or is over. The built-in policies (``random``: uniform among the legal
actions; ``benchmark``: exactly :class:`lamagames.bots.express.ExpressBenchmarkBot`) draw
from a second per-game stream; ``heuristic`` makes exactly the choices of
:class:`lamagames.bots.express.ExpressHeuristicBot` (no randomness; its look-ahead plays the
batch kernels' rules on a one-row scratch state). With ``trace_length > 0`` every game logs its
``(player, action)`` pairs, chance as player -1, the format of
:meth:`lamagames.core.game.State.history`, so any game replays through the scalar engine.

Example::

    engine = ExpressBatch(num_players=4)
    states = engine.init(np.arange(1000))
    engine.play(states, ["benchmark"] * 4)
    states.winner, states.rolls, states.house
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from lamagames.core.batch import BatchResults, check_policies
from lamagames.core.errors import (
    BoardError,
    IllegalActionError,
    InvalidActionError,
    ParameterError,
)
from lamagames.express import batch_kernels
from lamagames.express.actions import NUM_DISTINCT_ACTIONS, TRAIN_NAMES
from lamagames.express.board import Board, load_board
from lamagames.express.game import (
    DEFAULT_LLAMAS_TO_WIN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SHORT_GAME_LLAMAS,
    ExpressGame,
)
from lamagames.express.material import DIE_COLOURS, NUM_DIE_COLOURS, PASSENGER_CARS, ROLE_NONE
from lamagames.express.primitives import car_space
from lamagames.express.rules import PHASE_NAMES, STAGE_NAMES, Phase
from lamagames.express.state import ExpressState

#: Turn limit (die rolls, E-11) of bots-only games in the CLI, the default here too.
DEFAULT_TURN_LIMIT: Final = 2000
#: The Numba kernels (typed by numba at compile time, untyped for mypy).
k: Any = batch_kernels
#: Built-in policies by name (the kernels' ``POLICY_*`` codes).
POLICIES: Final[dict[str, int]] = {
    "random": k.POLICY_RANDOM,
    "benchmark": k.POLICY_BENCHMARK,
    "heuristic": k.POLICY_HEURISTIC,
}
I32 = npt.NDArray[np.int32]
U64 = npt.NDArray[np.uint64]
# Unused arguments of the entry kernel (one signature for all modes).
_NO_SEEDS: Final = np.zeros(0, np.uint64)
_NO_ACTIONS: Final = np.zeros(0, np.int32)
_NO_POLICIES: Final = np.zeros(0, np.int32)
_NO_SETUP: Final = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class BatchTables:
    """A validated board (E-3, E-12) and seating as lookup arrays for the kernels.

    Attributes:
        length: number of track spaces ``N``.
        next_dist: int32 ``(6, N)``: spaces from tip ``t`` to the next space of die colour
            ``c`` strictly ahead (E-6), ``1..N``.
        car_role: int32 ``(N, 5)``: role (``ROLE_*`` of :mod:`lamagames.express.board`) of the
            space of car ``c`` (0-based) of a train whose tip is ``t``: ``t - 3 - c`` (E-2).
        car_index: int32 ``(N, 5)``: station index (boarding, exit) or footpath index
            (arrow, re-boarding) of that space, -1 on plain spaces.
        car_need: int32 ``(N, 5)``: progress needed to exit there (E-8), 0 elsewhere.
        station_seat: int32 ``(4,)``: seat at each station (clockwise), -1 inert (E-4).
        fp_cap: int32 ``(F,)``: footprints of each footpath (track order).
        walk_back: int32 ``(F,)``: spaces walked back on each footpath (E-8).
        lap_range: int32 ``(P, 2)``: the smallest and the largest progress seat ``s`` needs
            to exit at one of its station's exits (E-8, ``ExpressState.lap_need``), for the
            in-kernel heuristic's position values.
        specials: int32 ``(N, K, 6)``: the scalar game's ``car_specials`` as a table (the
            ``specials`` of :func:`lamagames.express.primitives.available`): for tip ``t``
            the cars on role spaces, ``(car, role, index, need, seat, cap)``, then rows of
            role ``ROLE_NONE``; ``K`` the most cars on role spaces at any tip (at least 1).
        setup: tips of trains A and B at setup (E-5).
    """

    length: int
    next_dist: I32
    car_role: I32
    car_index: I32
    car_need: I32
    station_seat: I32
    fp_cap: I32
    walk_back: I32
    lap_range: I32
    specials: I32
    setup: tuple[int, int]

    @classmethod
    def from_game(cls, game: ExpressGame) -> BatchTables:
        """Tables of a scalar game's board and seating."""
        board = game.board
        n = board.length
        car_role = np.zeros((n, PASSENGER_CARS), np.int32)
        car_index = np.full((n, PASSENGER_CARS), -1, np.int32)
        car_need = np.zeros((n, PASSENGER_CARS), np.int32)
        for tip in range(n):
            for c in range(PASSENGER_CARS):
                space = car_space(tip, c, n)
                car_role[tip, c] = board.role[space]
                car_index[tip, c] = board.role_index[space]
                car_need[tip, c] = board.exit_need[space]
        start = game.new_initial_state()
        needs = [
            [start.lap_need(seat, e) for e in board.stations[station].exits]
            for seat, station in enumerate(game.seat_station)
        ]
        lap_range = np.array([(min(x), max(x)) for x in needs], np.int32)
        depth = max(1, *(len(row) for row in game.car_specials))
        specials = np.full((n, depth, 6), ROLE_NONE, np.int32)  # unused rows: ROLE_NONE
        for tip, row in enumerate(game.car_specials):
            if row:
                specials[tip, : len(row)] = row
        return cls(
            length=n,
            next_dist=np.array(board.next_distance, np.int32).reshape(NUM_DIE_COLOURS, n),
            car_role=car_role,
            car_index=car_index,
            car_need=car_need,
            station_seat=np.array(game.station_seat, np.int32),
            fp_cap=np.array([f.length for f in board.footpaths], np.int32),
            walk_back=np.array([f.walk_back for f in board.footpaths], np.int32),
            lap_range=lap_range,
            specials=specials,
            setup=game.setup_tips(),
        )

    def arrays(self) -> tuple[I32, ...]:
        """The kernels' board arguments, in their order."""
        return (
            self.next_dist,
            self.car_role,
            self.car_index,
            self.car_need,
            self.station_seat,
            self.fp_cap,
            self.walk_back,
            self.lap_range,
            self.specials,
        )


@dataclass(slots=True)
class ExpressBatchState:
    """``B`` Lama Express games as arrays (row ``g`` is game ``g``); seats ``P``, footpaths
    ``F`` (track order), ``L`` = longest footpath, ``T`` = trace length.

    Attributes:
        phase: int32 ``(B,)``: 1 window, 2 train choice, 3 over (0 roll never rests).
        stage: int32 ``(B,)``: window stage, 0 after the roll, 1 after the move (E-9).
        active: int32 ``(B,)``: the seat whose turn it is (E-6).
        current: int32 ``(B,)``: the seat to act (asked in a window, or choosing a train);
            -4 when over.
        passed: int32 ``(B,)``: bit ``s`` set when seat ``s`` passed since the last action.
        rolls: int32 ``(B,)``: die rolls made (E-11).
        die: int32 ``(B,)``: last roll, index in ``"ROYGBP"``.
        winner: int32 ``(B,)``: winning seat (E-10) or -1.
        tips: int32 ``(B, 2)``: tip spaces of trains A and B (E-2).
        owner: int32 ``(B, 10)``: seat riding car slot ``5 * train + car - 1``, -1 empty.
        progress: int32 ``(B, 10)``: progress of that llama (E-8), spaces.
        station: int32 ``(B, P)``: llamas waiting at each seat's station.
        house: int32 ``(B, P)``: llamas in each seat's house (the points of a game).
        path_len: int32 ``(B, F)``: llamas on each footpath.
        path_owner: int32 ``(B, F, L)``: their seats, front (re-boarding end) first.
        path_progress: int32 ``(B, F, L)``: their progress (E-8).
        free: uint64 ``(B, P)``: bit ``a`` set when free action ``a`` is available to the
            seat (E-7); kept up to date in windows.
        rng: uint64 ``(B, 2)``: splitmix64 states of the chance and the policy stream.
        trace: int32 ``(B, T, 2)``: ``(player, action)`` log, chance as player -1.
        trace_len: int32 ``(B,)``: entries written to ``trace`` (at most ``T``).
    """

    phase: I32
    stage: I32
    active: I32
    current: I32
    passed: I32
    rolls: I32
    die: I32
    winner: I32
    tips: I32
    owner: I32
    progress: I32
    station: I32
    house: I32
    path_len: I32
    path_owner: I32
    path_progress: I32
    free: U64
    rng: U64
    trace: I32
    trace_len: I32

    @classmethod
    def empty(
        cls, size: int, players: int, tables: BatchTables, trace_length: int
    ) -> ExpressBatchState:
        """Zeroed arrays for ``size`` games (set up by :meth:`ExpressBatch.init`)."""
        f = len(tables.fp_cap)
        depth = max(1, int(tables.fp_cap.max(initial=1)))

        def z(*shape: int) -> I32:
            return np.zeros(shape, np.int32)

        return cls(
            phase=z(size),
            stage=z(size),
            active=z(size),
            current=z(size),
            passed=z(size),
            rolls=z(size),
            die=z(size),
            winner=z(size),
            tips=z(size, 2),
            owner=z(size, 10),
            progress=z(size, 10),
            station=z(size, players),
            house=z(size, players),
            path_len=z(size, f),
            path_owner=z(size, f, depth),
            path_progress=z(size, f, depth),
            free=np.zeros((size, players), np.uint64),
            rng=np.zeros((size, 2), np.uint64),
            trace=z(size, trace_length, 2),
            trace_len=z(size),
        )

    def __len__(self) -> int:
        return int(self.phase.shape[0])

    def arrays(self) -> tuple[npt.NDArray[Any], ...]:
        """The kernels' state tuple, fields in declaration order."""
        return (
            self.phase, self.stage, self.active, self.current, self.passed, self.rolls,
            self.die, self.winner, self.tips, self.owner, self.progress, self.station,
            self.house, self.path_len, self.path_owner, self.path_progress, self.free, self.rng,
            self.trace, self.trace_len,
        )  # fmt: skip

    def done(self) -> npt.NDArray[np.bool_]:
        """bool ``(B,)``: games that are over (won or truncated)."""
        return np.asarray(self.phase == Phase.OVER)

    def history(self, game: int) -> list[tuple[int, int]]:
        """The traced ``(player, action)`` pairs of game ``game`` (chance as -1)."""
        n = int(self.trace_len[game])
        return [(int(p), int(a)) for p, a in self.trace[game, :n]]


def _integers(values: npt.ArrayLike) -> npt.NDArray[Any]:
    """``np.asarray(values)``, except that an empty sequence (float64 to NumPy) becomes an
    empty int64 array: no seed or action, so nothing to refuse."""
    array = np.asarray(values)
    return array.astype(np.int64) if array.shape == (0,) else array


class ExpressBatch:
    """A batch engine for one Lama Express variant.

    Args:
        num_players: 2..4 seats (E-4).
        colours: seat colours as for :class:`ExpressGame` (default E-4).
        starting_seat: the seat that rolls first (E-5).
        llamas_to_win: 4, or 3 for the short game (E-10).
        board: ``None``/``"standard"`` (E-3), a board dict, a :class:`Board`, or the path of
            a board file (E-12).
        turn_limit: die rolls after which a game is truncated (E-11); default 2000, the
            CLI's limit for bots-only games.
        trace_length: ``(player, action)`` entries logged per game (0: no log).

    Raises:
        ParameterError: a bad parameter (as :class:`ExpressGame`), a board file that cannot
            be read or is invalid, or a negative ``trace_length``.
    """

    def __init__(
        self,
        num_players: int = 2,
        colours: Sequence[str] | None = None,
        starting_seat: int = 0,
        llamas_to_win: int = DEFAULT_LLAMAS_TO_WIN,
        board: str | Path | Mapping[str, Any] | Board | None = None,
        turn_limit: int = DEFAULT_TURN_LIMIT,
        trace_length: int = 0,
    ) -> None:
        if isinstance(board, Path) or (isinstance(board, str) and board != "standard"):
            try:
                board = load_board(board)
            except BoardError as exc:  # names the file and the field
                raise ParameterError(f"board: {exc}") from None
        if turn_limit is None:
            raise ParameterError("turn_limit: the batch engine needs a limit (E-11)")
        if type(trace_length) is not int or trace_length < 0:
            raise ParameterError(f"trace_length must be 0 or more, got {trace_length!r}")
        #: The scalar game of the same parameters (validation, conversions, replay).
        self.game = ExpressGame(
            num_players, colours, starting_seat, llamas_to_win, board, turn_limit
        )
        self.tables = BatchTables.from_game(self.game)
        self._tables = self.tables.arrays()
        self.trace_length = trace_length
        self._scratch: tuple[npt.NDArray[Any], ...] | None = None

    @property
    def num_players(self) -> int:
        """Seats per game."""
        return self.game.num_players

    def _scalars(self) -> tuple[int, int, int, int]:
        game = self.game
        assert game.turn_limit is not None
        return (game.num_players, game.llamas_to_win, game.turn_limit, self.tables.length)

    def _args(self, states: ExpressBatchState) -> tuple[Any, ...]:
        return (self._scalars(), states.arrays(), self._tables, self.scratch())

    def scratch(self) -> tuple[npt.NDArray[Any], ...]:
        """The kernels' one-row scratch state, where the in-kernel ``heuristic`` plays its
        look-ahead (no trace); made once per engine (the kernels hold the GIL, so calls
        never share it at once)."""
        if self._scratch is None:
            self._scratch = ExpressBatchState.empty(1, self.num_players, self.tables, 0).arrays()
        return self._scratch

    def init(self, seeds: npt.ArrayLike) -> ExpressBatchState:
        """Set up one game per seed (E-5), roll the first die and run to the first decision.

        Args:
            seeds: integers ``(B,)``; game ``g``'s chance and policy streams derive from
                ``seeds[g]`` (taken modulo 2**64); empty for an empty batch.

        Raises:
            ParameterError: ``seeds`` is not a one-dimensional array of integers.
        """
        raw = _integers(seeds)
        if raw.ndim != 1 or not np.issubdtype(raw.dtype, np.integer):
            raise ParameterError(f"seeds must be a 1-d integer array, got {raw.dtype} {raw.shape}")
        values = raw.astype(np.uint64)  # two's complement for negative seeds
        states: ExpressBatchState = ExpressBatchState.empty(
            len(values), self.num_players, self.tables, self.trace_length
        )
        a, b = self.tables.setup
        setup = (self.game.starting_seat, a, b)
        k.run_games(k.MODE_INIT, (values, _NO_ACTIONS, _NO_POLICIES), setup, *self._args(states))
        return states

    def legal_mask(self, states: ExpressBatchState) -> npt.NDArray[np.bool_]:
        """bool ``(B, 43)``: legal actions of each game's current seat (all False when over)."""
        out = np.zeros((len(states), NUM_DISTINCT_ACTIONS), np.bool_)
        k.legal_masks(states.phase, states.current, states.free, out)
        return out

    def step(self, states: ExpressBatchState, actions: npt.ArrayLike) -> None:
        """Apply one action per game for its current seat, in place, then run chance and
        forced steps to the next decision. Entries of finished games are ignored.

        Raises:
            InvalidActionError: ``actions`` does not have one integer per game.
            IllegalActionError: an action is illegal; the message names the first such game;
                no game is changed.
        """
        acts = _integers(actions) if len(states) == 0 else np.asarray(actions)
        if acts.shape != (len(states),) or not np.issubdtype(acts.dtype, np.integer):
            raise InvalidActionError(
                f"actions must be {len(states)} integers (one per game), got {acts.dtype} "
                f"{acts.shape}"
            )
        bad = k.run_games(
            k.MODE_STEP, (_NO_SEEDS, acts.astype(np.int32), _NO_POLICIES), _NO_SETUP,
            *self._args(states),
        )  # fmt: skip
        if bad >= 0:
            raise IllegalActionError(
                f"game {bad}: action {int(acts[bad])} is not legal for seat "
                f"{int(states.current[bad])} (phase {PHASE_NAMES[int(states.phase[bad])]}); "
                "no game was changed"
            )

    def play(
        self, states: ExpressBatchState, policies: Sequence[str], turn_limit: int | None = None
    ) -> None:
        """Play every game to its end in place, seat ``s`` following ``policies[s]``
        (``"random"``, ``"benchmark"`` or ``"heuristic"``: :data:`POLICIES`).

        Args:
            turn_limit: die rolls (counted from the start of the game, ``states.rolls``)
                after which a game is truncated with no winner (E-11), for this call only;
                ``None``: the engine's ``turn_limit``.

        Raises:
            ParameterError: ``policies`` is not a sequence of one known name per seat (a
                single string is refused), or ``turn_limit`` not a positive integer; then no
                game changes.
        """
        policies = check_policies(policies, self.num_players, tuple(POLICIES))
        scalars = self._scalars()
        if turn_limit is not None:
            if type(turn_limit) is not int or turn_limit < 1:
                raise ParameterError(f"turn_limit must be a positive integer, got {turn_limit!r}")
            scalars = (scalars[0], scalars[1], turn_limit, scalars[3])
        codes = np.array([POLICIES[p] for p in policies], np.int32)
        k.run_games(
            k.MODE_PLAY, (_NO_SEEDS, _NO_ACTIONS, codes), _NO_SETUP,
            scalars, states.arrays(), self._tables, self.scratch(),
        )  # fmt: skip

    def from_state(
        self, state: ExpressState, copies: int, seeds: npt.ArrayLike
    ) -> ExpressBatchState:
        """``copies`` games, each a copy of the scalar position ``state`` (any phase:
        windows with their stage, asked seat and passes, a train choice, a die to roll, or
        over), game ``g``'s chance and policy streams seeded from ``seeds[g]`` as by
        :meth:`init`. A die to be rolled (E-6) is rolled at once from each game's own chance
        stream and the game run to its next decision (a batch state never rests at chance).
        The trace starts with ``state``'s history (as much as ``trace_length`` holds).

        Args:
            state: a position of a game with this engine's rules, seats and board (the turn
                limit may differ: the engine's own applies from here on, E-11).
            copies: number of games ``B`` (0 or more).
            seeds: integers ``(B,)`` (taken modulo 2**64).

        Raises:
            ParameterError: ``state`` is not a Lama Express state of this engine's game,
                ``copies`` is not a non-negative integer, or ``seeds`` is not ``copies``
                integers.
        """
        if not isinstance(state, ExpressState):
            raise ParameterError(f"state must be an ExpressState, got {type(state).__name__}")
        mine = {key: v for key, v in self.game.params.items() if key != "turn_limit"}
        theirs = {key: v for key, v in state.game.params.items() if key != "turn_limit"}
        if mine != theirs:
            raise ParameterError(
                "state: a position of another Lama Express game (seats, colours, starting "
                "seat, llamas to win or board differ from this engine's)"
            )
        if type(copies) is not int or copies < 0:
            raise ParameterError(f"copies must be 0 or more, got {copies!r}")
        raw = _integers(seeds)
        if raw.shape != (copies,) or not np.issubdtype(raw.dtype, np.integer):
            raise ParameterError(
                f"seeds must be {copies} integers (one per copy), got {raw.dtype} {raw.shape}"
            )
        states = ExpressBatchState.empty(copies, self.num_players, self.tables, self.trace_length)
        data = state.to_dict()
        phase = PHASE_NAMES.index(data["phase"])
        window = data["window"]
        states.phase[:] = phase
        states.stage[:] = 0 if window is None else STAGE_NAMES.index(window["stage"])
        states.active[:] = data["active"]
        states.current[:] = state.current_player()
        states.passed[:] = 0 if window is None else sum(1 << s for s in set(window["passed"]))
        states.rolls[:] = data["rolls"]
        states.die[:] = -1 if data["die"] is None else DIE_COLOURS.index(data["die"])
        states.winner[:] = -1 if data["winner"] is None else data["winner"]
        states.tips[:] = (data["trains"]["A"], data["trains"]["B"])
        states.owner[:] = -1
        for t, name in enumerate(TRAIN_NAMES):
            for c, item in enumerate(data["cars"][name]):
                if item is not None:
                    states.owner[:, t * PASSENGER_CARS + c] = item["owner"]
                    states.progress[:, t * PASSENGER_CARS + c] = item["progress"]
        states.station[:] = data["stations"]
        states.house[:] = data["houses"]
        for i, path in enumerate(data["footpaths"]):
            states.path_len[:, i] = len(path)
            for j, item in enumerate(path):
                states.path_owner[:, i, j] = item["owner"]
                states.path_progress[:, i, j] = item["progress"]
        logged = data["history"][: self.trace_length]
        if logged:
            states.trace[:, : len(logged)] = logged
        states.trace_len[:] = len(logged)
        k.run_games(
            k.MODE_LOAD, (raw.astype(np.uint64), _NO_ACTIONS, _NO_POLICIES), _NO_SETUP,
            *self._args(states),
        )  # fmt: skip
        return states

    # ------------------------------------------------------------------ conversions
    def to_dict(self, states: ExpressBatchState, game: int) -> dict[str, Any]:
        """Game ``game`` in the format of :meth:`ExpressState.to_dict`, with its trace as
        ``history`` (empty unless ``trace_length`` covers the game)."""
        g = game
        n = self.num_players

        def car(slot: int) -> dict[str, int] | None:
            who = int(states.owner[g, slot])
            return None if who < 0 else {"owner": who, "progress": int(states.progress[g, slot])}

        phase = int(states.phase[g])
        window = None
        if phase == Phase.WINDOW:
            bits = int(states.passed[g])
            window = {
                "stage": STAGE_NAMES[int(states.stage[g])],
                "asked": int(states.current[g]),
                "passed": [s for s in range(n) if (bits >> s) & 1],
            }
        die = int(states.die[g])
        winner = int(states.winner[g])
        return {
            "phase": PHASE_NAMES[phase],
            "active": int(states.active[g]),
            "rolls": int(states.rolls[g]),
            "die": None if die < 0 else DIE_COLOURS[die],
            "trains": {"A": int(states.tips[g, 0]), "B": int(states.tips[g, 1])},
            "cars": {
                name: [car(t * PASSENGER_CARS + c) for c in range(PASSENGER_CARS)]
                for t, name in enumerate(TRAIN_NAMES)
            },
            "stations": [int(v) for v in states.station[g]],
            "houses": [int(v) for v in states.house[g]],
            "footpaths": [
                [
                    {
                        "owner": int(states.path_owner[g, i, j]),
                        "progress": int(states.path_progress[g, i, j]),
                    }
                    for j in range(int(states.path_len[g, i]))
                ]
                for i in range(states.path_len.shape[1])
            ],
            "window": window,
            "winner": None if winner < 0 else winner,
            "history": [list(entry) for entry in states.history(g)],
        }

    def to_state(self, states: ExpressBatchState, game: int) -> ExpressState:
        """Game ``game`` as a scalar :class:`ExpressState` (checked by ``state_from_dict``),
        for display (``_repr_svg_``), analysis or further play."""
        return self.game.state_from_dict(self.to_dict(states, game))


#: Parameters of :meth:`ExpressBatchEngine.check_params` besides ``num_players``.
PARAM_NAMES: Final = (
    "colours",
    "starting_seat",
    "llamas_to_win",
    "short_game",
    "board",
    "turn_limit",
)


class ExpressStepper:
    """An :class:`ExpressBatch` in the form :func:`lamagames.core.testing.check_batch_engine`
    drives (the batch runs chance itself and records it in its trace)."""

    def __init__(self, batch: ExpressBatch) -> None:
        self.batch = batch
        #: The scalar game of the same parameters.
        self.game = batch.game

    def init(self, seeds: npt.ArrayLike) -> ExpressBatchState:
        """See :meth:`ExpressBatch.init`."""
        return self.batch.init(seeds)

    def legal_mask(self, states: ExpressBatchState) -> npt.NDArray[np.bool_]:
        """See :meth:`ExpressBatch.legal_mask`."""
        return self.batch.legal_mask(states)

    def done(self, states: ExpressBatchState) -> npt.NDArray[np.bool_]:
        """See :meth:`ExpressBatchState.done`."""
        return states.done()

    def step(self, states: ExpressBatchState, actions: npt.ArrayLike) -> None:
        """See :meth:`ExpressBatch.step`."""
        self.batch.step(states, actions)

    def history(self, states: ExpressBatchState, g: int) -> list[tuple[int, int]]:
        """See :meth:`ExpressBatchState.history`."""
        return states.history(g)

    def state_dict(self, states: ExpressBatchState, g: int) -> dict[str, Any]:
        """See :meth:`ExpressBatch.to_dict`."""
        return self.batch.to_dict(states, g)


class ExpressBatchEngine:
    """The Lama Express engine of the ``lama simulate`` protocol
    (:class:`lamagames.core.batch.BatchEngine`); the module's :data:`ENGINE`.

    Scores are the llamas in each seat's house at the end (E-10: 4, or 3 in the short game,
    for the winner); lengths are die rolls (E-11); the starter is ``starting_seat``;
    ``finished`` is False for games truncated by the turn limit. No extra arrays.
    """

    game_id = "express"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    policies: tuple[str, ...] = tuple(POLICIES)
    score_name = "llamas home"
    lower_score_wins = False
    length_name = "rolls"

    #: Parameter variants :func:`lamagames.core.testing.check_batch_engine` plays.
    check_variants: tuple[dict[str, Any], ...] = (
        {},
        {"llamas_to_win": 3, "starting_seat": 1},
    )

    def stepper(self, num_players: int, params: Mapping[str, Any]) -> ExpressStepper:
        """The step API for :func:`lamagames.core.testing.check_batch_engine`."""
        return ExpressStepper(ExpressBatch(num_players, **params, trace_length=20_000))

    def check_params(self, num_players: int, params: Mapping[str, Any]) -> dict[str, Any]:
        """Validate the rule variants and return them complete, as JSON data.

        Args:
            num_players: 2..4 seats (E-4).
            params: any of ``colours`` (list of player colours, E-4), ``starting_seat``
                (E-5), ``llamas_to_win`` (4 or 3) or ``short_game`` (bool, E-10),
                ``board`` (``"standard"``, a board dict, or the path of a board file, whose
                content is embedded so that other processes need no file; E-3, E-12),
                ``turn_limit`` (die rolls, E-11; default 2000).

        Raises:
            ParameterError: an unknown parameter, a bad value, a board file that cannot be
                read or is invalid, or ``short_game`` contradicting ``llamas_to_win``.
        """
        unknown = sorted(set(params) - set(PARAM_NAMES))
        if unknown:
            raise ParameterError(
                f"unknown Lama Express parameter {unknown[0]!r}; known: {', '.join(PARAM_NAMES)}"
            )
        llamas = params.get("llamas_to_win", DEFAULT_LLAMAS_TO_WIN)
        short = params.get("short_game")
        if short is not None:
            if not isinstance(short, bool):
                raise ParameterError(f"short_game must be true or false, got {short!r}")
            wanted = SHORT_GAME_LLAMAS if short else DEFAULT_LLAMAS_TO_WIN
            if "llamas_to_win" in params and llamas != wanted:
                raise ParameterError(
                    f"short_game={short} contradicts llamas_to_win={llamas!r}; give one of them"
                )
            llamas = wanted
        engine = ExpressBatch(
            num_players,
            colours=params.get("colours"),
            starting_seat=params.get("starting_seat", 0),
            llamas_to_win=llamas,
            board=params.get("board"),
            turn_limit=params.get("turn_limit", DEFAULT_TURN_LIMIT),
        )
        return engine.game.params

    def play(
        self,
        seeds: npt.NDArray[np.uint64],
        policies: Sequence[str],
        params: Mapping[str, Any],
    ) -> BatchResults:
        """Play ``len(seeds)`` games to their end; game ``g`` draws only from ``seeds[g]``.

        Args:
            seeds: uint64 ``(G,)``.
            policies: one of :data:`POLICIES` per seat.
            params: the output of :meth:`check_params`.

        Raises:
            ParameterError: bad seeds, parameters (not a mapping) or policies.
        """
        if not isinstance(params, Mapping):
            raise ParameterError(f"params must be a dict of rule parameters, got {params!r}")
        values = dict(params)
        engine = ExpressBatch(values.pop("num_players", 2), **values)
        states = engine.init(seeds)
        engine.play(states, policies)
        seats = np.arange(engine.num_players)
        return BatchResults(
            scores=states.house.astype(np.int32),
            wins=(states.winner[:, None] == seats).astype(np.int8),
            length=states.rolls.astype(np.int32),
            starter=np.full(len(states), engine.game.starting_seat, np.int8),
            finished=states.winner >= 0,
        )


#: The batch engine found by ``lama simulate`` (``BATCH_ENGINES["express"]``).
ENGINE: Final = ExpressBatchEngine()


__all__ = [
    "DEFAULT_TURN_LIMIT",
    "ENGINE",
    "PARAM_NAMES",
    "POLICIES",
    "BatchTables",
    "ExpressBatch",
    "ExpressBatchEngine",
    "ExpressBatchState",
]
