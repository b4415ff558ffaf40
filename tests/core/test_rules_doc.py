"""``docs/rules.md`` is the one rules reference: every ruling id cited in ``src/`` and
``tests/`` is defined there, and the rules text the package ships (``lama rules GAME``) is
generated from it, so the two cannot drift."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from lamagames.cli.main import app
from lamagames.cli.views import get_view

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
SCRIPT = ROOT / "scripts" / "sync_rules_text.py"
#: A ruling id as code and tests cite it: ``D-8``, ``D-8.5``, ``E-12``.
CITATION = re.compile(r"\b([DE]-\d+(?:\.\d+)?)\b")
#: A ruling defined in docs/rules.md: an HTML anchor ``<a id="D-8.5"></a>``.
ANCHOR = re.compile(r'<a id="([DE]-\d+(?:\.\d+)?)"></a>')
#: Every ruling the rules define (D-8's cases have ids of their own).
RULINGS = (
    [f"D-{n}" for n in range(1, 12)]
    + [f"D-8.{n}" for n in range(1, 6)]
    + [f"E-{n}" for n in range(1, 13)]
)
SKIPPED_PARTS = {"__pycache__", ".mypy_cache", ".pytest_cache", "node_modules"}


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sync_rules_text", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def defined_ids() -> list[str]:
    return ANCHOR.findall(RULES.read_text(encoding="utf-8"))


def source_texts() -> list[tuple[Path, str]]:
    """Every text file under src/ and tests/ (code, docs, package data, golden files)."""
    out = []
    for folder in (ROOT / "src", ROOT / "tests"):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or SKIPPED_PARTS & set(path.parts):
                continue
            if path.suffix in {".pyc", ".png", ".so"} or path.parent.name.endswith("egg-info"):
                continue
            try:
                out.append((path, path.read_text(encoding="utf-8")))
            except UnicodeDecodeError:
                continue
    return out


def test_every_ruling_is_defined_once() -> None:
    ids = defined_ids()
    assert sorted(ids) == sorted(RULINGS), "docs/rules.md must define exactly these rulings"
    assert len(ids) == len(set(ids)), "a ruling is defined twice in docs/rules.md"


def test_every_cited_ruling_resolves() -> None:
    defined = set(defined_ids())
    unresolved = []
    for path, text in source_texts():
        for number, line in enumerate(text.splitlines(), start=1):
            for ruling in CITATION.findall(line):
                if ruling not in defined:
                    unresolved.append(f"{path.relative_to(ROOT)}:{number}: {ruling}")
    assert not unresolved, "ruling ids not defined in docs/rules.md:\n" + "\n".join(unresolved)


def test_citations_are_found() -> None:
    """The scan above sees the code's citations (a regex that matched nothing would pass)."""
    cited = {r for _, text in source_texts() for r in CITATION.findall(text)}
    assert {"D-8.5", "D-10", "E-9", "E-12"} <= cited


def test_nothing_points_at_the_old_rules_files() -> None:
    old = ("RULES" + ".md", "RULES" + "_TEXT")
    stale = [
        f"{path.relative_to(ROOT)}: {name}"
        for path, text in source_texts()
        for name in old
        if name in text and path != Path(__file__)
    ]
    assert not stale, "cite docs/rules.md instead:\n" + "\n".join(stale)


def test_package_rules_text_is_generated_from_docs() -> None:
    script = load_script()
    sections = script.sections(RULES.read_text(encoding="utf-8"))
    assert set(sections) == {"dice", "express"}
    for game, body in sections.items():
        shipped = script.target(game).read_text(encoding="utf-8")
        assert shipped == body, (
            f"src/lamagames/{game}/rules.md differs from its section of docs/rules.md; "
            "run: python scripts/sync_rules_text.py"
        )
        assert "<a id=" not in body


def test_section_split_refuses_a_repeated_game() -> None:
    script = load_script()
    text = "<!-- rules:dice -->\nA\n<!-- /rules:dice -->\n" * 2
    with pytest.raises(ValueError, match="two sections for 'dice'"):
        script.sections(text)


@pytest.mark.parametrize(("game", "heading"), [("dice", "D-8.5"), ("express", "E-9 Windows")])
def test_lama_rules_prints_the_section(game: str, heading: str) -> None:
    assert heading in get_view(game).rules_text("en")
    # English: the rules follow the locale (issue 19), LC_ALL before LANG.
    env = {"COLUMNS": "100", "LC_ALL": "C", "LANG": "C"}
    result = CliRunner().invoke(app, ["rules", game], env=env)
    assert result.exit_code == 0, result.output
    assert heading in result.output
