"""Web adapter of Lama Express: labels, windows (E-9), colours and the board geometry.

The browser renderer is ``games/express/render.js`` (``lamagames/express/static/``, the
spec's ``web_static``). Everything about legality comes from the engine
(:mod:`lamagames.express`): this module only names actions in plain words, tells the web
layer which free-action window is open (so that actions sent in it are honoured in arrival
order, E-9) and which action is the ``pass`` the alertness timer applies, and adds the board
geometry and lap counts the renderer draws.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import Any, ClassVar

from lamagames.core.errors import ParameterError
from lamagames.core.game import Game, State
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
from lamagames.express.board import PLAYER_COLOURS, standard_board
from lamagames.express.game import (
    DEFAULT_COLOURS,
    DEFAULT_LLAMAS_TO_WIN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SHORT_GAME_LLAMAS,
    ExpressGame,
    as_express_state,
)
from lamagames.express.primitives import car_space
from lamagames.express.rules import Phase
from lamagames.web.adapters import WebAdapter


@cache
def colour_choices() -> dict[str, list[list[str]]]:
    """For each number of players (as a string key), every colour list the engine accepts,
    in seat order. The lobby offers only these, so a family never meets a refusal."""
    out: dict[str, list[list[str]]] = {}
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        valid = []
        for colours in permutations(PLAYER_COLOURS, n):
            try:
                ExpressGame(num_players=n, colours=list(colours))
            except ParameterError:
                continue
            valid.append(list(colours))
        out[str(n)] = valid
    return out


class ExpressWebAdapter(WebAdapter):
    """Lama Express in the browser (rulings E-1 .. E-12 are the engine's business).

    Table parameters are the engine's: ``colours`` (one per seat, clockwise station order),
    ``llamas_to_win`` (3 for the short game), ``starting_seat`` and ``board``. Live tables
    have no turn limit (E-11). The table's optional alertness timer closes windows (E-9).
    """

    game_id: ClassVar[str] = "express"
    renderer: ClassVar[str] = "games/express/render.js"
    has_windows: ClassVar[bool] = True
    #: Plays for a person who is away: takes every chance, chooses trains by lookahead.
    preferred_substitute: ClassVar[str] = "heuristic"

    # ------------------------------------------------------------------ setup
    def make_game(self, params: dict[str, Any], num_players: int) -> Game:
        """Build the game; ``turn_limit`` must be absent or null (live play, E-11).

        Raises:
            ParameterError: bad parameters (the engine's message) or a turn limit.
        """
        if params.get("turn_limit") is not None:
            raise ParameterError("turn_limit: live tables play without a turn limit (E-11)")
        return super().make_game(params, num_players)

    def describe(self) -> dict[str, Any]:
        """Base description plus ``extras``: the colour orders the engine accepts per
        number of players, the usual colours (E-4) and the llamas to win."""
        info = super().describe()
        info["extras"] = {
            "colours": [s.colour for s in standard_board().stations],
            "colour_choices": colour_choices(),
            "default_colours": {str(n): list(c) for n, c in DEFAULT_COLOURS.items()},
            "llamas_to_win": [DEFAULT_LLAMAS_TO_WIN, SHORT_GAME_LLAMAS],
        }
        return info

    # ------------------------------------------------------------------ views
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The engine's observation plus what the renderer draws from: the board (track
        letters), each travelling llama's spaces still to ride before it may get off
        (``to_go``, E-8) and, when a train must be chosen, where each train would go: its
        ``distance``, its ``tip`` (E-6) and its ``locomotive``'s space there (E-2)."""
        view = super().view(state, seat)
        ex = as_express_state(state)
        board = ex.board
        view["board"] = {"name": board.name, "length": board.length, "track": board.track}
        llamas = [car["llama"] for train in view["trains"] for car in train["cars"]]
        llamas += [llama for path in view["footpaths"] for llama in path["llamas"]]
        for llama in llamas:
            if llama is not None:
                llama["to_go"] = ex.spaces_to_go(llama["owner"], llama["progress"])
        moves = []
        if ex.phase() == Phase.CHOOSE:
            for train in ex.movable_trains():
                tip = ex.move_tip(train)
                moves.append(
                    {
                        "train": TRAIN_NAMES[train],
                        "distance": ex.move_distance(train),
                        "tip": tip,
                        # the locomotive's space there (E-2), where the preview is drawn
                        "locomotive": car_space(tip, -2, board.length),
                    }
                )
        view["moves"] = moves
        return view

    def action_label(self, state: State, seat: int, action: int) -> str:
        """English label in plain words, e.g. ``Board: your llama gets into car A3``."""
        ex = as_express_state(state)
        if action == PASS:
            return "Done: let this chance pass"
        if action in (MOVE_A, MOVE_B):
            train = action - MOVE_A
            distance = ex.move_distance(train)
            unit = "space" if distance == 1 else "spaces"
            return f"Move train {TRAIN_NAMES[train]} {distance} {unit}"
        kind, train, car = decode_free_action(action)
        where = f"{TRAIN_NAMES[train]}{car}"
        if kind == KIND_BOARD:
            return f"Board: your llama gets into car {where}"
        if kind == KIND_EXIT:
            home = ex.house_llamas(seat) + 1
            return f"Exit: your llama in car {where} goes home ({home} of {ex.game.llamas_to_win})"
        if kind == KIND_DETOUR:
            llama = ex.car_llama(train, car)
            colour = "a" if llama is None else f"the {ex.game.colours[llama[0]]}"
            return f"Detour: send {colour} llama in car {where} onto the footpath"
        return f"Re-board: your llama on the footpath gets into car {where}"

    # ------------------------------------------------------------------ windows (E-9)
    def window_id(self, state: State) -> str | None:
        """``"<rolls>:<stage>"`` while a window is open (one window per roll and stage)."""
        ex = as_express_state(state)
        stage = ex.window_stage()
        return None if stage is None else f"{ex.rolls()}:{stage}"

    def window_pass(self, state: State, seat: int) -> int | None:
        """``pass`` for a seat that may still act in the open window, else ``None``."""
        ex = as_express_state(state)
        if ex.window_stage() is None or PASS not in ex.legal_actions(seat):
            return None
        return PASS
