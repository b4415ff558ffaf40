"""What the routers share: the app's hub and store, the public table description."""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from lamagames.web.live import Hub, LiveTable
from lamagames.web.schemas import ErrorOut, TableInfo
from lamagames.web.store import Store

#: What each error status of the API means (the body is always :class:`ErrorOut`).
ERROR_STATUSES: dict[int, str] = {
    400: (
        "refused: bad game parameters, unknown bot kind, a bot kind this server cannot run "
        "(bot_unavailable), a seed on a table with people"
    ),
    403: "the token is not valid for this table",
    404: "no table with this code",
    409: "not possible now (seat taken, table full, game over or not over yet)",
    413: "request body larger than 64 KiB",
    422: "the body is not valid JSON or not the documented shape (the field is named)",
    429: "too many requests of this kind from this client address (see Retry-After)",
    503: "the database is not answering; nothing changed, try again",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, plus 503 (every route that reads
    or writes the database can answer it)."""
    return {
        status: {"model": ErrorOut, "description": ERROR_STATUSES[status]}
        for status in sorted({*statuses, 503})
    }


#: Message for an invite link whose seat was claimed by someone else from the lobby.
SEAT_TAKEN = "somebody else has taken this seat; you can watch the game"


def hub_of(conn: HTTPConnection) -> Hub:
    """The live tables of the app serving ``conn`` (a request or a WebSocket)."""
    app: Any = conn.app
    hub: Hub = app.state.hub()
    return hub


def store_of(conn: HTTPConnection) -> Store:
    """The store of the app serving ``conn``."""
    app: Any = conn.app
    store: Store = app.state.store
    return store


def table_info(table: LiveTable) -> TableInfo:
    """Public description of a live table."""
    data = table.data
    return TableInfo(
        code=table.code,
        game=data.game,
        game_name=table.game.info.long_name,
        params=dict(table.game.params),
        status=table.status,
        version=table.version,
        seats=[s.out() for s in table.seats],
        free_seats=sum(1 for s in table.seats if s.kind == "human" and not s.joined),
        public=data.public,
        turn_clock=data.turn_clock,
        away_timeout=data.away_timeout,
        alertness=data.alertness,
        created=data.created,
        rematch=data.rematch,
        renderer=table.adapter.renderer,
        bot_pace=table.pace,
        hints=table.adapter.has_hints() and table.data.hints,
        chat=table.data.chat,
    )
