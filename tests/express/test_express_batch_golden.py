"""The Lama Express batch engine against values that do not come from its rule primitives
(issue 17).

The agreement tests (``test_batch_agreement.py``, ``core.testing.check_batch_engine``) hold
the batch engine to the scalar engine; both call the same primitives of
:mod:`lamagames.express.primitives`, so a broken primitive breaks both alike and those tests
still pass. This module checks the batch step kernels three ways instead:

1. **An independent referee.** :class:`Referee` is a second, deliberately plain reading of
   docs/rules.md (E-2 car geometry, E-5 set-up, E-6 turn and no pushing, E-7 free actions,
   E-8 progress and the lap check, E-9 windows and asking order, E-10 winning, E-11 turn
   limit) written in this file: it imports nothing of the engines but the action ids (the
   encoding of docs/express.md) and reads the board from its file form (track letters,
   stations, arrows), not from the engine's tables. Whole batch games (2-4 players, the
   short and the long variant, both policies and the random one, another starting seat, a
   turn limit that truncates, the standard board and a board on which the E-8 lap check
   decides) are replayed from their batch trace step by step in a fresh batch state: at
   every decision the batch state (phase, seat asked, active seat, rolls, trains, every
   llama and its progress, stations, houses, footpaths) and its legal-action mask must be
   the referee's, and the final winner the referee's.
2. **Golden values.** :data:`GOLDEN` holds, per configuration, each game's winner, die
   rolls and houses and a hash of all its traces, recorded once from the code of commit
   22648dd (whose scalar engine passed ``tests/express``; the same games pass the referee
   replay of 1., which checks every step of the recorded traces against the rules). They
   also pin the in-kernel policies' choices, which the referee does not judge. To record
   them again after an intended change of the policies or of the streams:
   ``python -m tests.express.test_express_batch_golden``; a change of the rules must first
   pass the referee.
3. **Hand-built positions** with results written out from the rules text (E-6 no pushing,
   closing up to the other train and riders' progress, E-7/E-8 the lap check on exit,
   E-7/E-8 detour and walk back, E-9 asking order), stepped through the batch kernels.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import pytest

from lamagames.express.actions import (
    BOARD_BASE,
    DETOUR_BASE,
    EXIT_BASE,
    MOVE_A,
    MOVE_B,
    PASS,
    REBOARD_BASE,
)
from lamagames.express.batch import ExpressBatch, ExpressBatchState
from lamagames.express.board import standard_board

#: The die's colours in outcome order (E-1).
DIE: Final = "ROYGBP"
#: Default seat colours per player count (E-4), in turn order.
DEFAULT_COLOURS: Final = {
    2: ("yellow", "green"),
    3: ("yellow", "pink", "green"),
    4: ("yellow", "pink", "green", "blue"),
}
#: The standard board's file form (E-3).
STANDARD: Final = standard_board().to_dict()
#: The standard board with the first arrow moved: arrow 4, re-boarding space 44, so a
#: yellow llama detoured there right after boarding walks back past its home boarding space
#: 0 and reaches its exits 45..47 with a negative progress, short of its lap (E-8).
LAP_BOARD: Final = {
    **STANDARD,
    "name": "lap-test",
    "arrows": [{"space": 4, "footpath": 3, "reboard": 44}, *STANDARD["arrows"][1:]],
}
PHASE_WINDOW: Final = 1
PHASE_CHOOSE: Final = 2
PHASE_OVER: Final = 3
TRACE: Final = 30_000


# ============================================================================ the referee
@dataclass
class Referee:
    """Lama Express as docs/rules.md words it, over plain lists (no engine code).

    ``cars[t][c]`` is ``None`` or ``[owner, progress]`` for car ``c + 1`` of train ``t``;
    ``paths[i]`` lists ``[owner, progress]`` of footpath ``i``'s llamas, the one at the
    re-boarding end first.
    """

    board: dict[str, Any]
    colours: Sequence[str]
    llamas_to_win: int
    turn_limit: int
    starting_seat: int = 0
    tips: list[int] = field(default_factory=list)
    cars: list[list[list[int] | None]] = field(default_factory=list)
    station: list[int] = field(default_factory=list)
    house: list[int] = field(default_factory=list)
    paths: list[list[list[int]]] = field(default_factory=list)
    active: int = 0
    rolls: int = 0
    die: int = -1
    phase: str = "roll"  # roll, window, choose, over
    stage: str = ""  # after_roll, after_move
    asked: int = -1
    passed: set[int] = field(default_factory=set)
    winner: int = -1
    #: exits refused for want of the lap (E-8), counted at each look at the free actions
    lap_refusals: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.n = len(self.colours)
        self.length = len(self.board["track"])
        order = sorted(self.board["stations"], key=lambda s: s["boarding"])  # clockwise
        self.home = [next(s for s in order if s["colour"] == c) for c in self.colours]
        self.arrows = sorted(self.board["arrows"], key=lambda a: a["space"])
        # E-5: train A's tip on the starting seat's boarding space, B's on the boarding
        # space of the station diagonally opposite; all llamas at their stations (E-1: 4).
        start = order.index(self.home[self.starting_seat])
        self.tips = [order[start]["boarding"], order[(start + 2) % 4]["boarding"]]
        self.cars = [[None] * 5, [None] * 5]
        self.station = [4] * self.n
        self.house = [0] * self.n
        self.paths = [[] for _ in self.arrows]
        self.active = self.starting_seat

    # ------------------------------------------------------------------ geometry (E-2)
    def car_at(self, train: int, car: int) -> int:
        """Space of car ``car`` (1..5): cars 1 to 5 stand on tip-3 down to tip-7."""
        return (self.tips[train] - 2 - car) % self.length

    def covered(self, train: int) -> set[int]:
        """Spaces under a train: locomotive tip-1, coal car tip-2, cars tip-3..tip-7."""
        return {(self.tips[train] - k) % self.length for k in range(1, 8)}

    # ------------------------------------------------------------------ E-6
    def distance(self, train: int) -> int:
        """Spaces to the next space of the rolled colour strictly ahead of the tip."""
        d = 1
        while self.board["track"][(self.tips[train] + d) % self.length] != DIE[self.die]:
            d += 1
        return d

    def can_move(self, train: int) -> bool:
        """No pushing: the locomotive (on tip-1) passes over tip .. tip+d-1; none of those
        spaces may be under the other train."""
        entered = {(self.tips[train] + j) % self.length for j in range(self.distance(train))}
        return not entered & self.covered(1 - train)

    def move(self, train: int) -> None:
        d = self.distance(train)
        self.tips[train] = (self.tips[train] + d) % self.length
        for llama in self.cars[train]:
            if llama is not None:
                llama[1] += d  # E-8: carried forward
        self.counts["moves"] = self.counts.get("moves", 0) + 1

    # ------------------------------------------------------------------ E-7, E-8
    def free_actions(self, seat: int) -> set[int]:
        """Seat ``seat``'s available free actions (action ids)."""
        out: set[int] = set()
        home = self.home[seat]
        for t in range(2):
            for c in range(1, 6):
                space = self.car_at(t, c)
                slot = 5 * t + c - 1
                llama = self.cars[t][c - 1]
                if llama is None:
                    if space == home["boarding"] and self.station[seat] > 0:
                        out.add(BOARD_BASE + slot)
                    for i, arrow in enumerate(self.arrows):
                        if (
                            arrow["reboard"] == space
                            and self.paths[i]
                            and self.paths[i][0][0] == seat
                        ):
                            out.add(REBOARD_BASE + slot)
                    continue
                owner, progress = llama
                if owner == seat and space in home["exits"]:
                    # E-8: once round = progress at least the distance forward from the
                    # home boarding space to this exit space.
                    if progress >= (space - home["boarding"]) % self.length:
                        out.add(EXIT_BASE + slot)
                    else:
                        self.lap_refusals += 1
                for i, arrow in enumerate(self.arrows):
                    if (
                        arrow["space"] == space
                        and owner != seat
                        and len(self.paths[i]) < arrow["footpath"]
                    ):
                        out.add(DETOUR_BASE + slot)
        return out

    def take(self, seat: int, action: int) -> None:
        """Apply free action ``action`` of ``seat`` (E-7)."""
        kind, slot = divmod(action - BOARD_BASE, 10)
        t, c = divmod(slot, 5)
        space = self.car_at(t, c + 1)
        name = ("board", "exit", "detour", "reboard")[kind]
        self.counts[name] = self.counts.get(name, 0) + 1
        if kind == 0:
            self.station[seat] -= 1
            self.cars[t][c] = [seat, 0]  # E-8: counted from boarding
        elif kind == 1:
            self.cars[t][c] = None
            self.house[seat] += 1
        elif kind == 2:
            i = next(i for i, a in enumerate(self.arrows) if a["space"] == space)
            arrow = self.arrows[i]
            llama = self.cars[t][c]
            assert llama is not None
            back = (arrow["space"] - arrow["reboard"]) % self.length
            self.paths[i].append([llama[0], llama[1] - back])  # behind those waiting
            self.cars[t][c] = None
        else:
            i = next(i for i, a in enumerate(self.arrows) if a["reboard"] == space)
            self.cars[t][c] = self.paths[i].pop(0)  # the others move up

    # ------------------------------------------------------------------ E-9 and the turn
    def first_asked(self, start: int) -> int:
        """The first seat from ``start`` in turn order with an action, not passed."""
        for i in range(self.n):
            seat = (start + i) % self.n
            if seat not in self.passed and self.free_actions(seat):
                return seat
        return -1

    def open_window(self, stage: str) -> None:
        self.stage = stage
        self.passed = set()
        self.asked = self.first_asked(self.active)
        if self.asked >= 0:
            self.phase = "window"
            self.counts["windows"] = self.counts.get("windows", 0) + 1
        else:
            self.after_window()

    def after_window(self) -> None:
        self.asked = -1
        self.passed = set()
        if self.stage == "after_move":
            self.end_turn()
            return
        can = [t for t in range(2) if self.can_move(t)]
        if len(can) == 2:
            self.phase = "choose"
        elif can:
            self.counts["forced"] = self.counts.get("forced", 0) + 1
            self.move(can[0])
            self.open_window("after_move")
        else:
            self.counts["stuck"] = self.counts.get("stuck", 0) + 1
            self.end_turn()

    def end_turn(self) -> None:
        if self.rolls >= self.turn_limit:  # E-11: no winner
            self.phase = "over"
            self.counts["truncated"] = 1
            return
        self.active = (self.active + 1) % self.n
        self.phase = "roll"

    def roll(self, colour: int) -> None:
        assert self.phase == "roll"
        self.die = colour
        self.rolls += 1
        self.open_window("after_roll")

    def legal(self) -> set[int]:
        if self.phase == "choose":
            return {MOVE_A, MOVE_B}
        if self.phase == "window":
            return {PASS, *self.free_actions(self.asked)}
        return set()

    def current(self) -> int:
        if self.phase == "choose":
            return self.active
        if self.phase == "window":
            return self.asked
        return -4 if self.phase == "over" else -1

    def act(self, seat: int, action: int) -> None:
        assert seat == self.current(), (seat, self.current())
        assert action in self.legal(), (action, sorted(self.legal()))
        if self.phase == "choose":
            self.counts["choices"] = self.counts.get("choices", 0) + 1
            self.move(action - MOVE_A)
            self.open_window("after_move")
            return
        if action == PASS:
            self.passed.add(seat)
        else:
            self.take(seat, action)
            if self.house[seat] == self.llamas_to_win:  # E-10: the game ends at once
                self.winner = seat
                self.phase = "over"
                return
            self.passed = set()
        self.asked = self.first_asked((seat + 1) % self.n)
        if self.asked < 0:
            self.after_window()

    def view(self) -> dict[str, Any]:
        """The position in the shape of :func:`batch_view`."""
        return {
            "phase": {"window": PHASE_WINDOW, "choose": PHASE_CHOOSE, "over": PHASE_OVER}[
                self.phase
            ],
            "current": self.current(),
            "active": self.active,
            "rolls": self.rolls,
            "tips": list(self.tips),
            "cars": [None if x is None else list(x) for row in self.cars for x in row],
            "station": list(self.station),
            "house": list(self.house),
            "paths": [[list(x) for x in p] for p in self.paths],
            "winner": self.winner,
        }


