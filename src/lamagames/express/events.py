"""What happened in one Lama Express step: :func:`events` and its event dataclasses. Pure.

Every front end (terminal narration, web log) renders these events; none compares states
itself. Trains are ``"A"``/``"B"``, cars 1..5, die colours their letter (``R O Y G B P``,
E-1), seats 0-based. ``to_json()`` gives ``{"kind": ..., <fields>}`` (see
:class:`lamagames.core.events.Event`).

Order of the events of one step: the action itself (:class:`Rolled`, :class:`TrainMoved`
with ``chosen`` true, :class:`Passed`, :class:`Boarded`, :class:`Exited`,
:class:`Detoured`, :class:`Reboarded`), then what the rules did by themselves: a forced
train move (:class:`TrainMoved` with ``chosen`` false) or a stand-still (:class:`NoMove`,
E-6), a window that opened with everyone's chances (:class:`WindowOpened`, E-9), the end
of the game (:class:`GameEnded`, E-10, E-11).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from lamagames.core.events import Event
from lamagames.core.game import CHANCE_PLAYER, State, Termination
from lamagames.express.actions import (
    KIND_BOARD,
    KIND_DETOUR,
    KIND_EXIT,
    MOVE_A,
    MOVE_B,
    PASS,
    TRAIN_NAMES,
    decode_free_action,
)
from lamagames.express.game import as_express_state
from lamagames.express.material import DIE_COLOURS, NUM_TRAINS
from lamagames.express.rules import Phase, WindowStage
from lamagames.express.state import ExpressState


class ExpressEventKind(StrEnum):
    """Kinds of Lama Express events (the ``kind`` of their JSON)."""

    ROLL = "roll"
    MOVE = "move"
    NO_MOVE = "no_move"
    WINDOW = "window"
    PASS = "pass"
    BOARD = "board"
    EXIT = "exit"
    DETOUR = "detour"
    REBOARD = "reboard"
    GAME_END = "game_end"


@dataclass(frozen=True, slots=True)
class Chance:
    """The free actions open to one seat in a window (E-7), in notation (``board A3``)."""

    seat: int
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """The active player rolled the colour die (E-6).

    Attributes:
        seat: the roller.
        colour: the die colour letter.
        roll: the number of this roll in the game, from 1 (E-11 counts them).
    """

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.ROLL
    seat: int
    colour: str
    roll: int


@dataclass(frozen=True, slots=True)
class TrainMoved(Event):
    """A train moved to the next space of the rolled colour (E-6).

    Attributes:
        seat: the active player (whose roll it was).
        train: ``"A"`` or ``"B"``.
        from_tip: tip space before; ``to_tip``: after (E-2).
        distance: spaces moved.
        chosen: the active player chose this train; false when it was the only train able
            to move and so moved by itself.
    """

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.MOVE
    seat: int
    train: str
    from_tip: int
    to_tip: int
    distance: int
    chosen: bool


@dataclass(frozen=True, slots=True)
class NoMove(Event):
    """Neither train could move with the rolled colour; the turn ended (E-6)."""

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.NO_MOVE
    seat: int
    colour: str


@dataclass(frozen=True, slots=True)
class WindowOpened(Event):
    """A free-action window opened (E-9).

    Attributes:
        stage: after the roll or after the move.
        chances: the seats that may act, in the order they are asked, with their actions.
    """

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.WINDOW
    stage: WindowStage
    chances: tuple[Chance, ...]


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat let its chances pass (E-7, E-9); ``missed`` names them in notation."""

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.PASS
    seat: int
    missed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Boarded(Event):
    """A llama of ``seat`` got into an empty car on its boarding space (E-7); ``waiting``
    llamas are still at its station."""

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.BOARD
    seat: int
    train: str
    car: int
    space: int
    waiting: int


@dataclass(frozen=True, slots=True)
class Exited(Event):
    """A llama of ``seat`` that had done its lap got off into its house (E-7, E-8).

    Attributes:
        home: llamas of the seat in its house now; ``llamas_to_win`` wins (E-10).
    """

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.EXIT
    seat: int
    train: str
    car: int
    space: int
    home: int
    llamas_to_win: int


@dataclass(frozen=True, slots=True)
class Detoured(Event):
    """``seat`` sent ``owner``'s llama from a car on a white arrow onto the footpath (E-7).

    Attributes:
        footpath: index of the footpath (track order); ``arrow`` its arrow space,
            ``reboard`` its re-boarding space (the llama walked back there, E-8).
    """

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.DETOUR
    seat: int
    owner: int
    train: str
    car: int
    footpath: int
    arrow: int
    reboard: int


