"""Helpers shared by the ``lama`` commands: consoles, errors, output files, seeds, input.

Nothing here knows a game.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import secrets
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from difflib import get_close_matches
from pathlib import Path
from typing import Any, NoReturn

import typer
import typer.core
from pydantic import ValidationError
from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from lamagames.cli.session import ReadLine
from lamagames.core.errors import ParameterError, quoted

#: Exit code after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def hide_flag_types() -> None:
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


#: Hidden option names (old spellings that still work) and the visible option that "No such
#: option" suggests in their place (:func:`suggest_instead`).
_SUGGEST_INSTEAD: dict[str, str] = {}


def suggest_instead(visible: str, *hidden: str) -> None:
    """When a mistyped option comes close to one of the ``hidden`` option names, suggest the
    command's option ``visible`` in its place (used only where the command has both).

    Without this a hidden option close to a typo is just left out of the suggestions
    (:func:`hide_hidden_suggestions`).
    """
    for name in hidden:
        _SUGGEST_INSTEAD[name] = visible


def _usage_error() -> type[Exception]:
    """Click's ``UsageError`` as Typer raises it (newer Typers vendor Click: it is found
    through the public ``typer.BadParameter``)."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "UsageError":
            return cls
    raise ImportError("typer.BadParameter does not derive from UsageError")  # pragma: no cover


def _is_long(name: str) -> bool:
    """Whether Click's parser keeps option ``name`` among its long options (the ones it
    suggests from): everything but one prefix character and one letter (``-q``)."""
    return len(name) > 2


#: The attribute of a command's function that :func:`offer_only` sets.
_OFFERED = "_lamagames_offered"

#: ``offered(values)``: from the values the parser read (parameter name -> raw value), a
#: test of the option names that may be suggested, or ``None`` for all of them.
Offered = Callable[[Mapping[str, Any]], Callable[[str], bool] | None]


def offer_only(function: Callable[..., Any], offered: Offered) -> None:
    """Let the command made of ``function`` suggest, for a mistyped option, only the option
    names that ``offered`` keeps for the arguments given (``lama play dice --shrt``: not
    Lama Express's ``--short``, issue 19). Typer's command keeps the function's attributes
    (:func:`functools.update_wrapper`), where :func:`hide_hidden_suggestions` finds this."""
    setattr(function, _OFFERED, offered)


def _offered_names(command: Any, ctx: Any, args: Sequence[str], option_name: str) -> Any:
    """The test of suggestable names that the command's :func:`offer_only` gives for
    ``args`` read without the unknown option (``None``: every name; also when the command
    has none or the rest of ``args`` does not parse either)."""
    offered = getattr(getattr(command, "callback", None), _OFFERED, None)
    if offered is None:
        return None
    rest = [a for a in args if a != option_name and not a.startswith(option_name + "=")]
    try:
        values, _, _ = command.make_parser(ctx).parse_args(args=rest)
    except _usage_error():
        return None
    return offered(values)


def visible_suggestions(
    command: Any, ctx: Any, option_name: str, args: Sequence[str] = ()
) -> list[str]:
    """What to suggest for the unknown option ``option_name`` of ``command`` given
    ``args``: the close matches among its visible options' long names (as Click finds
    them, :func:`difflib.get_close_matches`), after the visible stand-ins
    (:func:`suggest_instead`) of its hidden options that come close; never a hidden name,
    nor one the command's :func:`offer_only` test leaves out for ``args``."""
    visible: list[str] = []
    hidden: list[str] = []
    keep = _offered_names(command, ctx, args, option_name)
    for param in command.get_params(ctx):
        if getattr(param, "param_type_name", "") != "option":
            continue
        names = [n for n in (*param.opts, *param.secondary_opts) if _is_long(n)]
        if keep is not None:
            names = [n for n in names if keep(n)]
        (hidden if getattr(param, "hidden", False) else visible).extend(names)
    stand_ins = [_SUGGEST_INSTEAD.get(name, "") for name in get_close_matches(option_name, hidden)]
    found = [name for name in stand_ins if name in visible]
    return list(dict.fromkeys([*found, *get_close_matches(option_name, visible)]))


