"""What Lama Express adds to ``lama`` (named in its spec, :mod:`lamagames.express.spec`):
the ``lama board`` commands and the converters of the ``--board`` and ``--colours`` options
of ``lama play``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from lamagames.cli.common import fail, stdout
from lamagames.core.errors import BoardError, quoted
from lamagames.express.board import Board, load_board, standard_board
from lamagames.express.render import board_drawing_text, board_summary


def parse_colours(text: str) -> list[str]:
    """Parse ``--colours``: comma-separated player colours (checked by the game, E-4).

    Raises:
        ValueError: an empty entry (``lama play`` shows it as an invalid ``--colours``).
    """
    colours = [part.strip().lower() for part in text.split(",")]
    if not all(colours):
        raise ValueError(f"empty colour in {quoted(text)}")
    return colours


def load_board_file(path: Path) -> Board:
    """Load and check a board file; a bad file stops with exit code 2 and the BoardError."""
    try:
        return load_board(path)
    except BoardError as exc:  # FILE: <field>: <reason>
        fail(str(exc))


def board_param(path: Path) -> dict[str, Any]:
    """``--board``: the board file as the game's ``board`` parameter (E-12).

    Raises:
        BoardError: the file is missing or not a valid board (``FILE: <field>: <reason>``).
    """
    return load_board(path).to_dict()


board_app = typer.Typer(
    name="board",
    help="Lama Express boards: draw one, check a board file.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


@board_app.command("show")
def board_show(
    file: Annotated[
        Path | None,
        typer.Argument(
            metavar="[FILE]",
            help="A board file (JSON); default the standard board.",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the board file (JSON) instead of the drawing: a start for your own "
            "board, e.g. lama board show --json > my.json",
        ),
    ] = False,
) -> None:
    """Draw a board: the ring of spaces with colours and letters, the stations with their
    boarding and exit spaces, the white arrows and their footpaths."""
    board = standard_board() if file is None else load_board_file(file)
    if as_json:
        sys.stdout.write(json.dumps(board.to_dict(), indent=2) + "\n")
        return
    out = stdout()
    out.print(board_drawing_text(board, width=out.width), no_wrap=True, crop=True)


@board_app.command("validate")
def board_validate(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A board file (JSON).")],
) -> None:
    """Check a board file. Prints a short summary and exits 0 if it is valid; otherwise
    prints the field and the reason and exits 2."""
    board = load_board_file(file)
    out = stdout()
    out.print(Text("Valid board: ", style="bold green") + Text(str(file)), soft_wrap=True)
    for line in board_summary(board):
        out.print(line, markup=False, soft_wrap=True)