def batch_view(states: ExpressBatchState, g: int) -> dict[str, Any]:
    """Game ``g`` of a batch state in the shape of :meth:`Referee.view`."""
    return {
        "phase": int(states.phase[g]),
        "current": int(states.current[g]),
        "active": int(states.active[g]),
        "rolls": int(states.rolls[g]),
        "tips": states.tips[g].tolist(),
        "cars": [
            None
            if states.owner[g, s] < 0
            else [int(states.owner[g, s]), int(states.progress[g, s])]
            for s in range(10)
        ],
        "station": states.station[g].tolist(),
        "house": states.house[g].tolist(),
        "paths": [
            [
                [int(states.path_owner[g, i, j]), int(states.path_progress[g, i, j])]
                for j in range(int(states.path_len[g, i]))
            ]
            for i in range(states.path_len.shape[1])
        ],
        "winner": int(states.winner[g]),
    }


# ============================================================================ configurations
@dataclass(frozen=True)
class Config:
    """A batch configuration of the golden games."""

    name: str
    players: int
    policies: tuple[str, ...]
    llamas_to_win: int = 4
    starting_seat: int = 0
    turn_limit: int = 2000
    board: dict[str, Any] = field(default_factory=lambda: STANDARD)
    seeds: tuple[int, ...] = (1, 2, 3)

    def engine(self, trace: int = TRACE) -> ExpressBatch:
        return ExpressBatch(
            num_players=self.players,
            llamas_to_win=self.llamas_to_win,
            starting_seat=self.starting_seat,
            board=self.board,
            turn_limit=self.turn_limit,
            trace_length=trace,
        )

    def referee(self) -> Referee:
        return Referee(
            self.board,
            DEFAULT_COLOURS[self.players],
            self.llamas_to_win,
            self.turn_limit,
            self.starting_seat,
        )


