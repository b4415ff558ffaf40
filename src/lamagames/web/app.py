"""The FastAPI application: HTTP API, WebSocket play and the static browser UI.

HTTP (JSON; errors are ``{"error": code, "message": text}``):

- ``GET  /api/games``: games playable in the browser.
- ``GET  /api/tables``: the lobby (public tables that wait or play).
- ``POST /api/tables``: create a table; answers the room code, host token and invites.
- ``GET  /api/tables/{code}``: public table description.
- ``POST /api/tables/{code}/join``: take the seat of an invite token.
- ``POST /api/tables/{code}/claim``: take a free human seat of a public table.
- ``POST /api/tables/{code}/start``: start (host token).
- ``POST /api/tables/{code}/rematch``: new table with the same seats, started at once.
- ``GET  /api/tables/{code}/record``: the game record (``lamagames.core.records``).
- ``GET  /api/tables/{code}/replay``: record plus the spectator view after every action.
- ``GET  /api/tables/{code}/review``, ``POST`` to start: the game review of a finished table.
- ``POST /api/tutorial/{game}``, ``POST /api/tables/{code}/tutorial``: the first-game
  walkthrough and its advice (:mod:`lamagames.web.routes.tutorial`).
- ``GET  /openapi.json``: the OpenAPI schema.

WebSocket ``/ws/{code}``: the client's first message is ``hello`` (with a seat token, or
none to spectate); then ``action`` / ``leave`` / ``back`` / ``ping``. The server sends
``state`` on connect and after every change, ``ack`` or ``error`` for each action,
``rematch`` and ``pong``. See :mod:`lamagames.web.schemas`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from lamagames import __version__
from lamagames.core.errors import LamaError
from lamagames.web.engine import TableError
from lamagames.web.limits import KeyedRateLimit, RateLimited
from lamagames.web.live import UNAVAILABLE, UNAVAILABLE_MESSAGE, Hub, Settings
from lamagames.web.middleware import BodyLimit, SecurityHeaders
from lamagames.web.review import ReviewService
from lamagames.web.routes import pages, play, records, review, tables, tutorial
from lamagames.web.routes.common import SEAT_TAKEN, table_info
from lamagames.web.routes.pages import STATIC_DIR
from lamagames.web.schemas import ErrorOut, error_text
from lamagames.web.store import Store, StoreUnavailable

__all__ = ["SEAT_TAKEN", "STATIC_DIR", "BodyLimit", "create_app", "table_info"]

log = logging.getLogger("lamagames.web")


def allowed_methods(request: Request) -> list[str]:
    """Every HTTP method some route serves at the request's path, ``OPTIONS`` included,
    sorted (for the ``Allow`` header of 405 answers and of ``OPTIONS``)."""
    methods = {"OPTIONS"}
    for router in (pages.router, tables.router, records.router, review.router, tutorial.router):
        for route in router.routes:
            if isinstance(route, Route) and route.methods:
                match, _ = route.matches(request.scope)
                if match != Match.NONE:
                    methods |= set(route.methods)
    return sorted(methods)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(ErrorOut(error=code, message=message).model_dump(), status_code=status)


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 1.2,
    settings: Settings | None = None,
    on_applied: Callable[[], None] | None = None,
) -> FastAPI:
    """Build the web app.

    Args:
        db_url: SQLAlchemy URL; ``None`` is an SQLite file in the user's data directory.
        bot_delay: seconds a bot waits before each decision (ignored if ``settings``).
        settings: all server knobs (see :class:`~lamagames.web.live.Settings`).
        on_applied: called after every applied action (for benchmarks).

    Returns:
        The FastAPI app; tables that were playing resume when it starts (lifespan).
    """
    settings = settings or Settings(bot_delay=bot_delay)
    store = Store(db_url, retry_for=settings.db_retry_for, lock_timeout=settings.db_lock_timeout)
    hub_box: dict[str, Hub] = {}
    reviews = ReviewService(store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store.reopen()  # closed by an earlier run of this lifespan, if any
        hub = hub_box["hub"] = Hub(store, settings, on_applied)
        await hub.startup()
        try:
            yield
        finally:
            hub.shutdown()
            reviews.shutdown()
            await hub.leave_cluster()
            await store.aclose()

    app = FastAPI(
        title="lamagames web",
        version=__version__,
        summary="Play LAMA Dice and Lama Express in the browser.",
        lifespan=lifespan,
        docs_url="/docs",  # Swagger UI of the HTTP API
        redoc_url="/redoc",  # the same schema read by ReDoc
    )
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)  # outermost: the 413 of BodyLimit gets them too
    app.state.store = store
    app.state.settings = settings
    app.state.review = reviews
    app.state.create_limit = KeyedRateLimit(settings.create_per_minute, settings.create_burst)
    app.state.claim_limit = KeyedRateLimit(settings.claim_per_minute, settings.claim_burst)
    app.state.join_limit = KeyedRateLimit(settings.join_per_minute, settings.join_burst)

    def hub() -> Hub:
        found = hub_box.get("hub")
        if found is None:  # app used without lifespan (plain ASGI servers always run it)
            found = hub_box["hub"] = Hub(store, settings, on_applied)
        return found

    app.state.hub = hub

    # ------------------------------------------------------------------ errors
    @app.exception_handler(TableError)
    async def _table_error(_request: Request, exc: TableError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RateLimited)
    async def _rate_limited(_request: Request, exc: RateLimited) -> JSONResponse:
        response = _error(429, "rate_limited", exc.message)
        response.headers["Retry-After"] = KeyedRateLimit.retry_after(exc.wait)
        return response

    @app.exception_handler(StoreUnavailable)
    async def _store_unavailable(_request: Request, exc: StoreUnavailable) -> JSONResponse:
        log.warning("database not answering: %s", exc)
        return _error(503, UNAVAILABLE, UNAVAILABLE_MESSAGE)

    @app.exception_handler(LamaError)
    async def _lama_error(_request: Request, exc: LamaError) -> JSONResponse:
        return _error(400, "invalid", str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # Starlette names only the first matching route's methods; list them all.
            # OPTIONS on a known path is answered 204 with that list.
            headers["Allow"] = ", ".join(allowed_methods(request))
            if request.method == "OPTIONS":
                return Response(status_code=204, headers=headers)
        if exc.status_code == 400 and exc.__cause__ is not None:
            # FastAPI's answer to a body json.loads could not parse other than by a
            # JSONDecodeError: RecursionError from deep nesting (or a UnicodeDecodeError).
            return _error(422, "bad_json", "body is not valid JSON (or nested too deeply)")
        code = {404: "not_found", 405: "not_allowed"}.get(exc.status_code, "http_error")
        message = {404: "no such path", 405: "method not allowed here"}.get(
            exc.status_code, str(exc.detail)
        )
        return JSONResponse(
            ErrorOut(error=code, message=message).model_dump(),
            status_code=exc.status_code,
            headers=headers,
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors()[:5]:
            if err.get("type") == "json_invalid":
                return _error(422, "bad_json", "body is not valid JSON")
            loc = tuple(err.get("loc", ()))
            if loc == ("body",) and err.get("type") in ("model_attributes_type", "dict_type"):
                return _error(422, "bad_json", "body must be a JSON object")
            where = ".".join(str(p) for p in loc if p != "body")
            if loc == ("body",) and err.get("type") == "missing":
                return _error(422, "bad_json", "the body is empty; send a JSON object")
            parts.append(f"{where or 'body'}: {error_text(str(err.get('msg', 'invalid')))}")
        return _error(422, "invalid", "; ".join(parts))

    # ------------------------------------------------------------------ routes
    app.include_router(pages.router)
    for path, files in pages.game_static_files():  # each game's own files, from its package
        app.mount(path, files)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(tables.router)
    app.include_router(records.router)
    app.include_router(review.router)
    app.include_router(tutorial.router)
    app.include_router(play.router)

    schema_of_fastapi = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's schema plus this server's seed policy (a table with a human seat takes
        no chosen seed unless ``Settings.seeded_humans``), so the schema refuses what the
        server refuses."""
        if app.openapi_schema is None:
            schema = schema_of_fastapi()
            if not settings.seeded_humans:
                create = schema["components"]["schemas"]["CreateTableRequest"]
                create.setdefault("allOf", []).append(SEED_ONLY_FOR_BOTS)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


#: JSON Schema rule of ``POST /api/tables`` on servers without ``seeded_humans``: a table
#: with a human seat has no ``seed`` (it gets a secret random one).
SEED_ONLY_FOR_BOTS: dict[str, Any] = {
    "if": {
        "properties": {
            "seats": {
                "contains": {"properties": {"kind": {"const": "human"}}, "required": ["kind"]}
            }
        },
        "required": ["seats"],
    },
    "then": {"properties": {"seed": {"type": "null"}}},
}
