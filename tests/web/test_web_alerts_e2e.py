"""Browser: never miss a chance (issue 19 item 2).

A seeded Lama Express table (the person's first roll lets train A stop with a car on their
boarding space, as in test_web_express_e2e) with the alertness timer: when the person must
act the tab's title and icon change until they act, the phone vibrates (navigator.vibrate
is stubbed and counted; it buzzes only once the person has clicked), the window's
countdown is shown; each is a setting kept in localStorage that switches its alert off.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread, post_json
from web_helpers import seed_with_rolls

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = BROWSER_MARKS

STUB_VIBRATE = """
window.__buzz = [];
window.__titles = [];
new MutationObserver(() => {
  const seen = window.__titles;
  if (seen[seen.length - 1] !== document.title) seen.push(document.title);
}).observe(document, { subtree: true, childList: true, characterData: true });
Object.defineProperty(navigator, "vibrate", {
  value: (pattern) => { window.__buzz.push(pattern); return true; }, configurable: true,
});
// Playwright's own queries count as user activation, so the page's "has the person
// touched me yet" is stubbed too: true after the first real pointer or key press.
window.__touched = false;
for (const kind of ["pointerdown", "keydown"]) {
  addEventListener(kind, () => { window.__touched = true; }, { capture: true });
}
Object.defineProperty(navigator, "userActivation", {
  value: { get hasBeenActive() { return window.__touched; } }, configurable: true,
});
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server whose bot pauses 1.5 s, so the time between turns can be seen."""
    with ServerThread(tmp_path / "alerts.sqlite3", bot_delay=1.5) as running:
        yield running


def window_table(server: ServerThread) -> dict[str, Any]:
    """Ada (seat 0) against a bot; train A can stop with a car on Ada's boarding space."""
    body: dict[str, Any] = {
        "game": "express",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot_kind": "benchmark"}],
        "params": {"llamas_to_win": 3},
        "seed": seed_with_rolls({0: "GBP"}),
        "alertness": 60,
    }
    table = post_json(server, "/api/tables", body)
    post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    return table


def open_page(browser: Browser, server: ServerThread, table: dict[str, Any]) -> Page:
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page.set_default_timeout(15_000)
    page.add_init_script(STUB_VIBRATE)
    page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
    return page


def icon(page: Page) -> str:
    return page.get_attribute("link[rel~='icon']", "href") or ""


