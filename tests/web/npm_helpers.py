"""The pinned JavaScript tools of the tests (eslint, prettier, axe-core): ``npm ci`` from
``package-lock.json`` when ``node_modules`` lacks them, so that the README's one test command
runs every check on a fresh clone instead of skipping the JavaScript ones."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
#: Files whose presence means ``npm ci`` has run (one per devDependency the tests use).
NEEDED = (
    NODE_MODULES / ".bin" / "eslint",
    NODE_MODULES / ".bin" / "prettier",
    NODE_MODULES / "axe-core" / "axe.min.js",
)


def require(program: str) -> str:
    """The path of ``program`` (``node``, ``npm``), or a test failure saying how to install
    it: a missing tool is an unmet requirement of the suite, never a silent skip."""
    path = shutil.which(program)
    if path is None:
        pytest.fail(f"{program} is not installed: apt-get install nodejs npm (Debian)")
    return path


def node_modules() -> Path:
    """``node_modules`` with the pinned devDependencies, running ``npm ci`` first if one of
    :data:`NEEDED` is missing (fails the test if npm is missing or ``npm ci`` fails)."""
    if not all(path.exists() for path in NEEDED):
        done = subprocess.run(
            [require("npm"), "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            pytest.fail(f"npm ci failed:\n{done.stdout}\n{done.stderr}")
    return NODE_MODULES
