"""Lama Express positions and play: :class:`ExpressState`, rulings E-5 .. E-11. Pure.

See :mod:`lamagames.express.game` for the flow of a turn and of windows (E-6, E-9). Public
read accessors live in :class:`~lamagames.express.reader.ExpressStateReader`.
"""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING, Any, Final, Self

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import IllegalActionError, InvalidActionError, RecordError
from lamagames.core.game import CHANCE_PLAYER, TERMINAL_PLAYER, State
from lamagames.express import views
from lamagames.express.actions import (
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
    chance_to_string,
    player_action_to_string,
    string_to_chance,
    string_to_player_action,
)
from lamagames.express.board import LLAMAS_PER_PLAYER
from lamagames.express.material import DIE_COLOURS, PASSENGER_CARS
from lamagames.express.primitives import (
    CHOOSE_TRAIN,
    STEP_RESOLVE,
    ask_from,
    available,
    board,
    detour,
    detour_progress,
    exit_car,
    has_won,
    move_train,
    next_active,
    next_asked,
    reboard,
    step_after_window,
    train_to_move,
    turn_limit_reached,
)
from lamagames.express.reader import ExpressStateReader
from lamagames.express.rules import (
    CHANCE_PROBABILITY,
    EMPTY,
    NO_SEAT,
    PHASE_NAMES,
    STAGE_AFTER_MOVE,
    STAGE_AFTER_ROLL,
    STAGE_NAMES,
    Phase,
    exact_int,
)
from lamagames.express.state_data import StateData, check_state_data

# The phases as module constants: reading ``Phase.WINDOW`` (an Enum class attribute) costs
# about 250 ns in Python 3.11, a module global about 35 ns (measured); hot paths use these.
_ROLL: Final = Phase.ROLL
_WINDOW: Final = Phase.WINDOW
_CHOOSE: Final = Phase.CHOOSE
_OVER: Final = Phase.OVER

if TYPE_CHECKING:
    from lamagames.express.game import ExpressGame


