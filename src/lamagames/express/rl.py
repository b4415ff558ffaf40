"""Lama Express in the research adapters (:mod:`lamagames.rl`): the ``"rl"`` extra of the spec.

The adapters give Lama Express a ``turn_limit`` of :data:`TURN_LIMIT` die rolls (E-11) unless
one is passed, and :func:`max_game_length` bounds the decisions of a game from its turn
limit (OpenSpiel's ``max_game_length``).
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.core.game import Game
from lamagames.core.rlspec import RLSpec, split_list
from lamagames.express.board import (
    LLAMAS_PER_PLAYER,
    PASSENGER_CARS,
    ROLE_ARROW,
    ROLE_REBOARD,
    Board,
)
from lamagames.express.game import ExpressGame
from lamagames.express.primitives import car_space

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


def decision_bound(
    num_players: int, llamas_to_win: int, turn_limit: int, arrow_cars: int, reboard_cars: int
) -> int:
    """A proven upper bound on the decisions (all seats) of a game of ``turn_limit`` rolls.

    With ``n`` seats, ``T`` rolls, ``L`` llamas to win and at most ``a`` (``r``) cars of a
    train on arrow (re-boarding) spaces at once:

    - train choices: at most one per roll (E-6): ``T``;
    - windows: at most two per roll (E-9): ``W <= 2T``;
    - free actions (E-7) over the game: each llama boards once (it never returns to its
      station): ``4n``; each exit puts a llama in a house for good and the game ends at the
      ``L``-th of one seat (E-10): ``n(L - 1) + 1``; a car on an arrow space can be emptied
      by a detour at most once while its train stands (only boarding or re-boarding fills a
      car, on other spaces, E-3), and a car on a re-boarding space filled at most once (only
      an exit or a detour empties it, on other spaces); a train stands at ``1 + moves``
      positions and at most one train moves per roll: detours ``<= a(T + 2)``,
      re-boards ``<= r(T + 2)``. So ``A <= 4n + n(L - 1) + 1 + (a + r)(T + 2)``;
    - passes: in a window every seat passes at most once between two actions (an action
      resets the passes, E-9), so a window with ``k`` actions has at most ``n(k + 1)``
      decisions: ``nA + nW`` over the game.

    Returns:
        ``T + n * (A + 2T)``; for the standard board (``a = r = 1``) and ``T = 1000``:
        9,038 (2 seats), 13,078 (3), 17,132 (4).
    """
    n, t = num_players, turn_limit
    actions = LLAMAS_PER_PLAYER * n + n * (llamas_to_win - 1) + 1
    actions += (arrow_cars + reboard_cars) * (t + 2)
    return t + n * (actions + 2 * t)


def max_game_length(game: Game) -> int | None:
    """:func:`decision_bound` of an :class:`~lamagames.express.game.ExpressGame`, or
    ``None`` without a ``turn_limit`` (E-11: endless games are allowed)."""
    assert isinstance(game, ExpressGame)
    if game.turn_limit is None:
        return None
    board = game.board
    return decision_bound(
        game.num_players,
        game.llamas_to_win,
        game.turn_limit,
        cars_on_role(board, ROLE_ARROW),
        cars_on_role(board, ROLE_REBOARD),
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