def hide_hidden_suggestions() -> None:
    """Never suggest a hidden option in ``No such option: --x (Possible options: ...)``.

    Click's parser suggests the close matches among all of a command's long option names,
    hidden ones included (they must stay in its table to keep working): ``lama play dice
    --player-nam x`` suggested the hidden ``--player-names`` and ``--players-names``
    (issue 19). The ``parse_args`` of Typer's command and group classes is wrapped, once,
    for every command of every Typer app in this process: the suggestions of a
    ``NoSuchOption`` it raises are found again by :func:`visible_suggestions` (also
    leaving out what the command's :func:`offer_only` test refuses). Errors
    without suggestions (an unknown short option ``-x``) are left as they are.
    """
    usage_error = _usage_error()
    for cls in (typer.core.TyperCommand, typer.core.TyperGroup):
        parse = cls.parse_args
        if getattr(parse, "_lamagames", False):
            continue

        def parse_args(self: Any, ctx: Any, args: list[str], _parse: Any = parse) -> list[str]:
            given = list(args)  # the parser consumes the list it reads
            try:
                rest: list[str] = _parse(self, ctx, args)
            except usage_error as exc:
                option_name = getattr(exc, "option_name", None)
                if getattr(exc, "possibilities", None) is not None and option_name:
                    exc.possibilities = visible_suggestions(  # type: ignore[attr-defined]
                        self, ctx, option_name, given
                    )
                raise
            return rest

        parse_args._lamagames = True  # type: ignore[attr-defined]
        cls.parse_args = parse_args  # type: ignore[method-assign]


def stdout() -> Console:
    """A console on standard output (no highlighting)."""
    return Console(highlight=False)


def stderr() -> Console:
    """A console on standard error (no highlighting)."""
    return Console(stderr=True, highlight=False)


#: Widest layout :func:`print_unwrapped` measures a renderable at (columns).
_MEASURE_WIDTH = 1000


def print_unwrapped(console: Console, renderable: RenderableType) -> None:
    """Print ``renderable``; on a console that is not a terminal (a pipe, a file) as wide as
    it needs, so that no table cell wraps. Rich lays such output out on 80 columns (or
    ``COLUMNS``): ``lama simulate ... | cat`` split ``0.233 ± 0.048`` over two lines (issue
    19). A terminal keeps its own width."""
    if console.is_terminal:
        console.print(renderable)
        return
    options = console.options.update_width(_MEASURE_WIDTH)
    needed = console.measure(renderable, options=options).maximum
    width = console.width
    if needed <= width:
        console.print(renderable)
        return
    console.width = needed
    try:
        console.print(renderable)
    finally:
        console.width = width


