"""Lama Express in the research adapters (:mod:`lamagames.rl`): the ``"rl"`` extra of the spec.

The adapters give Lama Express a ``turn_limit`` of :data:`TURN_LIMIT` die rolls (E-11) unless
one is passed, and :func:`max_game_length` bounds the decisions of a game from its turn
limit (OpenSpiel's ``max_game_length``).
"""

from __future__ import annotations

import functools
from typing import Any, Final

import numpy as np

from lamagames.core.game import Game
from lamagames.core.rlspec import RLSpec, split_list
from lamagames.express.board import LLAMAS_PER_PLAYER, Board
from lamagames.express.game import ExpressGame
from lamagames.express.material import NUM_DIE_COLOURS, PASSENGER_CARS, ROLE_ARROW, ROLE_REBOARD
from lamagames.express.primitives import car_space, tip_after

#: Default ``turn_limit`` (die rolls, E-11) of Lama Express in the adapters. The engine's own
#: default is ``None`` (no limit): the rules allow endless games (a seat may never board), but
#: OpenSpiel needs a finite ``max_game_length`` and RL episodes must end. Random play ends
#: within about 300 rolls, so 1000 rarely truncates a game.
TURN_LIMIT: Final = 1000


def cars_on_role(board: Board, role: int) -> int:
    """Most passenger cars of one train that can stand on spaces of ``role`` at once
    (over every tip position, E-2); 1 for arrows and re-boarding spaces of the standard
    board (E-3: they are 12 spaces apart, a train's cars cover 5)."""
    best = 0
    for tip in range(board.length):
        spaces = [car_space(tip, car, board.length) for car in range(PASSENGER_CARS)]
        best = max(best, sum(board.role[space] == role for space in spaces))
    return best


#: Largest ``board.length * (turn_limit + 1)`` for which :func:`special_action_bound` runs its
#: exact search (about 40 ms for the standard board and 1000 rolls); beyond it the simpler
#: per-position count is used (also proven, looser).
SEARCH_LIMIT: Final = 2_000_000


def _stop_gain(specials: tuple[tuple[int, int], ...], mask: int) -> tuple[int, int]:
    """Detours and re-boards of one stop of a train in the relaxation of
    :func:`special_action_bound`: every full car on an arrow empties (a detour), every empty
    car on a re-boarding space fills (a re-board). Returns ``(gain, new mask)``."""
    gain = 0
    for car, role in specials:
        full = (mask >> car) & 1
        if role == ROLE_ARROW and full:
            mask &= ~(1 << car)
            gain += 1
        elif role == ROLE_REBOARD and not full:
            mask |= 1 << car
            gain += 1
    return gain, mask


@functools.lru_cache(maxsize=32)
def _one_train_table(board: Board, moves: int) -> tuple[int, ...]:
    """``g[m]`` for ``m = 0 .. moves``: the most detours plus re-boards one train can make
    in the relaxation of :func:`special_action_bound` while it makes ``m`` moves (``m + 1``
    stops), over every starting tip, its cars empty at the start (E-5)."""
    length = board.length
    cars = 1 << PASSENGER_CARS
    roles = []
    for tip in range(length):
        row = []
        for car in range(PASSENGER_CARS):
            role = board.role[car_space(tip, car, length)]
            if role in (ROLE_ARROW, ROLE_REBOARD):
                row.append((car, role))
        roles.append(tuple(row))
    size = length * cars
    target = np.empty((size, NUM_DIE_COLOURS), dtype=np.int64)
    gain = np.empty((size, NUM_DIE_COLOURS), dtype=np.int64)
    for tip in range(length):
        for colour in range(NUM_DIE_COLOURS):
            to = tip_after(tip, board.next_distance[colour][tip], length)  # E-6
            for mask in range(cars):
                g, after = _stop_gain(roles[to], mask)
                target[tip * cars + mask, colour] = to * cars + after
                gain[tip * cars + mask, colour] = g
    lowest = np.iinfo(np.int64).min // 2
    best = np.full(size, lowest, dtype=np.int64)
    for tip in range(length):
        g, after = _stop_gain(roles[tip], 0)
        best[tip * cars + after] = max(best[tip * cars + after], g)
    out = [int(best.max())]
    flat_target = target.ravel()
    for _ in range(moves):
        nxt = np.full(size, lowest, dtype=np.int64)
        np.maximum.at(nxt, flat_target, (best[:, None] + gain).ravel())
        best = nxt
        out.append(int(best.max()))
    return tuple(out)