@dataclass(frozen=True, slots=True)
class Reboarded(Event):
    """The llama of ``seat`` at the front of a footpath got into an empty car on its
    re-boarding space (E-7)."""

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.REBOARD
    seat: int
    train: str
    car: int
    footpath: int
    arrow: int
    reboard: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game ended: a seat has all its llamas home (``goal``, E-10) or the turn limit was
    reached with no winner (``turn_limit``, E-11).

    Attributes:
        houses: llamas home per seat.
        rolls: die rolls made.
    """

    kind: ClassVar[ExpressEventKind] = ExpressEventKind.GAME_END
    termination: Termination
    winners: tuple[int, ...]
    houses: tuple[int, ...]
    rolls: int


def window_chances(state: ExpressState) -> tuple[Chance, ...]:
    """The seats that may act in the open window, in turn order from the seat asked, with
    their available free actions in notation (E-7, E-9); empty outside windows."""
    out = []
    for seat in state.acting_players():
        free = state.available_actions(seat)
        if free:
            out.append(Chance(seat, tuple(state.action_to_string(a, seat) for a in free)))
    return tuple(out)


def _footpath_of_car(state: ExpressState, train: int, car: int) -> int:
    """Index of the footpath whose arrow or re-boarding space the car stands on (E-7)."""
    return state.board.role_index[state.car_space(train, car)]


def events(before: State, action: int, player: int | None, after: State) -> list[Event]:
    """Everything applying ``action`` to ``before`` led to, in order (see the module doc).

    Args:
        before: the Lama Express state before the action (unchanged).
        action: the player action or chance outcome id that was applied.
        player: the seat that acted; ``None`` for the current player (the chance player at a
            chance node), -1 for the die.
        after: the state after the action.

    Returns:
        A new list of events.

    Raises:
        IllegalActionError: ``before`` or ``after`` is not a Lama Express state.
    """
    b = as_express_state(before)
    a = as_express_state(after)
    game = a.game
    out: list[Event] = []
    chance = b.is_chance_node() and (player is None or player == CHANCE_PLAYER)
    seat = b.current_player() if player is None else player
    if chance:
        out.append(Rolled(b.active_player(), DIE_COLOURS[action], a.rolls()))
    elif action == PASS:
        missed = tuple(b.action_to_string(x, seat) for x in b.available_actions(seat))
        out.append(Passed(seat, missed))
    elif action not in (MOVE_A, MOVE_B):
        kind, train, car = decode_free_action(action)
        name = TRAIN_NAMES[train]
        space = b.car_space(train, car)
        if kind == KIND_BOARD:
            out.append(Boarded(seat, name, car, space, a.waiting_llamas(seat)))
        elif kind == KIND_EXIT:
            home = a.house_llamas(seat)
            out.append(Exited(seat, name, car, space, home, game.llamas_to_win))
        else:
            index = _footpath_of_car(b, train, car)
            footpath = b.board.footpaths[index]
            if kind == KIND_DETOUR:
                llama = b.car_llama(train, car)
                owner = -1 if llama is None else llama[0]
                out.append(
                    Detoured(seat, owner, name, car, index, footpath.arrow, footpath.reboard)
                )
            else:
                out.append(Reboarded(seat, name, car, index, footpath.arrow, footpath.reboard))
    out.extend(_consequences(b, action, chance, a))
    return out


def _consequences(b: ExpressState, action: int, chance: bool, a: ExpressState) -> list[Event]:
    """What the engine did by itself: a move (chosen or forced) or a stand-still (E-6), a
    window that opened (E-9), the end of the game (E-10, E-11)."""
    out: list[Event] = []
    moved = next((t for t in range(NUM_TRAINS) if b.train_tip(t) != a.train_tip(t)), None)
    closing_roll = chance or b.window_stage() == WindowStage.AFTER_ROLL
    if moved is not None:
        start, end = b.train_tip(moved), a.train_tip(moved)
        chosen = not chance and action in (MOVE_A, MOVE_B) and b.phase() == Phase.CHOOSE
        out.append(
            TrainMoved(
                b.active_player(),
                TRAIN_NAMES[moved],
                start,
                end,
                b.board.distance(start, end),
                chosen,
            )
        )
    elif (
        closing_roll
        and a.window_stage() != WindowStage.AFTER_ROLL
        and a.phase() != Phase.CHOOSE
        and a.winner() is None
    ):
        die = a.die()
        out.append(NoMove(b.active_player(), "" if die is None else die))
    stage = a.window_stage()
    if stage is not None and (moved is not None or chance or b.window_stage() != stage):
        out.append(WindowOpened(WindowStage(stage), window_chances(a)))
    winner = a.winner()
    houses = tuple(a.house_llamas(s) for s in range(a.game.num_players))
    if winner is not None and b.winner() is None:
        out.append(GameEnded(Termination.GOAL, (winner,), houses, a.rolls()))
    elif a.is_truncated() and not b.is_truncated():
        out.append(GameEnded(Termination.TURN_LIMIT, (), houses, a.rolls()))
    return out
