"""Terminal view of LAMA Dice: adapts :mod:`lamagames.dice.render` to :class:`GameView`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType

from lamagames.cli.i18n import HUMAN_KIND, _, kind_name, language_now, translator_now
from lamagames.core.game import State
from lamagames.core.i18n import localized_text
from lamagames.core.records import SeatInfo
from lamagames.dice import render
from lamagames.dice.game import as_dice_state


def _mark(message: str) -> str:
    """Mark ``message`` for extraction; translated where it is shown."""
    return message


HELP = _mark("""\
**Answering a prompt**

* a **number** from the menu, or the action itself: `roll`, `quit`, `take 5`,
  `discard 3 3`, `discard 3L`, `give black`, `give white`, `give none`;
* **Enter** accepts the only choice when there is just one;
* `t` shows the table again, `rules` shows the rules, `?` shows this help;
* `hint` says in plain words what each choice is worth this round (from the solver);
  `hint details` adds the table of exact values and where they come from;
* `q` leaves the game (the record is saved). Note: `quit` quits *the round*, `q` leaves.

**The table**: cards show their symbol, `L` is a llama (10 points). *Row pts* is what your
row would score now: every different number once, plus 10 for any llamas. Chips: `●` black
= 10 points, `○` white = 1 point. The lowest score wins when someone reaches the end score.
""")


class DiceView:
    """LAMA Dice in the terminal."""

    game_id = "dice"
    title = "LAMA Dice"
    live_board = False

    def render(
        self, state: State, seats: Sequence[SeatInfo], *, viewer: int | None = None
    ) -> RenderableType:
        """The table (see :func:`lamagames.dice.render.render_table`)."""
        return render.render_table(
            as_dice_state(state),
            [s.name for s in seats],
            kinds=[s.kind if s.kind == HUMAN_KIND else kind_name(s.kind) for s in seats],
            viewer=viewer,
            tr=translator_now(),
        )

    def render_focus(self, state: State, seats: Sequence[SeatInfo], player: int) -> RenderableType:
        """Dice, own row and chips, llama row (see :func:`lamagames.dice.render.render_focus`)."""
        return render.render_focus(as_dice_state(state), player, translator_now())

    def headline(self, state: State, seats: Sequence[SeatInfo], player: int) -> str:
        """``"Ann's turn"``."""
        return _("{name}'s turn").format(name=seats[player].name)

    def action_label(
        self, state: State, action: int, player: int, seats: Sequence[SeatInfo] = ()
    ) -> str:
        """See :func:`lamagames.dice.render.action_label`."""
        return render.action_label(as_dice_state(state), action, translator_now())

    def narrate(
        self,
        before: State,
        player: int,
        action: int,
        after: State,
        seats: Sequence[SeatInfo],
    ) -> list[str]:
        """See :func:`lamagames.dice.render.narrate`."""
        return render.narrate(
            as_dice_state(before),
            player,
            action,
            as_dice_state(after),
            [s.name for s in seats],
            translator_now(),
        )

    def outcome_words(self, before: State, action: int, seats: Sequence[SeatInfo]) -> str:
        """See :func:`lamagames.dice.render.outcome_words`."""
        return render.outcome_words(
            as_dice_state(before), action, [s.name for s in seats], translator_now()
        )

    def help_text(self) -> str:
        """Prompt help as Markdown (in the chosen language)."""
        return _(HELP)

    def rules_text(self, language: str | None = None) -> str:
        """The rules in the project's words, in ``language`` (``None``: the terminal's
        language now): package data ``dice/rules.md``, generated from its section of
        ``docs/rules.md`` (``scripts/sync_rules_text.py``), or its translation
        ``dice/rules.<lang>.md`` (same ruling ids and headings, tests/core/test_rules_doc.py).

        Raises:
            ValueError: an unknown language.
        """
        return localized_text("lamagames.dice", "rules.md", language or language_now())

    def bots_only_params(self) -> Mapping[str, Any]:
        """None: a LAMA Dice game always ends (D-11)."""
        return {}
