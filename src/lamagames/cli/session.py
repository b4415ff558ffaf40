"""Playing one game at the terminal: human seats, bot narration, leaving and records.

Game-agnostic: the game is driven by :func:`lamagames.sim.runner.play_game`; a human seat is
a :class:`TerminalHuman`, a :class:`~lamagames.bots.base.Bot` whose ``step`` asks the
terminal; a :class:`Narrator` observer tells every move through the game's
:class:`~lamagames.cli.views.GameView`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.console import Console, RenderableType
from rich.markdown import Markdown
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from lamagames.bots.base import Bot, make_bot
from lamagames.cli.hint import hint_renderable
from lamagames.cli.i18n import _, kind_name, language_now
from lamagames.cli.views import GameView
from lamagames.cli.warmup import AfterWarmUp, BackgroundWarmUp, HeldNotice, preparing_notice
from lamagames.core.errors import LamaError, quoted
from lamagames.core.game import CHANCE_PLAYER, Game, State
from lamagames.core.records import SeatInfo, record_from_state, save_record
from lamagames.core.rng import game_seed
from lamagames.sim.runner import GameResult, play_game

HUMAN = "human"
#: Words that leave the game at a prompt (``quit`` is a game action in LAMA Dice).
LEAVE_WORDS = frozenset({"q", "exit", "leave"})
HELP_WORDS = frozenset({"?", "h", "help"})
TABLE_WORDS = frozenset({"t", "table"})
RULES_WORDS = frozenset({"rules"})
HINT_WORDS = frozenset({"hint"})
#: The hint with its technical table (exact values, basis).
HINT_DETAILS_WORDS = frozenset({"hint details", "hint --details"})

ReadLine = Callable[[Text], str]


class LeaveGame(Exception):
    """A human left the game (``q``, end of input or Ctrl-C); ``args[0]`` is their name.

    Attributes:
        interrupted: they pressed Ctrl-C (the command then exits with code 130).
    """

    def __init__(self, name: str, *, interrupted: bool = False) -> None:
        super().__init__(name)
        self.interrupted = interrupted


@dataclass(frozen=True, slots=True)
class Reply:
    """What a line typed at a prompt means: exactly one field is set.

    Attributes:
        action: a legal action id.
        command: ``"help"``, ``"table"``, ``"rules"``, ``"hint"``, ``"hint details"`` or
            ``"leave"``.
        problem: why the line was not understood, to show before asking again.
    """

    action: int | None = None
    command: str | None = None
    problem: str | None = None


def interpret(text: str, state: State, player: int, legal: Sequence[int]) -> Reply:
    """Understand a line typed by ``player`` when ``legal`` are the choices.

    Accepts a menu number (1-based), the action in the game's notation, Enter when there is
    only one choice, and the words ``?``/``help``, ``t``/``table``, ``rules``, ``hint``,
    ``hint details``, ``q``/``exit``.

    Args:
        text: the line as typed.
        state: the position (used to parse notation).
        player: the seat answering.
        legal: the legal actions, in menu order (non-empty).

    Returns:
        A :class:`Reply`; never raises for bad input.
    """
    line = text.strip()
    word = line.lower()
    count = len(legal)
    choose = _("Type a number 1-{count} or an action from the menu (? for help).").format(
        count=count
    )
    if not line:
        if count == 1:
            return Reply(action=legal[0])
        return Reply(problem=_("There is more than one choice. {choose}").format(choose=choose))
    if word in HELP_WORDS:
        return Reply(command="help")
    if word in LEAVE_WORDS:
        return Reply(command="leave")
    if word in TABLE_WORDS:
        return Reply(command="table")
    if word in RULES_WORDS:
        return Reply(command="rules")
    if word in HINT_WORDS:
        return Reply(command="hint")
    if " ".join(word.split()) in HINT_DETAILS_WORDS:
        return Reply(command="hint details")
    if line.isascii() and line.isdigit():
        number = int(line)
        if 1 <= number <= count:
            return Reply(action=legal[number - 1])
        return Reply(
            problem=_("There is no choice {number}. {choose}").format(number=number, choose=choose)
        )
    try:
        action = state.string_to_action(line, player)
    except LamaError as exc:
        # The game's own message names what is wrong, in English; other languages say it
        # plainly and list the choices.
        if language_now() == "en":
            return Reply(problem=f"{exc}. {choose}")
        options = ", ".join(state.action_to_string(a, player) for a in legal)
        return Reply(
            problem=_("{text} is not an action of this game. You can: {options}.").format(
                text=quoted(line), options=options
            )
        )
    if action not in legal:
        options = ", ".join(state.action_to_string(a, player) for a in legal)
        return Reply(
            problem=_("{text} is not possible now. You can: {options}.").format(
                text=quoted(line), options=options
            )
        )
    return Reply(action=action)


def menu(
    view: GameView,
    state: State,
    player: int,
    legal: Sequence[int],
    seats: Sequence[SeatInfo] = (),
) -> Table:
    """The numbered menu of legal actions: number, notation, description."""
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold cyan", justify="right")
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for number, action in enumerate(legal, start=1):
        table.add_row(  # Text: names in labels are never read as Rich markup
            str(number),
            Text(state.action_to_string(action, player)),
            Text(view.action_label(state, action, player, seats)),
        )
    return table


#: Log lines a live screen keeps for the latest moves when it chooses the table's layout
#: (fewer are shown when a long menu needs the room: the board comes first).
MIN_LOG_LINES = 2
#: Menu lines above which a live screen keeps no log lines for the table's layout: the
#: table keeps the players' llamas and the footpaths (60x24, German, two long choices).
LONG_MENU_LINES = 3


class Screen:
    """The table of a game at a terminal, drawn for each prompt (views with ``live_board``).

    Live (``live=True``, a terminal tall enough for the compact table): every event
    clears the screen and draws, top to bottom, the title line, the table as seen by
    :attr:`viewer` (laid out to leave room for the rest and :data:`MIN_LOG_LINES` of the
    log, none when the menu is longer than :data:`LONG_MENU_LINES`: the view's renderable
    gets the room as ``options.height``), the last lines of the move log (as many as fit), then at
    a prompt the headline and the menu, and the prompt on the last line. Each move is shown
    once, in the log under the table.

    Scrolling (``live=False``, a terminal too short for that): log lines are printed once,
    as they come; before each prompt the table, the headline (with the die) and the menu
    are printed, so the essentials stand just above the prompt.

    Args:
        view: the game's terminal view.
        seats: names and kinds of all seats.
        console: a terminal console.
        viewer: the seat whose view is drawn between prompts (a human seat).
        live: redraw the whole screen after every event; else scroll as described.
        title: the first line of every live screen (the game, the seats and the seed),
            cut to the width.
    """

    def __init__(
        self,
        view: GameView,
        seats: Sequence[SeatInfo],
        console: Console,
        viewer: int,
        *,
        live: bool = True,
        title: Text | None = None,
    ) -> None:
        self.view = view
        self.seats = list(seats)
        self.console = console
        self.viewer = viewer
        self.live = live
        self.title = title
        self.log: deque[str] = deque(maxlen=200)

    def add(self, lines: Iterable[str]) -> None:
        """Append lines to the move log (and print them in scrolling mode)."""
        lines = list(lines)
        self.log.extend(lines)
        if not self.live:
            for line in lines:
                self.console.print(line, markup=False)

    def event(self, state: State) -> None:
        """After an event: a live screen is drawn again; a scrolling one waits for a prompt."""
        if self.live:
            self.draw(state)

    def _tail(self, lines: Sequence[str], room: int) -> list[Text]:
        """The newest of ``lines`` that fit in ``room`` terminal lines (a long line may
        wrap; none when ``room`` < 1); all but the two newest dimmed."""
        tail: list[Text] = []
        for line in reversed(lines):
            text = Text(line, style="" if len(tail) < 2 else "grey50")
            room -= len(self.console.render_lines(text, pad=False))
            if room < 0:
                break
            tail.insert(0, text)
        return tail

    def draw(
        self,
        state: State,
        *,
        headline: str | None = None,
        below: RenderableType | None = None,
    ) -> None:
        """Draw the table and ``below`` (a menu) under the ``headline``, leaving the last
        line for the prompt: live, on a cleared screen with the title first and the log's
        tail under the table; scrolling, printed after what is on the screen."""
        console = self.console
        table = self.view.render(state, self.seats, viewer=self.viewer)
        if not self.live:
            console.print()
            console.print(table)
            if headline is not None:
                console.rule(Text(headline, style="bold cyan"))
            if below is not None:
                console.print(below)
            return
        used = 1 + (1 if self.title is not None else 0) + (1 if headline is not None else 0)
        menu = 0 if below is None else len(console.render_lines(below, pad=False))
        used += menu
        log = 0 if menu > LONG_MENU_LINES else MIN_LOG_LINES
        room = max(1, console.height - used - log)
        options = console.options.update(height=room)
        # Counted from render() (render_lines would pad the table to the room's height).
        used += sum(
            1
            for _ in Segment.split_and_crop_lines(
                console.render(table, options), options.max_width, pad=False
            )
        )
        tail = self._tail(list(self.log), console.height - used)
        console.clear()
        if self.title is not None:
            console.print(self.title, no_wrap=True, overflow="ellipsis")
        console.print(table, height=room)
        for text in tail:
            console.print(text)
        if headline is not None:
            console.rule(Text(headline, style="bold cyan"))
        if below is not None:
            console.print(below)


class TerminalHuman(Bot):
    """A seat played by a person at this terminal (several make a hotseat game).

    Args:
        game: the game.
        seat: the seat.
        view: the game's terminal view.
        seats: names and kinds of all seats.
        console: where to draw.
        read_line: reads one line after showing a prompt; raises ``EOFError`` at end of
            input and ``KeyboardInterrupt`` on Ctrl-C (both leave the game).
        screen: the live table, if the game is drawn live (see :class:`Screen`).
        warm_up: the bots' compiling in the background, waited for before a hint.
        notice: the bots' notice of the compiled code being prepared, left at this
            seat's turn (one steady notice per run of bot decisions, issue 19).
    """

    kind = HUMAN

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        view: GameView,
        seats: Sequence[SeatInfo],
        console: Console,
        read_line: ReadLine,
        screen: Screen | None = None,
        warm_up: BackgroundWarmUp | None = None,
    ) -> None:
        super().__init__(game, seat)
        self.view = view
        self.seats = list(seats)
        self.console = console
        self.read_line = read_line
        self.screen = screen
        self.warm_up = warm_up
        self.notice: HeldNotice | None = None

    def _working_out_the_hint(self) -> None:
        """Say that the hint is being worked out (an exact solve can take seconds)."""
        self.console.print(Text(_("Working out the hint..."), style="dim"))

    def _show(self, state: State, legal: Sequence[int], *, full: bool = True) -> None:
        choices = menu(self.view, state, self.seat, legal, self.seats)
        headline = self.view.headline(state, self.seats, self.seat)
        if self.screen is not None:
            self.screen.viewer = self.seat
            self.screen.draw(state, headline=headline, below=choices)
            return
        if full:
            self.console.print()
            self.console.rule(Text(headline, style="bold cyan"))
            self.console.print(self.view.render(state, self.seats, viewer=self.seat))
        else:
            self.console.print(self.view.render_focus(state, self.seats, self.seat))
        self.console.print()
        self.console.print(choices)

    def _follows_own_move(self, state: State) -> bool:
        """True when the last two actions were this seat's and then one chance event."""
        history = state.history()
        return len(history) >= 2 and history[-1][0] == CHANCE_PLAYER and history[-2][0] == self.seat

    def step(self, state: State) -> int:
        """Show the table and the menu, and ask until the answer is a legal action.

        Raises:
            LeaveGame: the person typed ``q``, closed the input or pressed Ctrl-C.
        """
        if self.notice is not None:  # the person's turn: the bots' notice goes
            self.notice.release()
        legal = state.legal_actions(self.seat)
        self._show(state, legal, full=not self._follows_own_move(state))
        keys = _("(Enter = 1, ? help, q leave)") if len(legal) == 1 else _("(? help, q leave)")
        prompt = Text(f"{self.seats[self.seat].name} > ", style="bold")
        prompt.append(f"{keys} ", style="grey50")
        while True:
            try:
                line = self.read_line(prompt)
            except (EOFError, KeyboardInterrupt) as exc:
                self.console.print()
                interrupted = isinstance(exc, KeyboardInterrupt)
                raise LeaveGame(self.seats[self.seat].name, interrupted=interrupted) from None
            reply = interpret(line, state, self.seat, legal)
            if reply.action is not None:
                return reply.action
            if reply.command == "leave":
                raise LeaveGame(self.seats[self.seat].name)
            if reply.command == "help":
                self.console.print(Markdown(self.view.help_text()))
            elif reply.command == "rules":
                self.console.print(Markdown(self.view.rules_text()))
            elif reply.command == "table":
                self._show(state, legal)
            elif reply.command in ("hint", "hint details"):
                if self.warm_up is not None:  # the hint may use the same compiled code
                    self.warm_up.wait(preparing_notice(self.console))
                advice = hint_renderable(
                    self.view.game_id,
                    state,
                    self.seat,
                    working=self._working_out_the_hint,
                    details=reply.command == "hint details",
                )
                self.console.print(advice)
            else:
                self.console.print(Text(reply.problem or "", style="yellow"))


