"""``lama play``: play a game with people and/or bots, or simulate many bot games.

Knows no game: the game's options come from its spec (:mod:`lamagames.cli.options`), its
drawing and words from its terminal view, its batch figures from its statistics hook.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from lamagames import prestart
from lamagames.bots.base import bot_kinds
from lamagames.cli.common import (
    INTERRUPTED,
    fail,
    game_argument,
    output_path,
    parse_seed,
    progress_bar,
    read_line_from,
    stderr,
    stdout,
    suggest_instead,
    write_json,
)
from lamagames.cli.i18n import LANG_HELP, _, label, ngettext, use_language
from lamagames.cli.options import (
    apply_game_options,
    check_bots,
    check_game_options,
    check_params,
    game_view,
    make_game,
    parse_names,
    parse_params,
    parse_seats,
)
from lamagames.cli.session import (
    HUMAN,
    Terminal,
    default_record_path,
    run_table,
    seats_line,
    seats_text,
    winners_line,
)
from lamagames.cli.summary import summary_dict, summary_table
from lamagames.cli.typeahead import TypeAheadGuard
from lamagames.cli.views import GameView, complete_game, view_ids
from lamagames.cli.warmup import BackgroundWarmUp, compile_notice, warm_bots
from lamagames.core.game import Game
from lamagames.core.records import SeatInfo, record_from_state, save_record
from lamagames.core.rng import game_seed
from lamagames.sim.runner import GameResult
from lamagames.sim.stats import BatchSummary, StatsCollector, play_batch, stats_hook

#: Pause after each bot move when a person is at the table, seconds.
HUMAN_DELAY = 0.4
#: Fewest terminal lines for drawing the table live (views with ``live_board``): Lama
#: Express's compact table (8 lines of cells on 80 columns) with its menu and prompt.
MIN_LIVE_HEIGHT = 20

_SEAT_KINDS = "; ".join(f"{g}: {', '.join(bot_kinds(g))}" for g in view_ids())
_GAMES_PANEL = "Several games (bots only)"
#: ``--players-names`` and ``--player-names``: hidden spellings of ``--names`` kept for old
#: scripts; a typo close to them is answered with ``--names`` (issue 19).
suggest_instead("--names", "--players-names", "--player-names")


def _known_game(value: str) -> str:
    """``GAME`` read and checked while the arguments are parsed: an unknown game (with a
    close known one suggested) is the error reported before a missing ``--seats``
    (``lama play dise`` said ``Missing option '--seats'``, issue 19).

    Raises:
        typer.BadParameter: unknown game.
    """
    game = game_argument(value)
    game_view(game)
    return game


def play(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME",
            help="The game: " + ", ".join(view_ids()) + ".",
            autocompletion=complete_game,
            callback=_known_game,
        ),
    ],
    seats: Annotated[
        str,
        typer.Option(
            "--seats",
            "-s",
            metavar="KINDS",
            help=f"Seats in turn order: human or a bot kind ({_SEAT_KINDS}). "
            "Example: human,benchmark,random. A kind whose optional packages are not "
            "installed is refused with the pip command that installs them.",
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
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)] = None,
    players_names: Annotated[
        str | None, typer.Option("--players-names", "--player-names", hidden=True)
    ] = None,
    game_options: dict[str, Any] | None = None,
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
    use_language(lang)  # --lang, else the locale (LC_ALL / LC_MESSAGES / LANG)
    game = game_argument(game)  # DICE, Express: as the seat kinds
    view = game_view(game)
    kinds = parse_seats(seats, game)
    record = output_path(record_name, "--record")
    summary_json = output_path(summary_name, "--summary-json")
    root_seed = parse_seed(seed)
    params = parse_params(param or [])
    check_params(game, params)
    given = dict(game_options or {})
    if starting_seat is not None:
        given["--starting-seat"] = starting_seat
    check_game_options(game, list(given))
    humans = HUMAN in kinds
    given.pop("--starting-seat", None)
    apply_game_options(game, given, params, humans=humans)
    if not humans:
        for key, value in view.bots_only_params().items():
            params.setdefault(key, value)
    if starting_seat is not None:
        if starting_seat > len(kinds):
            raise typer.BadParameter(
                f"there are {len(kinds)} seats, got {starting_seat}", param_hint="--starting-seat"
            )
        params["starting_seat"] = starting_seat - 1
    the_game = make_game(game, kinds, params)
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
    collector = StatsCollector(the_game, kinds, stats_hook(game))
    at_table = humans or (games == 1 and not quiet)
    # Compiled bots are prepared from now on (issue 19): checking the seats' bots imports
    # their code, about a third of a second the compile and its helper process need not
    # wait for. The table closes the warm-up at the game's end, the ``finally`` when the
    # game does not start (a seat's bot cannot play).
    warm_up = BackgroundWarmUp(the_game, kinds, game_seed(root_seed, 0)) if at_table else None
    if warm_up is None or not warm_up.kinds:  # nothing compiles: the early helper goes
        prestart.discard()
    try:
        check_bots(the_game, kinds, root_seed)
        if warm_up is not None:
            pause = delay if delay is not None else (HUMAN_DELAY if humans else 0.0)
            if record is None and humans:
                record = default_record_path(game)
            summary, stopped, interrupted = _play_at_table(
                view, the_game, seat_infos, root_seed, collector, pause, record, warm_up
            )
        else:
            summary, interrupted = _simulate(
                view, the_game, seat_infos, root_seed, collector, games, record
            )
            stopped = interrupted
    finally:
        if warm_up is not None:
            warm_up.close()
    if summary_json is not None:
        write_json(summary_json, summary_dict(summary, games, stopped))
        stdout().print(
            _("Summary written to {path}").format(path=summary_json), markup=False, soft_wrap=True
        )
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
    warm_up: BackgroundWarmUp,
) -> tuple[BatchSummary, bool, bool]:
    """One game told move by move, with prompts for human seats: its summary (of no game
    if it was stopped), whether it was stopped before its end (``q``, end of input,
    Ctrl-C) and whether it was stopped with Ctrl-C.

    With a person at a terminal and a view with ``live_board``, the table is drawn again
    after every event (:class:`~lamagames.cli.session.Screen`), under the title line; on a
    terminal shorter than :data:`MIN_LIVE_HEIGHT` lines the moves are printed as they come
    and the table before each prompt, followed by the headline and the menu. Keys typed
    while bots play are neither echoed nor read (:class:`TypeAheadGuard`)."""
    out = stdout()
    intro = (
        Text(label(view.title), style="bold")
        + Text(seats_line(seats))
        + Text(" · " + _("seed {seed}").format(seed=seed), style="grey50")
    )
    humans = any(s.kind == HUMAN for s in seats)
    at_terminal = humans and view.live_board and out.is_terminal
    live = at_terminal and out.height >= MIN_LIVE_HEIGHT
    if not live:  # a live screen has the title as its first line
        # wrapped between seats, never inside one (``Bot 3`` / ``(Caso)`` at 60 columns),
        # the seed on a line of its own rather than apart from its number (issue 19)
        head = seats_text(Text(label(view.title), style="bold"), seats, out.width)
        seed_words = _("seed {seed}").format(seed=seed)
        if len(head.plain.rsplit("\n", 1)[-1]) + 3 + len(seed_words) <= out.width:
            out.print(head + Text(" · " + seed_words, style="grey50"))
        else:
            out.print(head)
            out.print(Text(seed_words, style="grey50"))
        if humans:
            out.print(Text(_("Type ? at a prompt for help, q to leave."), style="grey50"))
    started = time.perf_counter()
    # Keys typed while bots play are not echoed and never answer a prompt (issue 19).
    guard = TypeAheadGuard()
    try:
        with guard.active():
            outcome = run_table(
                view,
                game,
                seats,
                seed=seed,
                terminal=Terminal(
                    out,
                    guard.wrap(read_line_from(out)),
                    delay=delay,
                    live=live,
                    scrolling=at_terminal and not live,
                    title=intro,
                ),
                game_index=0,
                record_path=record,
                warm_up=warm_up,
            )
    except OSError as exc:
        fail(f"cannot write the record {record}: {exc}", code=1)
    seconds = time.perf_counter() - started
    out.print()
    if outcome.result is None:
        out.print(Text(outcome.stopped or _("The game stopped."), style="bold yellow"))
    else:
        if not live:  # a live screen shows the final table already
            out.print(view.render(outcome.state, seats))
        out.print(Text(winners_line(outcome.state, seats), style="bold green"))
        collector.add(outcome.result)
    if outcome.record_path is not None:
        out.print(
            _("Record saved to {path}").format(path=outcome.record_path),
            markup=False,
            soft_wrap=True,
        )
        out.print(
            Text(
                _("Replay it with: {command}").format(command=f"lama replay {outcome.record_path}"),
                style="grey50",
            ),
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
    err = stderr()
    progress = progress_bar(_("Playing"), err, remaining=False)
    task = progress.add_task("games", total=games)
    last: list[GameResult] = []

    def on_game(index: int, result: GameResult) -> None:
        progress.advance(task)
        last[:] = [result]

    started = time.perf_counter()
    interrupted = False
    kinds = [s.kind for s in seats]
    try:
        with compile_notice(err):  # the bots' compiled code, before the bar (issue 19)
            warm_bots(game, kinds, seed)
        started = time.perf_counter()  # the games' time, without the compile
        with progress:
            play_batch(game, kinds, games=games, seed=seed, collector=collector, on_game=on_game)
    except KeyboardInterrupt:
        interrupted = True
        err.print(
            Text(
                ngettext(
                    "Interrupted (Ctrl-C) after {done} of {n} game; "
                    "the summary covers the finished games.",
                    "Interrupted (Ctrl-C) after {done} of {n} games; "
                    "the summary covers the finished games.",
                    games,
                ).format(done=collector.games, n=games),
                style="bold yellow",
            ),
            soft_wrap=True,
        )
    summary = collector.summary(time.perf_counter() - started, seed)
    out = stdout()
    out.print(summary_table(summary, view.title))
    if record is not None and last:  # a single game (checked by the caller)
        try:
            game_record = record_from_state(last[0].state, seats, seed=seed, game_index=0)
            save_record(game_record, record)
        except OSError as exc:
            fail(f"cannot write the record {record}: {exc}", code=1)
        out.print(_("Record saved to {path}").format(path=record), markup=False, soft_wrap=True)
    return summary, interrupted