CONFIGS: Final = (
    Config("2p-long", 2, ("benchmark", "random")),
    Config("3p-short", 3, ("heuristic", "random", "benchmark"), llamas_to_win=3),
    Config("4p-long-start2", 4, ("random", "benchmark", "random", "heuristic"), starting_seat=2),
    Config("2p-lap-board", 2, ("random", "random"), board=LAP_BOARD, seeds=(4, 5, 6, 7)),
    Config(
        "4p-short-lap-board-limit",
        4,
        ("benchmark", "random", "heuristic", "random"),
        llamas_to_win=3,
        board=LAP_BOARD,
        turn_limit=90,
    ),
)


def played(config: Config) -> ExpressBatchState:
    """The configuration's games, played to their end by the in-kernel policies."""
    engine = config.engine()
    states = engine.init(np.array(config.seeds))
    engine.play(states, list(config.policies))
    assert (states.trace_len < TRACE).all()  # whole games traced
    return states


def summary(states: ExpressBatchState) -> dict[str, Any]:
    """Per game ``(winner, rolls, houses)`` and a hash of every trace."""
    digest = hashlib.sha256()
    for g in range(len(states)):
        digest.update(states.trace[g, : states.trace_len[g]].astype("<i4").tobytes())
    return {
        "games": [
            [int(states.winner[g]), int(states.rolls[g]), states.house[g].tolist()]
            for g in range(len(states))
        ],
        "traces": digest.hexdigest()[:16],
    }