def progress_bar(
    label: str, console: Console, *, remaining: bool = True, description: bool = False
) -> Progress:
    """The progress bar of long commands (``lama play --games``, ``simulate``, ``ladder``):
    ``label``, bar, done/total, elapsed time, then optionally the time remaining and the
    task's description. Drawn on ``console`` (standard error), cleared when done, and
    switched off when that console is not a terminal (pipes, logs, tests)."""
    columns: list[ProgressColumn] = [
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    if remaining:
        columns.append(TimeRemainingColumn())
    if description:
        columns.append(TextColumn("{task.description}"))
    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``Error: message`` to stderr and exit with ``code``.

    Raises:
        typer.Exit: always.
    """
    stderr().print(Text("Error: ", style="bold red") + Text(message), soft_wrap=True)
    raise typer.Exit(code)


#: pydantic error types of a number option (Typer checks ``min``/``max`` with pydantic).
_WHOLE_NUMBER_ERRORS = frozenset({"int_parsing", "int_from_float", "int_type"})
_NUMBER_ERRORS = frozenset({"float_parsing", "float_type", "finite_number"})
_BOUND_ERRORS = frozenset({"greater_than_equal", "greater_than", "less_than_equal", "less_than"})


def _bound(value: int | float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def number_option_message(exc: BaseException) -> str | None:
    """The one-line message for a bad value of a number option found by the option parser,
    ``--games: expected a whole number >= 1, got '0'`` (``1..65535`` with both bounds, ``a
    number`` for a float), as the commands' own checks word it; ``None`` for any other
    error. Typer words it as pydantic does (``Invalid value for '--games' / '-g': Input
    should be greater than or equal to 1``; issue 19)."""
    cause = exc.__cause__
    param = getattr(exc, "param", None)
    if param is None or not isinstance(cause, ValidationError):
        return None
    found = [
        e
        for e in cause.errors()
        if e["type"] in _WHOLE_NUMBER_ERRORS | _NUMBER_ERRORS | _BOUND_ERRORS
    ]
    if not found:
        return None
    error = found[0]
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    bounds = [b for b in (low, high) if b is not None]
    if error["type"] in _NUMBER_ERRORS or any(isinstance(b, float) for b in bounds):
        kind = "a number"
    else:
        kind = "a whole number"
    if low is not None and high is not None:
        kind += f" {_bound(low)}..{_bound(high)}"
    elif low is not None:
        kind += f" >= {_bound(low)}"
    elif high is not None:
        kind += f" <= {_bound(high)}"
    names = list(getattr(param, "opts", ())) or [str(getattr(param, "name", "value"))]
    name = max(names, key=lambda n: (n.startswith("--"), len(n)))
    return f"{name}: expected {kind}, got {quoted(str(error['input']))}"


#: ASCII stand-ins for the few symbols the terminal views use, for an output encoding that
#: lacks them (``PYTHONIOENCODING=ascii``, an old console); anything else becomes ``?``.
ASCII_STAND_INS: dict[str, str] = {
    "·": "-",
    "●": "*",
    "○": "o",
    "▶": ">",
    "…": "...",
    "±": "+/-",
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


def game_argument(text: str) -> str:
    """The game id given as ``GAME`` (``lama play``, ``rules``, ``ladder``, ``simulate``):
    case and surrounding spaces do not matter (``DICE``, ``Express``), as for seat kinds."""
    return text.strip().lower()


#: ``--param`` keys set by the player count (``lama ladder``, ``lama simulate``).
PLAYER_COUNT_PARAMS: dict[str, str] = {
    "num_players": "is set by the player count: use --players",
}


def refuse_option_params(keys: Iterable[str], own: Mapping[str, str]) -> None:
    """Refuse ``--param`` keys that a command sets by an option of its own.

    Args:
        keys: the ``--param`` keys given.
        own: key -> what to do instead (e.g. :data:`PLAYER_COUNT_PARAMS`).

    Raises:
        ParameterError: ``--param 'num_players' is set by the player count: use --players``.
    """
    for key in keys:
        if key in own:
            raise ParameterError(f"--param {key!r} {own[key]}")


def check_player_counts(
    counts: Sequence[int], low: int, high: int, title: str, option: str = "--players"
) -> None:
    """Refuse player counts outside ``low..high``, naming the option that gave them.

    Args:
        counts: the player counts asked for.
        low, high: the counts the game (or its engine) takes.
        title: the game's name for people (``"LAMA Dice"``).
        option: ``--players``, or ``--seats`` when the count is the number of seat kinds.

    Raises:
        ParameterError: ``--players 9: LAMA Dice takes 2..6 players``.
    """
    for n in counts:
        if not low <= n <= high:
            given = f"{option} {n}" if option == "--players" else f"{option}: {n} seats"
            raise ParameterError(f"{given}: {title} takes {low}..{high} players")


def param_value(raw: str) -> Any:
    """The value of ``--param KEY=VALUE``: ``raw`` read as JSON, else the text itself (also
    when it is nested too deeply for the JSON parser, which raises RecursionError)."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        return raw


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


def discard_typeahead() -> None:
    """Drop keys typed before a prompt was shown (while bots moved), on a terminal only.

    Otherwise a line typed during the bots' turns would answer a prompt the player has not
    seen yet.
    """
    if not sys.stdin.isatty():
        return
    with contextlib.suppress(ImportError, OSError, ValueError):  # not POSIX: keep the input
        import termios

        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def read_line_from(console: Console) -> ReadLine:
    """A line reader for prompts on ``console`` that first drops type-ahead."""

    # Plain input() without readline: readline would not echo the newline of an empty line
    # after a prompt that Rich printed itself.
    def read_line(prompt: Text) -> str:
        discard_typeahead()
        return console.input(prompt)

    return read_line


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


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as indented JSON; an unwritable file stops with exit code 1."""
    try:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc}", code=1)
