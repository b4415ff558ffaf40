"""``lama serve --workers 2`` on PostgreSQL tells the operator about its workers: a worker
killed with SIGKILL is logged with its pid, the signal and its replacement's pid, and a
rolling restart (``kill -HUP``) logs its start, each step and its end (it used to log
nothing at ``lama serve``'s level, and uvicorn's 5 s wait for a new worker gave up the
restart at its first step). Needs ``LAMA_TEST_POSTGRES_URL``."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from db_helpers import postgres_base_url, postgres_schema

import lamagames
from lamagames.web.supervisor import describe_exit

SRC = str(Path(lamagames.__file__).resolve().parent.parent)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema."""
    with postgres_schema(postgres_base_url()) as url:
        yield url


def _wait_for(log: IO[bytes], pattern: str, timeout: float) -> str:
    """The server's standard error once ``pattern`` is found in it (fails after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        log.seek(0)
        text = log.read().decode(errors="replace")
        if re.search(pattern, text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"no {pattern!r} within {timeout} s in:\n{text[-4000:]}")
        time.sleep(0.2)


def _serves(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def test_describe_exit_names_the_signal_or_the_code() -> None:
    assert describe_exit(-9) == "signal SIGKILL"
    assert describe_exit(-15) == "signal SIGTERM"
    assert describe_exit(3) == "exit code 3"
    assert describe_exit(None) == "still running"


@pytest.mark.postgres
def test_a_killed_worker_and_a_rolling_restart_are_logged(pg_url: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "lamagames", "serve", "--port", str(port)]
    command += ["--db", pg_url, "--workers", "2", "--bot-delay", "0"]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
        try:
            text = _wait_for(log, r"(worker \d+ started.*\n.*){2}", 60)
            workers = [int(pid) for pid in re.findall(r"worker (\d+) started", text)]
            assert len(workers) == 2 and f"(supervisor {server.pid})" in text
            deadline = time.monotonic() + 60
            while not _serves(port):
                assert time.monotonic() < deadline, "the workers never served"
                time.sleep(0.2)

            os.kill(workers[0], signal.SIGKILL)
            text = _wait_for(log, rf"worker {workers[0]} died", 30)
            died = re.search(
                rf"worker {workers[0]} died \(signal SIGKILL\); worker (\d+) replaces it", text
            )
            assert died, text
            replacement = int(died.group(1))
            assert replacement not in workers

            os.kill(server.pid, signal.SIGHUP)
            text = _wait_for(log, r"rolling restart (done|stopped)", 180)
            start = rf"rolling restart \(SIGHUP\): replacing 2 workers: {replacement}, {workers[1]}"
            assert re.search(start, text), text
            steps = re.findall(
                r"rolling restart (\d)/2: worker (\d+) stopped \(signal SIGTERM\); "
                r"worker (\d+) replaces it",
                text,
            )
            assert [(step, int(old)) for step, old, _new in steps] == [
                ("1", replacement),
                ("2", workers[1]),
            ], text
            new = [int(pid) for _step, _old, pid in steps]
            assert f"rolling restart done: workers {new[0]}, {new[1]}" in text
            assert _serves(port)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