class Narrator:
    """Observer for :func:`play_game` that prints the view's narration of each move.

    Keeps a copy of the last consistent position in :attr:`last` (used to save the record
    when someone leaves).

    Args:
        view: the game's terminal view.
        seats: names and kinds of all seats.
        console: where to print.
        initial: the game's initial state.
        delay: seconds to pause after a narrated move that no human made.
        screen: the table at a terminal: lines go to its log (see :class:`Screen`);
            ``None``: lines are printed.
    """

    def __init__(
        self,
        view: GameView,
        seats: Sequence[SeatInfo],
        console: Console,
        initial: State,
        delay: float = 0.0,
        screen: Screen | None = None,
    ) -> None:
        self.view = view
        self.seats = list(seats)
        self.console = console
        self.delay = delay
        self.screen = screen
        self.last = initial.clone()

    def __call__(self, state: State, player: int, action: int) -> None:
        """Narrate ``action`` by ``player`` (-1: chance) that led to ``state``."""
        lines = self.view.narrate(self.last, player, action, state, self.seats)
        self.last = state.clone()
        if self.screen is not None:
            self.screen.add(lines)
            self.screen.event(state)
        else:
            for line in lines:
                self.console.print(line, markup=False)
        by_human = player >= 0 and self.seats[player].kind == HUMAN
        if lines and self.delay > 0 and not by_human:
            time.sleep(self.delay)


