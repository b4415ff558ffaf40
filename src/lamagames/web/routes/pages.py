"""The browser UI: one page (``index.html``) for the lobby, tables and replays."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

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
