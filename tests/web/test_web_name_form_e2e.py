"""Browser: the lobby's and the table's name fields check a name before sending it (issue 19,
a fresh user's trial), with the server's rule (schemas.py Name): no control or
text-direction characters, not only spaces, at most 32 characters counted as code points
(a 🦙 is one). The message stands next to the field in the page's language, never the
server's "did not understand" answer. Also LAMA Dice's summary when nobody gave a chip back.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread, get_json, post_json
from playwright.sync_api import Browser, Page, expect

pytestmark = BROWSER_MARKS

LLAMA = "\U0001f999"

#: The page's words per browser locale: (locale, empty, bad character, counter of n).
WORDS = {
    "en": (
        "en-GB",
        "Please type a name, not only spaces.",
        "A name may not contain tabs, line breaks or invisible text-direction characters.",
        "{n} of 32 characters",
    ),
    "de": (
        "de-DE",
        "Bitte gib einen Namen ein, nicht nur Leerzeichen.",
        "Ein Name darf keine Tabulatoren, Zeilenumbrüche oder unsichtbaren "
        "Schreibrichtungszeichen enthalten.",
        "{n} von 32 Zeichen",
    ),
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server with bots that do not pause."""
    with ServerThread(tmp_path / "names.sqlite3", bot_delay=0.0) as running:
        yield running


def lobby(browser: Browser, server: ServerThread, locale: str) -> Page:
    """The lobby in a browser that prefers ``locale``."""
    page = browser.new_page(locale=locale)
    page.set_default_timeout(10_000)
    page.goto(server.url)
    expect(page.locator("#your-name")).to_be_visible()
    return page


def expect_refused(page: Page, field: str, message: str) -> None:
    """The field is marked invalid and described by ``message`` beside it; no toast."""
    error = page.locator(f"#{field}-error")
    expect(error).to_have_text(message)
    name = page.locator(f"#{field}")
    expect(name).to_have_attribute("aria-invalid", "true")
    described = (name.get_attribute("aria-describedby") or "").split()
    assert f"{field}-error" in described, described
    expect(name).to_be_focused()
    expect(page.locator("#toasts")).not_to_contain_text("did not understand")
    expect(page.locator("#toasts")).not_to_contain_text("nicht verstanden")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_create_form_refuses_a_bad_name_beside_the_field(
    server: ServerThread, browser: Browser, lang: str
) -> None:
    locale, empty, bad, _ = WORDS[lang]
    page = lobby(browser, server, locale)
    try:
        for typed, message in [("An\tn", bad), ("Ann\u202e", bad), ("   ", empty)]:
            page.fill("#your-name", typed)
            page.click("#create")
            expect_refused(page, "your-name", message)
        assert not get_json(server, "/api/tables")  # nothing was sent: no table listed
        page.fill("#your-name", "Ann")  # typing clears the message
        expect(page.locator("#your-name-error")).to_have_count(0)
        expect(page.locator("#your-name")).not_to_have_attribute("aria-invalid", "true")
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_names_are_counted_in_characters_not_utf16_units(
    server: ServerThread, browser: Browser, lang: str
) -> None:
    locale, _, _, count = WORDS[lang]
    page = lobby(browser, server, locale)
    try:
        name = page.locator("#your-name")
        name.fill("")
        name.press_sequentially(LLAMA * 20)
        expect(name).to_have_value(LLAMA * 20)
        expect(page.locator("#your-name-count")).to_have_text(count.format(n=20))
        name.fill(LLAMA * 40)  # a long paste is cut at 32 characters
        expect(name).to_have_value(LLAMA * 32)
        expect(page.locator("#your-name-count")).to_have_text(count.format(n=32))
        page.click("#create")
        page.wait_for_url(f"{server.url}/t/**")
        code = page.url.rsplit("/", 1)[1]
        seats = get_json(server, f"/api/tables/{code}")["seats"]
        assert seats[0]["name"] == LLAMA * 32
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_joining_with_a_bad_name_is_refused_beside_the_field(
    server: ServerThread, browser: Browser, lang: str
) -> None:
    locale, _, bad, _ = WORDS[lang]
    human = {"kind": "human"}
    table = post_json(server, "/api/tables", {"game": "dice", "seats": [human, human]})
    code = table["code"]
    post_json(server, f"/api/tables/{code}/join", {"token": table["seats"][0]["token"]})
    page = lobby(browser, server, locale)
    try:
        # the lobby's Join button takes the typed name
        page.fill("#your-name", "Bo\u202eb")
        page.locator(".table-item .btn-primary").first.click()
        expect_refused(page, "your-name", bad)
        assert get_json(server, f"/api/tables/{code}")["free_seats"] == 1
        # the table's own name form (an invite link)
        page.goto(f"{server.url}/t/{code}#seat={table['seats'][1]['token']}")
        page.fill("#join-name", "Bo\tb")
        page.locator("#join-form button").click()
        expect_refused(page, "join-name", bad)
        names = [s["name"] for s in get_json(server, f"/api/tables/{code}")["seats"]]
        assert "Bo\tb" not in names
    finally:
        page.close()


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [("en", "Nobody gave chips back."), ("de", "Niemand hat Chips zurückgegeben.")],
)
def test_dice_summary_without_chips_given_back_says_so(
    server: ServerThread, browser: Browser, lang: str, sentence: str
) -> None:
    page = lobby(browser, server, "en-GB")
    try:
        shown = page.evaluate(
            """async (lang) => {
              const i18n = await import('/static/i18n.js');
              const { summary } = await import('/static/games/dice/summary.js');
              await i18n.load(lang, ['dice']);
              const events = [{ events: [
                { kind: 'chip', seat: 0, chip: 'none', points: 0 },
                { kind: 'round_end', round: 1, points: [3, 7] },
              ] }];
              const seats = [{ name: 'Ann' }, { name: 'Bo' }];
              const body = summary(events, { t: i18n.t, seats, view: { scores: [3, 7] } });
              return {
                charts: body.querySelectorAll('svg.summary-chipchart').length,
                sentence: body.querySelector('.summary-nochips')?.textContent,
                captions: [...body.querySelectorAll('figcaption')].length,
              };
            }""",
            lang,
        )
        assert shown == {"charts": 0, "sentence": sentence, "captions": 1}
    finally:
        page.close()