def default_record_path(game_id: str, directory: Path | None = None) -> Path:
    """A new file name ``lama-<game>-<YYYYmmdd-HHMMSS>.lamarec.json`` in ``directory``
    (default: the current directory), with ``-2``, ``-3``... added if it exists."""
    folder = directory if directory is not None else Path.cwd()
    stem = f"lama-{game_id}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    path = folder / f"{stem}.lamarec.json"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.lamarec.json"
        n += 1
    return path


@dataclass(frozen=True, slots=True)
class Terminal:
    """Where and how :func:`run_table` shows the table and reads human input.

    Attributes:
        console: where to draw.
        read_line: line input for human seats (see :class:`TerminalHuman`).
        delay: seconds to pause after each bot move or roll.
        live: draw the table again after every event (:class:`Screen`, meant for a
            terminal console); only with a human seat.
        scrolling: (without ``live``) a terminal too short for the table: moves are
            printed as they come and before each prompt the table, the headline and the
            menu (:class:`Screen` with ``live=False``); only with a human seat.
        intro: first lines of a live screen's log (the caller prints them otherwise).
        title: the first line of every live screen (the caller prints it otherwise).
    """

    console: Console
    read_line: ReadLine
    delay: float = 0.0
    live: bool = False
    scrolling: bool = False
    intro: Sequence[str] = ()
    title: Text | None = None