class ExpressState(ExpressStateReader, State):
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
        "_path_len",
        "_path_owner",
        "_path_prog",
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
        self._phase = _ROLL
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
        lengths = game.footpath_lengths
        self._path_len = [0] * len(lengths)
        self._path_owner = [[EMPTY] * cap for cap in lengths]
        self._path_prog = [[0] * cap for cap in lengths]
        self._winner = NO_SEAT
        self._history: list[tuple[int, int]] = []
        self._free: list[int] | None = None

    # ================================================================= protocol: who acts
    def current_player(self) -> int:
        """The seat to act: the active player choosing a train, the seat asked in a window;
        :data:`CHANCE_PLAYER` before a roll; :data:`TERMINAL_PLAYER` when over."""
        return self._cur

    def is_chance_node(self) -> bool:
        """True before a die roll."""
        return self._phase == _ROLL

    def is_terminal(self) -> bool:
        """True once a player has won (E-10) or the turn limit truncated the game (E-11)."""
        return self._phase == _OVER

    def acting_players(self) -> list[int]:
        """Seats that may act now, in turn order from the current player.

        In a window (E-9): every seat with an available free action that has not passed since
        the last action, in the order :func:`~lamagames.express.primitives.next_asked` would
        ask them if each passed in turn. When choosing a train: the active player. Otherwise
        empty.
        """
        phase = self._phase
        if phase == _CHOOSE:
            return [self._active]
        if phase != _WINDOW:
            return []
        free = self._free_bits()
        n = self._n
        out = []
        listed = self._passed
        seat = next_asked(free, listed, self._cur, n)
        while seat != NO_SEAT:
            out.append(seat)
            listed |= 1 << seat
            seat = next_asked(free, listed, seat + 1, n)
        return out

    # ================================================================= protocol: actions
    def _seat(self, player: int | None) -> int:
        if player is None:
            return self._cur
        if not exact_int(player) or not 0 <= player < self._n:
            if player == CHANCE_PLAYER:
                return CHANCE_PLAYER
            raise IllegalActionError(f"no seat {player!r} in a {self._n}-player game")
        return player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions of ``player`` (default: the current player), ascending.

        At a chance node, for ``player=None`` or :data:`CHANCE_PLAYER`: the six die
        outcomes (chance has none elsewhere). In a window: ``pass``
        and the seat's available free actions, if the seat has any and has not passed since
        the last action (E-9). When choosing: ``move A``, ``move B`` for the active player.

        Raises:
            IllegalActionError: ``player`` is not a seat of this game.
        """
        phase = self._phase
        if phase == _WINDOW:
            seat = self._cur if player is None else self._seat(player)
            if seat < 0 or (self._passed >> seat) & 1:
                return []
            bits = self._free_bits()[seat]
            if not bits:
                return []
            return [PASS, *(_ACTION_LISTS.get(bits) or _actions_of(bits))]
        if phase == _ROLL:
            if player is None or player == CHANCE_PLAYER:
                return list(range(MAX_CHANCE_OUTCOMES))
            self._seat(player)
            return []
        if phase == _CHOOSE:
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
        if self._phase != _ROLL:
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
        if phase == _ROLL:
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
        if phase == _WINDOW:
            if seat < 0 or (self._passed >> seat) & 1:
                raise IllegalActionError(
                    f"seat {seat} cannot act in this window"
                    + (" (passed since the last action)" if seat >= 0 else "")
                )
            bits = self._free_bits()[seat]
            if action == PASS:
                if not bits:
                    raise IllegalActionError(f"seat {seat} has no free action to pass on")
                self._history.append((seat, action))
                self._pass(seat)
                return
            if not (bits >> action) & 1:
                raise IllegalActionError(
                    f"{player_action_to_string(action)!r} is not available to seat {seat}"
                )
            self._history.append((seat, action))
            self._free_action(seat, action)
            return
        if phase == _CHOOSE:
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
        other._path_len = self._path_len[:]
        other._path_owner = [p[:] for p in self._path_owner]
        other._path_prog = [p[:] for p in self._path_prog]
        other._winner = self._winner
        other._history = self._history[:]
        free = self._free
        other._free = None if free is None else free[:]
        return other

    def history(self) -> list[tuple[int, int]]:
        """Every ``(player, action)`` applied so far; die rolls have player -1."""
        return list(self._history)

    # ================================================================= rules
    def _free_bits(self) -> list[int]:
        """Per seat, the bitmask of its available free actions (E-7, bit ``a`` for action
        ``a``; the primitive :func:`~lamagames.express.primitives.available`)."""
        free = self._free
        if free is None:
            free = self._free = [0] * self._n
            available(
                free,
                self.game.car_specials,
                self._tips,
                self._owner,
                self._prog,
                self._station,
                self._path_len,
                self._path_owner,
            )
        return free

    def _open_window(self, stage: int) -> None:
        """Open a window (E-9) if some seat has an available action, else go on."""
        self._stage = stage
        self._passed = 0
        asked = next_asked(self._free_bits(), 0, self._active, self._n)
        if asked == NO_SEAT:
            self._close_window()
            return
        self._phase = _WINDOW
        self._asked = asked
        self._cur = asked

    def _close_window(self) -> None:
        """The window closes (or does not open): the move or the end of the turn (E-9)."""
        self._asked = NO_SEAT
        self._passed = 0
        if step_after_window(self._stage) == STEP_RESOLVE:
            self._resolve_move()
        else:
            self._end_turn()

    def _resolve_move(self) -> None:
        """E-6: choice if both trains can move, forced move if one can, else nothing."""
        train = train_to_move(self._movable())
        if train == CHOOSE_TRAIN:
            self._phase = _CHOOSE
            self._cur = self._active
        elif train >= 0:
            self._move(train)
            self._open_window(STAGE_AFTER_MOVE)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """End the turn: the game is truncated at the turn limit (E-11), else the next
        seat rolls (E-6)."""
        limit = self.game.turn_limit
        if turn_limit_reached(self._rolls, -1 if limit is None else limit):
            self._phase = _OVER  # E-11: truncated, no winner
            self._cur = TERMINAL_PLAYER
            return
        self._active = next_active(self._active, self._n)
        self._phase = _ROLL
        self._cur = CHANCE_PLAYER

    def _move(self, train: int) -> None:
        """Move ``train`` forward by the die (E-6), carrying its llamas (E-8)."""
        move_train(
            self._tips,
            self._owner,
            self._prog,
            train,
            self._move_distance(train),
            self._board.length,
        )
        self._free = None

    def _pass(self, seat: int) -> None:
        """``seat`` passes; the asking goes on (E-9) or the window closes."""
        self._passed = passed = self._passed | 1 << seat
        n = self._n
        asked = next_asked(self._free_bits(), passed, ask_from(seat, self._asked, False, n), n)
        if asked == NO_SEAT:
            self._close_window()
        else:
            self._asked = asked
            self._cur = asked

    def _free_action(self, seat: int, action: int) -> None:
        """Apply a free action of ``seat`` (E-7): exit into the house (the game ends at once
        when the house is full, E-10), board, detour or re-board."""
        kind, slot = divmod(action - FREE_BASE, NUM_CAR_SLOTS)
        owner = self._owner
        if kind == KIND_EXIT:
            if has_won(exit_car(owner, self._house, slot, seat), self.game.llamas_to_win):
                # E-10: the game ends at once.
                self._winner = seat
                self._phase = _OVER
                self._cur = TERMINAL_PLAYER
                self._asked = NO_SEAT
                self._passed = 0
                self._free = None
                return
        elif kind == KIND_BOARD:
            board(owner, self._prog, self._station, slot, seat)
        else:
            space = self.car_space(slot // PASSENGER_CARS, slot % PASSENGER_CARS + 1)
            index = self._board.role_index[space]
            if kind == KIND_DETOUR:
                walked = detour_progress(self._prog[slot], self.game.walk_back[index])
                detour(
                    owner, slot, self._path_len, self._path_owner, self._path_prog, index, walked
                )
            else:
                reboard(
                    owner,
                    self._prog,
                    slot,
                    self._path_len,
                    self._path_owner,
                    self._path_prog,
                    index,
                )
        self._free = None
        self._passed = 0  # E-9: an action resets the passes
        n = self._n
        asked = next_asked(self._free_bits(), 0, ask_from(seat, self._asked, True, n), n)
        if asked == NO_SEAT:
            self._close_window()
        else:
            self._asked = asked
            self._cur = asked

    def available_actions(self, player: int) -> list[int]:
        """Free actions whose condition holds for ``player`` now (E-7), whether or not a
        window is open or the seat has passed; ascending."""
        self._seat(player)
        if self._phase == _OVER:
            return []
        return list(_actions_of(self._free_bits()[player]))

    def returns(self) -> list[float]:
        """1.0 for the winner, 0.0 for everyone else; all 0.0 when truncated or not over."""
        return [1.0 if s == self._winner else 0.0 for s in range(self._n)]

    # ================================================================= notation
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """``roll R`` for :data:`CHANCE_PLAYER` (or ``player=None`` at a chance node), else
        player notation.

        Raises:
            InvalidActionError: not an id of the relevant space.
        """
        if self._is_chance_context(player):
            return chance_to_string(action)
        return player_action_to_string(action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation: ``roll R`` for :data:`CHANCE_PLAYER` (or ``player=None`` at a
        chance node), else player notation.

        Raises:
            InvalidActionError: not valid notation here.
        """
        if self._is_chance_context(player):
            return string_to_chance(text)
        return string_to_player_action(text)

    def _is_chance_context(self, player: int | None) -> bool:
        """True when ``player`` names chance: :data:`CHANCE_PLAYER`, or ``None`` at a chance
        node (as in :meth:`apply_action`)."""
        if player is None:
            return self._phase == _ROLL
        return player == CHANCE_PLAYER

    # ================================================================= views
    def _repr_svg_(self) -> str:
        """The position as SVG for Jupyter (:func:`lamagames.express.svg.state_svg`)."""
        from lamagames.express.svg import state_svg  # lazy: svg imports this module

        return state_svg(self)

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

    def _checked_seat(self, player: int) -> int:
        seat = self._seat(player)
        if seat < 0:
            raise IllegalActionError(f"no seat {player!r} in a {self._n}-player game")
        return seat

    @classmethod
    def _from_data(cls, game: ExpressGame, data: StateData) -> ExpressState:
        """Build a state from shape-validated data (see ``state_from_dict``), after the
        checks of :func:`lamagames.express.state_data.check_state_data`; here the checks
        that need the rules: a train choice needs both trains movable (E-6), the asked seat
        of a window needs an available action it has not passed on (E-9).

        Raises:
            RecordError: naming the inconsistent field.
        """
        check_state_data(game, data)
        state = cls(game)
        state._tips = [data.trains.A, data.trains.B]
        for t, row in enumerate((data.cars.A, data.cars.B)):
            for c, item in enumerate(row):
                if item is not None:
                    state._owner[t * PASSENGER_CARS + c] = item.owner
                    state._prog[t * PASSENGER_CARS + c] = item.progress
        for index, path in enumerate(data.footpaths):
            state._path_len[index] = len(path)
            for j, item in enumerate(path):
                state._path_owner[index][j] = item.owner
                state._path_prog[index][j] = item.progress
        state._station = list(data.stations)
        state._house = list(data.houses)
        state._active = data.active
        state._rolls = data.rolls
        state._die = EMPTY if data.die is None else DIE_COLOURS.index(data.die)
        state._winner = NO_SEAT if data.winner is None else data.winner
        state._history = [(p, a) for p, a in data.history]
        phase = Phase(PHASE_NAMES.index(data.phase))
        state._phase = phase
        if phase == _OVER:
            state._cur = TERMINAL_PLAYER
        elif phase == _ROLL:
            state._cur = CHANCE_PLAYER
        elif phase == _CHOOSE:
            if state.movable_trains() != [0, 1]:
                raise RecordError("state.phase: a train choice needs both trains able to move")
            state._cur = data.active
        else:
            window = data.window
            assert window is not None  # checked
            state._stage = STAGE_NAMES.index(window.stage)
            state._passed = sum(1 << s for s in set(window.passed))
            free = state._free_bits()
            if not free[window.asked] or (state._passed >> window.asked) & 1:
                raise RecordError(
                    f"state.window.asked: seat {window.asked} has no available action or has passed"
                )
            state._asked = window.asked
            state._cur = window.asked
        return state


_ACTION_LISTS: dict[int, tuple[int, ...]] = {}
_ACTION_LISTS_MAX: Final = 1 << 16


def _actions_of(bits: int) -> tuple[int, ...]:
    """The action ids whose bits are set in ``bits``, ascending (memoized: a game sees few
    distinct bitmasks; the memo is emptied when it holds ``_ACTION_LISTS_MAX`` of them)."""
    done = _ACTION_LISTS.get(bits)
    if done is None:
        out = []
        rest = bits
        while rest:
            low = rest & -rest
            out.append(low.bit_length() - 1)
            rest ^= low
        if len(_ACTION_LISTS) >= _ACTION_LISTS_MAX:
            _ACTION_LISTS.clear()
        done = _ACTION_LISTS[bits] = tuple(out)
    return done
