"""Issue 19, the web side: on a cold Numba cache the server compiles the compiled bot kinds in
a helper process when it starts (``Settings.warm_compiled``, which ``lama serve`` turns on);
a bot of such a kind waits for it off the event loop, and the table's ``state`` says
``preparing`` meanwhile, so the browser can tell the person why the bot takes long."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import numba  # a dev dependency: missing, the tests fail instead of skipping
import pytest
from web_helpers import FAST, Peer, create, make_client, start

from lamagames.bots import base
from lamagames.bots.base import Bot
from lamagames.bots.warmup import BackgroundWarmUp
from lamagames.core.game import State
from lamagames.web import warmup as web_warmup
from lamagames.web.live import Settings

HUMAN: dict[str, Any] = {"kind": "human"}


class FreshKernelBot(Bot):
    """Stands for a compiled bot (it ``requires`` numba): each decision calls
    :attr:`kernel`, a Numba function not compiled yet in this process (a cold cache)."""

    kind = "fresh-kernel-web"
    requires: ClassVar[tuple[str, ...]] = ("numba",)
    kernel: ClassVar[Any] = None

    def step(self, state: State) -> int:
        assert FreshKernelBot.kernel(3) == 9
        return state.legal_actions(self.seat)[0]


def _wait(predicate: Callable[[], bool], seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A compiled kind whose code is not compiled yet, the only compiled kind the server
    warms, and a helper process that records its argument in ``tmp_path / "argument"`` and
    ends (exit 0) once ``tmp_path / "go"`` exists; an empty NUMBA_CACHE_DIR for it."""

    def _triple(x: int) -> int:
        return 3 * x

    monkeypatch.setitem(base._REGISTERED, ("dice", FreshKernelBot.kind), FreshKernelBot)
    monkeypatch.setattr(FreshKernelBot, "kernel", numba.njit(cache=False)(_triple))
    kinds = ["random", FreshKernelBot.kind]
    monkeypatch.setattr(web_warmup, "available_bot_kinds", lambda game_id: kinds)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-cache"))
    code = (
        "import os, sys, time\n"
        f"open({str(tmp_path / 'argument')!r}, 'w').write(sys.argv[1])\n"
        f"while not os.path.exists({str(tmp_path / 'go')!r}): time.sleep(0.02)\n"
    )
    monkeypatch.setattr(BackgroundWarmUp, "helper_command", (sys.executable, "-c", code))
    web_warmup.close_warm_ups()
    yield tmp_path
    web_warmup.close_warm_ups()
    web_warmup._WARM_UPS.clear()


SETTINGS = replace(FAST, warm_bots=False, warm_compiled=True)


def test_serve_turns_the_compiled_warm_up_on() -> None:
    assert Settings().warm_compiled is False  # apps in tests: off unless asked
    assert SETTINGS.warm_compiled is True


def test_server_start_compiles_the_compiled_kinds_in_a_helper_on_a_cold_cache_issue_19(
    cold: Path,
) -> None:
    with make_client(cold / "t.sqlite3", SETTINGS) as client:
        assert _wait(lambda: (cold / "argument").exists())  # the helper started
        argument = json.loads((cold / "argument").read_text())
        # every compile in the helper, none in the server (its event loop would stall)
        assert argument["kinds"] == [FreshKernelBot.kind]
        assert argument["part"] == "all"
        assert argument["nice"] == 0  # its bots wait for it: full priority
        assert argument["game"] == "dice" and argument["params"]["num_players"] == 2
        warm_up = web_warmup.running_warm_up("dice", FreshKernelBot.kind)
        assert warm_up is not None
        assert _wait(lambda: warm_up.preparing)  # a cold cache: compiling
        assert web_warmup.preparing("dice", [FreshKernelBot.kind])
        assert not web_warmup.preparing("dice", ["random"])
        helper = warm_up.helper
        assert helper is not None and helper.poll() is None
        (cold / "go").write_text("")
        assert _wait(lambda: not warm_up.running)
        assert warm_up.helped is True  # the helper's compiles, then loaded here
        assert not web_warmup.preparing("dice", [FreshKernelBot.kind])
        assert client.get("/api/games").status_code == 200


def test_shutdown_kills_a_helper_still_compiling(cold: Path) -> None:
    with make_client(cold / "s.sqlite3", SETTINGS):
        assert _wait(lambda: (cold / "argument").exists())
        warm_up = web_warmup.running_warm_up("dice", FreshKernelBot.kind)
        assert warm_up is not None and warm_up.helper is not None
        helper = warm_up.helper
    assert helper.poll() is not None  # killed and reaped at the server's shutdown
    assert web_warmup.running_warm_up("dice", FreshKernelBot.kind) is None


