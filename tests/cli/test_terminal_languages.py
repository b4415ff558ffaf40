"""The terminal in English, German, French, Dutch and Italian (issue 19, item 5): gettext
catalogs chosen by ``--lang`` or the locale, complete, with the same placeholders, plural
forms through ngettext, compiled files equal to their sources."""

from __future__ import annotations

import io
import re
import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from tests.cli.conftest import Invoke

from lamagames.bots.base import make_bot
from lamagames.cli.express_view import ExpressView
from lamagames.cli.i18n import kind_name, language_now, use_language
from lamagames.core.game import State
from lamagames.core.i18n import (
    LANGUAGES,
    language_from_environment,
    parse_language,
    translator,
    web_text,
)
from lamagames.core.records import SeatInfo, load_record
from lamagames.dice import render as dice_render
from lamagames.dice.game import DiceGame, as_dice_state
from lamagames.express import narration
from lamagames.express.game import ExpressGame, as_express_state
from lamagames.express.state import ExpressState
from lamagames.express.table import table_lines
from lamagames.sim.runner import play_game

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "lamagames" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "_mark": None, "_mark_constant": None}


def _po(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "lamagames.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def _fields(text: str) -> set[str]:
    """The ``str.format`` placeholders of ``text``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


# ------------------------------------------------------------------ the catalogs


@pytest.mark.parametrize("lang", TRANSLATED)
def test_committed_mo_equals_compiled_po(lang: str) -> None:
    """Each shipped .mo is what ``pybabel compile`` makes of its .po (no stale binary)."""
    compiled = io.BytesIO()
    write_mo(compiled, _po(lang), use_fuzzy=False)
    shipped = (LOCALE / lang / "LC_MESSAGES" / "lamagames.mo").read_bytes()
    assert shipped == compiled.getvalue(), f"run pybabel compile for {lang} (docs/cli.md)"


def test_template_has_every_message_of_the_sources() -> None:
    """The .pot holds exactly the messages extracted from the files babel.cfg names (run
    pybabel extract and update after changing the words, docs/cli.md)."""
    config = (ROOT / "babel.cfg").read_text(encoding="utf-8")
    sources = re.findall(r"^\[python: (.+)\]$", config, flags=re.MULTILINE)
    assert sources
    found: set[str] = set()
    for source in sources:
        # A call inside an f-string's braces is invisible to the extractor.
        assert "{_(" not in (ROOT / source).read_text(encoding="utf-8"), source
        for _line, message, _comments, _context in extract_from_file(
            "python", ROOT / source, keywords=KEYWORDS
        ):
            found.add(message[0] if isinstance(message, tuple) else message)
    with (LOCALE / "lamagames.pot").open("rb") as handle:
        template = {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(handle) if m.id}
    assert found == template


def test_every_source_with_marked_messages_is_extracted() -> None:
    """Each file of the package that marks messages (``_()``, ``ngettext()``, ``_mark()``)
    is one babel.cfg names, so its words reach the catalogs (``lama tutorial`` and the dice
    hint words were marked in files it did not name: their words stayed English)."""
    config = (ROOT / "babel.cfg").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\[python: (.+)\]$", config, flags=re.MULTILINE))
    marking = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "src" / "lamagames").rglob("*.py")
        if next(iter(extract_from_file("python", path, keywords=KEYWORDS)), None) is not None
    }
    assert {"src/lamagames/cli/tutorial.py", "src/lamagames/dice/words.py"} <= marking
    assert marking <= listed, sorted(marking - listed)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_translated_with_the_same_placeholders(lang: str) -> None:
    """Every message of the template is translated (no fuzzy, none empty), with the same
    ``{placeholders}`` as its English, every plural form too (issue 19: a test that every
    catalog has every key and every placeholder)."""
    with (LOCALE / "lamagames.pot").open("rb") as handle:
        template = {m.id for m in read_po(handle) if m.id}
    catalog = _po(lang)
    ids = {m.id for m in catalog if m.id}
    assert ids == template, f"pybabel update for {lang}"
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        if isinstance(message.id, tuple):
            assert isinstance(message.string, tuple)
            assert len(message.string) == catalog.num_plurals
            english = _fields(message.id[1])
            assert _fields(message.id[0]) == english
            for form in message.string:
                assert form.strip(), message.id
                assert _fields(form) == english, (message.id, form)
        else:
            assert isinstance(message.id, str) and isinstance(message.string, str)
            assert message.string.strip(), message.id
            assert _fields(message.string) == _fields(message.id), (message.id, message.string)


#: Messages whose translation may be the English itself (the same word in that language).
SAME_AS_ENGLISH = {"Bot {n}", "Chips {black}10 {white}1", "Score", "Round {n}",
                   "orange", "Bot", "{points} points", "{move}: {outcome}", "{label}: {text}",
                   # the review's words: French "points", Dutch "blunder" (as the web's)
                   "points", "{inaccuracy} / {mistake} / {blunder} points", "blunder"}  # fmt: skip


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_differ_from_english(lang: str) -> None:
    """Messages are translated, not copied (a copied message would pass the checks above),
    but for the few words that are the same in the language."""
    same = {m.id for m in _po(lang) if m.id and not isinstance(m.id, tuple) and m.string == m.id}
    assert same <= SAME_AS_ENGLISH


# ------------------------------------------------------------------ choosing the language


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "nl_NL.UTF-8"}, "nl"),
        ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "nl_NL", "LC_ALL": "it_IT.UTF-8"}, "it"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "es_ES.UTF-8"}, "en"),
        ({"LC_ALL": "", "LANG": "fr_BE@euro"}, "fr"),
        ({}, "en"),
    ],
)
def test_language_from_the_locale(environ: dict[str, str], expected: str) -> None:
    """LC_ALL before LC_MESSAGES before LANG (POSIX); unknown or C locales are English."""
    assert language_from_environment(environ) == expected


@pytest.mark.parametrize("text", ["de", "DE", "de_DE", "de-DE", "de_DE.UTF-8"])
def test_lang_values(text: str) -> None:
    assert parse_language(text) == "de"


@pytest.mark.parametrize("command", [("play", "dice", "--seats", "random,random"), ("replay", "x")])
def test_bad_lang_is_one_line_listing_the_languages(command: tuple[str, ...]) -> None:
    """The real entry point (Typer's test runner formats errors itself)."""
    result = subprocess.run(
        [sys.executable, "-m", "lamagames", *command, "--lang", "klingon"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "--lang" in lines[0] and "klingon" in lines[0]
    assert "en, de, fr, nl, it" in lines[0]
    assert result.stdout == ""


def test_bad_lang_keeps_the_language(lama: Invoke) -> None:
    use_language("de")
    assert lama("play", "dice", "--seats", "random,random", "--lang", "xx").exit_code == 2
    assert language_now() == "de"


def test_lang_option_beats_the_locale(lama: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    result = lama("play", "dice", "--seats", "benchmark,benchmark", "--seed", "1", "--lang", "it")
    assert result.exit_code == 0, result.output
    assert "Round 1: sei carte a testa; inizia Bot 1." in result.output
    assert "Vince: " in result.output


def test_german_locale_plays_in_german(lama: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    """``LANG=de_DE.UTF-8 lama play dice --seats benchmark,benchmark --seed 1`` speaks German
    (issue 19: it printed English)."""
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    result = lama("play", "dice", "--seats", "benchmark,benchmark", "--seed", "1")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Runde 1: Jeder bekommt sechs Karten; Bot 1 beginnt." in out
    assert "Punktestand: " in out and "Lama-Reihe" in out
    assert "Sieger: " in out
    assert "Round 1: six cards" not in out and "Scores:" not in out


def test_english_by_default(lama: Invoke) -> None:
    result = lama("play", "dice", "--seats", "benchmark,benchmark", "--seed", "1")
    assert "Round 1: six cards each are dealt; Bot 1 starts." in result.output


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ["Spieler 1 ist dran", "Tippe ? bei einer Eingabe", "die drei Würfel werfen",
                "Eine Eingabe beantworten", "Es gibt keine Wahl 9.",
                "'foo' ist keine Aktion dieses Spiels.", "Spieler 1 hat das Spiel verlassen.",
                "Aufzeichnung gespeichert in"]),
        ("fr", ["Au tour de Joueur 1", "lancer les trois dés", "Répondre à l’invite",
                "Il n’y a pas de choix 9.", "Joueur 1 a quitté la partie."]),
        ("nl", ["Speler 1 is aan de beurt", "de drie dobbelstenen gooien",
                "Een vraag beantwoorden", "Er is geen keuze 9.",
                "Speler 1 heeft het spel verlaten."]),
        ("it", ["Tocca a Giocatore 1", "tira i tre dadi", "Rispondere al prompt",
                "Non c’è la scelta 9.", "Giocatore 1 ha lasciato la partita."]),
    ],
)  # fmt: skip
def test_the_play_loop_speaks_the_language(
    lama: Invoke, tmp_path: Path, lang: str, words: list[str]
) -> None:
    """A person's prompt, menu, help, an error and leaving, in each language."""
    record = tmp_path / "game.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "human,benchmark", "--seed", "2", "--lang", lang,
        "--record", str(record), input="?\n9\nfoo\n1\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.output, (word, result.output)
    assert "Type a number" not in result.output


def test_replay_speaks_the_language(lama: Invoke, tmp_path: Path) -> None:
    record = tmp_path / "game.lamarec.json"
    played = lama("play", "express", "--seats", "benchmark,random", "--seed", "4",
                  "--record", str(record), "--quiet", "--games", "1")  # fmt: skip
    assert played.exit_code == 0, played.output
    result = lama("replay", str(record), "--lang", "nl", input="n\n?\nz\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Stap 1/" in out and "gooit" in out
    assert "n of Enter: volgende" in out and "Onbekende opdracht 'z'." in out
    final = lama("replay", str(record), "--final", "--lang", "fr")
    assert "Étape " in final.output and "Tour\u00a0: " in final.output


@pytest.mark.parametrize(
    ("lang", "human", "clever"),
    [
        ("en", "human", "Clever"),
        ("de", "Mensch", "Schlau"),
        ("fr", "humain", "Malin"),
        ("nl", "persoon", "Slim"),
        ("it", "persona", "Furbo"),
    ],
)
def test_the_header_names_the_seats_kinds_in_the_language(
    lama: Invoke,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    lang: str,
    human: str,
    clever: str,
) -> None:
    """The header of ``lama play`` and ``lama replay`` and the LAMA Dice seat list say
    ``human`` and the bot kinds' display names (the web app's ``bot.<kind>``) in the
    language, by the locale and by ``--lang`` (issue 19: ``(human)`` in every language, then
    ``(heuristic)`` and ``[heuristic]`` as typed)."""
    monkeypatch.setenv("LANG", f"{lang}_{lang.upper()}.UTF-8" if lang != "en" else "C")
    record = tmp_path / "game.lamarec.json"
    played = lama("play", "dice", "--seats", "human,heuristic", "--seed", "1",
                  "--record", str(record), input="1\nq\n")  # fmt: skip
    assert played.exit_code == 0, played.output
    header = played.output.splitlines()[0]
    assert f" 1 ({human}), " in header and f" 2 ({clever}) · " in header
    assert f"2 Bot 2 [{clever}]" in played.output  # the seat list of the table
    assert "heuristic" not in played.output
    if lang != "en":
        assert "(human)" not in played.output
    monkeypatch.setenv("LANG", "C")
    replayed = lama("replay", str(record), "--final", "--lang", lang)
    assert replayed.exit_code == 0, replayed.output
    assert f" 1 ({human}), Bot 2 ({clever}) · " in replayed.output.splitlines()[0]


def test_a_bot_kind_without_a_display_name_is_shown_as_typed() -> None:
    """A kind the web app's catalogs do not name (a new game's bot) stays as typed."""
    use_language("fr")
    try:
        assert kind_name("stepper") == "stepper"
        assert kind_name("exact") == "Exact (solveur)"
        assert kind_name("human") == "humain"
    finally:
        use_language("en")


# ------------------------------------------------------------------ plural forms


def test_french_plurals_for_zero_one_two() -> None:
    """French counts 0 and 1 in the singular, English only 1 (ngettext, Babel's plural
    rule in the catalog's header)."""
    fr = translator("fr")
    assert [dice_render.points(n, fr) for n in (0, 1, 2)] == ["0 point", "1 point", "2 points"]
    assert [dice_render.points(n) for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert fr.ngettext("{n} action", "{n} actions", 0).format(n=0) == "0 action"
    de = translator("de")
    assert [dice_render.points(n, de) for n in (0, 1, 2)] == ["0 Punkte", "1 Punkt", "2 Punkte"]


def test_french_quit_with_no_points_is_singular() -> None:
    """Through the narration (D-7 quit): « 0 point » in French, "0 points" in English."""
    from lamagames.dice.events import Quit

    event = Quit(seat=0, row_points=0)
    assert dice_render.describe_events([event], ["Ann"], translator("fr")) == [
        "Ann quitte la manche avec 0 point dans sa rangée."
    ]
    assert dice_render.describe_events([event], ["Ann"]) == ["Ann quits with 0 points in the row."]


# ------------------------------------------------------------------ completeness


class _Told:
    """An observer of :func:`play_game` keeping the narrated lines."""

    def __init__(self, first: State, tell: Callable[[State, int, int, State], list[str]]):
        self.last = first
        self.tell = tell
        self.lines: list[str] = []

    def __call__(self, state: State, player: int, action: int) -> None:
        self.lines.extend(self.tell(self.last, player, action, state))
        self.last = state.clone()


NAMES = ["Ann", "Bob", "Cy"]


def _dice_lines(lang: str) -> list[str]:
    game = DiceGame(num_players=3)
    tr = translator(lang)

    def tell(before: State, player: int, action: int, after: State) -> list[str]:
        return dice_render.narrate(
            as_dice_state(before), player, action, as_dice_state(after), NAMES, tr
        )

    told = _Told(game.new_initial_state(), tell)
    play_game(game, [make_bot("benchmark", game, seat, 5) for seat in range(3)], 5, observer=told)
    return told.lines


def _express_lines(lang: str) -> list[str]:
    game = ExpressGame(num_players=3, turn_limit=300)
    tr = translator(lang)

    def tell(before: State, player: int, action: int, after: State) -> list[str]:
        return narration.narrate(
            as_express_state(before), player, action, as_express_state(after), NAMES, tr
        )

    told = _Told(game.new_initial_state(), tell)
    play_game(game, [make_bot("benchmark", game, seat, 6) for seat in range(3)], 6, observer=told)
    return told.lines


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("lines", [_dice_lines, _express_lines], ids=["dice", "express"])
def test_every_narrated_line_is_translated(lang: str, lines: Callable[[str], list[str]]) -> None:
    """A whole bots' game told in each language: as many lines as in English and none of
    them the English line (nothing left untranslated on the way)."""
    english, other = lines("en"), lines(lang)
    assert len(english) == len(other) > 20
    assert [line for line, same in zip(other, english, strict=True) if line == same] == []


#: A move's notation (``board B3``) or a die letter before its colour (``rolls Y (yellow)``).
NOTATION_IN_A_SENTENCE = re.compile(r"\b(board|exit|detour|reboard) [AB][1-5]\b| [ROYGBP] \(")


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_express_sentences_name_colours_and_moves_in_words(lang: str) -> None:
    """Issue 19: the told moves said ``gooit Y (geel)`` and ``board B3`` inside Dutch
    sentences; now the colour's word with the board's letter after it and a phrase for
    the move (``instappen in wagon B3``), in every language."""
    lines = _express_lines(lang)
    assert [line for line in lines if NOTATION_IN_A_SENTENCE.search(line)] == []
    colour = r"\w+ \([A-Z][a-z]?\)\."  # the board's letter in the language (French Ve)
    assert sum(1 for line in lines if re.search(colour + "$", line)) > 20  # the rolls
    if lang == "nl":
        assert any(re.search(r"^Ann \(geel\) gooit (rood|oranje|geel|groen|blauw|paars) "
                             r"\((R|O|Ge|Gr|B|P)\)\.$", line) for line in lines)  # fmt: skip
        assert any("instappen in wagon " in line for line in lines)


#: A colon without a space before it, followed by a blank or the end of the text (the
#: board's ``A:>>`` and ``A3:y`` are not followed by a blank).
TIGHT_COLON = re.compile(r"[^\s\u00a0\u202f]:(\s|$)")
#: A colon after anything but a non-breaking space (French typography, the catalog's form).
NOT_FRENCH_COLON = re.compile(r"(?<!\u00a0):(\s|$)")


def test_french_catalog_puts_a_non_breaking_space_before_each_colon() -> None:
    """French typography, one form in the whole catalog: ``Tour\u00a0: `` (a non-breaking
    space, so a line never starts with the colon); code spans (notation) aside. The trial
    found ``Partie terminée\u00a0:`` beside ``Bien :`` and, joined in the code, ``Bot 1
    (jaune): ...``."""
    loose = []
    for message in _po("fr"):
        if not message.id:
            continue
        string = message.string
        texts = [string] if isinstance(string, str) else list(string or ())
        loose += [t for t in texts if NOT_FRENCH_COLON.search(re.sub(r"`[^`]*`", "", t))]
    assert loose == []


@pytest.mark.parametrize("lines", [_dice_lines, _express_lines], ids=["dice", "express"])
def test_french_told_lines_put_a_space_before_each_colon(
    lines: Callable[[str], list[str]],
) -> None:
    """Issue 19 trial: ``Bot 1 (jaune): un lama jaune monte...`` had the English colon,
    joined in the code; now ``Bot 1 (jaune) : ...`` (the message ``{label}: {text}``)."""
    told = lines("fr")
    assert [line for line in told if TIGHT_COLON.search(line)] == []
    if lines is _express_lines:
        assert any(re.match(r"^(Ann|Bob|Cy) \(\w+\)\u00a0: ", line) for line in told)


def test_french_headers_put_a_space_before_the_colon(lama: Invoke, tmp_path: Path) -> None:
    """``LAMA Dice : Bot 1 (Régulier), ...`` in ``lama play`` and ``lama replay``, and the
    replay's step line ``Étape 3/60 · Bot 1 : roll``."""
    record = tmp_path / "fr.lamarec.json"
    played = lama(
        "play", "dice", "--seats", "benchmark,benchmark", "--seed", "1", "--delay", "0",
        "--lang", "fr", "--record", str(record),
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert played.output.startswith("LAMA Dice\u00a0: Bot 1 ")
    replayed = lama("replay", str(record), "--to", "3", "--lang", "fr")
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.startswith("LAMA Dice\u00a0: Bot 1 ")
    assert [line for line in replayed.output.splitlines() if TIGHT_COLON.search(line)] == []


def _window_state(players: int = 3) -> ExpressState:
    """A window after the roll where every seat has chances (detour, re-board; E-7)."""
    game = ExpressGame(num_players=players)
    state = game.build_state(
        trains={"A": 9, "B": 21}, cars={"A1": 2, "B1": 1, "A3": (0, 52)}, footpaths={1: [0]}
    )
    return state.child(1)  # the die shows orange (O)


@pytest.mark.parametrize(
    ("lang", "chances"),
    [
        ("en", "Chances: Anna (yellow): detour A1, detour B1, reboard B4;"),
        ("fr", "Occasions\u00a0: Anna (jaune)\u00a0: détour A1, détour B1, remonter B4;"),
        ("nl", "Kansen: Anna (geel): omweg A1, omweg B1, weer instappen B4;"),
        ("de", "Chancen: Anna (Gelb): Umweg A1, Umweg B1, wieder einsteigen B4;"),
        ("it", "Occasioni: Anna (giallo): deviazione A1, deviazione B1, risali B4;"),
    ],
)
def test_express_chances_line_in_words_within_80_columns(lang: str, chances: str) -> None:
    """Issue 19 trial: the board's chances line kept the notation (``board B1``) in French
    and Dutch for the 80 columns; now short words of the language (``monter B1``, one item
    per chance, so a long list wraps between chances), in the full table and the compact
    one (80x24), never wider than 80 columns. Inside the board's ring (German and Italian,
    since the players' header fits it) the list wraps between two chances."""
    tr = translator(lang)
    names = ["Anna", "Bert", "A very long player name"]
    head, listed = chances.split(" ", 1)
    pieces = listed.split(", ")  # "Anna (Gelb): Umweg A1", "Umweg B1", ...: never split
    for height in (None, 17):
        lines = table_lines(_window_state(), names, viewer=0, width=80, height=height, tr=tr)
        text = "\n".join(lines)
        assert all(piece in text for piece in pieces), text
        assert max(len(line) for line in lines) <= 80
        if lang != "en":
            assert re.search(r"\b(board|exit|detour|reboard) [AB]\d", text) is None, text
    full = table_lines(_window_state(), names, viewer=0, width=80, tr=tr)
    assert any(f"{head} {pieces[0]}" in line for line in full), "\n".join(full)
    long_names = ["A" * 30, "B" * 30, "C" * 30, "D" * 30]
    crowded = table_lines(_window_state(4), long_names, width=80, tr=tr)
    assert max(len(line) for line in crowded) <= 80


@pytest.mark.parametrize("lang", LANGUAGES)
def test_express_colour_letters_are_the_languages(lang: str) -> None:
    """Issue 19 trial: the board's colour letters stayed English (``Y`` on a French board
    that says ``jaune``); now the browser's letters of the language (``express.letter.*``:
    French ``J``, ``Ve``, ``Vi``) on the track, beside the die and in the told rolls, and the
    help names each letter with its colour. The llamas' letters (``y p g b``) stay: a car
    has room for one letter and German and Dutch yellow and green share theirs; the help
    spells them out."""
    tr = translator(lang)
    letters = {x: web_text("lamagames.express:static", f"express.letter.{x}", lang)
               for x in "ROYGBP"}  # fmt: skip
    assert len(set(letters.values())) == 6  # one letter (or two) per colour
    state = _window_state()
    top = table_lines(state, ["Anna", "Bert", "Cleo"], width=80, tr=tr)[0]
    board = state.board
    for space in range(13):  # cells of 5 characters and a blank: letter, mark, number
        assert top[6 * space : 6 * space + 5].startswith(letters[board.track[space]]), top
    die = letters["O"] + " " + tr.gettext("orange")
    assert f" {die}" in "\n".join(table_lines(state, ["Anna", "Bert", "Cleo"], tr=tr))
    assert narration.die_words("G", tr) == f"{tr.gettext('green')} ({letters['G']})"
    use_language(lang)
    help_text = ExpressView().help_text()
    for x, letter in letters.items():
        word = tr.gettext({"R": "red", "O": "orange", "Y": "yellow", "G": "green",
                           "B": "blue", "P": "purple"}[x])  # fmt: skip
        assert f"`{letter}` {word}" in help_text, (x, help_text)


def test_dutch_express_menu_keeps_the_notation_to_type(lama: Invoke, tmp_path: Path) -> None:
    """The menu still shows ``board A3`` beside the Dutch words and typed notation still
    answers the prompt (``move B``); the record keeps the notation; the told moves and the
    menu's descriptions use words (issue 19)."""
    record = tmp_path / "nl.lamarec.json"
    result = lama(
        "play", "express", "--seats", "human,heuristic,heuristic", "--seed", "2", "--delay",
        "0", "--names", "Anna,Bert,Cleo", "--lang", "nl", "--record", str(record),
        input="move B\n" + "2\n" * 25,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"\d+\s+board [AB]\d\s+je lama stapt in wagon", out), out  # the menu
    assert "Anna (geel): een lama (geel) stapt in wagon " in out  # told after she boarded
    told = [line for line in out.splitlines() if line.startswith(("Anna", "Bert", "Cleo"))]
    assert [line for line in told if NOTATION_IN_A_SENTENCE.search(line)] == []
    moves = [a.action for a in load_record(record).actions if a.player == 0]
    assert moves[0] == "move B" and any(m.startswith("board ") for m in moves)


def test_use_language_sets_the_views_words() -> None:
    from lamagames.cli.dice_view import DiceView

    seats = [SeatInfo(name="Ann", kind="human"), SeatInfo(name="Bob", kind="benchmark")]
    state = DiceGame(num_players=2).new_initial_state()
    view = DiceView()
    use_language("it")
    assert view.headline(state, seats, 0) == "Tocca a Ann"
    assert "Rispondere al prompt" in view.help_text()
    use_language("en")
    assert view.headline(state, seats, 0) == "Ann's turn"


def test_batch_summary_speaks_the_language(lama: Invoke) -> None:
    """``lama play --games N``: the summary's headings, figures and caption, and the hook
    figures' names (a seat's colour too)."""
    result = lama("play", "express", "--seats", "benchmark,random", "--seed", "3",
                  "--games", "2", "--lang", "it")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    for words in ("2 partite", "Vittorie", "Colore", "giallo", "pareggi", "pari merito"):
        assert words in out, (words, out)
    assert "Wins include ties" not in out