def special_action_bound(
    board: Board, turn_limit: int, num_players: int, llamas_to_win: int
) -> int:
    """A proven upper bound on the detours plus re-boards (E-7) of a game of ``turn_limit``
    rolls with ``num_players`` seats and ``llamas_to_win`` llamas to win (E-10).

    Two counts, the smaller is returned:

    - per position: a car on an arrow space is emptied by a detour at most once while its
      train stands there, and a car on a re-boarding space filled by a re-board at most once
      (only boarding or re-boarding fills a car, only an exit or a detour empties one, each
      on its own kind of space, E-3, E-7). A train stands at ``1 + moves`` positions and at
      most one train moves per roll (E-6): ``(a + r)(T + 2)``, ``a`` (``r``) the most cars
      of a train on arrow (re-boarding) spaces at once (:func:`cars_on_role`; 1 and 1 on
      the standard board, whose arrows and re-boarding spaces are 12 apart while a train's
      cars cover 5).
    - per car: ``P + B + X`` with ``B = 4n`` boards and ``X = n(L - 1) + 1`` exits at most
      (:func:`decision_bound`). A car alternates between full and empty: it fills by a
      board or a re-board and empties by an exit or a detour. Pair each filling with the
      emptying after it and strike the pairs holding a board or an exit (at most ``B + X``
      pairs, each with at most one re-board or detour): what is left of a car's history is
      re-board, detour, re-board, ... from an empty car, the re-boards at stops of its train
      with the car on a re-boarding space, the detours at stops with the car on an arrow
      (at most one such event per car and stop: one space, one role). ``P`` bounds these in
      a relaxation that keeps only that and drops every other condition (who owns the
      llamas, footpath contents and capacity, the other train in the way): a train's stops
      are any sequence of tips, each the next space of some die colour ahead of the last
      (E-6), from any tip, its cars empty at the start (E-5). For a fixed sequence of stops
      a car's longest such history is the greedy one (re-board at its first re-boarding
      stop, detour at the first arrow stop after it, and so on), so a search over
      ``(tip, which cars are full)`` gives ``g(m)``, the most for one train making ``m``
      moves, and ``P = max g(m_A) + g(m_B)`` over ``m_A + m_B = T`` (at most one train
      moves per roll, E-6, and ``g`` does not decrease: the relaxation can always move).
      On the standard board ``g`` grows by 55 every 48 moves (1.146 per move, against 2
      per move for the per-position count): ``P = 1148`` for ``T = 1000``.

    The search runs when ``board.length * (turn_limit + 1) <= SEARCH_LIMIT`` (cached per
    board and limit); beyond, the per-position count alone is returned.
    """
    t, n = turn_limit, num_players
    per_position = (cars_on_role(board, ROLE_ARROW) + cars_on_role(board, ROLE_REBOARD)) * (t + 2)
    if board.length * (t + 1) > SEARCH_LIMIT:
        return per_position
    g = _one_train_table(board, t)
    relaxed = max(g[m] + g[t - m] for m in range(t + 1))
    return min(per_position, relaxed + _boards_and_exits(n, llamas_to_win))


def _boards_and_exits(num_players: int, llamas_to_win: int) -> int:
    """Most boards plus exits of a game: ``4n + n(L - 1) + 1`` (see :func:`decision_bound`)."""
    return LLAMAS_PER_PLAYER * num_players + num_players * (llamas_to_win - 1) + 1


def decision_bound(
    num_players: int, llamas_to_win: int, turn_limit: int, special_actions: int
) -> int:
    """A proven upper bound on the decisions (all seats) of a game of ``turn_limit`` rolls.

    With ``n`` seats, ``T`` rolls, ``L`` llamas to win and ``S`` (``special_actions``) a
    bound on the detours plus re-boards (:func:`special_action_bound`):

    - train choices: at most one per roll (E-6): ``T``;
    - windows: at most two per roll, one after the roll and one after the move (E-9):
      ``W <= 2T``;
    - free actions (E-7): each llama boards once (nothing returns it to its station):
      ``B <= 4n``; each exit puts a llama in a house for good and the game ends at the
      ``L``-th of one seat (E-10): ``X <= n(L - 1) + 1``; detours plus re-boards
      ``<= S``. So ``A <= 4n + n(L - 1) + 1 + S``;
    - passes: in a window every seat passes at most once between two actions (an action
      resets the passes, E-9), and the seat that acts has not passed since the last action,
      so a window with ``k`` actions has at most ``k`` actions and ``n(k + 1) - k``
      passes: at most ``n(k + 1)`` decisions, ``nA + nW`` over the game.

    Returns:
        ``T + n * (A + 2T)``; for the standard board and ``T = 1000``: 7,356 decisions
        (2 seats), 10,576 (3), 13,824 (4); the short game (``L = 3``) 7,348, 10,558, 13,792.
    """
    n, t = num_players, turn_limit
    actions = _boards_and_exits(n, llamas_to_win) + special_actions
    return t + n * (actions + 2 * t)


def max_game_length(game: Game) -> int | None:
    """:func:`decision_bound` of an :class:`~lamagames.express.game.ExpressGame`, or
    ``None`` without a ``turn_limit`` (E-11: endless games are allowed)."""
    assert isinstance(game, ExpressGame)
    if game.turn_limit is None:
        return None
    return decision_bound(
        game.num_players,
        game.llamas_to_win,
        game.turn_limit,
        special_action_bound(game.board, game.turn_limit, game.num_players, game.llamas_to_win),
    )


def _engine_params(params: dict[str, Any]) -> dict[str, Any]:
    board: Any = params["board"]
    if board != "standard":
        from lamagames.express import load_board

        board = load_board(str(board))
    colours = split_list(str(params["colours"]))
    return {
        "num_players": params["players"],
        "colours": colours or None,
        "starting_seat": params["starting_seat"],
        "llamas_to_win": params["llamas_to_win"],
        "board": board,
        "turn_limit": params["turn_limit"],
    }


#: The adapters' view of Lama Express (``extras["rl"]`` of :data:`lamagames.express.spec.SPEC`).
RL: Final = RLSpec(
    openspiel_name="python_lama_express",
    openspiel_long_name="Python Lama Express",
    openspiel_parameters={
        "players": 2,
        "colours": "",
        "starting_seat": 0,
        "llamas_to_win": 4,
        "board": "standard",
        "turn_limit": TURN_LIMIT,
    },
    to_engine_params=_engine_params,
    pettingzoo_name="lama_express_v0",
    gymnasium_id="lamagames/LamaExpress-v0",
    default_params={"turn_limit": TURN_LIMIT},
    max_game_length=max_game_length,
)
