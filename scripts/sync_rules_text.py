"""Write each game's rules text (package data) from its section of ``docs/rules.md``.

``docs/rules.md`` is the one source of the rules and their ruling ids (D-n, E-n). The
installed package cannot read ``docs/``, so ``lama rules GAME`` prints
``lamagames/<game>/rules.md``, which this script writes: the text between the markers
``<!-- rules:GAME -->`` and ``<!-- /rules:GAME -->``, with the HTML anchors
(``<a id="D-8.5"></a>``) removed. ``tests/core/test_rules_doc.py`` regenerates the texts in
memory and fails when a package file differs, so the two never drift.

Usage (from the repository root)::

    python scripts/sync_rules_text.py          # rewrite the package files
    python scripts/sync_rules_text.py --check  # exit 1 if one differs
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "docs" / "rules.md"
PACKAGE = ROOT / "src" / "lamagames"

#: ``<!-- rules:dice -->`` ... ``<!-- /rules:dice -->``: one game's section.
SECTION = re.compile(
    r"<!-- rules:(?P<game>[a-z0-9_]+) -->\n(?P<body>.*?)<!-- /rules:(?P=game) -->", re.S
)
#: An anchor of a ruling id, dropped from the terminal text.
ANCHOR = re.compile(r'<a id="[^"]*"></a>')


def sections(text: str) -> dict[str, str]:
    """The rules text of every game in ``text`` (the contents of ``docs/rules.md``).

    Returns:
        game id -> Markdown without anchors, ending with one newline.

    Raises:
        ValueError: a game's section appears twice.
    """
    out: dict[str, str] = {}
    for match in SECTION.finditer(text):
        game = match["game"]
        if game in out:
            raise ValueError(f"docs/rules.md: two sections for {game!r}")
        out[game] = ANCHOR.sub("", match["body"]).strip() + "\n"
    return out


def target(game: str) -> Path:
    """Where the package keeps a game's rules text: ``src/lamagames/<game>/rules.md``."""
    return PACKAGE / game / "rules.md"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every game's rules text; 1 if one differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for game, body in sections(SOURCE.read_text(encoding="utf-8")).items():
        path = target(game)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == body:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(body, encoding="utf-8")
    for path in stale:
        verb = "differs" if args.check else "written"
        print(f"{path.relative_to(ROOT)}: {verb}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
