"""The read-only views of a Lama Express position: :class:`ExpressStateReader`, the base
class of :class:`~lamagames.express.state.ExpressState` with its public accessors, the
result (E-10, E-11) and the saved form (``to_dict``, format in
:mod:`lamagames.express.state_data`). Lists are returned as copies. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Outcome, Termination
from lamagames.express.actions import NUM_CAR_SLOTS, TRAIN_NAMES
from lamagames.express.board import Board
from lamagames.express.material import DIE_COLOURS, NUM_TRAINS, PASSENGER_CARS, TRAIN_SPACES
from lamagames.express.primitives import car_space, lap_need, lap_to_go, movable, tip_after
from lamagames.express.rules import (
    EMPTY,
    NO_SEAT,
    PHASE_NAMES,
    STAGE_NAMES,
    STAGES,
    Phase,
    WindowStage,
)

# The phases as module constants: reading ``Phase.WINDOW`` (an Enum class attribute) costs
# about 250 ns in Python 3.11, a module global about 35 ns (measured); hot paths use these.
_ROLL: Final = Phase.ROLL
_WINDOW: Final = Phase.WINDOW
_CHOOSE: Final = Phase.CHOOSE
_OVER: Final = Phase.OVER
_PHASES: Final = tuple(Phase)

if TYPE_CHECKING:
    from lamagames.express.game import ExpressGame


class ExpressStateReader:
    """Public accessors over the private fields of a Lama Express state (no mutation)."""

    __slots__ = ()

    game: ExpressGame
    _board: Board
    _n: int
    _phase: int
    _stage: int
    _active: int
    _asked: int
    _passed: int
    _cur: int
    _rolls: int
    _die: int
    _tips: list[int]
    _owner: list[int]
    _prog: list[int]
    _station: list[int]
    _house: list[int]
    _path_len: list[int]
    _path_owner: list[list[int]]
    _path_prog: list[list[int]]
    _winner: int
    _history: list[tuple[int, int]]

    def current_player(self) -> int:
        """The seat to act (see :class:`~lamagames.express.state.ExpressState`)."""
        return self._cur

    # ================================================================= results
    def outcome(self) -> Outcome | None:
        """``Outcome(GOAL, (winner,))`` once a seat has all llamas home (E-10),
        ``Outcome(TURN_LIMIT, ())`` when truncated (E-11), ``None`` while the game runs."""
        if self._phase != _OVER:
            return None
        if self._winner == NO_SEAT:
            return Outcome(Termination.TURN_LIMIT, ())
        return Outcome(Termination.GOAL, (self._winner,))

    def winner(self) -> int | None:
        """The winning seat (E-10), or ``None``."""
        return None if self._winner == NO_SEAT else self._winner

    def is_truncated(self) -> bool:
        """True when the game ended by the turn limit without a winner (E-11)."""
        return self._phase == _OVER and self._winner == NO_SEAT

    # ================================================================= public accessors
    @property
    def board(self) -> Board:
        """The board."""
        return self._board

    def phase(self) -> Phase:
        """What comes next: :class:`~lamagames.express.rules.Phase` ``roll``, ``window``,
        ``choose`` or ``over`` (an int enum; its :attr:`~lamagames.express.rules.Phase.label` is
        the word)."""
        return _PHASES[self._phase]

    def window_stage(self) -> WindowStage | None:
        """``after_roll`` or ``after_move`` in a window (E-9), else ``None``
        (a :class:`~lamagames.express.rules.WindowStage`, compares equal to those words)."""
        return STAGES[self._stage] if self._phase == _WINDOW else None

    def passed_players(self) -> list[int]:
        """Seats that passed since the last action in the open window (E-9)."""
        if self._phase != _WINDOW:
            return []
        return [s for s in range(self._n) if (self._passed >> s) & 1]

    def active_player(self) -> int:
        """The seat whose turn it is (who rolls and chooses the train, E-6)."""
        return self._active

    def die(self) -> str | None:
        """The last die roll as a colour letter (``None`` before the first roll)."""
        return None if self._die == EMPTY else DIE_COLOURS[self._die]

    def rolls(self) -> int:
        """Die rolls made so far (E-11)."""
        return self._rolls

    def last_roller(self) -> int | None:
        """The seat that made the last die roll (:meth:`die`), ``None`` before the first.

        Between turns (phase ``roll``) the die still shows the previous player's roll: the
        turn has passed to the next seat (E-6), which has not rolled yet.
        """
        if self._rolls == 0:
            return None
        if self._phase == _ROLL:
            return (self._active - 1) % self._n
        return self._active

    def train_tip(self, train: int) -> int:
        """Tip space of train ``train`` (0 = A, 1 = B) (E-2)."""
        return self._tips[train]

    def car_space(self, train: int, car: int) -> int:
        """Space of passenger car ``car`` (1..5) of ``train`` (0 = A, 1 = B) (E-2)."""
        return car_space(self._tips[train], car - 1, self._board.length)

    def train_spaces(self, train: int) -> list[int]:
        """Spaces of a train: locomotive, coal car, cars 1..5 (E-2, :func:`car_space`, whose
        cars -2 and -1 are the locomotive and the coal car)."""
        tip = self._tips[train]
        length = self._board.length
        return [
            car_space(tip, c, length) for c in range(PASSENGER_CARS - TRAIN_SPACES, PASSENGER_CARS)
        ]

    def car_llama(self, train: int, car: int) -> tuple[int, int] | None:
        """``(owner seat, progress)`` of the llama in a car, or ``None`` if empty."""
        slot = train * PASSENGER_CARS + car - 1
        who = self._owner[slot]
        return None if who == EMPTY else (who, self._prog[slot])

    def waiting_llamas(self, seat: int) -> int:
        """Llamas of ``seat`` waiting at its station."""
        return self._station[seat]

    def house_llamas(self, seat: int) -> int:
        """Llamas of ``seat`` in its house."""
        return self._house[seat]

    def footpath_llamas(self, index: int) -> list[tuple[int, int]]:
        """``(owner, progress)`` of the llamas on footpath ``index``, front first."""
        return self._path(index)

    def lap_need(self, seat: int, space: int) -> int:
        """Progress a llama of ``seat`` needs to exit at ``space``: the forward distance from
        its home boarding space (E-8, :func:`~lamagames.express.primitives.lap_need`)."""
        return lap_need(self.game.home_boarding[seat], space, self._board.length)

    def spaces_to_go(self, seat: int, progress: int) -> int:
        """Spaces a llama of ``seat`` with this progress still has to ride before it may get
        off at the first exit space of its station (E-8); 0 once its lap is done: the least
        :func:`~lamagames.express.primitives.lap_to_go` over the station's exit spaces and
        their :meth:`lap_need` (the lap check of ``primitives.available``). What the
        terminal and the browser show."""
        station = self._board.stations[self.game.seat_station[seat]]
        return min(lap_to_go(progress, self.lap_need(seat, space)) for space in station.exits)

    def lap_done(self, seat: int, progress: int) -> bool:
        """True when a llama of ``seat`` with this progress has done its lap, at least as far
        as the first exit space of its station (E-8, :meth:`spaces_to_go` 0)."""
        return self.spaces_to_go(seat, progress) == 0

    def move_tip(self, train: int) -> int:
        """Where the tip of ``train`` would land with the last roll, ignoring blocking (E-6,
        :func:`~lamagames.express.primitives.tip_after` of :meth:`move_distance`).

        Raises:
            IllegalActionError: no die has been rolled yet.
        """
        return tip_after(self.train_tip(train), self.move_distance(train), self._board.length)

    def movable_trains(self) -> list[int]:
        """Trains that can move with the last roll (E-6); empty before the first roll."""
        if self._die == EMPTY:
            return []
        return [t for t in range(NUM_TRAINS) if self._can_move(t)]

    def move_distance(self, train: int) -> int:
        """Spaces ``train`` would move with the last roll, ignoring blocking (E-6).

        Raises:
            IllegalActionError: no die has been rolled yet.
        """
        if self._die == EMPTY:
            raise IllegalActionError("no die rolled yet")
        return self._move_distance(train)

    def llama_locations(self, seat: int) -> dict[str, Any]:
        """Where the llamas of ``seat`` are: counts at station and house, cars (``"A3"``)
        and footpath positions ``(footpath, place)``."""
        cars = [
            f"{TRAIN_NAMES[slot // PASSENGER_CARS]}{slot % PASSENGER_CARS + 1}"
            for slot in range(NUM_CAR_SLOTS)
            if self._owner[slot] == seat
        ]
        paths = [
            (i, j)
            for i in range(len(self._path_len))
            for j, (who, _p) in enumerate(self._path(i))
            if who == seat
        ]
        return {
            "station": self._station[seat],
            "house": self._house[seat],
            "cars": cars,
            "footpaths": paths,
        }

    # ================================================================= rules (reads)
    def _path(self, index: int) -> list[tuple[int, int]]:
        """``(owner, progress)`` of the llamas on footpath ``index``, front first."""
        m = self._path_len[index]
        return list(zip(self._path_owner[index][:m], self._path_prog[index][:m], strict=True))

    def _move_distance(self, train: int) -> int:
        return self._board.next_distance[self._die][self._tips[train]]

    def _movable(self) -> int:
        """Bitmask of the trains that can move with the last roll (E-6, :func:`movable`)."""
        tips = self._tips
        row = self._board.next_distance[self._die]
        return movable(row[tips[0]], row[tips[1]], tips[0], tips[1], self._board.length)

    def _can_move(self, train: int) -> bool:
        # E-6: the locomotive may not enter a space of the other train (no pushing).
        return bool((self._movable() >> train) & 1)

    # ================================================================= data
    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON data (format in :mod:`lamagames.express.state_data`)."""

        def car(slot: int) -> dict[str, int] | None:
            who = self._owner[slot]
            return None if who == EMPTY else {"owner": who, "progress": self._prog[slot]}

        window = None
        if self._phase == _WINDOW:
            window = {
                "stage": STAGE_NAMES[self._stage],
                "asked": self._asked,
                "passed": self.passed_players(),
            }
        return {
            "phase": PHASE_NAMES[self._phase],
            "active": self._active,
            "rolls": self._rolls,
            "die": self.die(),
            "trains": {"A": self._tips[0], "B": self._tips[1]},
            "cars": {
                name: [car(t * PASSENGER_CARS + c) for c in range(PASSENGER_CARS)]
                for t, name in enumerate(TRAIN_NAMES)
            },
            "stations": list(self._station),
            "houses": list(self._house),
            "footpaths": [
                [{"owner": w, "progress": p} for w, p in self._path(i)]
                for i in range(len(self._path_len))
            ],
            "window": window,
            "winner": self.winner(),
            "history": [[p, a] for p, a in self._history],
        }
