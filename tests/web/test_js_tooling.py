"""The browser modules are lint-clean (eslint), formatted (prettier) and their pure parts
pass their unit tests (``node --test tests/js/``), with the tool versions pinned in
``package.json`` / ``package-lock.json`` (issue 17). The tool runs need ``npm ci`` first
(``.ci/run`` does it) and are skipped without ``node_modules``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
needs_npm = pytest.mark.skipif(
    shutil.which("npm") is None or not (NODE_MODULES / ".bin" / "eslint").exists(),
    reason="needs node and `npm ci` (node_modules)",
)


def run(*command: str) -> None:
    env = {**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"}
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"


def test_tool_versions_are_pinned_and_locked() -> None:
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    wanted = package["devDependencies"]
    assert {"eslint", "prettier"} <= set(wanted)
    for name, version in wanted.items():
        assert version[0].isdigit(), f"{name} {version!r} is not an exact version"
        locked = lock["packages"][f"node_modules/{name}"]["version"]
        assert locked == version, f"package-lock.json has {name} {locked}, package.json {version}"
    assert set(lock["packages"][""]["devDependencies"]) == set(wanted)


@needs_npm
def test_eslint_finds_nothing() -> None:
    run("npm", "run", "--silent", "lint")


@needs_npm
def test_prettier_check_passes() -> None:
    run("npm", "run", "--silent", "format:check")


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_node_unit_tests_pass() -> None:
    """The unit tests import only the pure modules and node's own test runner."""
    run("node", "--test", "tests/js/")