@dataclass(slots=True)
class TableOutcome:
    """How a game at the terminal ended.

    Attributes:
        state: the last position (terminal unless the game was stopped).
        result: the finished game, or ``None`` if it was stopped first.
        record_path: where the record was saved, or ``None``.
        stopped: why the game stopped early (``"Ann left the game."``), else ``None``.
        interrupted: it was stopped with Ctrl-C (at a prompt or during bot moves).
    """

    state: State
    result: GameResult | None
    record_path: Path | None
    stopped: str | None = None
    interrupted: bool = False


def run_table(
    view: GameView,
    game: Game,
    seats: Sequence[SeatInfo],
    *,
    seed: int,
    terminal: Terminal,
    game_index: int | None = None,
    record_path: Path | None = None,
    warm_up: BackgroundWarmUp | None = None,
) -> TableOutcome:
    """Play one game with humans and/or bots, narrating every move.

    The game is played with ``game_seed(seed, game_index)`` (``seed`` itself without a
    ``game_index``): bots are ``make_bot(kind, game, seat, that seed)`` and chance uses it
    as in :func:`play_game`, so a bot-only game here with index ``i`` equals game ``i`` of
    a batch with the same seed. The record stores ``seed`` and ``game_index``.

    Args:
        view: the game's terminal view.
        game: the game (``game.num_players == len(seats)``).
        seats: name and kind (``human`` or a bot kind) per seat.
        seed: the seed shown to people (the root seed of ``lama play``).
        terminal: where and how the table is shown and input read (:class:`Terminal`).
        game_index: the game's index under ``seed`` (``lama play``: 0), or ``None`` to
            play with ``seed`` itself.
        record_path: where to save the record (also when someone leaves); ``None``: don't.
            A game left (Ctrl-C, ``q``, end of input) before any player's move is not
            saved (``TableOutcome.record_path`` is ``None``, ``stopped`` says so).
        warm_up: the compiled bots' warm-up, started by the caller (``lama play`` starts it
            before it checks the seats' bots, issue 19); ``None``: started here. Either way
            it is closed when the game ends or a bot cannot be made.

    Raises:
        ParameterError: an unknown bot kind.
        OSError: the record could not be written.
    """
    console, read_line, delay = terminal.console, terminal.read_line, terminal.delay
    live, scrolling, intro, title = (
        terminal.live,
        terminal.scrolling,
        terminal.intro,
        terminal.title,
    )
    play_seed = seed if game_index is None else game_seed(seed, game_index)
    humans = [seat for seat, info in enumerate(seats) if info.kind == HUMAN]
    # Compiled bots are prepared in the background from now on (on a cold cache with a
    # helper process), first of all: making the bots below imports their code, about half a
    # second the compile need not wait for. Their first move waits for it (with a spinner)
    # instead of compiling in front of the players, or is made interpreted (issue 19).
    if warm_up is None:
        warm_up = BackgroundWarmUp(game, [info.kind for info in seats], play_seed)
    try:
        screen: Screen | None = None
        if humans and (live or scrolling):
            screen = Screen(view, seats, console, humans[0], live=live, title=title)
            if live:
                screen.add(intro)
        bots: list[Bot] = []
        humans_at: dict[int, TerminalHuman] = {}
        for seat, info in enumerate(seats):
            if info.kind == HUMAN:
                human = TerminalHuman(
                    game,
                    seat,
                    view=view,
                    seats=seats,
                    console=console,
                    read_line=read_line,
                    screen=screen,
                )
                humans_at[seat] = human
                bots.append(human)
            else:
                bots.append(make_bot(info.kind, game, seat, play_seed))
    except BaseException:  # a bot that cannot be made: no helper process left behind
        warm_up.close()
        raise
    # One notice for the bots' decisions while the code is being prepared: on from the
    # first slow one, off at a person's turn or once all the code is ready (issue 19: per
    # decision it flashed 63 times in 13 s with six `search` seats).
    notice = HeldNotice(preparing_notice(console))
    warm_up.later_then.append(notice.release)
    for seat, info in enumerate(seats):
        if seat in humans_at:
            humans_at[seat].warm_up = warm_up
            humans_at[seat].notice = notice
        elif info.kind in warm_up.kinds:
            bots[seat] = AfterWarmUp(bots[seat], warm_up, notice)
    narrator = Narrator(view, seats, console, game.new_initial_state(), delay, screen)
    result: GameResult | None = None
    stopped: str | None = None
    interrupted = False
    try:
        with hangup_as_interrupt():
            result = play_game(game, bots, play_seed, observer=narrator, prepare=True)
        state = result.state
    except LeaveGame as leave:
        stopped = _("{name} left the game.").format(name=leave.args[0])
        interrupted = leave.interrupted
        state = narrator.last
    except KeyboardInterrupt:
        console.print()
        stopped = _("The game was interrupted.")
        interrupted = True
        state = narrator.last
    finally:
        notice.release()
        warm_up.close()  # its helper process, if one still compiles, is stopped
    record = record_from_state(state, list(seats), seed=seed, game_index=game_index)
    if stopped is not None and not any(entry.player >= 0 for entry in record.actions):
        # Left (Ctrl-C, q, end of input) before anyone moved: nothing worth replaying, so
        # no file (issue 19: an empty record was written, under a default name the person
        # never asked for; a trial then found q and Ctrl-C treated differently).
        stopped = f"{stopped} " + _("No move was played: no record was written.")
        record_path = None
    if record_path is not None:
        try:
            save_record(record, record_path)
        except OSError as exc:
            # Never lose a played game: fall back to the temporary folder and say so.
            fallback = Path(tempfile.gettempdir()) / record_path.name
            console.print(
                _("Cannot write {path} ({reason}); saving to {fallback}.").format(
                    path=record_path, reason=exc.strerror or exc, fallback=fallback
                ),
                markup=False,
                soft_wrap=True,
            )
            save_record(record, fallback)
            record_path = fallback
    return TableOutcome(
        state=state,
        result=result,
        record_path=record_path,
        stopped=stopped,
        interrupted=interrupted,
    )


