"""``lama rules GAME``: print the rules of a game (from its terminal view)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markdown import Markdown

from lamagames.cli.common import game_argument, stdout
from lamagames.cli.options import game_view
from lamagames.cli.views import complete_game, view_ids


def rules(
    game: Annotated[
        str, typer.Argument(
            metavar="GAME",
            help="The game: " + ", ".join(view_ids()) + ".",
            autocompletion=complete_game,
        )
    ],
) -> None:
    """Print the rules of a game."""
    view = game_view(game_argument(game))
    stdout().print(Markdown(view.rules_text()))
