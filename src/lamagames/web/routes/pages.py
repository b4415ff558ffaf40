"""The browser UI: one page (``index.html``) for the lobby, tables and replays; the shared
browser files (``/static``) and each game's own (``/static/games/<id>/``)."""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from lamagames.core.spec import all_specs

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

log = logging.getLogger("lamagames.web")

router = APIRouter(include_in_schema=False)


def _page() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html")


@router.get("/")
async def lobby_page() -> FileResponse:
    """The lobby."""
    return _page()


@router.get("/t/{code:path}")
async def table_page(code: str) -> FileResponse:
    """A table (the page reads the code and the seat token from the URL)."""
    return _page()


@router.get("/replay/{code:path}")
async def replay_page(code: str) -> FileResponse:
    """The replay viewer of a finished table."""
    return _page()


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
