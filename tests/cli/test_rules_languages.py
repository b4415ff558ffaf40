"""``lama rules GAME`` in the terminal's language (issue 19 item 5): ``--lang``, else the
locale, as ``lama play``; English when the locale names none of the languages."""

from __future__ import annotations

import pytest
from tests.cli.conftest import Invoke

#: A heading of each language's Lama Express rules (E-9) and LAMA Dice rules (D-8).
EXPRESS = {"en": "E-9 Windows", "de": "E-9 Fenster", "fr": "E-9 Fenêtres",
           "nl": "E-9 Vensters", "it": "E-9 Finestre"}  # fmt: skip
DICE = {"en": "D-8 What a roll does", "de": "D-8 Was ein Wurf bewirkt",
        "fr": "D-8 Ce que fait un lancer", "nl": "D-8 Wat een worp doet",
        "it": "D-8 Che cosa fa un tiro"}  # fmt: skip


@pytest.mark.parametrize("lang", sorted(EXPRESS))
def test_lang_option_picks_the_rules_language(lama: Invoke, lang: str) -> None:
    for game, headings in (("express", EXPRESS), ("dice", DICE)):
        result = lama("rules", game, "--lang", lang)
        assert result.exit_code == 0, result.output
        assert headings[lang] in result.output, (game, lang)
        others = [h for other, h in headings.items() if other != lang]
        assert not [h for h in others if h in result.output]


def test_french_rules_keep_the_ruling_ids_and_the_notation(lama: Invoke) -> None:
    """``lama rules express --lang fr`` (issue 19: the rules were English only)."""
    out = lama("rules", "express", "--lang", "fr").output
    assert "E-7 Les actions libres" in out and "Fenêtres" in out
    assert "board A1" in out and "(E-12)" in out
    assert "Free actions" not in out


@pytest.mark.parametrize(
    ("locale", "heading"),
    [("de_DE.UTF-8", "D-8 Was ein Wurf bewirkt"), ("nl_BE.UTF-8", "D-8 Wat een worp doet"),
     ("es_ES.UTF-8", "D-8 What a roll does"), ("C", "D-8 What a roll does")],
)  # fmt: skip
def test_the_locale_picks_the_rules_language(
    lama: Invoke, monkeypatch: pytest.MonkeyPatch, locale: str, heading: str
) -> None:
    monkeypatch.setenv("LANG", locale)
    result = lama("rules", "dice")
    assert result.exit_code == 0, result.output
    assert heading in result.output


def test_bad_lang_is_a_usage_error(lama: Invoke) -> None:
    result = lama("rules", "dice", "--lang", "xx")
    assert result.exit_code == 2 and "xx" in result.output and "--lang" in result.output


def test_rules_at_the_prompt_follow_the_game_language(lama: Invoke) -> None:
    """``rules`` typed at a ``lama play`` prompt prints the chosen language's rules."""
    result = lama("play", "dice", "--seats", "human,benchmark", "--seed", "2", "--lang", "it",
                  input="rules\nq\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert DICE["it"] in result.output and DICE["en"] not in result.output


def test_lang_before_the_command(lama: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    """``lama --lang fr rules express``: the option before the command, over the locale;
    the command's own ``--lang`` wins; it does not stick to the next command."""
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    result = lama("--lang", "fr", "rules", "express")
    assert result.exit_code == 0, result.output
    assert EXPRESS["fr"] in result.output
    assert DICE["it"] in lama("--lang", "de", "rules", "dice", "--lang", "it").output
    assert DICE["nl"] in lama("rules", "dice").output  # the locale again
    bad = lama("--lang", "xx", "rules", "dice")
    assert bad.exit_code == 2 and "xx" in bad.output and "--lang" in bad.output


def test_lama_rules_without_a_game_prints_every_ruling_of_both_games(lama: Invoke) -> None:
    """``lama rules`` alone is the whole rules reference (docs/rules.md): every ruling id of
    both games, LAMA Dice first (issue 17; it used to stop at "Missing argument 'GAME'")."""
    result = lama("rules", "--lang", "en")
    assert result.exit_code == 0, result.output
    ids = [f"D-{n} " for n in range(1, 12)] + [f"D-8.{n}" for n in range(1, 6)]
    ids += [f"E-{n} " for n in range(1, 13)]
    assert [i for i in ids if i not in result.output] == []
    assert result.output.index(DICE["en"]) < result.output.index(EXPRESS["en"])
