"""``lama simulate``: millions of bot games with a game's compiled batch engine.

Player counts and rule variants are compared side by side; every figure comes with a 95%
confidence interval (method in ``docs/simulate.md``). Exit codes: 0 success, 1 an output
file could not be written, 2 bad arguments or parameters, 130 stopped with Ctrl-C.
"""

from __future__ import annotations

import dataclasses
import secrets
import shlex
import time
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from lamagames.cli.common import (
    PLAYER_COUNT_PARAMS,
    check_player_counts,
    game_argument,
    param_value,
    print_unwrapped,
    progress_bar,
    refuse_option_params,
)
from lamagames.cli.views import complete_game
from lamagames.cli.warmup import compile_notice
from lamagames.core.batch import BatchEngine
from lamagames.core.errors import LamaError, ParameterError, quoted
from lamagames.core.files import read_json_file
from lamagames.core.registry import game_title
from lamagames.sim.summary import SimulationSummary


def _fail(message: str, code: int = 2) -> NoReturn:
    Console(stderr=True, highlight=False).print(
        Text("Error: ", style="bold red") + Text(message), soft_wrap=True
    )
    raise typer.Exit(code)


def parse_players(text: str) -> list[int]:
    """``4``, ``2,4,6`` or a range ``2..6``.

    Raises:
        ParameterError: anything else.
    """
    try:
        if ".." in text:
            low, high = (int(part) for part in text.split("..", 1))
            if low > high:
                raise ValueError
            return list(range(low, high + 1))
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise ParameterError(
            f"--players: expected a count (4), a list (2,4) or a range (2..6), got {quoted(text)}"
        ) from None


