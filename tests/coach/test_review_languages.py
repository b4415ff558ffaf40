"""``lama review`` and ``lama hint`` in the terminal's five languages (issue 18 item 4, issue
19 item 5): ``--lang`` (the command's or ``lama --lang``), else the locale; the plain words,
mark names, headings and tables through the gettext catalogs; ``--json`` the same in every
language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from lamagames.cli.hint import MORE_BY_WORD, hint_renderable
from lamagames.cli.i18n import use_language
from lamagames.cli.main import app
from lamagames.coach.review import MARKS, review_record
from lamagames.core.i18n import LANGUAGES, translator, web_catalog
from lamagames.core.records import RecordedAction, iter_replay
from lamagames.dice import review as dice_review
from lamagames.express import review as express_review
from tests.coach.test_review_cli import _save, dice_record, express_record

WEB = "lamagames.web:static/i18n"


def lama(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _flat(text: str) -> str:
    return " ".join(text.split())


def _review(
    tmp_path: Path, name: str, before: tuple[str, ...] = (), after: tuple[str, ...] = ()
) -> tuple[str, bytes]:
    """Review seat 2 of the dice record (it has marked decisions) with the options
    ``before`` and ``after`` the command; the output and the JSON."""
    rec = _save(dice_record(), tmp_path)
    out = tmp_path / f"{name}.json"
    result = lama(*before, "review", rec, "--player", "2", "--rollouts", "16",
                  "--json", str(out), *after)  # fmt: skip
    assert result.exit_code == 0, result.output
    return _flat(result.output), out.read_bytes()


def test_lama_lang_de_review_prints_german_words_and_the_same_json(tmp_path: Path) -> None:
    english, english_json = _review(tmp_path, "en")
    german, german_json = _review(tmp_path, "de", before=("--lang", "de"))
    assert "You lost about" in english and "was better" in english
    assert "LAMA Dice-Analyse: verlorene Punkte pro Platz" in german
    assert "Du hast hier etwa" in german and "wäre besser gewesen." in german
    assert "(Platz 2)" in german and ("(grober Fehler" in german or "(Fehler" in german)
    assert "Markierungen: Ungenauigkeit / Fehler / grober Fehler" in german
    assert "You lost" not in german and "review:" not in german
    # --json stays language-neutral: English words, English mark identifiers
    assert german_json == english_json
    data = json.loads(german_json)
    assert {d["mark"] for d in data["decisions"]} <= {None, *MARKS}
    assert any(d["words"].startswith("You lost about") for d in data["decisions"])


def test_a_french_locale_reviews_in_french_and_the_option_beats_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    french, _json = _review(tmp_path, "fr")
    assert "Analyse LAMA Dice : points perdus par place" in french
    assert "Vous avez perdu environ" in french and "il valait mieux" in french
    assert "You lost" not in french
    italian, _json = _review(tmp_path, "it", after=("--lang", "it"))
    assert "Qui hai perso circa" in italian and "era meglio" in italian
    # the command's own --lang wins over lama --lang
    dutch, _json = _review(tmp_path, "nl", before=("--lang", "de"), after=("--lang", "nl"))
    assert "Je hebt hier ongeveer" in dutch and "Du hast" not in dutch


def test_review_details_table_and_legend_are_translated(tmp_path: Path) -> None:
    dutch, _json = _review(tmp_path, "nl", after=("--lang", "nl", "--details"))
    assert "Elke beslissing (waarden: hoger is beter)" in dutch
    assert "gespeeld" in dutch and "verlies" in dutch and "oordeel" in dutch
    assert "hoe: precies (opgelost) of gesch." in dutch
    assert "Every decision" not in dutch and "est." not in dutch


def test_an_unfinished_record_is_said_so_in_german(tmp_path: Path) -> None:
    full = dice_record()
    short = full.model_copy(update={"actions": full.actions[:30], "result": None})
    result = lama("review", _save(short, tmp_path), "--rollouts", "8", "--lang", "de")
    assert result.exit_code == 2
    assert "die Partie ist nicht beendet: ihre 30 Züge wurden bis zum Ende" in result.output


def _decision_index() -> int:
    """A position of the dice record where the seat to act has a choice."""
    states = list(iter_replay(dice_record()))
    choices = [
        i for i, s in enumerate(states) if s.current_player() >= 0
        and len(s.legal_actions(s.current_player())) > 1
    ]  # fmt: skip
    return choices[0]


def test_lama_hint_lang_nl_prints_dutch_plain_words(tmp_path: Path) -> None:
    rec, at = _save(dice_record(), tmp_path), str(_decision_index())
    english = _flat(lama("hint", rec, "--at", at).output)
    dutch = lama("hint", rec, "--at", at, "--lang", "nl")
    assert dutch.exit_code == 0, dutch.output
    words = _flat(dutch.output)
    assert "Best:" in english and "Het beste:" in words and "Best:" not in words
    assert f"(na {at} van" in words and "is aan de beurt" in words
    assert "lama hint --details toont de exacte waarden" in words
    details = _flat(lama("hint", rec, "--at", at, "--lang", "nl", "--details").output)
    assert "Tip: wat elke zet waard is" in details and "punten: je verwachte" in details
    # --json is the same in every language
    plain = lama("hint", rec, "--at", at, "--json").output
    assert lama("hint", rec, "--at", at, "--json", "--lang", "nl").output == plain


def test_lama_hint_follows_a_german_locale_and_lama_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec, at = _save(dice_record(), tmp_path), str(_decision_index())
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    german = _flat(lama("hint", rec, "--at", at).output)
    assert "Am besten:" in german and "ist am Zug" in german
    italian = _flat(lama("--lang", "it", "hint", rec, "--at", at).output)
    assert "La mossa migliore:" in italian and "tocca a" in italian


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_mark_names_are_the_web_catalogs(lang: str) -> None:
    """Both front ends name the marks alike (the web's ``review.mark.*``, ``review.estimated``)."""
    tr, web = translator(lang), web_catalog(WEB, lang)
    for mark in MARKS:
        assert tr.gettext(mark).lower() == str(web[f"review.mark.{mark}"]).lower()
    assert str(web["review.estimated"]) in tr.gettext("({mark}, estimated)")


def test_dice_loss_words_in_each_language() -> None:
    words = {lang: dice_review.loss_words(6.2, "quit", translator(lang)) for lang in LANGUAGES}
    assert words == {
        "en": "You lost about 6 points here: quitting was better",
        "de": "Du hast hier etwa 6 Punkte verloren: Aussteigen wäre besser gewesen",
        "fr": "Vous avez perdu environ 6 points ici\u00a0: il valait mieux quitter la manche",
        "nl": "Je hebt hier ongeveer 6 punten verloren: stoppen was beter",
        "it": "Qui hai perso circa 6 punti: era meglio uscire",
    }
    # a decimal takes the plural form; English stays as before
    assert dice_review.points(0.44, translator("de")) == "etwa 0.4 Punkte"
    assert dice_review.points(1.0) == "about 1.0 points"
    assert dice_review.move_words("give black", translator("nl")) == "een zwarte fiche teruggeven"


def test_express_words_in_each_language() -> None:
    fr = translator("fr")
    assert express_review.loss_words(0.123, "exit A3", fr) == (
        "Vous avez perdu environ 12 % de chances de gagner ici\u00a0: il valait mieux descendre "
        "du wagon A3"
    )
    assert express_review.loss_words(0.2, "pass") == (
        "You lost about 20% win chance here: passing was better"
    )
    assert express_review.move_words("reboard B5", translator("it")) == "risalire sul vagone B5"


def test_e7_a_missed_exit_is_told_in_german_and_english_in_the_json() -> None:
    record = express_record()
    exit_at = next(i for i, a in enumerate(record.actions) if a.action.startswith("exit"))
    seat = record.actions[exit_at].player
    passed = record.model_copy(update={
        "actions": [*record.actions[:exit_at], RecordedAction(player=seat, action="pass")],
        "result": None,
    })  # fmt: skip
    review = review_record(passed, player=seat, seed=1, rollouts=2)
    last = review.decisions[-1]
    car = last.best.split()[1]
    assert last.words == f"You let an exit go here (E-7): exiting from car {car} was better."
    assert review.words_in(last, translator("de")) == (
        f"Hier hast du die Gelegenheit zum Aussteigen verpasst (E-7): Aussteigen aus Waggon "
        f"{car} wäre besser gewesen."
    )
    assert review.to_json()["decisions"][-1]["words"] == last.words


def test_hint_at_a_german_prompt_names_the_details_word_in_german() -> None:
    """``hint`` at the prompt of ``lama play --lang de``: the words and the way to the table."""
    state = list(iter_replay(dice_record()))[_decision_index()]
    use_language("de")
    console = Console(width=100, record=True)
    console.print(hint_renderable("dice", state, state.current_player()))
    text = " ".join(console.export_text().split())
    assert "Am besten:" in text and "Tippe 'hint details' für die genauen Werte" in text
    assert MORE_BY_WORD not in text