def test_a_turn_and_a_chance_change_title_icon_buzz_and_count_down(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    table = window_table(server)
    page = open_page(browser, server, table)
    try:
        # Ada's turn: choose a train. Title and icon change; the phone stays still, as Ada
        # has not touched the page yet (browsers refuse to vibrate before that).
        expect(page.locator(".banner")).to_contain_text("choose a train")
        expect(page).to_have_title("▶ Your turn – Lama Express")
        assert icon(page) == "/static/favicon-alert.svg"
        assert page.evaluate("window.__buzz") == []
        page.locator('[data-action-target="move A"]').click()
        # The window after the move: a chance for Ada with the alertness countdown; it
        # directly follows her own click, so the phone stays still (issue 19: it buzzed
        # within a second of her tap); see the test below for a turn that does buzz.
        expect(page.locator(".banner")).to_contain_text("A chance for you")
        countdown = page.locator("#countdown")
        expect(countdown).to_be_visible()
        expect(countdown).to_have_attribute("role", "timer")
        expect(countdown.locator(".clock")).to_contain_text("s left")
        expect(countdown.locator(".countdown-fill")).to_be_visible()
        # The title names the chance, not a turn (issue 19: it said "Your turn").
        expect(page).to_have_title("⚡ A chance for you – Lama Express")
        # Ada acts (Done): the title is back while her move is on its way (until her next
        # chance, which comes at once in a two-player game).
        plain = f"Lama Express · {table['code']}"
        seen = page.evaluate("window.__titles.length")
        page.locator(".actions .xp-done").click()
        page.wait_for_function(f"window.__titles.slice({seen}).includes({plain!r})")
    finally:
        page.close()


def test_a_turn_buzzes_once_after_a_quiet_spell_not_right_after_a_tap(
    server: ServerThread, browser: Browser
) -> None:
    """Issue 19: 30 buzzes in 55 s for 14 moves, some 0.4 s after the person's own tap."""
    from playwright.sync_api import expect

    body: dict[str, Any] = {
        "game": "express",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot_kind": "benchmark"}],
        "params": {"llamas_to_win": 3},
        "seed": seed_with_rolls({0: "GBP"}),
        "alertness": 60,
    }
    table = post_json(server, "/api/tables", body)
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page.set_default_timeout(15_000)
    page.add_init_script(STUB_VIBRATE)
    page.clock.install()
    page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
    try:
        expect(page.locator(".table-head h1")).to_be_visible()
        # Ada touches the page, then leaves it alone for a while (the page's clock jumps).
        page.mouse.click(5, 5)
        page.clock.fast_forward(20_000)
        post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
        expect(page.locator(".banner")).to_contain_text("choose a train")
        page.wait_for_function("window.__buzz.length === 1")
        # Her move, and the chance it opens at once: no buzz while she is at the screen.
        page.locator('[data-action-target="move A"]').click()
        expect(page.locator(".banner")).to_contain_text("A chance for you")
        page.wait_for_timeout(500)
        assert page.evaluate("window.__buzz") == [[160, 80, 160]]
    finally:
        page.close()


def test_the_alerts_menu_closes_on_escape_and_a_click_outside(
    server: ServerThread, browser: Browser
) -> None:
    """Issue 19: the open menu covered the game and only its own toggle closed it."""
    from playwright.sync_api import expect

    table = window_table(server)
    page = open_page(browser, server, table)
    try:
        expect(page.locator(".banner")).to_contain_text("choose a train")
        menu = page.locator("#alerts")
        summary = page.locator("#alerts summary")
        summary.click()
        expect(menu).to_have_attribute("open", "")
        page.keyboard.press("Escape")
        expect(menu).not_to_have_attribute("open", "")
        expect(summary).to_be_focused()
        summary.click()
        expect(menu).to_have_attribute("open", "")
        # The open menu covers neither the banner nor the action bar (issue 19: a click on
        # "Move train B" toggled a setting instead).
        for target in (page.locator(".banner"), *page.locator(".actions button").all()):
            box = target.bounding_box()
            assert box is not None
            covered = page.evaluate(
                """([x0, y0, w, h]) => [0.1, 0.5, 0.9].some((fx) => [0.2, 0.5, 0.8].some((fy) =>
                    document.elementFromPoint(x0 + fx * w, y0 + fy * h)?.closest('#alerts')))""",
                [box["x"], box["y"], box["width"], box["height"]],
            )
            assert covered is False, "the open alerts menu covers the game"
        page.locator(".banner").click()
        expect(menu).not_to_have_attribute("open", "")
        stored = page.evaluate(
            "['title', 'vibrate', 'countdown'].map((k) => localStorage.getItem('lama.alert.' + k))"
        )
        assert stored == [None, None, None]
        for name in ("title", "vibrate", "countdown"):
            expect(page.locator(f"#alert-{name}")).to_be_checked()
        # A click outside on a move both closes the menu and makes the move (not swallowed).
        summary.click()
        expect(menu).to_have_attribute("open", "")
        page.locator(".actions button", has_text="Move train A").click()
        expect(menu).not_to_have_attribute("open", "")
        expect(page.locator(".banner")).to_contain_text("A chance for you")
    finally:
        page.close()


def test_each_alert_is_a_setting_that_is_remembered(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    table = window_table(server)
    page = open_page(browser, server, table)
    try:
        expect(page.locator(".banner")).to_contain_text("choose a train")
        page.locator("#alerts summary").click()
        for name in ("title", "vibrate", "countdown"):
            box = page.locator(f"#alert-{name}")
            expect(box).to_be_checked()
            box.uncheck()
        stored = page.evaluate(
            "['title', 'vibrate', 'countdown'].map((k) => localStorage.getItem('lama.alert.' + k))"
        )
        assert stored == ["off", "off", "off"]
        # Switched off at once: the plain title and icon although it is still Ada's turn.
        expect(page).to_have_title(f"Lama Express · {table['code']}")
        assert icon(page) == "/static/favicon.svg"
        page.reload()
        expect(page.locator(".banner")).to_contain_text("choose a train")
        page.locator("#alerts summary").click()
        for name in ("title", "vibrate", "countdown"):
            expect(page.locator(f"#alert-{name}")).not_to_be_checked()
        expect(page).to_have_title(f"Lama Express · {table['code']}")
        assert page.evaluate("window.__buzz") == []
        page.locator('[data-action-target="move A"]').click()
        expect(page.locator(".banner")).to_contain_text("A chance for you")
        expect(page.locator("#countdown")).to_have_count(0)
        assert page.evaluate("window.__buzz") == []
    finally:
        page.close()
