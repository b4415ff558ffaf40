"""Lama Express rules engine (Manfred Ludwig, Piatnik 2020): rulings E-1 .. E-11 of docs/rules.md.

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

from collections.abc import Mapping, Sequence
from typing import Any, Final

from lamagames.core.errors import BoardError, IllegalActionError, ParameterError
from lamagames.core.game import Game, GameInfo, State
from lamagames.express import views
from lamagames.express.actions import MAX_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS, TRAIN_NAMES
from lamagames.express.board import (
    LLAMAS_PER_PLAYER,
    NUM_STATIONS,
    PLAYER_COLOURS,
    STANDARD_BOARD_NAME,
    Board,
    parse_board,
    standard_board,
)
from lamagames.express.material import PASSENGER_CARS, ROLE_BOARDING, ROLE_EXIT, ROLE_NONE
from lamagames.express.primitives import car_space, lap_need
from lamagames.express.rules import NO_SEAT, exact_int
from lamagames.express.state import ExpressState
from lamagames.express.state_data import parse_state_data

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
#: One car standing on a role space: (car index 0..4, role, role index, exit need, seat of
#: the station for a boarding or exit space (-1 inert or none), footprints of the footpath
#: for an arrow or re-boarding space (0 otherwise)).
CarSpecial = tuple[int, int, int, int, int, int]


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
        if not exact_int(num_players) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ParameterError(f"num_players must be 2..4, got {num_players!r}")
        if not exact_int(starting_seat) or not 0 <= starting_seat < num_players:
            raise ParameterError(
                f"starting_seat must be a seat 0..{num_players - 1}, got {starting_seat!r}"
            )
        if llamas_to_win not in (DEFAULT_LLAMAS_TO_WIN, SHORT_GAME_LLAMAS) or not exact_int(
            llamas_to_win
        ):
            raise ParameterError(
                f"llamas_to_win must be 4 or 3 (short game), got {llamas_to_win!r}"
            )
        if turn_limit is not None and (not exact_int(turn_limit) or turn_limit < 1):
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
                space = car_space(tip, c, length)
                role = board_.role[space]
                if role != ROLE_NONE:
                    index = board_.role_index[space]
                    at_station = role in (ROLE_BOARDING, ROLE_EXIT)
                    seat_here = station_seat[index] if at_station else NO_SEAT
                    cap = 0 if at_station else self.footpath_lengths[index]
                    row.append((c, role, index, board_.exit_need[space], seat_here, cap))
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
        """Each seat's colour and so its station (E-4): ``colours`` checked, or the
        defaults for ``n`` players.

        Raises:
            ParameterError: a colour is unknown, repeated or the count is not ``n``.
        """
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
            if not exact_int(owner) or not 0 <= owner < n:
                raise ParameterError(f"cars: {key}: no seat {owner!r}")
            car = int(key[1])
            space = car_space(tips[key[0]], car - 1, board.length)
            if progress is None:
                progress = lap_need(self.home_boarding[owner], space, board.length)
            car_rows[key[0]][car - 1] = {"owner": owner, "progress": progress}
            placed[owner] += 1
        paths: list[list[dict[str, int]]] = [[] for _ in board.footpaths]
        for index, llamas in (footpaths or {}).items():
            if not 0 <= index < len(paths):
                raise ParameterError(f"footpaths: no footpath {index}")
            for value in llamas:
                owner, progress = value if isinstance(value, tuple) else (value, None)
                if not exact_int(owner) or not 0 <= owner < n:
                    raise ParameterError(f"footpaths: {index}: no seat {owner!r}")
                if progress is None:
                    progress = lap_need(
                        self.home_boarding[owner], board.footpaths[index].reboard, board.length
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
