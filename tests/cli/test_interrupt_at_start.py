"""Ctrl-C while ``lama`` still imports its modules ends it quietly (issue 19).

``lama`` spends about a second importing numpy, numba, pydantic, Typer and Rich before a
command runs; a Ctrl-C then printed a Python traceback. These tests run the entry point
declared in ``pyproject.toml`` as the ``lama`` script does, with a test-only
``sitecustomize`` that makes one import wait: the signal is sent once that import has
started, so it surely lands there.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Put on ``PYTHONPATH``: the import named by ``LAMA_TEST_SLOW_IMPORT`` writes a line on
#: standard error, then waits (where the test's SIGINT lands).
SITECUSTOMIZE = """
import importlib.abc, os, sys, time

class _SlowImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == os.environ.get("LAMA_TEST_SLOW_IMPORT"):
            sys.meta_path.remove(self)
            sys.stderr.write("slow import started\\n")
            sys.stderr.flush()
            time.sleep(20)
        return None

sys.meta_path.insert(0, _SlowImport())
"""


def _script_code() -> str:
    """What the ``lama`` script runs: the ``[project.scripts]`` entry point."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    module, function = scripts["project"]["scripts"]["lama"].split(":")
    return f"import sys; from {module} import {function}; sys.exit({function}())"


def _interrupted_during(module: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Start ``lama --version`` with the import of ``module`` made slow, send SIGINT once
    that import has started, and return the finished process."""
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = dict(os.environ, LAMA_TEST_SLOW_IMPORT=module)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tmp_path), env.get("PYTHONPATH")) if p)
    process = subprocess.Popen(
        [sys.executable, "-c", _script_code(), "--version"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline()  # the slow import has started
        assert first == "slow import started\n", first + process.stderr.read()
        time.sleep(0.05)  # into the sleep (the signal would also interrupt it sooner)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.parametrize("module", ["numpy", "rich.console", "typer", "lamagames.cli.main"])
def test_ctrl_c_during_the_imports_exits_130_without_a_traceback_issue_19(
    module: str, tmp_path: Path
) -> None:
    result = _interrupted_during(module, tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 130, result.stderr
    assert result.stderr.splitlines() == ["Interrupted."]
    assert result.stdout == ""


def test_the_entry_point_imports_only_what_it_must_before_its_guard() -> None:
    """What runs before :func:`lamagames.cli.entry.run` can catch a Ctrl-C (the script's
    import of the entry point, and so of the package) is kept to a few modules of the
    package: no typing, numpy or the like (typing alone took tens of milliseconds on a cold
    start, where a trial's Ctrl-C at 0.02 s still printed a traceback)."""
    code = (
        "import sys; before = set(sys.modules); import lamagames.cli.entry; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30
    ).stdout.split()
    assert set(out) <= {"__future__", "lamagames", "lamagames.cli", "lamagames.cli.entry"}
