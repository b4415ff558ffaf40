"""The rules text in every language of the terminal and the web app (issue 19 item 5):
``lamagames/<game>/rules.<lang>.md`` beside the English ``rules.md`` (generated from
docs/rules.md), with the same ruling ids, headings and Markdown structure, so a ruling link
(``/rules/dice#D-8.2``) and a citation ([D-8.2]) find their ruling in every language."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from lamagames.cli.views import get_view
from lamagames.core.i18n import LANGUAGES, localized_text

ROOT = Path(__file__).resolve().parents[2] / "src" / "lamagames"
GAMES = ("dice", "express")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
RULING = re.compile(r"\b([DE]-\d+(?:\.\d+)?)\b")
HEADING = re.compile(r"^(#{1,6}) (.*)$")
#: A numbered case or a bullet of a list (``1. **D-8.1 ...``, ``- **Board**``).
LIST_ITEM = re.compile(r"^\s*(?:\d+\.|-) ")
#: An inline code span: notation, commands and symbols stay as they are (``take 5``, ``L``).
CODE = re.compile(r"`([^`]+)`")
#: The heading of each game's ruling D-8.2 / E-9 in each language (a spot check that the
#: file is that language).
SAMPLE = {
    ("dice", "de"): "### D-8 Was ein Wurf bewirkt",
    ("dice", "fr"): "### D-8 Ce que fait un lancer",
    ("dice", "nl"): "### D-8 Wat een worp doet",
    ("dice", "it"): "### D-8 Che cosa fa un tiro",
    ("express", "de"): "### E-9 Fenster",
    ("express", "fr"): "### E-9 Fenêtres",
    ("express", "nl"): "### E-9 Vensters",
    ("express", "it"): "### E-9 Finestre",
}


def _text(game: str, lang: str) -> str:
    name = "rules.md" if lang == "en" else f"rules.{lang}.md"
    return (ROOT / game / name).read_text(encoding="utf-8")


def structure(text: str) -> dict[str, object]:
    """What must be the same in every language: the headings' levels and ruling ids, the
    bold leads of the rulings (``**D-8.1 ...``), every ruling id cited (with repeats), the
    code spans, the list items and the table rows."""
    lines = text.splitlines()
    headings = []
    for line in lines:
        found = HEADING.match(line)
        if found:
            ids = RULING.findall(found.group(2))
            headings.append((len(found.group(1)), ids[0] if ids else None))
    return {
        "headings": headings,
        "bold leads": re.findall(r"\*\*([DE]-\d+(?:\.\d+)?) ", text),
        "ruling ids": Counter(RULING.findall(text)),
        "code spans": Counter(CODE.findall(text)),
        "list items": sum(1 for line in lines if LIST_ITEM.match(line)),
        "table rows": [line.count("|") for line in lines if line.startswith("|")],
    }


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_translation_has_the_english_ruling_ids_and_structure(game: str, lang: str) -> None:
    english, other = structure(_text(game, "en")), structure(_text(game, lang))
    for part, value in english.items():
        assert other[part] == value, (game, lang, part)


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_translation_is_translated(game: str, lang: str) -> None:
    """Not a copy: its own heading for the sample ruling, and hardly a line the same as in
    English (the title, the table and the dice rows may be)."""
    text = _text(game, lang)
    assert SAMPLE[(game, lang)] in text.splitlines()
    english = set(_text(game, "en").splitlines())
    same = [line for line in text.splitlines() if line.strip() and line in english]
    assert len(same) <= 8, same


def test_the_structure_check_can_fail() -> None:
    english = _text("dice", "en")
    assert structure(english.replace("### D-9 End", "#### D-9 End")) != structure(english)
    assert structure(english.replace("[D-8.4]", "")) == structure(english)  # not in the text
    assert structure(english.replace("as in\n   D-8.4", "as in\n   D-8.3")) != structure(english)
    assert structure(english.replace("`take 5`", "`prendre 5`")) != structure(english)


@pytest.mark.parametrize("game", GAMES)
def test_each_view_reads_its_language(game: str) -> None:
    view = get_view(game)
    assert view.rules_text("en") == _text(game, "en")
    for lang in TRANSLATED:
        assert view.rules_text(lang) == _text(game, lang)
    with pytest.raises(ValueError, match="klingon"):
        view.rules_text("klingon")


def test_a_text_without_translation_is_english() -> None:
    """English is the fallback: a package file with no ``<stem>.<lang>.md`` beside it."""
    assert localized_text("lamagames", "py.typed", "de") == localized_text(
        "lamagames", "py.typed", "en"
    )
