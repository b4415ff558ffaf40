"""The warm-up's helper process started by ``lama``'s entry point before the commands are
imported (issue 19: its imports no longer delay a first ``exact`` move on a cold install):
when it starts, how it gets its work, and that it never outlives what started it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numba  # a dev dependency: missing, the tests fail instead of skipping
import pytest
from typer.testing import CliRunner

from lamagames import prestart
from lamagames.bots import base
from lamagames.bots.base import Bot, bot_kinds
from lamagames.bots.warmup import BackgroundWarmUp, compiled_kinds, guessed_table
from lamagames.cli.main import app
from lamagames.core.game import State
from lamagames.core.registry import make


@pytest.fixture(autouse=True)
def no_helper_left() -> Iterator[None]:
    prestart.discard()
    yield
    prestart.discard()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["play", "dice", "--seats", "human,exact"], True),
        (["play", "dice", "--seats=human,search,search"], True),
        (["play", "dice", "--seats", "human,heuristic"], False),
        (["serve", "--seats", "exact"], False),
        (["review", "game.lamarec.json"], False),
        ([], False),
    ],
)
def test_only_lama_play_with_a_compiled_kind_starts_a_helper_early(
    argv: list[str], expected: bool
) -> None:
    assert prestart.wanted(argv) is expected


def test_the_entry_points_list_of_compiled_kinds_is_the_bots_own() -> None:
    """The entry point decides from names, without importing the bots: the names must be
    every game's compiled kinds."""
    found = {kind for game in ("dice", "express") for kind in compiled_kinds(game, bot_kinds(game))}
    assert found == set(prestart.COMPILED_KINDS)


def _started() -> subprocess.Popen[bytes]:
    prestart.start(["play", "dice", "--seats", "human,exact"])
    helper = prestart.take()
    assert helper is not None and helper.stdin is not None
    assert prestart.take() is None  # handed over once
    return helper


def test_the_early_helper_ends_at_an_end_of_input_before_its_work() -> None:
    helper = _started()
    assert helper.stdin is not None
    helper.stdin.close()
    assert helper.wait(timeout=60) == 0


def test_the_early_helper_runs_the_work_written_on_its_first_line() -> None:
    """A spec with nothing to compile: done at once, exit code 0; a malformed one: exit
    code 1 (the warm-up then compiles here, as with any failed helper)."""
    helper = _started()
    assert helper.stdin is not None
    spec = {"game": "dice", "params": {}, "kinds": [], "seed": 1}
    helper.stdin.write(json.dumps(spec).encode() + b"\n")
    helper.stdin.flush()
    try:
        assert helper.wait(timeout=60) == 0
    finally:
        helper.kill()
        helper.wait()
    bad = _started()
    assert bad.stdin is not None
    bad.stdin.write(b"{not json\n")
    bad.stdin.flush()
    try:
        assert bad.wait(timeout=60) == 1
    finally:
        bad.kill()
        bad.wait()


def test_discard_kills_and_reaps_an_unused_helper() -> None:
    prestart.start(["play", "dice", "--seats", "human,exact"])
    helper = prestart._started
    assert helper is not None
    prestart.discard()
    assert helper.returncode is not None  # reaped
    assert prestart._started is None
    prestart.discard()  # again: nothing


class _FreshKernelBot(Bot):
    """Stands for a compiled bot: a decision calls a Numba function not compiled yet."""

    kind = "fresh-kernel"
    requires: ClassVar[tuple[str, ...]] = ("numba",)
    kernel: ClassVar[Any] = None

    def step(self, state: State) -> int:
        assert _FreshKernelBot.kernel(3) == 9
        return state.legal_actions(self.seat)[0]


