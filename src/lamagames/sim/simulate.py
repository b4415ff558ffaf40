"""The generic driver of ``lama simulate``: batch engines, chunks, workers, Ray.

:func:`simulate` plays ``games`` games of every configuration (player count x rule variant)
with a game's compiled batch engine (found by id through
:func:`lamagames.sim.batch_protocol.load_engine`; this module imports no game package).

Reproducibility: game ``i`` of every configuration uses seed ``game_seeds(seed, i, 1)``
(common random numbers across variants), and the games are cut into chunks of
:data:`CHUNK_GAMES` whatever the number of workers; chunk results are put back in game
order. So the same seed gives the same per-game results, hence the same totals, for any
``workers`` and for both backends.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Final

import numpy as np

from lamagames.core.errors import ParameterError, did_you_mean
from lamagames.sim.batch_protocol import BatchEngine, BatchResults, game_seeds, load_engine
from lamagames.sim.pool import ordered_map
from lamagames.sim.summary import ConfigResult, SimulationSummary, summarize

#: Games per chunk (the unit of work handed to a worker and of progress).
CHUNK_GAMES: Final = 20_000
BACKENDS: Final = ("local", "ray")
#: Seconds to wait for the port of a Ray cluster given with ``address``.
RAY_CONNECT_TIMEOUT: Final = 5.0

#: Called after every finished chunk with the number of games it played.
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Config:
    """One configuration to simulate: a label, seat policies and complete rule parameters
    (``check_params`` output, ``num_players`` included)."""

    label: str
    policies: tuple[str, ...]
    params: dict[str, Any]

    @property
    def num_players(self) -> int:
        """Seats."""
        return int(self.params["num_players"])


def variant_grid(items: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Rule variants from repeated parameter values: the product over names of their
    values, in the given order (``{"end_score": [40, 60]}`` -> two variants; no names ->
    one variant with the defaults)."""
    names = list(items)
    return [dict(zip(names, values, strict=True)) for values in product(*items.values())]


def variant_label(params: Mapping[str, Any]) -> str:
    """``end_score=60 dice=...`` (empty for the defaults)."""
    return " ".join(f"{k}={_short(v)}" for k, v in params.items())


def _short(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def make_configs(
    engine: BatchEngine,
    players: Sequence[int],
    seats: Sequence[str],
    variants: Sequence[tuple[str, Mapping[str, Any]]],
) -> list[Config]:
    """Every (player count, variant) configuration, checked by the engine.

    Args:
        engine: the game's batch engine.
        players: player counts to compare.
        seats: one policy for every seat, or one per seat (then a single player count of
            that size).
        variants: ``(name, parameters)`` pairs; an empty name is made from the parameters.

    Raises:
        ParameterError: an unknown policy, seats that do not fit the player counts, a
            player count out of range, parameters the engine refuses (the message says
            which variant), or two configurations that are the same (a repeated player
            count or variant).
    """
    for kind in seats:
        if kind not in engine.policies:
            raise ParameterError(
                f"unknown seat kind {kind!r} for the batch engine; "
                f"available: {', '.join(engine.policies)}" + did_you_mean(kind, engine.policies)
            )
    if len(seats) > 1 and any(n != len(seats) for n in players):
        raise ParameterError(
            f"{len(seats)} seat kinds given but {', '.join(map(str, players))} players; "
            "give one kind for all seats or one per seat"
        )
    configs: list[Config] = []
    for n in players:
        if not engine.min_players <= n <= engine.max_players:
            raise ParameterError(
                f"{engine.game_id} takes {engine.min_players} to {engine.max_players} "
                f"players, got {n}"
            )
        policies = tuple(seats) if len(seats) > 1 else (seats[0],) * n
        for name, params in variants:
            try:
                full = engine.check_params(n, params)
            except ParameterError as exc:
                where = f" (variant {name!r})" if name else ""
                raise ParameterError(f"{exc}{where}") from None
            label = " ".join(part for part in (f"{n}p", name or variant_label(params)) if part)
            twin = next((c for c in configs if (c.policies, c.params) == (policies, full)), None)
            if twin is not None:
                raise ParameterError(
                    f"{label!r} is the same configuration as {twin.label!r} "
                    "(same player count and rules); give each player count and variant once"
                )
            configs.append(Config(label, policies, full))
    return configs


def play_chunk(
    game_id: str, policies: Sequence[str], params: Mapping[str, Any], seed: int, start: int,
    count: int,
) -> BatchResults:  # fmt: skip
    """Games ``start .. start + count - 1`` of one configuration (the unit of work; a
    top-level function so that worker processes and Ray can run it)."""
    engine = load_engine(game_id)
    return engine.play(game_seeds(seed, start, count), list(policies), dict(params))


def chunks(games: int, size: int = CHUNK_GAMES) -> Iterator[tuple[int, int]]:
    """``(start, count)`` of each chunk of ``games`` games, in order."""
    for start in range(0, games, size):
        yield start, min(size, games - start)


def merge(parts: Sequence[BatchResults]) -> BatchResults:
    """Concatenate chunk results in the given order."""
    first = parts[0]
    return BatchResults(
        scores=np.concatenate([p.scores for p in parts]),
        wins=np.concatenate([p.wins for p in parts]),
        length=np.concatenate([p.length for p in parts]),
        starter=np.concatenate([p.starter for p in parts]),
        finished=np.concatenate([p.finished for p in parts]),
        extra={k: np.concatenate([p.extra[k] for p in parts]) for k in first.extra},
    )


def _run_local(
    jobs: list[tuple[Any, ...]], workers: int, progress: Progress | None
) -> list[BatchResults]:
    def done(index: int, _result: BatchResults) -> None:
        if progress is not None:
            progress(jobs[index][-1])

    return ordered_map(play_chunk, jobs, workers, done)


def _run_ray(
    jobs: list[tuple[Any, ...]], workers: int, address: str | None, progress: Progress | None
) -> list[BatchResults]:
    try:
        import ray
    except ImportError:
        raise ParameterError(
            "the ray backend needs Ray: pip install 'lamagames[ray]'"
        ) from None
    if not ray.is_initialized():
        # Quiet: no INFO/WARNING lines of Ray's own on the user's terminal.
        quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, **quiet)
        else:
            check_ray_address(address)
            ray.init(address=address, **quiet)
    remote = ray.remote(num_cpus=1)(play_chunk)
    pending: dict[Any, int] = {}
    refs = []
    for index, job in enumerate(jobs):
        ref = remote.remote(*job)
        refs.append(ref)
        pending[ref] = index
    waiting = list(refs)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        if progress is not None:
            for ref in done:
                progress(jobs[pending[ref]][-1])
    return list(ray.get(refs))


