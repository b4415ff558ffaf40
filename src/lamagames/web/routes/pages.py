"""The browser UI: one page (``index.html``) for the lobby, tables and replays; the shared
browser files (``/static``) and each game's own (``/static/games/<id>/``).

The page is sent in the language of the request's ``Accept-Language`` (``<html lang>``, the
skip link, the language label and the ``<noscript>`` text, from ``static/i18n/<lang>.json``);
the browser then applies the reader's saved choice (``static/i18n.js``, docs/web.md,
"Languages")."""

from __future__ import annotations

import html
import json
import logging
import re
from functools import cache
from pathlib import Path
from typing import Annotated, Final

from fastapi import APIRouter, Header
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from lamagames.core.spec import all_specs

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

log = logging.getLogger("lamagames.web")

router = APIRouter(include_in_schema=False)


#: The languages of the web app, the first the default (``LANGS`` in ``static/i18n.js``).
LANGS: Final = ("en", "de", "fr", "nl", "it")

_Q = re.compile(r"^q=([01](?:\.\d{0,3})?)$")


def page_language(accept_language: str | None) -> str:
    """The language of the page for an ``Accept-Language`` header (RFC 9110): the one of
    :data:`LANGS` with the highest weight, matched by primary subtag (``fr-CH`` is ``fr``),
    the header's order breaking ties; ``"en"`` when none matches or there is no header.

    Never raises: a malformed entry (an unreadable ``q``, an empty tag) is skipped.
    """
    best, best_q = "en", 0.0
    for entry in (accept_language or "")[:2000].split(","):
        tag, *params = (part.strip() for part in entry.split(";"))
        weight = 1.0
        for param in params:
            found = _Q.match(param.replace(" ", "").lower())
            if param.lower().startswith("q") and found is None:
                weight = -1.0  # unreadable weight: skip this entry
            elif found is not None:
                weight = float(found.group(1))
        primary = tag.split("-")[0].lower()
        if primary in LANGS and weight > best_q:
            best, best_q = primary, weight
    return best


def _fill(page: str, element_id: str, text: str) -> str:
    """``page`` with the text of the element ``id=element_id`` replaced by ``text``."""
    pattern = re.compile(rf'(id="{element_id}"[^>]*>)[^<]*(<)')
    return pattern.sub(lambda m: m.group(1) + html.escape(text) + m.group(2), page, count=1)


@cache
def page_in(lang: str) -> str:
    """``index.html`` in ``lang`` (one of :data:`LANGS`): its ``<html lang>``, skip link,
    language label and ``<noscript>`` text from ``static/i18n/<lang>.json``."""
    words = json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text("utf-8"))
    page = (STATIC_DIR / "index.html").read_text("utf-8")
    page = re.sub(r'<html lang="[^"]*"', f'<html lang="{lang}"', page, count=1)
    page = _fill(page, "skip", words["chrome.skip"])
    page = _fill(page, "lang-label", words["chrome.language"])
    noscript = html.escape(words["chrome.noscript"])
    return re.sub(r"<noscript>[^<]*</noscript>", f"<noscript>{noscript}</noscript>", page)


AcceptLanguage = Annotated[str | None, Header()]


def _page(accept_language: str | None) -> HTMLResponse:
    return HTMLResponse(
        page_in(page_language(accept_language)), headers={"Vary": "Accept-Language"}
    )


@router.get("/")
async def lobby_page(accept_language: AcceptLanguage = None) -> HTMLResponse:
    """The lobby."""
    return _page(accept_language)


@router.get("/t/{code:path}")
async def table_page(code: str, accept_language: AcceptLanguage = None) -> HTMLResponse:
    """A table (the page reads the code and the seat token from the URL)."""
    return _page(accept_language)


@router.get("/replay/{code:path}")
async def replay_page(code: str, accept_language: AcceptLanguage = None) -> HTMLResponse:
    """The replay viewer of a finished table."""
    return _page(accept_language)


def game_static_files() -> list[tuple[str, StaticFiles]]:
    """Each game's browser files, to mount before ``/static``: ``("/static/games/<id>",
    files)`` for every known game whose spec names a folder (``GameSpec.web_static``),
    served from the game's own package. The URL stays the same wherever the package is
    installed, so a game's ``render.js`` imports the shared modules as ``/static/dom.js``.

    A game whose folder cannot be found (a broken installed game) is left out with a
    warning in the log, so it does not stop the server.
    """
    out = []
    for spec in all_specs():
        where = spec.web_static_folder()
        if where is None:
            continue
        try:
            files = StaticFiles(packages=[where])
        except (AssertionError, ImportError, ValueError) as exc:
            log.warning("%s: browser files %s not served: %s", spec.title, spec.web_static, exc)
            continue
        out.append((f"/static/games/{spec.game_id}", files))
    return out
