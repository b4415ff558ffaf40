"""Lama Express rules engine (Manfred Ludwig, Piatnik 2020): rulings E-1 .. E-11 of RULES.md.

The engine is pure: no I/O, no global randomness. Boards come from
:mod:`lamagames.express.board` (E-3, E-12); the action space and notation from
:mod:`lamagames.express.actions`.

Flow of a turn (E-6, E-9):

1. *roll* -- a chance node: the active player's colour die, six outcomes of 1/6.
2. *window after the roll* -- opened only when some seat has an available free action (E-7).
3. *train choice* -- a decision (``move A`` / ``move B``) of the active player only when both
   trains can move; with one movable train it moves at once, with none nothing moves and the
   turn ends (E-6).
4. *window after the move* -- as in 2.
5. the next seat in turn order becomes active; with a turn limit (E-11), the game is
   truncated instead once ``turn_limit`` rolls have been made.

Windows (E-9). Turn-by-turn: :meth:`ExpressState.current_player` is the seat being asked.
Seats are asked in turn order starting with the active player; only seats with an available
free action are asked (the others count as having passed); each asked seat takes one free
action or passes; after an action the asking goes on with the seat after the one who acted;
the window closes when every seat with an available action has passed since the last action.
Live play: :meth:`ExpressState.acting_players` lists every seat with an available action that
has not passed since the last action, and any of them may act (``apply_action(a, player=p)``)
in arrival order; any free action resets the passes. An exit that brings a player's house to
``llamas_to_win`` ends the game at once (E-10).

Seats: seat ``i`` plays colour ``colours[i]``; seats must follow the clockwise order of their
stations, so turn order (clockwise by station, E-4) is ascending seat order.

Observations: :mod:`lamagames.express.views` (JSON observation, tensor layout).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, Self

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import (
    BoardError,
    IllegalActionError,
    InvalidActionError,
    ParameterError,
    RecordError,
)
from lamagames.core.game import CHANCE_PLAYER, TERMINAL_PLAYER, Game, GameInfo, State
from lamagames.express import views
from lamagames.express.actions import (
    BOARD_BASE,
    DETOUR_BASE,
    EXIT_BASE,
    FREE_BASE,
    KIND_BOARD,
    KIND_DETOUR,
    KIND_EXIT,
    MAX_CHANCE_OUTCOMES,
    MOVE_A,
    MOVE_B,
    NUM_CAR_SLOTS,
    NUM_DISTINCT_ACTIONS,
    PASS,
    REBOARD_BASE,
    TRAIN_NAMES,
    chance_to_string,
    player_action_to_string,
    string_to_chance,
    string_to_player_action,
)
from lamagames.express.board import (
    DIE_COLOURS,
    LLAMAS_PER_PLAYER,
    NUM_DIE_COLOURS,
    NUM_STATIONS,
    NUM_TRAINS,
    PASSENGER_CARS,
    PLAYER_COLOURS,
    ROLE_ARROW,
    ROLE_BOARDING,
    ROLE_EXIT,
    ROLE_NONE,
    ROLE_REBOARD,
    STANDARD_BOARD_NAME,
    TRAIN_SPACES,
    Board,
    parse_board,
    standard_board,
)
from lamagames.express.state_data import LlamaData, StateData, parse_state_data

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = NUM_STATIONS
#: Llamas home to win (E-10); the short variant needs :data:`SHORT_GAME_LLAMAS`.
DEFAULT_LLAMAS_TO_WIN: Final = 4
SHORT_GAME_LLAMAS: Final = 3
#: Default player colours by number of players (E-4).
DEFAULT_COLOURS: Final[dict[int, tuple[str, ...]]] = {
    2: ("yellow", "green"),
    3: ("yellow", "pink", "green"),
    4: ("yellow", "pink", "green", "blue"),
}
#: Space offset of passenger car ``c`` (1..5) behind the tip: ``tip - CAR_OFFSET - c`` (E-2).
CAR_OFFSET: Final = 2
CHANCE_PROBABILITY: Final = 1.0 / NUM_DIE_COLOURS

# Phases: what the next action is.
PHASE_ROLL: Final = 0  # chance: the colour die
PHASE_WINDOW: Final = 1  # a free-action window (E-9)
PHASE_CHOOSE: Final = 2  # the active player chooses a train (E-6)
PHASE_OVER: Final = 3  # won (E-10) or truncated (E-11)
PHASE_NAMES: Final = ("roll", "window", "choose", "over")
# Window stages (E-9).
STAGE_AFTER_ROLL: Final = 0
STAGE_AFTER_MOVE: Final = 1
STAGE_NAMES: Final = ("after_roll", "after_move")
NO_SEAT: Final = -1
EMPTY: Final = -1


#: One car standing on a role space: (car index 0..4, space, role, role index, exit need).
CarSpecial = tuple[int, int, int, int, int]


def _exact_int(value: object) -> bool:
    return type(value) is int


class ExpressGame(Game):
    """Lama Express with fixed parameters.

    Args:
        num_players: 2..4 seats (E-4).
        colours: player colour of each seat (``yellow``, ``pink``, ``green``, ``blue``),
            distinct, in clockwise order of their stations; default per E-4.
        starting_seat: seat that rolls first (E-5).
        llamas_to_win: 4, or 3 for the short game (E-10).
        board: ``None`` or ``"standard"`` for the E-3 board, a board dict in the file
            format (E-12), or a :class:`~lamagames.express.board.Board`.
        turn_limit: ``None`` (no limit, live play) or the number of die rolls after which the
            game is truncated with no winner (E-11).

    Raises:
        ParameterError: a parameter is out of range or inconsistent; a bad board dict gives
            its :class:`~lamagames.core.errors.BoardError` message.
    """

    def __init__(
        self,
        num_players: int = 2,
        colours: Sequence[str] | None = None,
        starting_seat: int = 0,
        llamas_to_win: int = DEFAULT_LLAMAS_TO_WIN,
        board: str | Mapping[str, Any] | Board | None = None,
        turn_limit: int | None = None,
    ) -> None:
        if not _exact_int(num_players) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ParameterError(f"num_players must be 2..4, got {num_players!r}")
        if not _exact_int(starting_seat) or not 0 <= starting_seat < num_players:
            raise ParameterError(
                f"starting_seat must be a seat 0..{num_players - 1}, got {starting_seat!r}"
            )
        if llamas_to_win not in (DEFAULT_LLAMAS_TO_WIN, SHORT_GAME_LLAMAS) or not _exact_int(
            llamas_to_win
        ):
            raise ParameterError(
                f"llamas_to_win must be 4 or 3 (short game), got {llamas_to_win!r}"
            )
        if turn_limit is not None and (not _exact_int(turn_limit) or turn_limit < 1):
            raise ParameterError(
                f"turn_limit must be None or a positive number of die rolls, got {turn_limit!r}"
            )
        self.board: Board = self._resolve_board(board)
        self._board_param: str | dict[str, Any] = (
            STANDARD_BOARD_NAME
            if board is None or board == STANDARD_BOARD_NAME
            else self.board.to_dict()
        )
        self.colours: tuple[str, ...] = self._resolve_colours(num_players, colours)
        self.starting_seat: int = starting_seat
        self.llamas_to_win: int = llamas_to_win
        self.turn_limit: int | None = turn_limit

        board_ = self.board
        #: station index (clockwise) of each seat; seat of each station or -1 (inert, E-4)
        self.seat_station: tuple[int, ...] = tuple(board_.station_index(c) for c in self.colours)
        station_seat = [NO_SEAT] * NUM_STATIONS
        for seat, k in enumerate(self.seat_station):
            station_seat[k] = seat
        self.station_seat: tuple[int, ...] = tuple(station_seat)
        self.home_boarding: tuple[int, ...] = tuple(
            board_.stations[k].boarding for k in self.seat_station
        )
        self.footpath_lengths: tuple[int, ...] = tuple(f.length for f in board_.footpaths)
        self.walk_back: tuple[int, ...] = tuple(f.walk_back for f in board_.footpaths)
        # For each tip space: the cars of a train with that tip standing on role spaces.
        length = board_.length
        specials: list[tuple[CarSpecial, ...]] = []
        for tip in range(length):
            row: list[CarSpecial] = []
            for c in range(PASSENGER_CARS):
                space = (tip - CAR_OFFSET - 1 - c) % length
                role = board_.role[space]
                if role != ROLE_NONE:
                    row.append((c, space, role, board_.role_index[space], board_.exit_need[space]))
            specials.append(tuple(row))
        self.car_specials: tuple[tuple[CarSpecial, ...], ...] = tuple(specials)
        obs_size = views.observation_size(length, sum(self.footpath_lengths))
        self.info = GameInfo(
            game_id="express",
            long_name="Lama Express",
            num_players=num_players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            observation_shape=(obs_size,),
        )

    @staticmethod
    def _resolve_board(board: object) -> Board:
        if board is None or board == STANDARD_BOARD_NAME:
            return standard_board()
        if isinstance(board, Board):
            return board
        if isinstance(board, Mapping):
            try:
                return parse_board(board)
            except BoardError as exc:
                raise ParameterError(f"board: {exc}") from None
        raise ParameterError(f"board must be None, 'standard' or a board dict, got {board!r}")

    def _resolve_colours(self, n: int, colours: Sequence[str] | None) -> tuple[str, ...]:
        if colours is None:
            default = set(DEFAULT_COLOURS[n])
            # E-4 defaults, seated clockwise starting from yellow's station.
            order = [s.colour for s in self.board.stations]
            start = order.index(PLAYER_COLOURS[0])
            return tuple(c for c in (order[start:] + order[:start]) if c in default)
        if isinstance(colours, str) or not isinstance(colours, Sequence):
            raise ParameterError(f"colours must be a list of colour names, got {colours!r}")
        result = tuple(colours)
        if len(result) != n:
            raise ParameterError(f"colours: need {n} colours for {n} players, got {len(result)}")
        for c in result:
            if c not in PLAYER_COLOURS:
                raise ParameterError(
                    f"colours: {c!r} is not a player colour ({', '.join(PLAYER_COLOURS)})"
                )
        if len(set(result)) != n:
            raise ParameterError(f"colours: each colour may be taken once, got {list(result)}")
        stations = [self.board.station_index(c) for c in result]
        turns = sum((stations[(i + 1) % n] - stations[i]) % NUM_STATIONS for i in range(n))
        if turns != NUM_STATIONS:
            raise ParameterError(
                f"colours: seats must follow the clockwise order of their stations, "
                f"got {list(result)}"
            )
        return result

    @property
    def params(self) -> dict[str, Any]:
        """JSON parameters; ``make("express", **params)`` rebuilds this game."""
        board: str | dict[str, Any] = self._board_param
        return {
            "num_players": self.num_players,
            "colours": list(self.colours),
            "starting_seat": self.starting_seat,
            "llamas_to_win": self.llamas_to_win,
            "board": board if isinstance(board, str) else dict(board),
            "turn_limit": self.turn_limit,
        }

    def setup_tips(self) -> tuple[int, int]:
        """Tip spaces of trains A and B at setup (E-5): A at the starting seat's boarding
        space, B at the boarding space of the diagonally opposite station."""
        board = self.board
        k = self.seat_station[self.starting_seat]
        return (board.stations[k].boarding, board.stations[board.opposite_station(k)].boarding)

    def new_initial_state(self) -> ExpressState:
        """The setup of E-5: all llamas at their stations, the starting seat to roll."""
        return ExpressState(self)

    def state_from_dict(self, data: dict[str, Any]) -> ExpressState:
        """Rebuild a state from :meth:`ExpressState.to_dict` output (see
        :mod:`lamagames.express.state_data` for the format).

        Raises:
            RecordError: malformed data or a position inconsistent with the rules (llama
                counts, progress, trains overlapping, window or phase).
        """
        return ExpressState._from_data(self, parse_state_data(data))

    def build_state(
        self,
        *,
        trains: Mapping[str, int] | None = None,
        cars: Mapping[str, int | tuple[int, int]] | None = None,
        footpaths: Mapping[int, Sequence[int | tuple[int, int]]] | None = None,
        houses: Sequence[int] | None = None,
        active: int | None = None,
        rolls: int = 0,
    ) -> ExpressState:
        """Build a position at the start of a turn (a chance node: the die roll is next).

        Meant for tests, puzzles and analysis. Llamas not placed elsewhere wait at their
        station.

        Args:
            trains: tip spaces, ``{"A": 10, "B": 30}``; default the setup of E-5.
            cars: ``{"A3": owner}`` or ``{"A3": (owner, progress)}``; the default progress is
                the first-lap value ``(space - home boarding space) mod N`` (E-8).
            footpaths: ``{footpath index: [owner or (owner, progress), ...]}``, front first;
                default progress ``(re-boarding space - home boarding space) mod N``.
            houses: llamas home per seat.
            active: the seat to roll; default the starting seat.
            rolls: rolls made so far (E-11).

        Raises:
            RecordError: the position is inconsistent (see :meth:`state_from_dict`).
            ParameterError: a key or value of the arguments is malformed.
        """
        board = self.board
        n = self.num_players
        tip_a, tip_b = self.setup_tips()
        if trains is not None:
            tip_a, tip_b = trains.get("A", tip_a), trains.get("B", tip_b)
        car_rows: dict[str, list[dict[str, int] | None]] = {
            "A": [None] * PASSENGER_CARS,
            "B": [None] * PASSENGER_CARS,
        }
        tips = {"A": tip_a, "B": tip_b}
        placed = [0] * n
        for key, value in (cars or {}).items():
            if len(key) != 2 or key[0] not in TRAIN_NAMES or key[1] not in "12345":
                raise ParameterError(f"cars: bad car {key!r}; use 'A1'..'B5'")
            owner, progress = value if isinstance(value, tuple) else (value, None)
            if not _exact_int(owner) or not 0 <= owner < n:
                raise ParameterError(f"cars: {key}: no seat {owner!r}")
            car = int(key[1])
            space = (tips[key[0]] - CAR_OFFSET - car) % board.length
            if progress is None:
                progress = board.distance(self.home_boarding[owner], space)
            car_rows[key[0]][car - 1] = {"owner": owner, "progress": progress}
            placed[owner] += 1
        paths: list[list[dict[str, int]]] = [[] for _ in board.footpaths]
        for index, llamas in (footpaths or {}).items():
            if not 0 <= index < len(paths):
                raise ParameterError(f"footpaths: no footpath {index}")
            for value in llamas:
                owner, progress = value if isinstance(value, tuple) else (value, None)
                if not _exact_int(owner) or not 0 <= owner < n:
                    raise ParameterError(f"footpaths: {index}: no seat {owner!r}")
                if progress is None:
                    progress = board.distance(
                        self.home_boarding[owner], board.footpaths[index].reboard
                    )
                paths[index].append({"owner": owner, "progress": progress})
                placed[owner] += 1
        house = list(houses) if houses is not None else [0] * n
        if len(house) != n:
            raise ParameterError(f"houses: need {n} counts")
        data: dict[str, Any] = {
            "phase": "roll",
            "active": self.starting_seat if active is None else active,
            "rolls": rolls,
            "die": None,
            "trains": {"A": tip_a, "B": tip_b},
            "cars": car_rows,
            "stations": [LLAMAS_PER_PLAYER - placed[s] - house[s] for s in range(n)],
            "houses": house,
            "footpaths": paths,
            "window": None,
            "winner": None,
            "history": [],
        }
        return self.state_from_dict(data)


class ExpressState(State):
    """A Lama Express position; see the module docstring for the flow of play."""

    __slots__ = (
        "_active",
        "_asked",
        "_board",
        "_cur",
        "_die",
        "_free",
        "_history",
        "_house",
        "_n",
        "_owner",
        "_passed",
        "_paths",
        "_phase",
        "_prog",
        "_rolls",
        "_stage",
        "_station",
        "_tips",
        "_winner",
        "game",
    )

    game: ExpressGame

    def __init__(self, game: ExpressGame) -> None:
        self.game = game
        self._board = game.board
        n = game.num_players
        self._n = n
        self._phase = PHASE_ROLL
        self._stage = STAGE_AFTER_ROLL
        self._active = game.starting_seat
        self._asked = NO_SEAT
        self._passed = 0
        self._cur = CHANCE_PLAYER
        self._rolls = 0
        self._die = EMPTY
        self._tips = list(game.setup_tips())
        self._owner = [EMPTY] * NUM_CAR_SLOTS
        self._prog = [0] * NUM_CAR_SLOTS
        self._station = [LLAMAS_PER_PLAYER] * n
        self._house = [0] * n
        self._paths: list[list[tuple[int, int]]] = [[] for _ in game.board.footpaths]
        self._winner = NO_SEAT
        self._history: list[tuple[int, int]] = []
        self._free: list[list[int]] | None = None

    # ================================================================= protocol: who acts
    def current_player(self) -> int:
        """The seat to act: the active player choosing a train, the seat asked in a window;
        :data:`CHANCE_PLAYER` before a roll; :data:`TERMINAL_PLAYER` when over."""
        return self._cur

    def is_chance_node(self) -> bool:
        """True before a die roll."""
        return self._phase == PHASE_ROLL

    def is_terminal(self) -> bool:
        """True once a player has won (E-10) or the turn limit truncated the game (E-11)."""
        return self._phase == PHASE_OVER

    def acting_players(self) -> list[int]:
        """Seats that may act now, in turn order from the current player.

        In a window (E-9): every seat with an available free action that has not passed since
        the last action. When choosing a train: the active player. Otherwise empty.
        """
        phase = self._phase
        if phase == PHASE_CHOOSE:
            return [self._active]
        if phase != PHASE_WINDOW:
            return []
        free = self._free_actions()
        n = self._n
        start = self._cur
        passed = self._passed
        out = []
        for i in range(n):
            seat = (start + i) % n
            if free[seat] and not (passed >> seat) & 1:
                out.append(seat)
        return out

    # ================================================================= protocol: actions
    def _seat(self, player: int | None) -> int:
        if player is None:
            return self._cur
        if not _exact_int(player) or not 0 <= player < self._n:
            if player == CHANCE_PLAYER:
                return CHANCE_PLAYER
            raise IllegalActionError(f"no seat {player!r} in a {self._n}-player game")
        return player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions of ``player`` (default: the current player), ascending.

        At a chance node with ``player=None``: the six die outcomes. In a window: ``pass``
        and the seat's available free actions, if the seat has any and has not passed since
        the last action (E-9). When choosing: ``move A``, ``move B`` for the active player.

        Raises:
            IllegalActionError: ``player`` is not a seat of this game.
        """
        phase = self._phase
        if phase == PHASE_WINDOW:
            seat = self._cur if player is None else self._seat(player)
            if seat < 0 or (self._passed >> seat) & 1:
                return []
            free = self._free_actions()[seat]
            return [PASS, *free] if free else []
        if phase == PHASE_ROLL:
            if player is None or player == CHANCE_PLAYER:
                return list(range(MAX_CHANCE_OUTCOMES))
            self._seat(player)
            return []
        if phase == PHASE_CHOOSE:
            seat = self._cur if player is None else self._seat(player)
            return [MOVE_A, MOVE_B] if seat == self._active else []
        if player is not None:
            self._seat(player)
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The six die colours, each with probability 1/6 (E-1).

        Raises:
            IllegalActionError: not a chance node.
        """
        self._require_chance()
        return [(c, CHANCE_PROBABILITY) for c in range(MAX_CHANCE_OUTCOMES)]

    def sample_chance_outcome(self, rng: random.Random) -> int:
        """Draw a die colour uniformly with ``rng``.

        Raises:
            IllegalActionError: not a chance node.
        """
        if self._phase != PHASE_ROLL:
            raise IllegalActionError("not a chance node")
        return int(rng.random() * MAX_CHANCE_OUTCOMES)

    def apply_action(self, action: int, player: int | None = None) -> None:
        """Apply a die roll, a train choice, a free action or a pass, in place.

        Args:
            action: an action id (a chance outcome id at a chance node).
            player: the acting seat; ``None`` means the current player. In a window any seat
                of :meth:`acting_players` may act (live play, E-9).

        Raises:
            InvalidActionError: ``action`` is not an id of the relevant space.
            IllegalActionError: the action is not legal now for that seat. The state is
                unchanged in both cases.
        """
        if type(action) is not int:
            action = self._coerce(action)
        phase = self._phase
        if phase == PHASE_ROLL:
            if not 0 <= action < MAX_CHANCE_OUTCOMES:
                raise InvalidActionError(
                    f"{action} is not a chance outcome id (0..{MAX_CHANCE_OUTCOMES - 1})"
                )
            if player is not None and player != CHANCE_PLAYER:
                self._seat(player)
                raise IllegalActionError(f"seat {player} cannot act: the die is to be rolled")
            self._history.append((CHANCE_PLAYER, action))
            self._die = action
            self._rolls += 1
            self._open_window(STAGE_AFTER_ROLL)
            return
        if not 0 <= action < NUM_DISTINCT_ACTIONS:
            raise InvalidActionError(
                f"{action} is not a player action id (0..{NUM_DISTINCT_ACTIONS - 1})"
            )
        seat = self._cur if player is None else self._seat(player)
        if phase == PHASE_WINDOW:
            if seat < 0 or (self._passed >> seat) & 1:
                raise IllegalActionError(
                    f"seat {seat} cannot act in this window"
                    + (" (passed since the last action)" if seat >= 0 else "")
                )
            free = self._free_actions()[seat]
            if action == PASS:
                if not free:
                    raise IllegalActionError(f"seat {seat} has no free action to pass on")
                self._history.append((seat, action))
                self._pass(seat)
                return
            if action not in free:
                raise IllegalActionError(
                    f"{player_action_to_string(action)!r} is not available to seat {seat}"
                )
            self._history.append((seat, action))
            self._free_action(seat, action)
            return
        if phase == PHASE_CHOOSE:
            if seat != self._active:
                raise IllegalActionError(f"seat {seat} is not the active player")
            if action not in (MOVE_A, MOVE_B):
                raise IllegalActionError(
                    f"{player_action_to_string(action)!r}: the active player must choose a train"
                )
            self._history.append((seat, action))
            self._move(action - MOVE_A)
            self._open_window(STAGE_AFTER_MOVE)
            return
        raise IllegalActionError("the game is over")

    @staticmethod
    def _coerce(action: object) -> int:
        if isinstance(action, bool):
            raise InvalidActionError(f"{action!r} is not an action id")
        try:
            return operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            raise InvalidActionError(f"{action!r} is not an action id") from None

    def clone(self) -> Self:
        """An independent deep copy."""
        other = object.__new__(type(self))
        other.game = self.game
        other._board = self._board
        other._n = self._n
        other._phase = self._phase
        other._stage = self._stage
        other._active = self._active
        other._asked = self._asked
        other._passed = self._passed
        other._cur = self._cur
        other._rolls = self._rolls
        other._die = self._die
        other._tips = self._tips[:]
        other._owner = self._owner[:]
        other._prog = self._prog[:]
        other._station = self._station[:]
        other._house = self._house[:]
        other._paths = [p[:] for p in self._paths]
        other._winner = self._winner
        other._history = self._history[:]
        free = self._free
        other._free = None if free is None else [f[:] for f in free]
        return other

    def history(self) -> list[tuple[int, int]]:
        """Every ``(player, action)`` applied so far; die rolls have player -1."""
        return list(self._history)

    # ================================================================= rules
    def _free_actions(self) -> list[list[int]]:
        free = self._free
        if free is None:
            free = self._free = self._compute_free()
        return free

    def _compute_free(self) -> list[list[int]]:
        """Available free actions of every seat (E-7), each list ascending."""
        game = self.game
        n = self._n
        free: list[list[int]] = [[] for _ in range(n)]
        specials = game.car_specials
        owner = self._owner
        prog = self._prog
        paths = self._paths
        station_seat = game.station_seat
        station = self._station
        capacity = game.footpath_lengths
        tips = self._tips
        for train in range(NUM_TRAINS):
            base = train * PASSENGER_CARS
            for c, _space, role, index, need in specials[tips[train]]:
                slot = base + c
                who = owner[slot]
                if who < 0:
                    if role == ROLE_BOARDING:
                        seat = station_seat[index]
                        if seat >= 0 and station[seat] > 0:
                            free[seat].append(BOARD_BASE + slot)
                    elif role == ROLE_REBOARD:
                        path = paths[index]
                        if path:
                            free[path[0][0]].append(REBOARD_BASE + slot)
                elif role == ROLE_EXIT:
                    # E-7/E-8: own exit space and lap completed.
                    if station_seat[index] == who and prog[slot] >= need:
                        free[who].append(EXIT_BASE + slot)
                elif role == ROLE_ARROW and len(paths[index]) < capacity[index]:
                    # E-7: only opponents of the owner may detour.
                    for seat in range(n):
                        if seat != who:
                            free[seat].append(DETOUR_BASE + slot)
        for actions in free:
            if len(actions) > 1:
                actions.sort()
        return free

    def _next_asked(self, start: int) -> int:
        """First seat from ``start`` in turn order with an action that has not passed."""
        free = self._free_actions()
        n = self._n
        passed = self._passed
        for i in range(n):
            seat = (start + i) % n
            if free[seat] and not (passed >> seat) & 1:
                return seat
        return NO_SEAT

    def _open_window(self, stage: int) -> None:
        """Open a window (E-9) if some seat has an available action, else go on."""
        self._stage = stage
        self._passed = 0
        asked = self._next_asked(self._active)
        if asked == NO_SEAT:
            self._close_window()
            return
        self._phase = PHASE_WINDOW
        self._asked = asked
        self._cur = asked

    def _close_window(self) -> None:
        self._asked = NO_SEAT
        self._passed = 0
        if self._stage == STAGE_AFTER_ROLL:
            self._resolve_move()
        else:
            self._end_turn()

    def _resolve_move(self) -> None:
        """E-6: choice if both trains can move, forced move if one can, else nothing."""
        can_a = self._can_move(0)
        can_b = self._can_move(1)
        if can_a and can_b:
            self._phase = PHASE_CHOOSE
            self._cur = self._active
        elif can_a or can_b:
            self._move(0 if can_a else 1)
            self._open_window(STAGE_AFTER_MOVE)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        limit = self.game.turn_limit
        if limit is not None and self._rolls >= limit:
            self._phase = PHASE_OVER  # E-11: truncated, no winner
            self._cur = TERMINAL_PLAYER
            return
        self._active = (self._active + 1) % self._n
        self._phase = PHASE_ROLL
        self._cur = CHANCE_PLAYER

    def _move_distance(self, train: int) -> int:
        return self._board.next_distance[self._die][self._tips[train]]

    def _free_ahead(self, train: int) -> int:
        """Free spaces between this train's tip and the other train's last car (E-6)."""
        tips = self._tips
        return (tips[1 - train] - TRAIN_SPACES - tips[train]) % self._board.length

    def _can_move(self, train: int) -> bool:
        # E-6: the locomotive may not enter a space of the other train (no pushing).
        return self._move_distance(train) <= self._free_ahead(train)

    def _move(self, train: int) -> None:
        distance = self._move_distance(train)
        tips = self._tips
        tips[train] = (tips[train] + distance) % self._board.length
        owner = self._owner
        prog = self._prog
        base = train * PASSENGER_CARS
        for slot in range(base, base + PASSENGER_CARS):
            if owner[slot] >= 0:
                prog[slot] += distance  # E-8: carried forward
        self._free = None

    def _pass(self, seat: int) -> None:
        self._passed |= 1 << seat
        if seat == self._asked:
            asked = self._next_asked((seat + 1) % self._n)
        else:
            asked = self._next_asked(self._asked)
        if asked == NO_SEAT:
            self._close_window()
        else:
            self._asked = asked
            self._cur = asked

    def _free_action(self, seat: int, action: int) -> None:
        kind, slot = divmod(action - FREE_BASE, NUM_CAR_SLOTS)
        owner = self._owner
        if kind == KIND_EXIT:
            owner[slot] = EMPTY
            self._house[seat] += 1
            if self._house[seat] >= self.game.llamas_to_win:
                # E-10: the game ends at once.
                self._winner = seat
                self._phase = PHASE_OVER
                self._cur = TERMINAL_PLAYER
                self._asked = NO_SEAT
                self._passed = 0
                self._free = None
                return
        elif kind == KIND_BOARD:
            self._station[seat] -= 1
            owner[slot] = seat
            self._prog[slot] = 0  # E-8: progress counts from boarding at the station
        else:
            space = self.car_space(slot // PASSENGER_CARS, slot % PASSENGER_CARS + 1)
            index = self._board.role_index[space]
            path = self._paths[index]
            if kind == KIND_DETOUR:
                # E-7: to the free footprint nearest the re-boarding end; E-8: walk back.
                path.append((owner[slot], self._prog[slot] - self.game.walk_back[index]))
                owner[slot] = EMPTY
            else:  # KIND_REBOARD: the front llama gets in, the others move up
                who, progress = path.pop(0)
                owner[slot] = who
                self._prog[slot] = progress
        self._free = None
        self._passed = 0  # E-9: an action resets the passes
        asked = self._next_asked((seat + 1) % self._n)
        if asked == NO_SEAT:
            self._close_window()
        else:
            self._asked = asked
            self._cur = asked

    # ================================================================= results
    def returns(self) -> list[float]:
        """1.0 for the winner, 0.0 for everyone else; all 0.0 when truncated or not over."""
        return [1.0 if s == self._winner else 0.0 for s in range(self._n)]

    def winner(self) -> int | None:
        """The winning seat (E-10), or ``None``."""
        return None if self._winner == NO_SEAT else self._winner

    def is_truncated(self) -> bool:
        """True when the game ended by the turn limit without a winner (E-11)."""
        return self._phase == PHASE_OVER and self._winner == NO_SEAT

    # ================================================================= public accessors
    @property
    def board(self) -> Board:
        """The board."""
        return self._board

    def phase(self) -> str:
        """``roll``, ``window``, ``choose`` or ``over``."""
        return PHASE_NAMES[self._phase]

    def window_stage(self) -> str | None:
        """``after_roll`` or ``after_move`` in a window (E-9), else ``None``."""
        return STAGE_NAMES[self._stage] if self._phase == PHASE_WINDOW else None

    def passed_players(self) -> list[int]:
        """Seats that passed since the last action in the open window (E-9)."""
        if self._phase != PHASE_WINDOW:
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
        if self._phase == PHASE_ROLL:
            return (self._active - 1) % self._n
        return self._active

    def train_tip(self, train: int) -> int:
        """Tip space of train ``train`` (0 = A, 1 = B) (E-2)."""
        return self._tips[train]

    def car_space(self, train: int, car: int) -> int:
        """Space of passenger car ``car`` (1..5) of ``train`` (0 = A, 1 = B) (E-2)."""
        return (self._tips[train] - CAR_OFFSET - car) % self._board.length

    def train_spaces(self, train: int) -> list[int]:
        """Spaces of a train: locomotive, coal car, cars 1..5 (E-2)."""
        tip = self._tips[train]
        length = self._board.length
        return [(tip - offset) % length for offset in range(1, TRAIN_SPACES + 1)]

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
        return list(self._paths[index])

    def lap_need(self, seat: int, space: int) -> int:
        """Progress a llama of ``seat`` needs to exit at ``space``: the forward distance from
        its home boarding space (E-8)."""
        return self._board.distance(self.game.home_boarding[seat], space)

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

    def available_actions(self, player: int) -> list[int]:
        """Free actions whose condition holds for ``player`` now (E-7), whether or not a
        window is open or the seat has passed; ascending."""
        self._seat(player)
        if self._phase == PHASE_OVER:
            return []
        return list(self._free_actions()[player])

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
            for i, path in enumerate(self._paths)
            for j, (who, _p) in enumerate(path)
            if who == seat
        ]
        return {
            "station": self._station[seat],
            "house": self._house[seat],
            "cars": cars,
            "footpaths": paths,
        }

    # ================================================================= notation
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """``roll R`` at a chance node (with ``player=None``), else player notation.

        Raises:
            InvalidActionError: not an id of the relevant space.
        """
        if player is None and self._phase == PHASE_ROLL:
            return chance_to_string(action)
        return player_action_to_string(action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation: ``roll R`` at a chance node (with ``player=None``), else player
        notation.

        Raises:
            InvalidActionError: not valid notation here.
        """
        if player is None and self._phase == PHASE_ROLL:
            return string_to_chance(text)
        return string_to_player_action(text)

    # ================================================================= views
    def observation(self, player: int) -> dict[str, Any]:
        """The full (public) position as JSON data for ``player``; keys in
        :func:`lamagames.express.views.observation`.

        Raises:
            IllegalActionError: ``player`` is not a seat.
        """
        return views.observation(self, self._checked_seat(player))

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """Flat float32 features for ``player``; layout in :mod:`lamagames.express.views`.

        Raises:
            IllegalActionError: ``player`` is not a seat.
        """
        return views.observation_tensor(self, self._checked_seat(player))

    def __str__(self) -> str:
        """One compact line (see :func:`lamagames.express.views.state_line`)."""
        return views.state_line(self)

    def _repr_svg_(self) -> str:
        """The position as SVG for Jupyter (:func:`lamagames.express.svg.state_svg`)."""
        from lamagames.express.svg import state_svg  # lazy: svg imports this module

        return state_svg(self)

    def _checked_seat(self, player: int) -> int:
        seat = self._seat(player)
        if seat < 0:
            raise IllegalActionError(f"no seat {player!r} in a {self._n}-player game")
        return seat

    # ================================================================= data
    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON data (format in :mod:`lamagames.express.state_data`)."""

        def car(slot: int) -> dict[str, int] | None:
            who = self._owner[slot]
            return None if who == EMPTY else {"owner": who, "progress": self._prog[slot]}

        window = None
        if self._phase == PHASE_WINDOW:
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
            "footpaths": [[{"owner": w, "progress": p} for w, p in path] for path in self._paths],
            "window": window,
            "winner": self.winner(),
            "history": [[p, a] for p, a in self._history],
        }

    @classmethod
    def _from_data(cls, game: ExpressGame, data: StateData) -> ExpressState:
        """Build and check a state from validated-shape data (see ``state_from_dict``)."""
        board = game.board
        n = game.num_players
        length = board.length
        state = cls(game)

        def fail(where: str, reason: str) -> RecordError:
            return RecordError(f"state.{where}: {reason}")

        def seat_ok(where: str, seat: int) -> None:
            if not 0 <= seat < n:
                raise fail(where, f"no seat {seat} in a {n}-player game")

        seat_ok("active", data.active)
        tips = [data.trains.A, data.trains.B]
        for t, tip in enumerate(tips):
            if tip >= length:
                raise fail(f"trains.{TRAIN_NAMES[t]}", f"space {tip} out of range 0..{length - 1}")
        gap_ab = (tips[1] - TRAIN_SPACES - tips[0]) % length
        gap_ba = (tips[0] - TRAIN_SPACES - tips[1]) % length
        if gap_ab + gap_ba != length - NUM_TRAINS * TRAIN_SPACES:
            raise fail("trains", f"trains at tips {tips} overlap")
        state._tips = tips
        count = [0] * n

        def llama(where: str, item: LlamaData, space: int) -> tuple[int, int]:
            seat_ok(f"{where}.owner", item.owner)
            home = game.home_boarding[item.owner]
            if (item.progress - (space - home)) % length:
                raise fail(
                    f"{where}.progress",
                    f"{item.progress} does not match the llama's place: progress must equal "
                    f"(space {space} - home boarding space {home}) modulo {length}",
                )
            count[item.owner] += 1
            return item.owner, item.progress

        for t, row in enumerate((data.cars.A, data.cars.B)):
            for c, item in enumerate(row):
                if item is not None:
                    slot = t * PASSENGER_CARS + c
                    space = state.car_space(t, c + 1)
                    who, progress = llama(f"cars.{TRAIN_NAMES[t]}.{c}", item, space)
                    state._owner[slot] = who
                    state._prog[slot] = progress
        if len(data.footpaths) != len(board.footpaths):
            raise fail("footpaths", f"the board has {len(board.footpaths)} footpaths")
        for i, path in enumerate(data.footpaths):
            footpath = board.footpaths[i]
            if len(path) > footpath.length:
                raise fail(f"footpaths.{i}", f"{len(path)} llamas on {footpath.length} footprints")
            state._paths[i] = [
                llama(f"footpaths.{i}.{j}", item, footpath.reboard) for j, item in enumerate(path)
            ]
        for name, values in (("stations", data.stations), ("houses", data.houses)):
            if len(values) != n:
                raise fail(name, f"need {n} counts, got {len(values)}")
            for s, v in enumerate(values):
                if v < 0:
                    raise fail(f"{name}.{s}", f"negative count {v}")
        for s in range(n):
            total = count[s] + data.stations[s] + data.houses[s]
            if total != LLAMAS_PER_PLAYER:
                raise fail(
                    "stations",
                    f"seat {s} has {total} llamas in all; every player has {LLAMAS_PER_PLAYER}",
                )
        state._station = list(data.stations)
        state._house = list(data.houses)
        state._active = data.active
        state._rolls = data.rolls
        state._die = EMPTY if data.die is None else DIE_COLOURS.index(data.die)
        limit = game.turn_limit
        if limit is not None and data.rolls > limit:
            raise fail("rolls", f"{data.rolls} rolls exceed the turn limit {limit}")
        winners = [s for s in range(n) if data.houses[s] >= game.llamas_to_win]
        if data.winner is None:
            if winners:
                raise fail("winner", f"seat {winners[0]} has all llamas home but is no winner")
        else:
            seat_ok("winner", data.winner)
            if winners != [data.winner]:
                raise fail("winner", "the winner must be the one seat with all llamas home")
            state._winner = data.winner
        for i, (p, a) in enumerate(data.history):
            if not (-1 <= p < n and 0 <= a < NUM_DISTINCT_ACTIONS):
                raise fail(f"history.{i}", f"bad entry ({p}, {a})")
        state._history = [(p, a) for p, a in data.history]

        phase = PHASE_NAMES.index(data.phase)
        state._phase = phase
        if phase != PHASE_WINDOW and data.window is not None:
            raise fail("window", f"a window is only open in phase 'window', not {data.phase!r}")
        if phase == PHASE_OVER:
            if data.winner is None and (limit is None or data.rolls < limit):
                raise fail("phase", "'over' needs a winner or the turn limit reached")
            state._cur = TERMINAL_PLAYER
            return state
        if data.winner is not None:
            raise fail("winner", "a game with a winner is over")
        if phase == PHASE_ROLL:
            if limit is not None and data.rolls >= limit:
                raise fail("phase", "the turn limit is reached: the game is over")
            state._cur = CHANCE_PLAYER
            return state
        if state._die == EMPTY or data.rolls == 0:
            raise fail("die", f"phase {data.phase!r} needs a rolled die")
        if phase == PHASE_CHOOSE:
            if state.movable_trains() != [0, 1]:
                raise fail("phase", "a train choice needs both trains able to move")
            state._cur = data.active
            return state
        window = data.window
        if window is None:
            raise fail("window", "phase 'window' needs a window")
        state._stage = STAGE_NAMES.index(window.stage)
        passed = 0
        for s in window.passed:
            seat_ok("window.passed", s)
            passed |= 1 << s
        state._passed = passed
        seat_ok("window.asked", window.asked)
        free = state._free_actions()
        if not free[window.asked] or (passed >> window.asked) & 1:
            raise fail(
                "window.asked",
                f"seat {window.asked} has no available action or has passed",
            )
        state._asked = window.asked
        state._cur = window.asked
        return state


def as_express_state(state: State) -> ExpressState:
    """Return ``state`` typed as an :class:`ExpressState`.

    Raises:
        IllegalActionError: ``state`` is not a Lama Express state.
    """
    if not isinstance(state, ExpressState):
        raise IllegalActionError(f"a Lama Express state is needed, got {type(state).__name__}")
    return state


def as_express_game(game: Game) -> ExpressGame:
    """Return ``game`` typed as an :class:`ExpressGame`.

    Raises:
        ParameterError: ``game`` is not Lama Express.
    """
    if not isinstance(game, ExpressGame):
        raise ParameterError(f"a Lama Express game is needed, got {type(game).__name__}")
    return game