#: Recorded once (see the module docstring); each game's winner (-1: truncated, E-11),
#: rolls and houses, and the hash of its traces.
GOLDEN: Final[dict[str, dict[str, Any]]] = {
    "2p-long": {
        "games": [[1, 80, [1, 4]], [1, 126, [3, 4]], [0, 146, [4, 2]]],
        "traces": "adb791b90779335d",
    },
    "3p-short": {
        "games": [[0, 67, [3, 0, 0]], [0, 49, [3, 0, 1]], [0, 123, [3, 2, 2]]],
        "traces": "08295c5bc6a9ebf0",
    },
    "4p-long-start2": {
        "games": [[3, 94, [0, 2, 2, 4]], [3, 111, [3, 2, 1, 4]], [3, 84, [2, 0, 0, 4]]],
        "traces": "db217be598bb6e10",
    },
    "2p-lap-board": {
        "games": [[0, 87, [4, 3]], [1, 100, [1, 4]], [1, 48, [1, 4]], [1, 127, [1, 4]]],
        "traces": "30284ef178f865eb",
    },
    "4p-short-lap-board-limit": {
        "games": [[1, 84, [2, 3, 1, 2]], [-1, 90, [2, 1, 2, 2]], [2, 55, [2, 1, 3, 0]]],
        "traces": "522fe4f499fecf28",
    },
}