def test_a_bot_waits_for_the_warm_up_off_the_event_loop_and_the_state_says_preparing(
    cold: Path,
) -> None:
    with make_client(cold / "b.sqlite3", SETTINGS) as client:
        assert _wait(lambda: web_warmup.preparing("dice", [FreshKernelBot.kind]))
        table = create(
            client, [HUMAN, {"kind": "bot", "bot_kind": FreshKernelBot.kind}], seed=5
        )
        start(client, table)
        code = table["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            peer = Peer(ws)
            first = peer.hello(table["seats"][0]["token"])
            assert first["preparing"] is True  # a bot of the table waits for its code
            state = peer.turn(0)
            peer.act("quit")  # the bot, the last player standing, is to act (D-8.5)
            waiting = peer.until(lambda m: m["type"] == "state" and m["acting"] == [1])
            assert waiting["preparing"] is True
            # the bot waits for the warm-up in a worker thread: the server answers meanwhile
            started = time.monotonic()
            assert client.get("/api/games").status_code == 200
            assert time.monotonic() - started < 2.0
            time.sleep(0.3)
            assert client.get(f"/api/tables/{code}").json()["status"] == "playing"
            (cold / "go").write_text("")  # the helper is done: the code is loaded, the bot acts
            moved = peer.until(
                lambda m: m["type"] == "state" and m["version"] > waiting["version"]
            )
            assert moved["preparing"] is False
            assert state["version"] < moved["version"]


def test_a_table_without_compiled_bots_is_never_preparing(cold: Path) -> None:
    with make_client(cold / "r.sqlite3", SETTINGS) as client:
        assert _wait(lambda: web_warmup.preparing("dice", [FreshKernelBot.kind]))
        table = create(client, [HUMAN, {"kind": "bot", "bot_kind": "random"}], seed=5)
        start(client, table)
        with client.websocket_connect(f"/ws/{table['code']}") as ws:
            assert Peer(ws).hello(table["seats"][0]["token"])["preparing"] is False
        (cold / "go").write_text("")


_STARTED_IMPORTS = """
import sys, threading
from fastapi.testclient import TestClient
from lamagames.web import create_app
with TestClient(create_app(sys.argv[1])):
    # right after the start, before any warm-up thread could have imported them
    print(sorted(m for m in ("numba", "numba.core.event", "lamagames.dice.solver.kernel",
                             "lamagames.bots.dice_exact") if m in sys.modules))
"""


def test_the_server_start_imports_numba_and_the_solver_in_one_thread_issue_19(
    tmp_path: Path,
) -> None:
    """Numba's first import from several threads at once deadlocked a trial's server for good
    (3 of 4 cold starts: the warm-up thread failed with *partially initialized module
    'numba.core.event'* while a request making an ``exact`` bot and the heuristic's warm-up
    waited on the import lock and llvmlite's lock). The start now imports Numba and every
    compiled bot's modules in one thread and awaits it before it serves: they are loaded the
    moment the start is over (a fresh interpreter)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", _STARTED_IMPORTS, f"sqlite:///{tmp_path / 'i.sqlite3'}"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = done.stdout.strip().splitlines()[-1]
    assert loaded == str(
        ["lamagames.bots.dice_exact", "lamagames.dice.solver.kernel", "numba", "numba.core.event"]
    ), loaded


def test_a_table_is_told_preparing_until_the_first_look_at_the_cache_is_over_issue_19(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table whose bot's turn starts while the warm-up still looks at the cache (a second
    or two after the start) gets its ``state`` then, not when the warm-up finds that it must
    compile: a trial's table, made as soon as the server answered, was told no preparation
    for the whole 10 s its bot waited. Until that look is over the kind counts as
    preparing; once it found everything in the cache (a warm one), it does not."""
    from lamagames.core.registry import make

    look = threading.Event()

    class SlowLook(BackgroundWarmUp):
        def _start_helper(self, game: Any, seed: int) -> None:
            """No helper: this test's warm-up only looks at the cache."""

        def _cold(self, game: Any, seed: int, kinds: Sequence[str] | None = None) -> bool:
            look.wait(30)
            return False  # everything was in the cache

    monkeypatch.setitem(base._REGISTERED, ("dice", FreshKernelBot.kind), FreshKernelBot)
    monkeypatch.setattr(FreshKernelBot, "kernel", numba.njit(cache=False)(lambda x: 3 * x))
    warm_up = SlowLook(make("dice", num_players=2), [FreshKernelBot.kind], 1)
    monkeypatch.setitem(web_warmup._WARM_UPS, ("dice", FreshKernelBot.kind), warm_up)
    try:
        assert warm_up.running and not warm_up.preparing  # not compiling (yet)
        assert web_warmup.preparing("dice", [FreshKernelBot.kind])  # but it may be
        look.set()
        assert _wait(lambda: warm_up.cached.is_set())
        assert not web_warmup.preparing("dice", [FreshKernelBot.kind])  # a warm cache
    finally:
        look.set()
        warm_up.close()


def test_the_warm_ups_run_before_the_server_serves_issue_19(
    cold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table made at once must find its kind's warm-up running (started in a thread after
    the server had started to serve, a bot made first compiled its code on a worker
    thread, holding the GIL: a first move waited 6-11 s)."""
    from lamagames.web import live

    callers: list[str] = []
    real = web_warmup.start_warm_ups

    def spy(game_ids: Any) -> list[BackgroundWarmUp]:
        callers.append(threading.current_thread().name)
        return real(game_ids)

    monkeypatch.setattr(live, "start_warm_ups", spy)
    with make_client(cold / "w.sqlite3", SETTINGS):
        assert web_warmup.running_warm_up("dice", FreshKernelBot.kind) is not None
        assert callers and "lama-warm-bots" not in callers
        (cold / "go").write_text("")
