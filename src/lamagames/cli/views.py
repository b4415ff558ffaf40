"""Per-game terminal views and their registry.

The terminal commands (``lama play``, ``lama replay``, ``lama rules``) know no game: they
drive any game through the :class:`~lamagames.core.game.State` protocol and ask the game's
:class:`GameView` how to draw a position, label a legal action, narrate a move, and what
help and rules to show.

Adding a game to the terminal takes a view module implementing :class:`GameView` and one
line in :data:`_VIEWS`, for example::

    "express": "lamagames.cli.express_view:ExpressView",
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from rich.console import RenderableType

from lamagames.core.errors import ParameterError
from lamagames.core.game import State
from lamagames.core.records import SeatInfo
from lamagames.sim.stats import StatsHook


@runtime_checkable
class GameView(Protocol):
    """How one game looks and talks in the terminal. All methods are pure (no printing).

    Attributes:
        game_id: registry id of the game (``make(game_id)``).
        title: the game's name for people, e.g. ``"LAMA Dice"``.
        live_board: at a terminal with a person playing, clear the screen and draw the table
            again after every event, with the last lines of the move log under it (Lama
            Express); ``False``: print the log as it goes and the table before each prompt.
    """

    game_id: str
    title: str
    live_board: bool

    def render(
        self, state: State, seats: Sequence[SeatInfo], *, viewer: int | None = None
    ) -> RenderableType:
        """The table as seen by seat ``viewer`` (``None``: a spectator, e.g. replays)."""

    def render_focus(self, state: State, seats: Sequence[SeatInfo], player: int) -> RenderableType:
        """A short view for a choice that follows ``player``'s own move and one chance event
        (LAMA Dice: the choice after a roll): only what that choice needs."""

    def headline(self, state: State, seats: Sequence[SeatInfo], player: int) -> str:
        """The title over a prompt to ``player``, e.g. ``"Ann's turn"``."""

    def action_label(
        self, state: State, action: int, player: int, seats: Sequence[SeatInfo] = ()
    ) -> str:
        """A short plain-words description of a legal action of ``player``, for a menu.

        The menu shows the action's notation (``state.action_to_string``) beside it.
        ``seats`` (names) may be empty.
        """

    def narrate(
        self,
        before: State,
        player: int,
        action: int,
        after: State,
        seats: Sequence[SeatInfo],
    ) -> list[str]:
        """Lines telling what an applied action did (``player`` -1 for chance); may be empty."""

    def help_text(self) -> str:
        """Markdown shown when a player types ``?``: the notation and the symbols."""

    def rules_text(self) -> str:
        """The rules for people, as Markdown."""

    def stats_hook(self) -> StatsHook:
        """Extra statistics for ``lama play`` batches (see :mod:`lamagames.sim.stats`)."""

    def bots_only_params(self) -> Mapping[str, Any]:
        """Game parameters used when no person plays, unless given on the command line
        (Lama Express: a turn limit, E-11)."""


# game id -> "module:Class"; modules are imported only when the game is used.
_VIEWS: dict[str, str] = {
    "dice": "lamagames.cli.dice_view:DiceView",
    "express": "lamagames.cli.express_view:ExpressView",
}


def view_ids() -> list[str]:
    """Game ids that have a terminal view, sorted."""
    return sorted(_VIEWS)


def get_view(game_id: str) -> GameView:
    """Return a fresh view of a game.

    Raises:
        ParameterError: no view for ``game_id`` (the message lists the games that have one).
    """
    target = _VIEWS.get(game_id)
    if target is None:
        known = ", ".join(view_ids())
        raise ParameterError(f"no terminal view for game {game_id!r}; games: {known}")
    module_name, _, attr = target.partition(":")
    view: GameView = getattr(importlib.import_module(module_name), attr)()
    return view
