"""Terminal view of LAMA Dice: adapts :mod:`lamagames.dice.render` to :class:`GameView`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

from rich.console import RenderableType

from lamagames.core.game import State
from lamagames.core.records import SeatInfo
from lamagames.dice import render
from lamagames.dice.game import as_dice_state

HELP = """\
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
"""


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
            kinds=[s.kind for s in seats],
            viewer=viewer,
        )

    def render_focus(self, state: State, seats: Sequence[SeatInfo], player: int) -> RenderableType:
        """Dice, own row and chips, llama row (see :func:`lamagames.dice.render.render_focus`)."""
        return render.render_focus(as_dice_state(state), player)

    def headline(self, state: State, seats: Sequence[SeatInfo], player: int) -> str:
        """``"Ann's turn"``."""
        return f"{seats[player].name}'s turn"

    def action_label(
        self, state: State, action: int, player: int, seats: Sequence[SeatInfo] = ()
    ) -> str:
        """See :func:`lamagames.dice.render.action_label`."""
        return render.action_label(as_dice_state(state), action)

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
            as_dice_state(before), player, action, as_dice_state(after), [s.name for s in seats]
        )

    def help_text(self) -> str:
        """Prompt help as Markdown."""
        return HELP

    def rules_text(self) -> str:
        """The rules in the project's words: package data ``dice/rules.md``, generated from
        its section of ``docs/rules.md`` (``scripts/sync_rules_text.py``)."""
        return files("lamagames.dice").joinpath("rules.md").read_text(encoding="utf-8")

    def bots_only_params(self) -> Mapping[str, Any]:
        """None: a LAMA Dice game always ends (D-11)."""
        return {}
