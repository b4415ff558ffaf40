"""Issue 16: the server warms the compiled heuristic in the background and, as ``lama
serve`` asks, freezes the garbage collector's view of what is alive after that."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from web_helpers import FAST, hide_numba, make_client

from lamagames.bots import dice as dice_bots
from lamagames.web import live


def _wait(predicate: Callable[[], bool], seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_server_start_warms_the_compiled_heuristic_and_freezes_gc(tmp_path: Path) -> None:
    dice_bots.use_compiled_heuristic(False)
    frozen = gc.get_freeze_count()
    try:
        with make_client(tmp_path / "w.sqlite3", replace(FAST, freeze_gc=True)) as client:
            assert client.get("/api/games").status_code == 200  # serving meanwhile
            assert _wait(lambda: dice_bots._KERNEL is not None)
            assert _wait(lambda: gc.get_freeze_count() > frozen)
    finally:
        gc.unfreeze()
        dice_bots.use_compiled_heuristic(False)


def test_warm_up_is_off_when_asked_and_without_numba(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for thread in threading.enumerate():  # earlier servers' warm-ups
        if thread.name == "lama-warm-bots":
            thread.join(120)
    dice_bots.use_compiled_heuristic(False)
    with make_client(tmp_path / "a.sqlite3", replace(FAST, warm_bots=False)) as client:
        assert client.get("/api/games").status_code == 200
        time.sleep(0.3)
        assert dice_bots._KERNEL is None
    hide_numba(monkeypatch)
    assert dice_bots.warm_compiled_heuristic() is False
    with make_client(tmp_path / "b.sqlite3") as client:
        assert client.get("/api/games").status_code == 200
        time.sleep(0.3)
        assert dice_bots._KERNEL is None  # the bots stay in Python


def test_the_freeze_runs_no_full_collection_and_makes_them_rarer() -> None:
    """Freezing the garbage collector's view runs no collection of the oldest generation:
    one over the whole heap held the interpreter lock (the event loop stood still) for
    about 140 ms and found almost nothing (issue 16); and full collections are made ten
    times rarer than Python's default (each stopped a busy server for 30-160 ms)."""
    generations: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    frozen = gc.get_freeze_count()
    thresholds = gc.get_threshold()
    gc.callbacks.append(seen)
    try:
        live._warm_bots(warm=False, freeze_gc=True)
        assert gc.get_freeze_count() > frozen
        after = gc.get_threshold()
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    assert 2 not in generations
    # full collections (over every live table and connection) ten times rarer
    assert after == (thresholds[0], thresholds[1], live.GC_OLDEST_THRESHOLD)
