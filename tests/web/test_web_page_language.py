"""The page shell speaks the request's language (issue 19 item 5): ``<html lang>``, the skip
link, the language label and the ``<noscript>`` text follow ``Accept-Language`` among the
five languages of the web app; a malformed header never fails the page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from lamagames.web.routes.pages import LANGS, page_in, page_language

STATIC = Path(__file__).parents[2] / "src" / "lamagames" / "web" / "static"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
        ("da, nl-BE;q=0.5, en;q=0.4", "nl"),
        ("en;q=0.5, it", "it"),
        ("de;q=0.7, fr;q=0.7", "de"),  # equal weights: the header's order
        ("ja, zh-TW", "en"),
        ("it;q=0, de;q=0.1", "de"),  # q=0: not acceptable
        ("it;q=banana, nl", "nl"),
        (";;,,,q=;-", "en"),
        ("DE-at", "de"),
    ],
)
def test_page_language_from_accept_language(header: str | None, lang: str) -> None:
    assert page_language(header) == lang


def test_the_page_languages_are_the_browser_ones() -> None:
    script = (STATIC / "i18n.js").read_text("utf-8")
    assert f"export const LANGS = {json.dumps(list(LANGS))};" in script


@pytest.mark.parametrize("lang", LANGS)
def test_page_shell_in_each_language(lang: str) -> None:
    words = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    page = page_in(lang)
    assert f'<html lang="{lang}">' in page
    assert f"<noscript>{words['chrome.noscript']}</noscript>" in page
    assert f'href="#main">{words["chrome.skip"]}</a>' in page
    assert f'id="lang-label">{words["chrome.language"]}</span>' in page


@pytest.mark.parametrize("path", ["/", "/t/ABCDEF", "/replay/ABCDEF"])
def test_pages_follow_accept_language(client: TestClient, path: str) -> None:
    french = client.get(path, headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert french.status_code == 200
    assert french.headers["content-type"].startswith("text/html")
    assert "accept-language" in french.headers["vary"].lower()
    assert '<html lang="fr">' in french.text
    assert "<noscript>Cette page a besoin de JavaScript.</noscript>" in french.text
    plain = client.get(path, headers={"accept-language": "x" * 5000 + ";q=;,"})
    assert plain.status_code == 200 and '<html lang="en">' in plain.text