# ============================================================================ tests
def referee_replay(config: Config, states: ExpressBatchState, g: int) -> Referee:
    """Replay game ``g``'s trace in a fresh batch state and through the referee together,
    comparing positions and legal actions at every decision."""
    engine = config.engine(trace=0)
    fresh = engine.init(np.array([config.seeds[g]]))
    ref = config.referee()
    trace = [(int(p), int(a)) for p, a in states.trace[g, : states.trace_len[g]]]
    decisions = 0
    for step, (player, action) in enumerate(trace):
        if player < 0:
            ref.roll(action)
            continue
        where = f"{config.name} seed {config.seeds[g]} step {step}"
        assert batch_view(fresh, 0) == ref.view(), where
        mask = set(np.flatnonzero(engine.legal_mask(fresh)[0]).tolist())
        assert mask == ref.legal(), where
        ref.act(player, action)
        engine.step(fresh, np.array([action]))
        decisions += 1
    assert ref.phase == "over"
    assert batch_view(fresh, 0) == ref.view()
    assert batch_view(states, g) == ref.view()
    assert decisions > 20
    return ref


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_e2_e11_batch_games_follow_the_referee(config: Config) -> None:
    states = played(config)
    totals: dict[str, int] = {}
    refusals = 0
    for g in range(len(states)):
        ref = referee_replay(config, states, g)
        refusals += ref.lap_refusals
        for key, value in ref.counts.items():
            totals[key] = totals.get(key, 0) + value
    # the rules the games reach (so the replay judges them)
    for key in ("board", "exit", "detour", "reboard", "choices", "forced", "windows"):
        assert totals.get(key, 0) > 0, (key, totals)
    if config.board is LAP_BOARD:
        assert refusals > 0  # E-8: a llama on its exit short of its lap was refused
    if config.turn_limit < 2000:
        assert totals.get("truncated", 0) > 0  # E-11


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_e2_e11_batch_games_match_the_golden_values(config: Config) -> None:
    assert summary(played(config)) == GOLDEN[config.name]