def parse_param_values(items: list[str]) -> dict[str, list[Any]]:
    """Repeated ``--param KEY=VALUE`` (VALUE read as JSON, else text); a key given several
    times lists several values, each a variant.

    Raises:
        ParameterError: an item without ``=`` or with an empty key.
    """
    values: dict[str, list[Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ParameterError(f"--param: expected KEY=VALUE, got {quoted(item)}")
        values.setdefault(key, []).append(param_value(raw))
    return values


def load_variant_file(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """Variants from a JSON file: an object of parameters (named after the file), an
    object ``{"name": ..., "params": {...}}``, or a list of such objects.

    Raises:
        ParameterError: the file cannot be read or has another shape.
    """
    try:
        data = read_json_file(path, ParameterError)
    except ParameterError as exc:  # cannot read the file, not JSON (also nested too deeply)
        raise ParameterError(f"--variant {path}: {exc}") from None
    items = data if isinstance(data, list) else [data]
    out: list[tuple[str, dict[str, Any]]] = []
    default = path.stem
    for index, item in enumerate(items):
        if len(items) > 1:
            default = f"{path.stem}#{index + 1}"
        if not isinstance(item, dict):
            raise ParameterError(f"--variant {path}: entry {index + 1} is not a JSON object")
        if "params" in item:
            params = item["params"]
            name = str(item.get("name", default))
            if not isinstance(params, dict) or set(item) - {"name", "params"}:
                raise ParameterError(
                    f"--variant {path}: entry {index + 1} needs 'params' (an object) and "
                    "an optional 'name', nothing else"
                )
        else:
            params, name = item, default
        out.append((name, dict(params)))
    return out


def _seed(text: str | None) -> int:
    if text is None:
        return secrets.randbits(32)
    try:
        return int(text.strip())
    except ValueError:
        raise ParameterError(
            f"--seed: a seed is a whole number, e.g. --seed 7; got {quoted(text)}"
        ) from None


def command_text(ctx: typer.Context, game_id: str, seed: int) -> str:
    """The ``lama simulate`` command as run, for the Parquet metadata: the game, every
    option given on the command line in the command's order, and ``--seed`` with the root
    seed used (also when it was drawn at random), so the text reproduces the games."""
    parts = ["lama", "simulate", game_id]
    for param in ctx.command.params:
        name = param.name or ""
        source = ctx.get_parameter_source(name)
        if name in ("game", "seed") or source is None or source.name != "COMMANDLINE":
            continue  # the game is above, the seed below; defaults are left out
        option = max(param.opts, key=len)  # the long name
        value: Any = ctx.params.get(name)
        for item in value if isinstance(value, list | tuple) else [value]:
            parts += [option] if getattr(param, "is_flag", False) else [option, str(item)]
    return shlex.join([*parts, "--seed", str(seed)])


def summary_tables(summary: SimulationSummary) -> list[Table]:
    """One Rich table per configuration (seat rows, figures ± the half width of their 95%
    interval), titled with the game length and the first-player advantage."""
    cols = summary.columns()
    tables = []
    for config in summary.configs:
        table = Table(title=summary.config_line(config), title_justify="left")
        table.add_column("Seat", justify="right")
        table.add_column("Policy")
        for heading, _ in cols:
            table.add_column(heading, justify="right")
        for seat in config.seats:
            figures = summary.seat_figures(config, seat)
            table.add_row(
                str(seat.seat + 1),
                seat.policy,
                *(figures[k].text() if k in figures else "-" for _, k in cols),
            )
        tables.append(table)
    return tables


def parse_count(text: str, option: str) -> int:
    """A whole number >= 1 given to ``option`` (``--games``, ``--workers``).

    Raises:
        ParameterError: anything else (the message quotes the text).
    """
    digits = text.strip().replace("_", "")
    if not (digits.isascii() and digits.isdigit()) or int(digits) < 1:
        raise ParameterError(f"{option}: expected a whole number >= 1, got {quoted(text)}")
    return int(digits)


#: ``--param`` keys that have their own option here, as in ``lama play``.
OWN_OPTIONS: dict[str, str] = {
    **PLAYER_COUNT_PARAMS,
    "starting_seat": "has its own option: use --starting-seat (seats count from 1)",
}


def check_param_items(
    engine: BatchEngine, counts: list[int], items: list[str], values: dict[str, list[Any]]
) -> None:
    """Refuse ``--param`` keys with their own option, repeated items, and values the
    engine refuses, quoting the user's text (``--param end_score=true: ...``).

    Raises:
        ParameterError: as above.
    """
    refuse_option_params(values, OWN_OPTIONS)
    seen: set[str] = set()
    for item in items:
        key, _, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        text = f"{key}={raw.strip()}"
        if text in seen:
            raise ParameterError(f"--param {item.strip()} is given twice; give each value once")
        seen.add(text)
    for item in items:
        value = parse_param_values([item])
        for n in counts:
            try:
                engine.check_params(n, {k: v[0] for k, v in value.items()})
            except ParameterError as exc:
                raise ParameterError(f"--param {item.strip()}: {exc}") from None


def unique_outputs(paths: list[Path]) -> list[Path]:
    """``--out`` files checked before the run (:func:`check_output`), each once.

    Raises:
        ParameterError: a bad file (see :func:`lamagames.sim.export.check_output`) or one
            given twice.
    """
    from lamagames.sim.export import check_output

    seen: dict[Path, Path] = {}
    for path in paths:
        check_output(path)
        key = path.resolve()
        if key in seen:
            raise ParameterError(f"--out {path} is given twice; give each file once")
        seen[key] = path
    return paths


def simulate_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(
            metavar="GAME", help="The game: dice or express.", autocompletion=complete_game
        )],
    players: Annotated[
        str | None,
        typer.Option(
            metavar="COUNTS",
            help="Player counts: 4, a list 2,4 or a range 2..6 (default 4).",
        ),
    ] = None,
    seats: Annotated[
        str,
        typer.Option(
            metavar="KINDS",
            help=(
                "In-kernel policy of every seat (random, benchmark, heuristic), or one per "
                "seat."
            ),
        ),
    ] = "benchmark",
    games: Annotated[str, typer.Option(metavar="N", help="Games per configuration.")] = "10000",
    seed: Annotated[
        str | None, typer.Option(metavar="N", help="Root seed (random and shown if omitted).")
    ] = None,
    starting_seat: Annotated[
        str | None,
        typer.Option(metavar="SEAT", help="Seat that starts (1 = first), as in lama play."),
    ] = None,
    workers: Annotated[str, typer.Option(metavar="N", help="Processes (or Ray CPUs).")] = "1",
    backend: Annotated[str, typer.Option(metavar="local|ray", help="local or ray.")] = "local",
    address: Annotated[
        str | None,
        typer.Option(metavar="HOST:PORT", help="Ray cluster address (needs --backend ray)."),
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            "-p",
            metavar="KEY=VALUE",
            help="Rule parameter (JSON value); repeat a key to compare values.",
        ),
    ] = None,
    variant: Annotated[
        list[Path] | None,
        typer.Option(metavar="FILE", help="JSON file of rule variants (repeatable)."),
    ] = None,
    out: Annotated[
        list[Path] | None,
        typer.Option(
            metavar="FILE",
            help="Write .json, .csv (summary), .parquet (every game), .png/.svg (plots).",
        ),
    ] = None,
) -> None:
    """Simulate many bot games with the compiled batch engine and compare variants.

    Figures are shown with the half width of their 95% interval.

    Seats count from 1 here; the files keep 0-based seats (as records) and a seat_label.

    [dim]Examples:[/]

    lama simulate dice --players 4 --games 100000 --seed 1

    lama simulate dice --players 2..6 --param end_score=40 --param end_score=60 --out cmp.json

    lama simulate dice --seats random,benchmark --games 50000 --workers 2 --out games.parquet
    """
    from lamagames.sim.batch_protocol import load_engine
    from lamagames.sim.export import write_output
    from lamagames.sim.simulate import make_configs, play_chunk, simulate, variant_grid

    game_id = game_argument(game)
    try:
        outputs = unique_outputs(list(out or []))
        n_games = parse_count(games, "--games")
        n_workers = parse_count(workers, "--workers")
        if address is not None and backend.strip().lower() != "ray":
            raise ParameterError("--address is the address of a Ray cluster; add --backend ray")
        kinds = [part.strip().lower() for part in seats.split(",")]
        if players is not None:
            counts = parse_players(players)
        else:
            counts = [len(kinds)] if len(kinds) > 1 else [4]
        count_option = "--players" if players is not None or len(kinds) == 1 else "--seats"
        root = _seed(seed)
        items = list(param or [])
        values = parse_param_values(items)
        engine = load_engine(game_id)
        check_player_counts(
            counts, engine.min_players, engine.max_players, game_title(game_id), count_option
        )
        check_param_items(engine, counts, items, values)
        variants = [("", v) for v in variant_grid(values)]
        for path in variant or []:
            variants += load_variant_file(path)
        if variant and not param:
            variants = variants[1:]  # only the files' variants (drop the default)
        if starting_seat is not None:
            first = parse_count(starting_seat, "--starting-seat")
            if first > min(counts):
                raise ParameterError(f"--starting-seat: there are {min(counts)} seats, got {first}")
            variants = [(name, {**v, "starting_seat": first - 1}) for name, v in variants]
        configs = make_configs(engine, counts, kinds, variants)
    except LamaError as exc:  # a bad option: one line with the help pointer, as the parser's
        _fail(f"{exc} (see 'lama simulate -h')")
    err = Console(stderr=True)
    progress = progress_bar("Simulating", err)
    task = progress.add_task("games", total=n_games * len(configs))
    try:
        started = time.perf_counter()
        if backend == "local":
            # Compile (or load) the engine with a word on the screen, not at 0/N (issue 19);
            # simulate()'s own first call then finds it ready (its time is added below).
            with compile_notice(err):
                for config in configs:
                    play_chunk(game_id, config.policies, config.params, root, 0, 1)
        warmup = time.perf_counter() - started
        with progress:
            summary, results = simulate(
                game_id, configs, n_games, root, workers=n_workers, backend=backend,
                address=address, progress=lambda done: progress.advance(task, done),
            )  # fmt: skip
        summary = dataclasses.replace(summary, warmup_seconds=summary.warmup_seconds + warmup)
    except ParameterError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        _fail("interrupted (Ctrl-C) before the games were finished; nothing written", code=130)
    console = Console(highlight=False)
    console.print(
        f"{summary.game}: seed {summary.seed}, {summary.seconds:.2f} s of games "
        f"(+ {summary.warmup_seconds:.2f} s compile or cache load), {summary.workers} "
        f"worker(s), {summary.backend} backend; values ± half width of the 95% interval",
        markup=False,
        soft_wrap=True,
    )
    for table in summary_tables(summary):
        print_unwrapped(console, table)  # piped: a figure and its ± stay on one line
    for path in outputs:
        try:
            write_output(path, summary, results, command_text(ctx, game_id, summary.seed))
        except OSError as exc:
            _fail(f"cannot write {path}: {exc}", code=1)
        console.print(f"Wrote {path}", markup=False, soft_wrap=True)