def check_ray_address(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """Refuse a Ray cluster address whose port does not answer within ``timeout`` seconds
    (``ray.init`` would wait for it for ever). ``auto`` and addresses without a port are
    left to Ray.

    Raises:
        ParameterError: ``cannot reach the Ray cluster at ADDRESS``.
    """
    text = address.strip()
    if text == "auto":
        return
    host, sep, port = text.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        if text.startswith("ray://") or ":" in text:
            raise ParameterError(f"--address: expected HOST:PORT or auto, got {text!r}")
        return
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout).close()
    except (OSError, ValueError, OverflowError):
        raise ParameterError(f"cannot reach the Ray cluster at {text}") from None


def simulate(
    game_id: str,
    configs: Sequence[Config],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    chunk_games: int = CHUNK_GAMES,
) -> tuple[SimulationSummary, list[ConfigResult]]:
    """Play ``games`` games of every configuration and summarize them.

    Args:
        game_id: the game (its batch engine is loaded by id).
        configs: from :func:`make_configs`.
        games: games per configuration (>= 1).
        seed: root seed (see the module docstring).
        workers: local processes (``local``) or Ray CPUs of a local cluster (``ray``).
        backend: ``local`` or ``ray``.
        address: a Ray cluster to join (``ray`` backend); ``None`` starts a local one unless
            Ray is already initialised.
        progress: called with the games of each finished chunk.
        chunk_games: games per chunk (results do not depend on it).

    Returns:
        The summary and the per-game results of every configuration. With the local
        backend the engine is first called once in this process (compiling it or loading
        it from the disk cache); that time is ``warmup_seconds``, not ``seconds``.

    Raises:
        ParameterError: bad games, workers or backend; an ``address`` without the ``ray``
            backend or one that does not answer (:func:`check_ray_address`); no batch
            engine for the game.
    """
    engine = load_engine(game_id)
    if games < 1:
        raise ParameterError(f"games must be >= 1, got {games}")
    if chunk_games < 1:
        raise ParameterError(f"chunk_games must be >= 1, got {chunk_games}")
    if workers < 1:
        raise ParameterError(f"workers must be >= 1, got {workers}")
    if backend not in BACKENDS:
        raise ParameterError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if address is not None and backend != "ray":
        raise ParameterError("--address is the address of a Ray cluster; add --backend ray")
    if address is not None:
        check_ray_address(address)
    jobs: list[tuple[Any, ...]] = []
    owners: list[int] = []
    for index, config in enumerate(configs):
        for start, count in chunks(games, chunk_games):
            jobs.append((game_id, config.policies, config.params, seed, start, count))
            owners.append(index)
    started = time.perf_counter()
    if backend == "local":  # compile (or load from the disk cache) before timing the games
        for config in configs:
            play_chunk(game_id, config.policies, config.params, seed, 0, 1)
    warmup = time.perf_counter() - started
    started = time.perf_counter()
    if backend == "ray":
        parts = _run_ray(jobs, workers, address, progress)
    else:
        parts = _run_local(jobs, workers, progress)
    seconds = time.perf_counter() - started
    results = []
    for index, config in enumerate(configs):
        mine = [p for p, owner in zip(parts, owners, strict=True) if owner == index]
        results.append(
            ConfigResult(config.label, config.num_players, list(config.policies),
                         config.params, merge(mine))
        )  # fmt: skip
    summary = SimulationSummary(
        game=game_id,
        seed=seed,
        seconds=seconds,
        warmup_seconds=warmup,
        score_name=engine.score_name,
        length_name=engine.length_name,
        workers=workers,
        backend=backend,
        configs=[summarize(r, engine.length_name) for r in results],
    )
    return summary, results