# ============================================================================ hand-built
def start(
    engine: ExpressBatch,
    window: tuple[str, int, int] | None = None,
    **position: Any,
) -> ExpressBatchState:
    """One batch game from the position of ``build_state(**position)``; with ``window =
    (stage, asked, die)`` a window of that stage asking that seat, after a roll of that
    die (else the die is rolled at once from the game's stream)."""
    state = engine.game.build_state(**position)
    if window is not None:
        data = state.to_dict()
        stage, asked, die = window
        data["phase"] = "window"
        data["die"] = DIE[die]
        data["window"] = {"stage": stage, "asked": asked, "passed": []}
        state = engine.game.state_from_dict(data)
    return engine.from_state(state, 1, np.array([0]))


def legal(engine: ExpressBatch, states: ExpressBatchState) -> set[int]:
    return set(np.flatnonzero(engine.legal_mask(states)[0]).tolist())


def test_e8_exit_needs_the_lap_on_a_board_where_a_footpath_passes_home() -> None:
    """Yellow (seat 0) boards at 0 and exits at 45..47; on ``LAP_BOARD`` its llama can come
    to exit 45 (car A1 of a train with its tip on 0, E-2) with progress 45 after a whole lap,
    or -3 after a detour at arrow 4 right after boarding (walked back to 44). Green (seat 1,
    boarding 24) has car B1 (tip 27) to board and is asked first (its turn, E-9)."""
    engine = ExpressBatch(2, board=LAP_BOARD)
    for progress, can_exit in ((45, True), (-3, False)):
        states = start(
            engine,
            ("after_move", 1, 0),
            trains={"A": 0, "B": 27},
            cars={"A1": (0, progress)},
            active=1,
            rolls=10,
        )
        assert legal(engine, states) == {PASS, BOARD_BASE + 5}  # green: board B1
        engine.step(states, np.array([PASS]))
        view = batch_view(states, 0)
        if can_exit:  # E-9: asking goes on with yellow, which may exit (E-7, E-8)
            assert (view["phase"], view["current"]) == (PHASE_WINDOW, 0)
            assert legal(engine, states) == {PASS, EXIT_BASE + 0}
            engine.step(states, np.array([EXIT_BASE + 0]))
            assert batch_view(states, 0)["house"] == [1, 0]
            assert batch_view(states, 0)["current"] == 1  # green's board still open
        else:  # short of its lap: the window closes, the turn ends (E-6), yellow rolls and
            # green is asked in the window after that roll (B has not moved)
            assert view["rolls"] == 11 and view["active"] == 0
            assert (view["phase"], view["current"]) == (PHASE_WINDOW, 1)
            assert view["cars"][0] == [0, -3] and view["house"] == [0, 0]
            assert legal(engine, states) == {PASS, BOARD_BASE + 5}


def test_e6_a_blocked_train_stays_and_the_other_moves_with_its_riders() -> None:
    """Train A with its tip on 20 stands right behind train B (tip 27, last car on 20,
    E-2): whatever the roll, A's locomotive would enter B (E-6, no pushing), so B must move.
    Rolled red: B goes from 27 to the next red space, 35; yellow's llama in B1 gains 8
    (24 -> 32, E-8). Green's llama first on footpath 1 (re-boarding space 15 under A3) may
    re-board in both windows (E-7, E-9)."""
    engine = ExpressBatch(2)
    states = start(
        engine,
        ("after_roll", 1, DIE.index("R")),
        trains={"A": 20, "B": 27},
        cars={"B1": (0, 24)},
        footpaths={1: [(1, 39)]},
        rolls=5,
    )
    assert legal(engine, states) == {PASS, REBOARD_BASE + 2}
    engine.step(states, np.array([PASS]))  # the window closes: the forced move
    view = batch_view(states, 0)
    assert view["tips"] == [20, 35]
    assert view["cars"][5] == [0, 32]
    assert (view["phase"], view["current"], view["rolls"]) == (PHASE_WINDOW, 1, 5)
    assert int(states.stage[0]) == 1  # the window after the move
    assert legal(engine, states) == {PASS, REBOARD_BASE + 2}


