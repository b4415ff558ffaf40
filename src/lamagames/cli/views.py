"""Per-game terminal views and their registry.

The terminal commands (``lama play``, ``lama replay``, ``lama rules``) know no game: they
drive any game through the :class:`~lamagames.core.game.State` protocol and ask the game's
:class:`GameView` how to draw a position, label a legal action, narrate a move, and what
help and rules to show.

A game names its view in its spec (``GameSpec(cli_view="lamagames.cli.express_view:ExpressView")``,
see :mod:`lamagames.core.spec`); a game without one gets :class:`ProtocolView`, which draws
any game from the protocol alone (observation, notation, returns).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from rich.console import RenderableType
from rich.text import Text

from lamagames.core.game import State
from lamagames.core.records import SeatInfo
from lamagames.core.spec import get_spec, load_ref, spec_ids


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

    def outcome_words(self, before: State, action: int, seats: Sequence[SeatInfo]) -> str:
        """A chance outcome applied to ``before`` in plain words, for the replay's step
        line (``"Bot 1 is dealt 1 1 3 4 L L"``, ``"the die shows green (G)"``)."""

    def help_text(self) -> str:
        """Markdown shown when a player types ``?``: the notation and the symbols."""

    def rules_text(self, language: str | None = None) -> str:
        """The rules for people, as Markdown, in ``language`` (one of
        :data:`~lamagames.core.i18n.LANGUAGES`; ``None``: the terminal's language now,
        :func:`~lamagames.cli.i18n.language_now`), English where there is no translation."""

    def bots_only_params(self) -> Mapping[str, Any]:
        """Game parameters used when no person plays, unless given on the command line
        (Lama Express: a turn limit, E-11)."""


class ProtocolView:
    """The terminal view of a game whose spec names none: drawn from the protocol alone.

    The table is the observation of the viewer (seat 0 for spectators) as ``key: value``
    lines, actions are labelled by their notation and each move is told as
    ``"<seat>: <notation>"``.

    Args:
        game_id: the game's id; ``title``: its name for people.
    """

    live_board = False

    def __init__(self, game_id: str, title: str) -> None:
        self.game_id = game_id
        self.title = title

    def render(
        self, state: State, seats: Sequence[SeatInfo], *, viewer: int | None = None
    ) -> RenderableType:
        """The observation of ``viewer`` (seat 0 for spectators), one key per line."""
        observation = state.observation(0 if viewer is None else viewer)
        lines = [f"{key}: {value}" for key, value in observation.items()]
        return Text("\n".join(lines))

    def render_focus(self, state: State, seats: Sequence[SeatInfo], player: int) -> RenderableType:
        """The whole table as ``player`` sees it."""
        return self.render(state, seats, viewer=player)

    def headline(self, state: State, seats: Sequence[SeatInfo], player: int) -> str:
        """``"Ann's turn"`` (``"Seat 2's turn"`` without names)."""
        name = seats[player].name if player < len(seats) else f"Seat {player + 1}"
        return f"{name}'s turn"

    def action_label(
        self, state: State, action: int, player: int, seats: Sequence[SeatInfo] = ()
    ) -> str:
        """The action's notation."""
        return state.action_to_string(action, player)

    def narrate(
        self,
        before: State,
        player: int,
        action: int,
        after: State,
        seats: Sequence[SeatInfo],
    ) -> list[str]:
        """``"Ann: <notation>"`` (``"chance: <notation>"`` for a chance outcome)."""
        who = "chance" if player < 0 else seats[player].name
        return [f"{who}: {before.action_to_string(action, player if player >= 0 else None)}"]

    def outcome_words(self, before: State, action: int, seats: Sequence[SeatInfo]) -> str:
        """The outcome's notation (the protocol has no words for it)."""
        return before.action_to_string(action, None)

    def help_text(self) -> str:
        """How to answer a prompt."""
        return (
            "Type a **number** from the menu or the action's notation; `t` shows the table, "
            "`?` this help, `q` leaves the game."
        )

    def rules_text(self, language: str | None = None) -> str:
        """No rules text (in English): the game's spec names no terminal view."""
        return f"# {self.title}\n\nNo rules text is installed for this game."

    def bots_only_params(self) -> Mapping[str, Any]:
        """None."""
        return {}


def view_ids() -> list[str]:
    """Game ids that can be played in the terminal (every known game), sorted."""
    return spec_ids()


def complete_game(incomplete: str) -> list[str]:
    """Shell completion of a GAME argument: the known game ids that start with
    ``incomplete``."""
    return [game for game in view_ids() if game.startswith(incomplete)]


def get_view(game_id: str) -> GameView:
    """Return a fresh view of a game: the one its spec names, else a :class:`ProtocolView`.

    Raises:
        ParameterError: unknown game (the message lists the known games).
    """
    spec = get_spec(game_id)
    if spec.cli_view is None:
        return ProtocolView(spec.game_id, spec.title)
    view: GameView = load_ref(spec.cli_view)()
    return view
