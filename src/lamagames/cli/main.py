"""The ``lama`` command: play, watch and simulate games, replay records, read the rules.

Every command works for any game with a terminal view (:mod:`lamagames.cli.views`).
Seat numbers shown to people are 1-based; records keep the engine's 0-based seats.

Exit codes: 0 success (also when a player leaves with ``q`` or at the end of input), 1 a
file could not be written, 2 bad arguments or a bad record or board file, 130 stopped with
Ctrl-C (after saving the record of a game, or printing the summary of a batch's finished
games and writing its JSON).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
from pydantic import ValidationError
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from lamagames import __version__
from lamagames.bots.base import bot_class, bot_kinds
from lamagames.cli.hint import hint_command
from lamagames.cli.replay import browse, load_replay, render_position
from lamagames.cli.session import HUMAN, ReadLine, default_record_path, run_table, winners_line
from lamagames.cli.views import GameView, get_view, view_ids
from lamagames.core.errors import BoardError, LamaError, RecordError, quoted
from lamagames.core.game import Game
from lamagames.core.records import GameRecord, SeatInfo, record_from_state, save_record
from lamagames.core.registry import game_title, make, parameter_names
from lamagames.express.board import Board, load_board, standard_board
from lamagames.express.render import board_drawing_text, board_summary
from lamagames.sim.runner import GameResult
from lamagames.sim.stats import BatchSummary, StatsCollector, play_batch

#: Pause after each bot move when a person is at the table, seconds.
HUMAN_DELAY = 0.4
#: Fewest terminal lines for drawing the table live (views with ``live_board``).
MIN_LIVE_HEIGHT = 30
#: Exit code after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def _hide_flag_types() -> None:
    """Show no ``<bool>`` type beside flags (``--short``, ``--help``) in the Rich help.

    Typer's Rich help (0.29) shows every option's type, also of flags, which take no value;
    its plain help does not. Flags get no type column here, the other options keep theirs.
    """
    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "_lamagames", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return None
        result: str | None = shown(self, ctx)
        return result

    display_type_rich._lamagames = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich


_hide_flag_types()

app = typer.Typer(
    name="lama",
    help="LAMA Dice and Lama Express in the terminal: play, watch bots, simulate, replay records.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _stdout() -> Console:
    return Console(highlight=False)


def _stderr() -> Console:
    return Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 2) -> NoReturn:
    """Print ``Error: message`` to stderr and exit with ``code``."""
    _stderr().print(Text("Error: ", style="bold red") + Text(message), soft_wrap=True)
    raise typer.Exit(code)


#: ASCII stand-ins for the few symbols the terminal views use, for an output encoding that
#: lacks them (``PYTHONIOENCODING=ascii``, an old console); anything else becomes ``?``.
ASCII_STAND_INS: dict[str, str] = {
    "·": "-",
    "●": "*",
    "○": "o",
    "▶": ">",
    "…": "...",
    "→": "->",
    "←": "<-",
    "—": "-",
    "–": "-",
    "─": "-",
    "━": "-",
    "│": "|",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
}
_ASCII_ERRORS = "lamagames-ascii"


def _ascii_stand_in(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: :data:`ASCII_STAND_INS` for characters the encoding lacks."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(ASCII_STAND_INS.get(ch, "?") for ch in text), error.end


codecs.register_error(_ASCII_ERRORS, _ascii_stand_in)


def safe_output_streams() -> None:
    """Let stdout and stderr write any text: characters their encoding lacks are written
    as ASCII stand-ins instead of raising ``UnicodeEncodeError``."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):  # closed or not reconfigurable
                stream.reconfigure(errors=_ASCII_ERRORS)


