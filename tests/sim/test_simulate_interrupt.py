"""Ctrl-C during ``lama simulate --workers 2`` stops the run at once (issue 9, item 1)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _children(pid: int) -> list[int]:
    """Child process ids (Linux /proc, as on every machine this project runs on; without it
    the list stays empty and the test fails on 'never started' rather than passing)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(p) for p in path.read_text().split()]
    except OSError:
        return []


def test_ctrl_c_with_two_workers_stops_within_seconds() -> None:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    # 4 million games: minutes of work, so only a prompt stop ends it within the timeout.
    proc = subprocess.Popen(
        [sys.executable, "-m", "lamagames", "simulate", "dice", "--games", "4000000",
         "--seed", "1", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while len(_children(proc.pid)) < 2 and proc.poll() is None:  # the pool is up
            assert time.monotonic() < deadline, "the worker processes never started"
            time.sleep(0.2)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)  # a terminal sends Ctrl-C to the whole group
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    assert b"interrupted (Ctrl-C)" in err
    assert b"Traceback" not in err
