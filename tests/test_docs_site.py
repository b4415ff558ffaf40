"""The documentation site's sources (issue 20): mkdocs.yml's nav and the API reference pages.

CI builds the site with ``mkdocs build --strict`` (``.ci/run``); these quick checks catch the
common breakages in the test run too: a nav entry whose page is missing, an API page naming
a module that does not exist.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CONFIG = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_nav_pages_exist() -> None:
    assert re.search(r"^docs_dir: docs$", CONFIG, re.MULTILINE)
    assert re.search(r"^strict: true$", CONFIG, re.MULTILINE)
    nav = CONFIG[CONFIG.index("\nnav:\n") : CONFIG.index("\nvalidation:\n")]
    pages = re.findall(r"^ +- [^:\n]+: (\S+\.md)$", nav, re.MULTILINE)
    assert "index.md" in pages and "api/index.md" in pages
    for page in pages:
        assert (DOCS / page).is_file(), page
    # every hand-written guide page of docs/ is in the nav (new pages: add them there)
    guide = {p.name for p in DOCS.glob("*.md")}
    missing = guide - set(pages)
    assert not missing, f"docs pages not in mkdocs.yml's nav: {sorted(missing)}"


def test_api_pages_name_existing_modules() -> None:
    names = []
    for page in sorted((DOCS / "api").glob("*.md")):
        names += re.findall(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), re.MULTILINE)
    assert "lamagames.core" in names and "lamagames.sim.summary" in names
    for name in names:
        assert importlib.util.find_spec(name) is not None, name


def test_code_fences_close_on_a_line_of_their_own() -> None:
    """A closing fence with text after it (docs/rl.md had "``` The observation Box is")
    does not close: the block swallows the following paragraphs and headings, and
    ``mkdocs build --strict`` does not notice."""
    pages = [*DOCS.glob("*.md"), *(DOCS / "api").glob("*.md"), ROOT / "README.md"]
    for page in pages:
        inside = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if not stripped.startswith("```"):
                continue
            if inside:
                assert stripped == "```", f"{page.name}:{number}: text after a closing fence"
            else:
                assert re.fullmatch(r"```[\w+-]*", stripped), f"{page.name}:{number}: {line!r}"
            inside = not inside
        assert not inside, f"{page.name}: a code block is never closed"
