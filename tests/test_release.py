"""Release metadata: the license, one source for the version, the changelog (issue 20)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import metadata, version
from pathlib import Path

import lamagames

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict[str, object]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(project, dict)
    return project


def test_version_has_one_source() -> None:
    """pyproject's version is what the metadata, ``__version__`` and ``lama --version`` say."""
    declared = _pyproject()["version"]
    assert isinstance(declared, str)
    assert version("lamagames") == declared
    assert lamagames.__version__ == declared
    shown = subprocess.run(
        [sys.executable, "-m", "lamagames", "--version"],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout  # fmt: skip
    assert shown.strip() == f"lama (lamagames) {declared}"
    # no second literal copy of the number in the package's Python sources
    for path in (ROOT / "src" / "lamagames").rglob("*.py"):
        assert f'"{declared}"' not in path.read_text(encoding="utf-8"), path


def test_license_file_and_metadata() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the lamagames authors" in text
    meta = metadata("lamagames")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert meta["Author"] == "the lamagames authors"
    classifiers = meta.get_all("Classifier") or []
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert "Typing :: Typed" in classifiers
    assert "lama dice" in (meta["Keywords"] or "")


def test_changelog_keeps_a_changelog_form() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.MULTILINE)
    assert headings[0] == ("Unreleased", "")
    released = [name for name, _date in headings[1:]]
    assert _pyproject()["version"] in released
    assert all(date for _name, date in headings[1:])  # every release has its date
    for section in re.findall(r"^### (.+)$", text, re.MULTILINE):
        assert section in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
