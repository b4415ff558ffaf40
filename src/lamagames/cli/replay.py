"""Stepping through a recorded game at the terminal (``lama replay``). Game-agnostic."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from lamagames.cli.common import INTERRUPTED, fail, read_line_from, stdout
from lamagames.cli.i18n import LANG_HELP, _, label, ngettext, use_language
from lamagames.cli.session import seats_text, winners_line
from lamagames.cli.views import GameView, get_view
from lamagames.core.errors import RecordError, quoted
from lamagames.core.files import read_json_file
from lamagames.core.game import CHANCE_PLAYER, State
from lamagames.core.i18n import mark as _mark
from lamagames.core.records import GameRecord, iter_replay, validate_record

REPLAY_HELP = _mark(
    "n or Enter: next · p: previous · j N: jump to step N (beyond the end: the end) · "
    "s: start · e: end · q: quit"
)


def replay_help(width: int | None = None) -> str:
    """:data:`REPLAY_HELP` in the chosen language; with ``width`` (in columns) wrapped
    between two keys, never inside one (``j N: zu Schritt N`` / ``springen`` at 60)."""
    text = _(REPLAY_HELP)
    if width is None:
        return text
    lines: list[str] = []
    for key in text.split(" · "):
        if lines and len(lines[-1]) + 3 + len(key) <= width:
            lines[-1] += " · " + key
        else:
            lines.append(key)
    return "\n".join(lines)


#: Full words people type for the one-letter replay commands (``next``, ``jump 5``...).
_REPLAY_WORDS = {"next": "n", "previous": "p", "prev": "p", "back": "p", "jump": "j",
                 "start": "s", "end": "e"}  # fmt: skip


@dataclass(slots=True)
class LoadedReplay:
    """A record with every position replayed.

    Attributes:
        record: the validated record.
        view: the game's terminal view.
        states: ``states[i]`` is the position after ``i`` actions (``states[0]``: start).
    """

    record: GameRecord
    view: GameView
    states: list[State]

    @property
    def last(self) -> int:
        """Number of recorded actions (the index of the final position)."""
        return len(self.states) - 1


def load_replay(path: Path) -> LoadedReplay:
    """Read, validate and replay a record file.

    Raises:
        RecordError: ``FILE: <reason>``: unreadable file (missing, a folder, not UTF-8),
            bad JSON or fields, a game without a terminal view, or an entry that does not
            replay (the message names ``actions[i]``).
    """
    try:
        record = validate_record(read_json_file(path, RecordError))
        try:
            view = get_view(record.game)
        except ValueError as exc:
            raise RecordError(f"record header: {exc}") from None
        states = list(iter_replay(record))
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}", exc.index) from None
    return LoadedReplay(record=record, view=view, states=states)


def render_position(
    replay: LoadedReplay, index: int, *, board_first: bool = False
) -> RenderableType:
    """The position after ``index`` actions, with the action that led to it and its story.

    ``board_first``: the board comes first and the step line with the story last (for a
    terminal too short for both, so the step line stays above the prompt).

    Raises:
        IndexError: ``index`` is not in ``0 .. replay.last``.
    """
    if not 0 <= index <= replay.last:
        raise IndexError(index)
    record = replay.record
    seats = record.seats
    state = replay.states[index]
    parts: list[RenderableType] = []
    head = Text(_("Step {index}/{last}").format(index=index, last=replay.last), style="bold")
    if index == 0:
        head.append(" · " + _("start of the game"))
    else:
        entry = record.actions[index - 1]
        before = replay.states[index - 1]
        action = state.history()[-1][1]
        if entry.player == CHANCE_PLAYER:  # dice, deals: in words, as the story is told
            head.append(" · " + label(_("chance")), style="")
            head.append(replay.view.outcome_words(before, action, seats), style="cyan")
        else:  # a move: the notation people type
            head.append(" · " + label(seats[entry.player].name), style="")
            head.append(entry.action, style="bold cyan")
        for line in replay.view.narrate(before, entry.player, action, state, seats):
            parts.append(Text(line))
    parts.insert(0, head)
    board = replay.view.render(state, seats)
    if board_first:
        parts.insert(0, board)
    else:
        parts.append(board)
    if index == replay.last and state.is_terminal():
        parts.append(Text(winners_line(state, seats), style="bold green"))
    return Group(*parts)


def _fits(console: Console, renderable: RenderableType) -> bool:
    """Whether ``renderable`` and a prompt line fit on the screen of ``console`` (always
    true off a terminal, where nothing scrolls away)."""
    if not console.is_terminal:
        return True
    return len(console.render_lines(renderable, pad=False)) < console.height


def browse(
    replay: LoadedReplay,
    console: Console,
    read_line: Callable[[Text], str],
    start: int = 0,
) -> None:
    """Step through a replay interactively until ``q`` or end of input.

    Raises:
        KeyboardInterrupt: Ctrl-C (after a new line), for the caller's exit code.
    """
    index = start
    show = True
    while True:
        if show:
            console.print()
            shown = render_position(replay, index)
            if not _fits(console, shown):  # the step line and story stay above the prompt
                shown = render_position(replay, index, board_first=True)
            console.print(shown)
        show = True
        try:
            line = read_line(
                Text("replay> ", style="bold") + Text(_("(? for keys)") + " ", style="grey50")
            )
            line = line.strip().lower()
        except EOFError:
            console.print()
            return
        except KeyboardInterrupt:
            console.print()
            raise
        word, _space, rest = line.partition(" ")
        line = _REPLAY_WORDS.get(word, word) + (f" {rest}" if rest else "")  # full words too
        if line in ("", "n"):
            if index == replay.last:
                console.print(_("That was the last step (q quits, p goes back)."))
                show = False
            else:
                index += 1
        elif line == "p":
            if index == 0:
                console.print(_("This is the start (n goes forward)."))
                show = False
            else:
                index -= 1
        elif line == "s":
            index = 0
        elif line == "e":
            index = replay.last
        elif line in ("q", "quit", "exit"):
            return
        elif line in ("?", "h", "help"):
            console.print(replay_help(console.width))
            show = False
        elif line.startswith("j"):
            arg = line[1:].strip()
            if arg.isascii() and arg.isdigit():  # beyond the end: the end
                index = min(int(arg), replay.last) if len(arg) < 10 else replay.last
            else:
                console.print(
                    _("Jump to a step 0-{last}, e.g. 'j {middle}'.").format(
                        last=replay.last, middle=replay.last // 2
                    )
                )
                show = False
        else:
            console.print(
                _("Unknown command {text}. {keys}").format(text=quoted(line), keys=replay_help())
            )
            show = False


# ---------------------------------------------------------------- the command


def _seed_words(record: GameRecord) -> str:
    """`` · seed 7`` (the seed ``lama play --seed`` takes to play the game again), with
    `` · game N`` for a later game of that seed; empty without a seed."""
    if record.seed is None:
        return ""
    game = " · " + _("game {n}").format(n=record.game_index + 1) if record.game_index else ""
    return " · " + _("seed {seed}").format(seed=record.seed) + game


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
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)] = None,
) -> None:
    """Check a game record and step through it (n next, p previous, j N jump, e end, q quit)."""
    use_language(lang)  # --lang, else the locale (LC_ALL / LC_MESSAGES / LANG)
    if final and to is not None:
        raise typer.BadParameter("give --to N or --final, not both", param_hint="--final")
    if not file_name.strip():
        fail("no file name given")
    try:
        loaded = load_replay(Path(file_name))
    except RecordError as exc:  # FILE: <reason>
        fail(str(exc))
    if to is not None and to > loaded.last:  # checked before anything is printed
        raise typer.BadParameter(
            f"the record has {loaded.last} actions; choose 0 to {loaded.last}",
            param_hint="--to",
        )
    out = stdout()
    record = loaded.record
    head = seats_text(Text(label(loaded.view.title), style="bold"), record.seats, out.width)
    tail = ngettext("{n} action", "{n} actions", loaded.last).format(n=loaded.last)
    tail += _seed_words(record)
    if len(head.plain.rsplit("\n", 1)[-1]) + 3 + len(tail) <= out.width:
        out.print(head + Text(" · " + tail, style="grey50"))
    else:  # a line of its own rather than "seed" and its number apart (issue 19)
        out.print(head)
        out.print(Text(tail, style="grey50"))
    if final or to is not None:
        out.print(render_position(loaded, loaded.last if to is None else to))
        return
    try:
        browse(loaded, out, read_line_from(out))
    except KeyboardInterrupt:
        raise typer.Exit(INTERRUPTED) from None