def test_e6_a_move_may_close_up_to_the_other_train() -> None:
    """Train B (tip 27) rolled red goes 8 spaces to the red space 35; train A's tip is on
    42, its last car on 35 (E-2): B's locomotive ends on 34, right behind it, entering no
    space of A, so B can move; A can move too (2 spaces to the red 44), so after the window
    the active player chooses (E-6). Green may board B1 (on 24) in the window."""
    engine = ExpressBatch(2)
    states = start(engine, ("after_roll", 1, DIE.index("R")), trains={"A": 42, "B": 27}, rolls=3)
    assert legal(engine, states) == {PASS, BOARD_BASE + 5}
    engine.step(states, np.array([PASS]))
    view = batch_view(states, 0)
    assert (view["phase"], view["current"], view["tips"]) == (PHASE_CHOOSE, 0, [42, 27])
    assert legal(engine, states) == {MOVE_A, MOVE_B}


def test_e7_e8_detour_walks_back_behind_the_waiting_llamas() -> None:
    """Green's llama in B1 (tip 33: B1 on arrow 30) with progress 6 (30 - 24). Yellow
    detours it to footpath 2 (arrow 30, re-boarding space 27, 3 spaces back), behind the
    yellow llama already there: progress 6 - 3 = 3 (E-7, E-8). The asking goes on with
    green (nothing to do), then yellow, whose llama is first in line by the empty car B4 on
    27 (E-9); after it re-boards, green's llama is first."""
    engine = ExpressBatch(2)
    states = start(
        engine,
        ("after_move", 0, 0),
        trains={"A": 0, "B": 33},
        cars={"B1": (1, 6)},
        footpaths={2: [(0, 27)]},
        rolls=1,
    )
    assert legal(engine, states) == {PASS, DETOUR_BASE + 5, REBOARD_BASE + 8}
    engine.step(states, np.array([DETOUR_BASE + 5]))
    view = batch_view(states, 0)
    assert view["paths"] == [[], [], [[0, 27], [1, 3]], []]
    assert view["cars"][5] is None
    assert (view["phase"], view["current"]) == (PHASE_WINDOW, 0)
    assert legal(engine, states) == {PASS, REBOARD_BASE + 8}
    engine.step(states, np.array([REBOARD_BASE + 8]))
    assert batch_view(states, 0)["paths"] == [[], [], [[1, 3]], []]


def test_e9_asking_goes_round_from_the_active_seat() -> None:
    """Three seats, yellow (0) to roll. Yellow may board A1 (tip 3: A1 on its boarding
    space 0), green (2) may board B1 (tip 27: B1 on 24), pink (1) has nothing. The window
    after the roll asks yellow first (the active seat, E-9); after its pass the asking goes
    on in turn order, past pink (no action), to green; green boards, so the passes are
    forgotten and yellow is asked again; when it passes the window closes."""
    engine = ExpressBatch(3)
    states = start(engine, trains={"A": 3, "B": 27})
    view = batch_view(states, 0)
    assert (view["phase"], view["current"], view["active"]) == (PHASE_WINDOW, 0, 0)
    assert int(states.stage[0]) == 0 and view["rolls"] == 1
    assert legal(engine, states) == {PASS, BOARD_BASE + 0}
    engine.step(states, np.array([PASS]))
    assert int(states.current[0]) == 2
    assert legal(engine, states) == {PASS, BOARD_BASE + 5}
    engine.step(states, np.array([BOARD_BASE + 5]))
    assert int(states.current[0]) == 0 and int(states.passed[0]) == 0
    assert legal(engine, states) == {PASS, BOARD_BASE + 0}
    engine.step(states, np.array([PASS]))
    view = batch_view(states, 0)
    assert view["cars"][5] == [2, 0] and view["station"] == [4, 4, 3]
    assert not (view["phase"] == PHASE_WINDOW and int(states.stage[0]) == 0)  # closed


if __name__ == "__main__":
    print(json.dumps({c.name: summary(played(c)) for c in CONFIGS}, indent=1))