def test_the_warm_up_hands_its_work_to_the_early_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warm-up writes its spec (one JSON line) to the helper started early instead of
    starting one (a stand-in helper here records what it was given; it compiles nothing,
    so this process compiles afterwards, as after any helper)."""

    def _triple(x: int) -> int:
        return 3 * x

    monkeypatch.setitem(base._REGISTERED, ("dice", _FreshKernelBot.kind), _FreshKernelBot)
    monkeypatch.setattr(_FreshKernelBot, "kernel", numba.njit(cache=False)(_triple))
    out = tmp_path / "spec.json"
    code = f"import sys; open({str(out)!r}, 'w').write(sys.stdin.readline())"
    stand_in = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE)
    prestart._started = stand_in
    warm_up = BackgroundWarmUp(make("dice", num_players=2), ["human", "fresh-kernel"], 7)
    warm_up.wait(None)
    warm_up.close()
    assert warm_up.helper is stand_in and warm_up.helped is True
    spec = json.loads(out.read_text())
    assert spec["kinds"] == ["fresh-kernel"] and spec["seed"] == 7 and spec["game"] == "dice"
    assert warm_up.compiles["after"] >= 1 and _FreshKernelBot.kernel.signatures
    assert stand_in.returncode == 0  # reaped
    assert prestart._started is None


def test_lama_play_without_compiled_bots_discards_the_early_helper() -> None:
    """``exact`` in a file name only: the early helper had no use and is gone at once."""
    prestart.start(["play", "dice", "--seats", "heuristic,heuristic", "--record", "exact.json"])
    helper = prestart._started
    assert helper is not None
    result = CliRunner().invoke(
        app, ["play", "dice", "--seats", "heuristic,heuristic", "--games", "2", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    assert prestart._started is None and helper.returncode is not None


def test_the_entry_point_starts_the_helper_before_the_commands_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lamagames.cli import entry

    monkeypatch.setattr(sys, "argv", ["lama", "play", "dice", "--seats", "human,exact", "--help"])
    with pytest.raises(SystemExit) as ended:
        entry.run()
    assert ended.value.code == 0
    assert prestart._started is not None  # discarded at exit (here by the fixture)


_PRELOAD = """
import json, sys
from lamagames.bots.warmup import _preload
_preload(sys.argv[1:])
print(json.dumps(["lamagames.dice.solver.kernel2p" in sys.modules, "numba" in sys.modules]))
"""


@pytest.mark.parametrize(
    ("words", "solver"),
    [(["play", "dice", "--seats", "human,exact"], True), (["play", "--seats", "exact"], False)],
)
def test_the_early_helper_imports_the_named_bots_code_ahead(words: list[str], solver: bool) -> None:
    """The game and the compiled kind named on the command line: the solver's modules are
    imported before the work arrives (Numba in any case)."""
    done = subprocess.run(
        [sys.executable, "-c", _PRELOAD, *words], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == [solver, True]


@pytest.mark.parametrize(
    ("words", "players", "kinds"),
    [
        (["play", "dice", "--seats", "human,exact"], 2, ["human", "exact"]),
        (["play", "dice", "--seats=Human, search,search"], 3, ["human", "search", "search"]),
        (["play", "-s", "human,exact", "dice", "--seed", "4"], 2, ["human", "exact"]),
        (["play", "--seats", "human,exact"], None, None),  # no game named
        (["play", "dice", "express", "--seats", "human,exact"], None, None),  # two
        (["play", "dice"], None, None),  # no seats
        (["play", "dice", "--seats", "exact"], None, None),  # a game of one cannot be made
    ],
)
def test_the_early_helper_guesses_the_table_from_the_command_line(
    words: list[str], players: int | None, kinds: list[str] | None
) -> None:
    guess = guessed_table(words)
    if players is None:
        assert guess is None
        return
    assert guess is not None
    game, found = guess
    assert game.game_id == "dice" and game.num_players == players and found == kinds


@pytest.mark.slow
def test_the_early_helper_compiles_the_guessed_tables_kernels_before_its_work_comes(
    tmp_path: Path,
) -> None:
    """``lama play dice --seats human,exact`` on an empty cache: the helper started by the
    entry point writes the sweep's kernel to the cache while no spec has come yet (``lama
    play`` still importing), and ends at once when its standard input closes."""
    words = ["play", "dice", "--seats", "human,exact"]
    helper = subprocess.Popen(
        [sys.executable, "-c", prestart.PRESTART_CODE, *words],
        stdin=subprocess.PIPE,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
    )
    try:
        deadline = time.monotonic() + 300
        while not any(tmp_path.rglob("kernel2p.sweep_pair*.nbi")):
            assert helper.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        assert helper.stdin is not None
        helper.stdin.close()
        assert helper.wait(timeout=30) == 0
    finally:
        helper.kill()
        helper.wait()