def _version(value: bool) -> None:
    if value:
        print(f"lama (lamagames) {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """LAMA Dice and Lama Express in the terminal: play, watch bots, simulate, replay records."""
    safe_output_streams()


# ---------------------------------------------------------------- argument helpers


def _view(game_id: str) -> GameView:
    try:
        return get_view(game_id)
    except LamaError as exc:
        raise typer.BadParameter(str(exc), param_hint="GAME") from None


def parse_seats(text: str, game_id: str) -> list[str]:
    """Parse ``--seats``: comma-separated ``human`` or bot kinds of ``game_id``.

    Raises:
        typer.BadParameter: an empty entry, an unknown kind (the message lists the kinds) or
            a bot kind that is not installed.
    """
    kinds = [part.strip().lower() for part in text.split(",")]
    allowed = bot_kinds(game_id)
    choices = ", ".join([HUMAN, *allowed])
    for kind in kinds:
        if not kind:
            raise typer.BadParameter(
                f"empty seat in {quoted(text)}; seats are: {choices}", param_hint="--seats"
            )
        if kind == HUMAN:
            continue
        if kind not in allowed:
            raise typer.BadParameter(
                f"unknown seat kind {quoted(kind)}; seats are: {choices}", param_hint="--seats"
            )
        try:
            bot_class(game_id, kind)
        except (ImportError, AttributeError):
            raise typer.BadParameter(
                f"the {quoted(kind)} bot is not available in this installation",
                param_hint="--seats",
            ) from None
    return kinds


def parse_names(text: str | None, kinds: Sequence[str]) -> list[str]:
    """Display names: ``--names`` split on commas, or ``Player N`` / ``Bot N`` by seat.

    ``--names`` gives one name per seat, or one per human seat (in seat order; the bots
    keep ``Bot N``).

    Raises:
        typer.BadParameter: wrong count, an empty, too long or repeated name.
    """
    default = [
        f"{'Player' if kind == HUMAN else 'Bot'} {seat + 1}" for seat, kind in enumerate(kinds)
    ]
    if text is None:
        return default
    given = [part.strip() for part in text.split(",")]
    human_seats = [seat for seat, kind in enumerate(kinds) if kind == HUMAN]
    if len(given) == len(kinds):
        names = given
    elif human_seats and len(given) == len(human_seats):
        names = list(default)
        for seat, name in zip(human_seats, given, strict=True):
            names[seat] = name
    else:
        humans = len(human_seats)
        counts = f"{len(kinds)} names (one per seat)"
        if 0 < humans < len(kinds):
            counts += f" or {humans} (one per human seat)"
        raise typer.BadParameter(f"give {counts}, got {len(given)}", param_hint="--names")
    for name in given:
        if not 1 <= len(name) <= 64:
            raise typer.BadParameter(
                f"names must have 1 to 64 characters, got {quoted(name)}", param_hint="--names"
            )
        try:  # the same rules as names in records (no control characters)
            SeatInfo(name=name, kind=HUMAN)
        except ValidationError as exc:
            reason = exc.errors()[0]["msg"].removeprefix("Value error, ")
            raise typer.BadParameter(reason, param_hint="--names") from None
    if len(set(names)) != len(names):
        raise typer.BadParameter("names must differ", param_hint="--names")
    return names


def parse_params(items: Sequence[str]) -> dict[str, Any]:
    """Parse repeated ``--param KEY=VALUE``; VALUE is read as JSON, else kept as text.

    Raises:
        typer.BadParameter: an item without ``=`` or with an empty key.
    """
    params: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise typer.BadParameter(
                f"expected KEY=VALUE, got {quoted(item)}", param_hint="--param"
            )
        try:
            params[key] = json.loads(raw)
        except json.JSONDecodeError:
            params[key] = raw
    return params


#: Game parameters that ``lama play`` sets itself or through a dedicated option, by option.
#: ``--param`` refuses these keys (the option is the one way to set them).
OPTION_PARAMS: dict[str, str] = {
    "--seats": "num_players",
    "--starting-seat": "starting_seat",
    "--end-score": "end_score",
    "--short": "llamas_to_win",
    "--board": "board",
    "--colours": "colours",
    "--turn-limit": "turn_limit",
}


def check_params(game_id: str, params: dict[str, Any]) -> None:
    """Refuse ``--param`` keys that an option sets and keys the game does not know.

    Raises:
        typer.BadParameter: the key has its own option (the message names it) or is not a
            parameter of the game (the message lists the game's parameters).
    """
    by_param = {param: option for option, param in OPTION_PARAMS.items()}
    known = parameter_names(game_id)
    for key in params:
        option = by_param.get(key)
        if option == "--seats":
            raise typer.BadParameter(
                f"{key!r} is set by the number of seats (--seats)", param_hint="--param"
            )
        if option is not None and (known is None or key in known):
            extra = " (seats count from 1)" if option == "--starting-seat" else ""
            raise typer.BadParameter(
                f"{key!r} has its own option: use {option}{extra}", param_hint="--param"
            )
        if known is not None and key not in known:
            raise typer.BadParameter(
                f"unknown parameter {quoted(key)} for {game_title(game_id)}; "
                f"known: {', '.join(known)}",
                param_hint="--param",
            )


def check_game_options(game_id: str, options: Sequence[str]) -> None:
    """Refuse options (from :data:`OPTION_PARAMS`) that belong to another game.

    Raises:
        typer.BadParameter: an option sets a parameter the game does not have; the message
            names the game(s) the option is for.
    """
    known = parameter_names(game_id)
    if known is None:
        return
    for option in options:
        param = OPTION_PARAMS[option]
        if param in known:
            continue
        owners = [game_title(g) for g in view_ids() if param in (parameter_names(g) or ())]
        where = f"a {' and '.join(owners)} option" if owners else "not an option of any game"
        raise typer.BadParameter(
            f"{option} is {where}; {game_title(game_id)} does not use it", param_hint=option
        )


def parse_colours(text: str) -> list[str]:
    """Parse ``--colours``: comma-separated player colours (checked by the game, E-4).

    Raises:
        typer.BadParameter: an empty entry.
    """
    colours = [part.strip().lower() for part in text.split(",")]
    if not all(colours):
        raise typer.BadParameter(f"empty colour in {quoted(text)}", param_hint="--colours")
    return colours


def _load_board(path: Path) -> Board:
    """Load and check a board file; a bad file stops with exit code 2 and the BoardError."""
    try:
        return load_board(path)
    except BoardError as exc:  # FILE: <field>: <reason>
        _fail(str(exc))


def _board_param(path: Path) -> dict[str, Any]:
    return _load_board(path).to_dict()


def _make_game(game_id: str, kinds: Sequence[str], params: dict[str, Any]) -> Game:
    try:
        info = make(game_id).info
    except LamaError as exc:
        _fail(str(exc))
    if not info.min_players <= len(kinds) <= info.max_players:
        raise typer.BadParameter(
            f"{info.long_name} takes {info.min_players} to {info.max_players} seats, "
            f"got {len(kinds)}",
            param_hint="--seats",
        )
    try:
        return make(game_id, **{**params, "num_players": len(kinds)})
    except LamaError as exc:
        _fail(option_message(str(exc)))


def option_message(message: str) -> str:
    """A game's parameter error in the words of the command line: a message about a
    parameter that an option sets names the option (``end_score must be ...`` ->
    ``--end-score must be ...``); others are ``bad game parameters: <message>``."""
    for option, param in OPTION_PARAMS.items():
        if option != "--seats" and message.startswith((f"{param} ", f"{param}:")):
            return option + message[len(param) :]
    return f"bad game parameters: {message}"


def parse_seed(text: str | None) -> int:
    """``--seed``: a whole number (random if not given).

    Raises:
        typer.BadParameter: not a whole number.
    """
    if text is None:
        return secrets.randbits(32)
    digits = text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 30):
        raise typer.BadParameter(
            f"a seed is a whole number, e.g. --seed 7; got {quoted(text)}", param_hint="--seed"
        )
    return int(text.strip())


def _discard_typeahead() -> None:
    """Drop keys typed before a prompt was shown (while bots moved), on a terminal only.

    Otherwise a line typed during the bots' turns would answer a prompt the player has not
    seen yet.
    """
    if not sys.stdin.isatty():
        return
    with contextlib.suppress(ImportError, OSError, ValueError):  # not POSIX: keep the input
        import termios

        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def _read_line_from(console: Console) -> ReadLine:
    # Plain input() without readline: readline would not echo the newline of an empty line
    # after a prompt that Rich printed itself.
    def read_line(prompt: Text) -> str:
        _discard_typeahead()
        return console.input(prompt)

    return read_line


# ---------------------------------------------------------------- summaries


def summary_table(summary: BatchSummary, title: str) -> Table:
    """A Rich table of a batch summary: one line per seat, hook metrics as columns."""
    extra_keys: list[str] = []
    for seat in summary.seats:
        extra_keys += [k for k in seat.extra if k not in extra_keys]
    figures = [f"{summary.games} games", f"seed {summary.seed}", f"{summary.seconds:.2f} s"]
    figures += [
        f"{k.replace('_', ' ')} {_fmt(v)}" for k, v in summary.extra.items() if v is not None
    ]
    figures.append(f"{summary.decisions} decisions")
    table = Table(title=f"{title}\n" + " · ".join(figures), title_justify="left")
    table.add_column("Seat", justify="right")
    table.add_column("Kind")
    table.add_column("Wins", justify="right")
    table.add_column("Win share", justify="right")
    for key in extra_keys:
        table.add_column(key.replace("_", " ").capitalize(), justify="right")
    for seat in summary.seats:
        table.add_row(
            str(seat.seat + 1),
            seat.kind,
            _fmt(seat.wins),
            f"{seat.win_share:.3f}",
            *(_fmt(seat.extra.get(k)) for k in extra_keys),
        )
    return table


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}" if value.is_integer() else f"{value:.3f}"
    return str(value)


def output_path(name: str | None, option: str) -> Path | None:
    """An output file option, checked before any game is played (``None`` if not given).

    Raises:
        typer.BadParameter: an empty name, a folder, a parent folder that is missing, is
            not a folder, or is not writable, or a file that exists and is not writable.
    """
    if name is None:
        return None
    if not name.strip():
        raise typer.BadParameter("no file name given", param_hint=option)
    path = Path(name)
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a folder; give a file name", param_hint=option)
    check_output_path(path, option)
    return path


def check_output_path(path: Path | None, option: str) -> None:
    """Refuse an output file whose folder does not exist, before any game is played.

    Raises:
        typer.BadParameter: the parent folder is missing, is not a folder, or is not
            writable, or the file exists and is not writable.
    """
    if path is None:
        return
    folder = path.resolve().parent
    if not folder.is_dir():
        raise typer.BadParameter(f"the folder of {path} does not exist", param_hint=option)
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise typer.BadParameter(f"{path} cannot be written here", param_hint=option)


def summary_dict(summary: BatchSummary, requested: int, interrupted: bool) -> dict[str, Any]:
    """The ``--summary-json`` contents: :meth:`BatchSummary.to_dict` with
    ``games_requested`` and ``interrupted`` (stopped before all requested games ended)
    after ``games``."""
    data: dict[str, Any] = {}
    for key, value in summary.to_dict().items():
        data[key] = value
        if key == "games":
            data["games_requested"] = requested
            data["interrupted"] = interrupted
    return data


def _write_json(path: Path, data: dict[str, Any]) -> None:
    try:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {path}: {exc}", code=1)


# ---------------------------------------------------------------- play


_SEAT_KINDS = "; ".join(f"{g}: {', '.join(bot_kinds(g))}" for g in view_ids())
_GAMES_PANEL = "Several games (bots only)"


@app.command()
def play(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="The game: " + ", ".join(view_ids()) + ".")
    ],
    seats: Annotated[
        str,
        typer.Option(
            "--seats",
            "-s",
            metavar="KINDS",
            help=f"Seats in turn order: human or a bot kind ({_SEAT_KINDS}). "
            "Example: human,benchmark,random",
        ),
    ],
    names: Annotated[
        str | None,
        typer.Option(
            metavar="NAMES",
            help="Names, one per seat or one per human seat: Ann,Bob (default Player 1, Bot 2...).",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(metavar="N", help="Seed of dice and bots (random and shown if omitted)."),
    ] = None,
    starting_seat: Annotated[
        int | None,
        typer.Option(min=1, metavar="SEAT", help="Seat that starts (1 = first)."),
    ] = None,
    end_score: Annotated[
        int | None,
        typer.Option(metavar="POINTS", help="Dice: end score (default 40)."),
    ] = None,
    short: Annotated[
        bool,
        typer.Option("--short", help="Express: the short game, 3 llamas home win."),
    ] = False,
    board: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Express: a board file (see lama board)."),
    ] = None,
    colours: Annotated[
        str | None,
        typer.Option(
            "--colours",
            "--colors",
            metavar="COLOURS",
            help="Express: colour per seat, clockwise: yellow,pink,green (default by seats).",
        ),
    ] = None,
    turn_limit: Annotated[
        int | None,
        typer.Option(
            min=1,
            metavar="ROLLS",
            help="Express, bots only: stop a game after this many die rolls (default "
            "2000); games with people have no limit.",
        ),
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param", "-p", metavar="KEY=VALUE", help="Other game parameter (JSON value)."
        ),
    ] = None,
    record_name: Annotated[
        str | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Save the game record here (games with a human are always saved).",
        ),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            metavar="SECONDS",
            help=f"Pause after each bot move (default {HUMAN_DELAY} with a human, else 0).",
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(min=1, metavar="N", help="Games to play.", rich_help_panel=_GAMES_PANEL),
    ] = 1,
    summary_name: Annotated[
        str | None,
        typer.Option(
            "--summary-json",
            metavar="FILE",
            help="Write a JSON summary here.",
            rich_help_panel=_GAMES_PANEL,
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="One game: no move log.", rich_help_panel=_GAMES_PANEL),
    ] = False,
    players_names: Annotated[
        str | None, typer.Option("--players-names", "--player-names", hidden=True)
    ] = None,
) -> None:
    """Play a game with people and/or bots, or simulate many bot games.

    With a [bold]human[/] seat the game is interactive (several humans play hotseat); its
    record is saved to [bold]--record[/] or to lama-<game>-<time>.lamarec.json here.
    With bots only, one game is told move by move; [bold]--games N[/] plays N games with a
    progress bar and prints a summary.

    [dim]Examples:[/]

    lama play dice --seats human,benchmark,random

    lama play dice --seats human,human --names Ann,Bob --end-score 30

    lama play dice --seats benchmark,random --games 1000 --summary-json s.json

    lama play express --seats human,heuristic,benchmark --seed 2

    lama play express --seats benchmark,benchmark,benchmark,benchmark --games 500
    """
    game = game.strip().lower()  # DICE, Express: as the seat kinds
    view = _view(game)
    kinds = parse_seats(seats, game)
    record = output_path(record_name, "--record")
    summary_json = output_path(summary_name, "--summary-json")
    root_seed = parse_seed(seed)
    params = parse_params(param or [])
    check_params(game, params)
    given = {
        "--starting-seat": starting_seat is not None,
        "--end-score": end_score is not None,
        "--short": short,
        "--board": board is not None,
        "--colours": colours is not None,
        "--turn-limit": turn_limit is not None,
    }
    check_game_options(game, [option for option, used in given.items() if used])
    humans = HUMAN in kinds
    if end_score is not None:
        params["end_score"] = end_score
    if short:
        params["llamas_to_win"] = 3
    if board is not None:
        params["board"] = _board_param(board)
    if colours is not None:
        params["colours"] = parse_colours(colours)
    if turn_limit is not None:
        if humans:
            raise typer.BadParameter(
                "games with people have no turn limit; leave with q",
                param_hint="--turn-limit",
            )
        params["turn_limit"] = turn_limit
    if not humans:
        for key, value in view.bots_only_params().items():
            params.setdefault(key, value)
    if starting_seat is not None:
        if starting_seat > len(kinds):
            raise typer.BadParameter(
                f"there are {len(kinds)} seats, got {starting_seat}", param_hint="--starting-seat"
            )
        params["starting_seat"] = starting_seat - 1
    the_game = _make_game(game, kinds, params)
    seat_names = parse_names(names if names is not None else players_names, kinds)
    seat_infos = [SeatInfo(name=n, kind=k) for n, k in zip(seat_names, kinds, strict=True)]
    if humans and games > 1:
        raise typer.BadParameter("several games are for tables of bots only", param_hint="--games")
    if humans and quiet:
        raise typer.BadParameter(
            "a game with people is always shown; --quiet is for tables of bots only",
            param_hint="--quiet",
        )
    if record is not None and games > 1:
        raise typer.BadParameter("a record holds one game; use --games 1", param_hint="--record")
    collector = StatsCollector(the_game, kinds, view.stats_hook())
    if humans or (games == 1 and not quiet):
        pause = delay if delay is not None else (HUMAN_DELAY if humans else 0.0)
        if record is None and humans:
            record = default_record_path(game)
        summary, stopped, interrupted = _play_at_table(
            view, the_game, seat_infos, root_seed, collector, pause, record
        )
    else:
        summary, interrupted = _simulate(
            view, the_game, seat_infos, root_seed, collector, games, record
        )
        stopped = interrupted
    if summary_json is not None:
        _write_json(summary_json, summary_dict(summary, games, stopped))
        _stdout().print(f"Summary written to {summary_json}", markup=False, soft_wrap=True)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def _play_at_table(
    view: GameView,
    game: Game,
    seats: list[SeatInfo],
    seed: int,
    collector: StatsCollector,
    delay: float,
    record: Path | None,
) -> tuple[BatchSummary, bool, bool]:
    """One game told move by move, with prompts for human seats: its summary (of no game
    if it was stopped), whether it was stopped before its end (``q``, end of input,
    Ctrl-C) and whether it was stopped with Ctrl-C.

    With a person at a terminal and a view with ``live_board``, the table is drawn again
    after every event (:class:`~lamagames.cli.session.Screen`); on a terminal shorter than
    :data:`MIN_LIVE_HEIGHT` lines it is printed before each prompt, followed by the recent
    moves, the headline and the menu."""
    out = _stdout()
    intro = (
        Text(f"{view.title}: ", style="bold")
        + Text(", ".join(f"{s.name} ({s.kind})" for s in seats))
        + Text(f" · seed {seed}", style="grey50")
    )
    humans = any(s.kind == HUMAN for s in seats)
    at_terminal = humans and view.live_board and out.is_terminal
    live = at_terminal and out.height >= MIN_LIVE_HEIGHT
    out.print(intro)
    if humans:
        out.print(Text("Type ? at a prompt for help, q to leave.", style="grey50"))
    started = time.perf_counter()
    try:
        outcome = run_table(
            view,
            game,
            seats,
            seed=seed,
            game_index=0,
            console=out,
            read_line=_read_line_from(out),
            delay=delay,
            record_path=record,
            live=live,
            scrolling=at_terminal and not live,
            intro=[intro.plain, "Type ? at a prompt for help, q to leave."],
        )
    except OSError as exc:
        _fail(f"cannot write the record {record}: {exc}", code=1)
    seconds = time.perf_counter() - started
    out.print()
    if outcome.result is None:
        out.print(Text(outcome.stopped or "The game stopped.", style="bold yellow"))
    else:
        if not live:  # a live screen shows the final table already
            out.print(view.render(outcome.state, seats))
        out.print(Text(winners_line(outcome.state, seats), style="bold green"))
        collector.add(outcome.result)
    if outcome.record_path is not None:
        out.print(f"Record saved to {outcome.record_path}", markup=False, soft_wrap=True)
        out.print(
            Text(f"Replay it with: lama replay {outcome.record_path}", style="grey50"),
            soft_wrap=True,
        )
    summary = collector.summary(seconds, seed)
    return summary, outcome.result is None, outcome.interrupted


def _simulate(
    view: GameView,
    game: Game,
    seats: list[SeatInfo],
    seed: int,
    collector: StatsCollector,
    games: int,
    record: Path | None,
) -> tuple[BatchSummary, bool]:
    """``games`` bot games with a transient progress bar on stderr (hidden when not a TTY);
    prints the summary table and saves the record of a single game.

    Ctrl-C stops the batch: the games finished so far are summed up as usual (and
    ``True`` is returned as ``interrupted``)."""
    err = _stderr()
    progress = Progress(
        TextColumn("Playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    task = progress.add_task("games", total=games)
    last: list[GameResult] = []

    def on_game(index: int, result: GameResult) -> None:
        progress.advance(task)
        last[:] = [result]

    started = time.perf_counter()
    interrupted = False
    try:
        with progress:
            kinds = [s.kind for s in seats]
            play_batch(game, kinds, games=games, seed=seed, collector=collector, on_game=on_game)
    except KeyboardInterrupt:
        interrupted = True
        err.print(
            Text(
                f"Interrupted (Ctrl-C) after {collector.games} of {games} games; "
                "the summary covers the finished games.",
                style="bold yellow",
            ),
            soft_wrap=True,
        )
    summary = collector.summary(time.perf_counter() - started, seed)
    out = _stdout()
    out.print(summary_table(summary, view.title))
    if record is not None and last:  # a single game (checked by the caller)
        try:
            game_record = record_from_state(last[0].state, seats, seed=seed, game_index=0)
            save_record(game_record, record)
        except OSError as exc:
            _fail(f"cannot write the record {record}: {exc}", code=1)
        out.print(f"Record saved to {record}", markup=False, soft_wrap=True)
    return summary, interrupted


# ---------------------------------------------------------------- replay


def _seed_words(record: GameRecord) -> str:
    """`` · seed 7`` (the seed ``lama play --seed`` takes to play the game again), with
    `` · game N`` for a later game of that seed; empty without a seed."""
    if record.seed is None:
        return ""
    game = f" · game {record.game_index + 1}" if record.game_index else ""
    return f" · seed {record.seed}{game}"


@app.command("replay")
def replay_command(
    file_name: Annotated[
        str, typer.Argument(metavar="FILE", help="A game record (.lamarec.json).")
    ],
    to: Annotated[
        int | None,
        typer.Option(
            "--to", min=0, metavar="N", help="Print the position after N actions and exit."
        ),
    ] = None,
    final: Annotated[
        bool, typer.Option("--final", help="Print the final position and exit.")
    ] = False,
) -> None:
    """Check a game record and step through it (n next, p previous, j N jump, e end, q quit)."""
    if final and to is not None:
        raise typer.BadParameter("give --to N or --final, not both", param_hint="--final")
    if not file_name.strip():
        _fail("no file name given")
    try:
        loaded = load_replay(Path(file_name))
    except RecordError as exc:  # FILE: <reason>
        _fail(str(exc))
    if to is not None and to > loaded.last:  # checked before anything is printed
        raise typer.BadParameter(
            f"the record has {loaded.last} actions; choose 0 to {loaded.last}",
            param_hint="--to",
        )
    out = _stdout()
    record = loaded.record
    out.print(
        Text(f"{loaded.view.title}: ", style="bold")
        + Text(", ".join(f"{s.name} ({s.kind})" for s in record.seats))
        + Text(f" · {loaded.last} actions{_seed_words(record)}", style="grey50")
    )
    if final or to is not None:
        out.print(render_position(loaded, loaded.last if to is None else to))
        return
    try:
        browse(loaded, out, _read_line_from(out))
    except KeyboardInterrupt:
        raise typer.Exit(INTERRUPTED) from None


app.command("hint")(hint_command)

# ---------------------------------------------------------------- rules


@app.command()
def rules(
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="The game: " + ", ".join(view_ids()) + ".")
    ],
) -> None:
    """Print the rules of a game."""
    view = _view(game.strip().lower())
    _stdout().print(Markdown(view.rules_text()))


# ---------------------------------------------------------------- boards (Lama Express)


board_app = typer.Typer(
    name="board",
    help="Lama Express boards: draw one, check a board file.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)
app.add_typer(board_app)


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
    board = standard_board() if file is None else _load_board(file)
    if as_json:
        sys.stdout.write(json.dumps(board.to_dict(), indent=2) + "\n")
        return
    out = _stdout()
    out.print(board_drawing_text(board, width=out.width), no_wrap=True, crop=True)


@board_app.command("validate")
def board_validate(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A board file (JSON).")],
) -> None:
    """Check a board file. Prints a short summary and exits 0 if it is valid; otherwise
    prints the field and the reason and exits 2."""
    board = _load_board(file)
    out = _stdout()
    out.print(Text("Valid board: ", style="bold green") + Text(str(file)), soft_wrap=True)
    for line in board_summary(board):
        out.print(line, markup=False, soft_wrap=True)


def run() -> None:
    """Entry point of ``lama``, ``python -m lamagames`` and ``python -m lamagames.cli``."""
    safe_output_streams()
    app(prog_name="lama")


# ---------------------------------------------------------------- web app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="SQLAlchemy database URL (default: an SQLite file in your data folder).",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(min=0.0, max=10.0, help="Seconds a bot waits before it acts.")
    ] = 0.8,
) -> None:
    """Run the web app: play both games in the browser, with friends and bots."""
    import socket

    from sqlalchemy.exc import SQLAlchemyError

    from lamagames.web.server import serve as run_server
    from lamagames.web.store import default_db_url

    url = db or default_db_url()
    try:  # fail early and clearly if the port is taken
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    try:  # open the database before announcing anything
        from sqlalchemy import create_engine

        engine = create_engine(url)
        engine.connect().close()
        engine.dispose()
    except (ValueError, SQLAlchemyError) as exc:
        _fail(f"cannot open the database {url!r}: {exc}")
    shown = f"[{host}]" if ":" in host else host
    out = _stdout()
    out.print(f"lamagames web app: open [bold]http://{shown}:{port}/[/bold] in your browser")
    out.print(f"database: {url}")
    out.print("Ctrl-C stops the server; open tables resume on the next start.")
    try:
        run_server(host, port, url, bot_delay=bot_delay, log_level="warning")
    except (ValueError, SQLAlchemyError) as exc:  # a bad database URL or an unreachable server
        _fail(f"cannot open the database {url!r}: {exc}")
