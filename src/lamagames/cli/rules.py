"""``lama rules [GAME]``: print the rules of a game (from its terminal view), or of every game
without ``GAME`` (the project's whole rules reference, ``docs/rules.md``), in the terminal's
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
        str | None, typer.Argument(
            metavar="[GAME]",
            help="The game: " + ", ".join(view_ids()) + " (default: every game).",
            autocompletion=complete_game,
            show_default=False,
        )
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)] = None,
) -> None:
    """Print the rules of a game, or of every game (with their ruling ids)."""
    language = use_language(lang)  # --lang, else the locale (LC_ALL / LC_MESSAGES / LANG)
    games = view_ids() if game is None else [game_argument(game)]
    for index, game_id in enumerate(games):
        if index:
            stdout().print()
        stdout().print(Markdown(game_view(game_id).rules_text(language)))
