"""``lama tutorial`` in the five languages (issue 19 item 5): ``--lang`` or the locale picks
the language of the lessons, the reasons, the suggestion line, the seat names and the
goodbye, as for ``lama play``; the lessons are the web walkthrough's catalog entries
(``<game>.tut.<kind>``), one source for both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli.conftest import Invoke

from lamagames.core.i18n import LANGUAGES, translator
from lamagames.dice import tutorial as dice_tutorial
from lamagames.dice.words import hint_words
from lamagames.express import tutorial as express_tutorial

ROOT = Path(__file__).resolve().parents[2] / "src" / "lamagames"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
TUTORS = {"dice": dice_tutorial, "express": express_tutorial}


def _catalog(game: str, lang: str) -> dict[str, str]:
    words: dict[str, str] = json.loads((ROOT / game / "static" / f"{lang}.json").read_text("utf-8"))
    return words


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(TUTORS))
def test_each_lesson_is_the_web_catalogs_entry_with_its_rulings(game: str, lang: str) -> None:
    """One source: the terminal's lesson is the catalog's ``<game>.tut.<kind>`` of the
    language plus the ruling ids; every kind the tutor knows has an entry and every entry
    of the catalog is a kind the tutor knows."""
    module = TUTORS[game]
    words = _catalog(game, lang)
    prefix = f"{game}.tut."
    kinds = {k[len(prefix) :] for k in words if k.startswith(prefix) and ".why." not in k}
    assert kinds == set(module.RULINGS)
    for kind, rulings in module.RULINGS.items():
        assert module.lesson_text(kind, lang) == f"{words[prefix + kind]} [{', '.join(rulings)}]"


#: The kinds of move the walkthroughs give a reason for (``<game>.tut.why.<kind>``): LAMA
#: Dice's first word of the notation, Lama Express's :func:`~lamagames.express.tutorial.kind_of`.
WHY_KINDS = {
    "dice": {"roll", "quit", "discard", "take", "give"},
    "express": {"move", "board", "exit", "detour", "reboard", "pass"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(TUTORS))
def test_every_reason_is_in_every_catalog(game: str, lang: str) -> None:
    """The terminal reads the reasons from the web catalogs too: each kind of move has one
    in each language, translated (not the English one)."""
    module = TUTORS[game]
    english = _catalog(game, "en")
    for kind in WHY_KINDS[game]:
        text = module.why_text(kind, lang)
        assert text.strip() and text == _catalog(game, lang)[f"{game}.tut.why.{kind}"]
        assert lang == "en" or text != english[f"{game}.tut.why.{kind}"], (kind, lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_dice_walkthrough_speaks_the_chosen_language(lama: Invoke, lang: str) -> None:
    """``lama tutorial dice --lang L``: the lessons, the suggestion, the reason, the seat
    names and the goodbye in L (it printed English whatever the language)."""
    result = lama("tutorial", "dice", "--lang", lang, input="q\n")
    assert result.exit_code == 0, result.output
    flat = _flat(result.output)
    words = _catalog("dice", lang)
    tr = translator(lang)
    for kind in ("start", "turn"):
        assert _flat(words[f"dice.tut.{kind}"]) in flat, (kind, flat)
    assert "[D-6, D-7, D-10, D-8]" in flat
    assert _flat(words["dice.tut.why.roll"]) in flat or _flat(words["dice.tut.why.quit"]) in flat
    suggested = tr.gettext("Suggested: {move} ({label}).").split("{move}")[0]
    assert _flat(suggested) and _flat(suggested) in flat
    assert _flat(tr.gettext("You left the walkthrough.")) in flat
    assert tr.gettext("Player") in flat
    english = _catalog("dice", "en")
    for text in (english["dice.tut.turn"], "Suggested:", "You left the walkthrough.", "Player "):
        assert _flat(text) not in flat, text


def test_german_locale_gives_the_german_walkthrough(
    lama: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``LANG=de_DE.UTF-8 lama tutorial dice``: German without ``--lang``."""
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    result = lama("tutorial", "dice", input="q\n")
    assert result.exit_code == 0, result.output
    flat = _flat(result.output)
    assert _flat(_catalog("dice", "de")["dice.tut.turn"]) in flat
    assert "Vorschlag: roll" in flat and "Du hast die Einführung verlassen." in flat


@pytest.mark.parametrize("lang", TRANSLATED)
def test_express_walkthrough_speaks_the_chosen_language(lama: Invoke, lang: str) -> None:
    result = lama("tutorial", "express", "--lang", lang, input="\n" * 6 + "q\n")
    assert result.exit_code == 0, result.output
    flat = _flat(result.output)
    words = _catalog("express", lang)
    for key in ("express.tut.start", "express.tut.move", "express.tut.why.move"):
        assert _flat(words[key]) in flat, (key, flat)
    assert "[E-10]" in flat and "[E-6]" in flat
    english = _catalog("express", "en")
    assert _flat(english["express.tut.move"]) not in flat
    assert _flat(english["express.tut.why.move"]) not in flat
    assert translator(lang).gettext("Bot") in flat


def test_bad_lang_is_one_line(lama: Invoke) -> None:
    result = lama("tutorial", "dice", "--lang", "klingon")
    assert result.exit_code == 2
    assert "klingon" in result.output and "--lang" in result.output


def test_hint_words_in_each_language() -> None:
    """The plain-words hint the dice walkthrough (and ``hint`` at the prompt) prints is
    the terminal's catalog's (D-7: a quit's row is final)."""
    from lamagames.dice.hints import ActionHint

    found = [ActionHint(0, "roll", 7.8, None, 0.25, True, "x", True),
             ActionHint(1, "quit", 28.0, None, None, False, "x", False)]  # fmt: skip
    english = hint_words(found)
    assert english == [
        "Roll: about 8 points expected this round · Quit now: 28 points",
        "Best: roll; the roll busts 25% of the time.",
        "Some of these are estimates.",
    ]
    assert hint_words(found, translator("de")) == [
        "Würfeln: etwa 8 Punkte in dieser Runde erwartet · Jetzt aussteigen: 28 Punkte",
        "Am besten: würfeln; der Wurf geht in 25% der Fälle daneben.",
        "Einige dieser Werte sind Schätzungen.",
    ]
    for lang in TRANSLATED:
        lines = hint_words(found, translator(lang))  # longer words: one move a line
        assert len(lines) in (3, 4) and not set(lines) & set(english), lines
        assert "28" in lines[0] + lines[1] and "25" in lines[-2], lines


def test_lang_before_the_command(lama: Invoke) -> None:
    """``lama --lang de tutorial dice`` (the issue's example) speaks German."""
    result = lama("--lang", "de", "tutorial", "dice", input="q\n")
    assert result.exit_code == 0, result.output
    flat = _flat(result.output)
    assert _flat(_catalog("dice", "de")["dice.tut.turn"]) in flat
    assert "Vorschlag: roll" in flat