@contextlib.contextmanager
def hangup_as_interrupt() -> Iterator[None]:
    """While the block runs, a hang-up (``SIGHUP``: the terminal window was closed) or a
    ``SIGTERM`` ends the game as Ctrl-C does, so its record is saved (issue 19 trial:
    closing the window lost the game, only ``q`` and Ctrl-C saved it). The terminal is gone
    by then, so standard output and error are sent to ``/dev/null`` first: the goodbye
    lines cannot fail before the record is written. Outside the main thread, or where the
    platform has no ``SIGHUP``, nothing changes."""
    wanted = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread() or not wanted:
        yield
        return

    def hang_up(number: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            quiet = os.open(os.devnull, os.O_WRONLY)
            for fd in (1, 2):
                os.dup2(quiet, fd)
            os.close(quiet)
        raise KeyboardInterrupt(signal.Signals(number).name)

    before = {number: signal.signal(number, hang_up) for number in wanted}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def seats_line(seats: Iterable[SeatInfo]) -> str:
    """The seats of a game's header, ``"Ann (human), Bot 2 (Clever)"``, in the terminal's
    language (:func:`~lamagames.cli.i18n.kind_name`): ``human`` translated (``Mensch``),
    bot kinds by their display names (issue 19: both printed as typed in every language)."""
    return ", ".join(f"{s.name} ({kind_name(s.kind)})" for s in seats)


def seats_text(head: Text, seats: Sequence[SeatInfo], width: int) -> Text:
    """``head`` followed by the seats (:func:`seats_line`), wrapped at ``width`` columns
    between two seats, never inside one (``Bot 3`` / ``(Steady)`` on two lines, issue 19
    trial at 60 columns); a seat wider than ``width`` alone is left to the terminal."""
    out = head.copy()
    used = out.cell_len
    entries = [f"{s.name} ({kind_name(s.kind)})" for s in seats]
    for index, entry in enumerate(entries):
        piece = entry + ("," if index < len(entries) - 1 else "")
        if index and used + 1 + len(piece) > width:
            out.append("\n")
            used = 0
        elif index:
            out.append(" ")
            used += 1
        out.append(piece)
        used += len(piece)
    return out


def winners_line(state: State, seats: Sequence[SeatInfo]) -> str:
    """``"Winner: Ann"`` / ``"Winners: Ann and Bob"`` from the returns, or no winner."""
    winners = [seats[i].name for i, r in enumerate(state.returns()) if r > 0]
    if not state.is_terminal():
        return _("The game was not finished.")
    if not winners:
        return _("No winner: the game was cut short.")
    if len(winners) == 1:
        return _("Winner: {name}").format(name=winners[0])
    listed = _(" and ").join(winners)
    return _("Winners: {names}").format(names=listed)
