"""The browser modules are lint-clean (eslint), formatted (prettier) and their pure parts
pass their unit tests (``node --test tests/js/``), with the tool versions pinned in
``package.json`` / ``package-lock.json`` (issue 17). The tool runs need ``npm ci``, which
:func:`npm_helpers.node_modules` runs when ``node_modules`` lacks them; without node and npm
they fail, saying what to install."""

from __future__ import annotations

import json
import os
import subprocess

from npm_helpers import ROOT, node_modules, require


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


def test_eslint_finds_nothing() -> None:
    node_modules()
    run(require("npm"), "run", "--silent", "lint")


def test_prettier_check_passes() -> None:
    node_modules()
    run(require("npm"), "run", "--silent", "format:check")


def test_node_unit_tests_pass() -> None:
    """The unit tests import only the pure modules and node's own test runner."""
    run(require("node"), "--test", "tests/js/")
