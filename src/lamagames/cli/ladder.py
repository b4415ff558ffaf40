"""``lama ladder GAME``: a rated round robin of the game's bot kinds (see
:mod:`lamagames.sim.ladder`), shown as a Rich table, optionally plotted and saved as JSON.

Imports no game package.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from lamagames.bots.base import bot_kinds
from lamagames.cli.common import (
    PLAYER_COUNT_PARAMS,
    check_player_counts,
    fail,
    game_argument,
    output_path,
    parse_seed,
    progress_bar,
    refuse_option_params,
    stderr,
    stdout,
    write_json,
)
from lamagames.cli.options import parse_params
from lamagames.cli.views import complete_game
from lamagames.cli.warmup import compile_notice, warm_bots
from lamagames.core.errors import LamaError
from lamagames.core.extras import require
from lamagames.core.registry import make
from lamagames.core.spec import get_spec
from lamagames.sim.ladder import (
    LADDER_EXTRA,
    PLOT_SUFFIXES,
    LadderResult,
    games_per_table,
    ladder_games,
    plot_ladder,
    require_ladder,
    run_ladder,
    separated,
)


def ladder_table(result: LadderResult, n: int) -> Table:
    """The Rich table of one player count: rank, kind, mu, 95% interval, whether that
    interval lies wholly above the next kind's, games, wins, mean finishing rank."""
    table = Table(
        title=f"{result.game}, {n} players, {games_per_table(result.games_per_table)}",
        caption="95% interval: mu +- 1.96 sigma (OpenSkill Plackett-Luce, tau 0, gamma 1)\n"
        "vs next: 'above' when the interval clears the next kind's",
        caption_justify="left",
    )
    for name in ("#", "kind", "mu", "95% interval", "vs next", "games", "wins", "mean rank"):
        table.add_column(name, justify="left" if name in ("kind", "vs next") else "right")
    ratings = result.ratings[n]
    for i, (r, above) in enumerate(zip(ratings, separated(ratings), strict=True), start=1):
        table.add_row(
            str(i),
            r.kind,
            f"{r.mu:.1f}",
            f"{r.ci_low:.1f} .. {r.ci_high:.1f}",
            "above" if above else ("overlaps" if i < len(ratings) else ""),
            str(r.games),
            str(r.wins),
            f"{r.mean_rank:.2f}",
        )
    return table


def ladder(
    game: Annotated[
        str, typer.Argument(help="Game id, e.g. dice or express.", autocompletion=complete_game)
    ],
    players: Annotated[
        list[int] | None,
        typer.Option(
            "--players", "-n", help="Player count, repeatable (default: the game's least).", min=2
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-g", help="Games per table of kinds.", min=1)
    ] = 4,
    kinds: Annotated[
        str | None,
        typer.Option("--kinds", help="Bot kinds, comma-separated (default: all of the game)."),
    ] = None,
    seed: Annotated[str | None, typer.Option("--seed", help="Root seed (default random).")] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="Game parameter KEY=VALUE (repeatable)."),
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option("--plot", help="Save a plot of the ratings (.png, .svg or .pdf)."),
    ] = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write the ratings as JSON to this file.")
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", help="Processes playing games (ratings do not depend on it).", min=1
        ),
    ] = 1,
) -> None:
    """Rate the game's bot kinds in a round robin per player count (OpenSkill).

    Each table of kinds plays --games games, seats rotating (docs/bots.md). Example:

    lama ladder dice --players 3 --games 4 --plot ladder.png --json ladder.json
    """
    game = game_argument(game)  # DICE, Express: as lama play
    try:
        get_spec(game)
        info = make(game).info
        counts = players or [info.min_players]
        check_player_counts(counts, info.min_players, info.max_players, info.long_name)
        require_ladder()  # openskill, before any game is played
        if plot is not None:
            require("--plot", ("matplotlib",), LADDER_EXTRA)
    except LamaError as exc:
        fail(str(exc))
    root_seed = parse_seed(seed)
    plot_path = output_path(plot, "--plot")
    if plot_path is not None and plot_path.suffix.lower() not in PLOT_SUFFIXES:
        raise typer.BadParameter(
            f"{plot_path} needs one of the suffixes {', '.join(PLOT_SUFFIXES)}",
            param_hint="--plot",
        )
    json_path = output_path(json_out, "--json")
    params = parse_params(param or [])
    try:
        refuse_option_params(params, PLAYER_COUNT_PARAMS)
    except LamaError as exc:
        fail(str(exc))
    chosen = None
    if kinds is not None:
        chosen = [k.strip() for k in kinds.split(",")]
        if not all(chosen):
            raise typer.BadParameter(
                f"an empty kind in {kinds!r}; give kinds separated by commas, e.g. "
                "random,heuristic",
                param_hint="--kinds",
            )
    console = stdout()
    err = stderr()
    done = [0]
    try:
        total = ladder_games(game, counts, games, chosen, params)
    except LamaError as exc:
        fail(str(exc))
    try:  # the compiled bots' code, with a word on the screen, not at 0/N (issue 19)
        with compile_notice(err):
            for n in counts:
                game_n = make(game, num_players=n, **params)
                warm_bots(game_n, chosen if chosen is not None else bot_kinds(game), root_seed)
    except (LamaError, TypeError):
        pass  # the ladder itself reports bad parameters
    except KeyboardInterrupt:
        fail("interrupted (Ctrl-C) before the ladder was finished; nothing written", code=130)
    bar = progress_bar("Playing", err, description=True)
    task = bar.add_task("", total=total)

    def progress(n: int, table: int, index: int, seating: tuple[str, ...]) -> None:
        done[0] += 1
        bar.update(task, advance=1, description=f"{n} players: {', '.join(seating)}")

    try:
        with bar:
            result = run_ladder(
                game,
                counts,
                games=games,
                seed=root_seed,
                kinds=chosen,
                params=params,
                progress=progress,
                workers=workers,
            )
    except LamaError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted (Ctrl-C) before the ladder was finished; nothing written", code=130)
    for n in result.ratings:
        console.print(ladder_table(result, n))
        if result.skipped.get(n):
            why = result.why.get(n, {})
            left = [f"{k} ({why[k]})" if k in why else k for k in result.skipped[n]]
            console.print(f"left out at {n} players: {', '.join(left)}", markup=False)
    console.print(f"seed {root_seed}, {done[0]} game{'' if done[0] == 1 else 's'}")
    if plot_path is not None:
        try:
            plot_ladder(result, str(plot_path))
        except (OSError, ValueError) as exc:
            fail(f"cannot write {plot_path}: {exc}", code=1)
        console.print(f"plot: {plot_path}")
    if json_path is not None:
        write_json(json_path, result.to_dict())
        console.print(f"ratings: {json_path}")
