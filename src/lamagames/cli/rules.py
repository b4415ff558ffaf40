"""``lama rules GAME``: print the rules of a game (from its terminal view), in the terminal's
language (``--lang``, else the locale, as ``lama play``; English where not translated)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markdown import Markdown

from lamagames.cli.common import game_argument, stdout
from lamagames.cli.i18n import LANG_HELP, use_language
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
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)] = None,
) -> None:
    """Print the rules of a game."""
    language = use_language(lang)  # --lang, else the locale (LC_ALL / LC_MESSAGES / LANG)
    view = game_view(game_argument(game))
    stdout().print(Markdown(view.rules_text(language)))
