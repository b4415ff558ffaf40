"""Terminal view of Lama Express: adapts :mod:`lamagames.express.render` (drawings) and
:mod:`lamagames.express.narration` (words) to :class:`~lamagames.cli.views.GameView`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.rule import Rule
from rich.text import Text

from lamagames.cli.i18n import _, language_now, translator_now
from lamagames.core.game import State
from lamagames.core.i18n import localized_text
from lamagames.core.records import SeatInfo
from lamagames.express import narration, table
from lamagames.express.game import as_express_state
from lamagames.express.state import ExpressState

#: Die rolls after which a game of bots only is stopped (E-11), unless --turn-limit says.
BOTS_ONLY_TURN_LIMIT: Final = 2000
#: Terminal lines kept free for the headline, the menu and the prompt: a table taller than
#: the terminal's height less these is drawn in the compact layout (issue 8: on 80x24 the
#: full table scrolled the turn line away).
PROMPT_LINES: Final = 7


def _mark(message: str) -> str:
    """Mark ``message`` for extraction; translated where it is shown."""
    return message


HELP = _mark("""\
**Answering a prompt**

* a **number** from the menu, or the action itself: `move A`, `move B`, `pass`,
  `board A3`, `exit B1`, `detour A5`, `reboard B2` (train letter and car number 1-5);
* `t` shows the table again, `rules` shows the rules, `?` shows this help;
* `q` (or Ctrl-C) leaves the game; the record is saved and can be replayed.

**When you are asked.** On your turn you choose the train when both can move. In between,
whenever the trains stand still, you are asked about each *chance* you have: to
**board** a waiting llama into an empty car on your boarding space, to let a llama that has
done its lap **exit** on one of your exit spaces, to **detour** an opponent's llama that
stands on a white arrow, or to **reboard** your llama from the front of a footpath. `pass`
lets the chance go; it is gone once a train moves.

**The board.** Each space shows its colour letter (`R` red, `O` orange, `Y` yellow,
`G` green, `B` blue, `P` purple), a mark (`@` boarding space, `x` exit space, `^` white
arrow, `<` re-boarding space) and its number; trains run clockwise from space 0 at the top
left. Under a space stands what is there: `A:>>` the engine of train A, `A:##` its coal
car, `A3:.` the empty car 3, `A3:y` car 3 with a yellow llama (`y p g b` are the player
colours), `*` a llama whose lap is done so it may get off at home. Cars where you can act
now are highlighted. In the middle: whose turn it is, the die, who is being asked and
everyone's chances, the players (llamas waiting, riding, walking on footpaths, home), the
footpaths (front first) and how far your llamas still have to ride.
""")


@dataclass(frozen=True, slots=True)
class ExpressTable:
    """A Rich renderable of the table that fits itself to the console width."""

    state: ExpressState
    names: tuple[str, ...]
    viewer: int | None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Draw :func:`lamagames.express.table.table_text` at the available width, compact
        when it is taller than ``options.height`` (given by a live screen, which keeps the
        rest of its lines for the log, the menu and the prompt) or, without it, when it
        would not leave :data:`PROMPT_LINES` of the terminal's height free."""
        if options.height is not None:
            height = max(1, options.height)
        else:
            height = max(1, options.size.height - PROMPT_LINES)
        text = table.table_text(
            self.state,
            self.names,
            viewer=self.viewer,
            width=options.max_width,
            height=height,
            tr=translator_now(),
        )
        text.no_wrap = True
        text.overflow = "crop"
        yield text


def _names(state: ExpressState, seats: Sequence[SeatInfo]) -> list[str]:
    if seats:
        return [s.name for s in seats]
    return [_("Seat {n}").format(n=seat + 1) for seat in range(state.game.num_players)]


class ExpressView:
    """Lama Express in the terminal."""

    game_id = "express"
    title = "Lama Express"
    live_board = True

    def render(
        self, state: State, seats: Sequence[SeatInfo], *, viewer: int | None = None
    ) -> RenderableType:
        """The board with the trains and everything inside the ring
        (see :func:`lamagames.express.table.table_text`)."""
        express = as_express_state(state)
        return ExpressTable(express, tuple(_names(express, seats)), viewer)

    def render_focus(self, state: State, seats: Sequence[SeatInfo], player: int) -> RenderableType:
        """The prompt's headline and the whole table: every Express choice needs the board."""
        title = Rule(Text(self.headline(state, seats, player), style="bold cyan"))
        return Group(title, self.render(state, seats, viewer=player))

    def headline(self, state: State, seats: Sequence[SeatInfo], player: int) -> str:
        """See :func:`lamagames.express.narration.headline`."""
        express = as_express_state(state)
        return narration.headline(express, _names(express, seats), player, translator_now())

    def action_label(
        self, state: State, action: int, player: int, seats: Sequence[SeatInfo] = ()
    ) -> str:
        """See :func:`lamagames.express.narration.action_label`."""
        express = as_express_state(state)
        return narration.action_label(
            express, action, player, _names(express, seats), translator_now()
        )

    def narrate(
        self,
        before: State,
        player: int,
        action: int,
        after: State,
        seats: Sequence[SeatInfo],
    ) -> list[str]:
        """See :func:`lamagames.express.narration.narrate`."""
        express = as_express_state(after)
        return narration.narrate(
            as_express_state(before),
            player,
            action,
            express,
            _names(express, seats),
            translator_now(),
        )

    def outcome_words(self, before: State, action: int, seats: Sequence[SeatInfo]) -> str:
        """See :func:`lamagames.express.narration.outcome_words`."""
        return narration.outcome_words(action, translator_now())

    def help_text(self) -> str:
        """Prompt help as Markdown (in the chosen language)."""
        return _(HELP)

    def rules_text(self, language: str | None = None) -> str:
        """The rules in the project's words, in ``language`` (``None``: the terminal's
        language now): package data ``express/rules.md``, generated from its section of
        ``docs/rules.md`` (``scripts/sync_rules_text.py``), or its translation
        ``express/rules.<lang>.md`` (same ruling ids and headings, tests/core/test_rules_doc.py).

        Raises:
            ValueError: an unknown language.
        """
        return localized_text("lamagames.express", "rules.md", language or language_now())

    def bots_only_params(self) -> Mapping[str, Any]:
        """A turn limit of :data:`BOTS_ONLY_TURN_LIMIT` die rolls (E-11)."""
        return {"turn_limit": BOTS_ONLY_TURN_LIMIT}
