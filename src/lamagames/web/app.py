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
- ``GET  /openapi.json``: the OpenAPI schema.

WebSocket ``/ws/{code}``: the client's first message is ``hello`` (with a seat token, or
none to spectate); then ``action`` / ``leave`` / ``back`` / ``ping``. The server sends
``state`` on connect and after every change, ``ack`` or ``error`` for each action,
``rematch`` and ``pong``. See :mod:`lamagames.web.schemas`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from lamagames.core.errors import LamaError
from lamagames.core.records import iter_replay
from lamagames.web.adapters import adapter_ids, get_adapter
from lamagames.web.live import Connection, Hub, LiveTable, Settings, TableError
from lamagames.web.middleware import BodyLimit
from lamagames.web.schemas import (
    CLIENT_MSG,
    ActionMsg,
    BackMsg,
    ClaimRequest,
    CreateTableRequest,
    CreateTableResponse,
    ErrorMsg,
    ErrorOut,
    GameOut,
    HelloMsg,
    JoinRequest,
    JoinResponse,
    LeaveMsg,
    PingMsg,
    PongMsg,
    RematchRequest,
    RematchResponse,
    SeatInvite,
    StartRequest,
    TableInfo,
)
from lamagames.web.store import Store

STATIC_DIR = Path(__file__).parent / "static"
#: Message for an invite link whose seat was claimed by someone else from the lobby.
SEAT_TAKEN = "somebody else has taken this seat; you can watch the game"


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(ErrorOut(error=code, message=message).model_dump(), status_code=status)


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
    )


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.8,
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
    store = Store(db_url)
    hub_box: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub = hub_box["hub"] = Hub(store, settings, on_applied)
        hub.startup()
        try:
            yield
        finally:
            hub.shutdown()
            store.close()

    app = FastAPI(
        title="lamagames web",
        version="0.1.0",
        summary="Play LAMA Dice and Lama Express in the browser.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(BodyLimit)
    app.state.store = store
    app.state.settings = settings

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

    @app.exception_handler(LamaError)
    async def _lama_error(_request: Request, exc: LamaError) -> JSONResponse:
        return _error(400, "invalid", str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "not_allowed"}.get(exc.status_code, "http_error")
        message = {404: "no such path", 405: "method not allowed here"}.get(
            exc.status_code, str(exc.detail)
        )
        return JSONResponse(
            ErrorOut(error=code, message=message).model_dump(),
            status_code=exc.status_code,
            headers=exc.headers,
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
            parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        return _error(422, "invalid", "; ".join(parts))

    # ------------------------------------------------------------------ pages
    def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page()

    @app.get("/t/{code:path}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return page()

    @app.get("/replay/{code:path}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return page()

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # ------------------------------------------------------------------ API
    @app.get("/api/games", response_model=list[GameOut])
    async def games() -> list[GameOut]:
        """Games that can be played in the browser."""
        return [GameOut(**get_adapter(gid).describe()) for gid in adapter_ids()]

    @app.get("/api/tables", response_model=list[TableInfo])
    async def lobby() -> list[TableInfo]:
        """Public tables that are waiting for players or being played, newest first."""
        out = []
        for code in store.lobby():
            table = hub().get(code)
            if table is not None:
                out.append(table_info(table))
        return out

    @app.post(
        "/api/tables",
        response_model=CreateTableResponse,
        status_code=201,
        responses={400: {"model": ErrorOut}, 422: {"model": ErrorOut}},
    )
    async def create_table(body: CreateTableRequest) -> CreateTableResponse:
        """Create a waiting table. Human seats get invite tokens; start it with the host token.

        Errors: 400 for an unknown game, bad parameters or an unknown bot kind.
        """
        adapter = get_adapter(body.game)
        game = adapter.make_game(body.params, len(body.seats))  # validates (ParameterError)
        if body.alertness is not None and not adapter.has_windows:
            raise TableError(
                "invalid",
                f"alertness: {game.info.long_name} has no free-action windows "
                "(see 'windows' in GET /api/games)",
            )
        kinds = adapter.bot_kinds()
        seats: list[tuple[str, str, str | None]] = []
        humans = 0
        for index, spec in enumerate(body.seats):
            if spec.kind == "bot":
                kind = spec.bot_kind or adapter.substitute_bot()  # (the model requires one)
                if kind not in kinds:
                    raise TableError(
                        "invalid", f"seats.{index}: unknown bot kind {kind!r}; use {kinds}"
                    )
                seats.append(("bot", spec.name or "", kind))
            else:
                humans += 1
                seats.append(("human", spec.name or "", None))
        params = {k: v for k, v in game.params.items() if k != "num_players"}
        data = store.create_table(
            game=body.game,
            params=params,
            seed=body.seed if body.seed is not None else secrets.randbits(63),
            seats=seats,
            public=body.public,
            turn_clock=body.turn_clock,
            away_timeout=body.away_timeout,
            alertness=body.alertness,
        )
        return CreateTableResponse(
            code=data.code,
            host_token=data.host_token,
            seats=[
                SeatInvite(
                    seat=s.seat,
                    kind="bot" if s.kind == "bot" else "human",
                    name=s.name,
                    token=s.token,
                    invite=f"/t/{data.code}#seat={s.token}" if s.token else None,
                )
                for s in data.seats
            ],
        )

    @app.get("/api/tables/{code}", response_model=TableInfo, responses={404: {"model": ErrorOut}})
    async def get_table(code: str) -> TableInfo:
        """Public description of a table (no tokens)."""
        return table_info(hub().require(code))

    @app.post(
        "/api/tables/{code}/join",
        response_model=JoinResponse,
        responses={403: {"model": ErrorOut}, 404: {"model": ErrorOut}},
    )
    async def join(code: str, body: JoinRequest) -> JoinResponse:
        """Take the seat of an invite token (again, after a reload: idempotent)."""
        table = hub().require(code)
        seat = table.seat_for_token(body.token)
        if seat is None:
            if store.retired_seat(table.data.id, body.token) is not None:
                raise TableError("seat_taken", SEAT_TAKEN, 409)
            raise TableError("forbidden", "this invite token is not valid for this table", 403)
        return _join(table, seat, body.name)

    def _join(table: LiveTable, seat: int, name: str | None) -> JoinResponse:
        store.join_seat(table.data.id, seat, name)
        live = table.seats[seat]
        live.joined = True
        if name:
            live.name = name
        table.broadcast()
        if live.token is None:  # pragma: no cover - human seats always have tokens
            raise TableError("forbidden", "not a human seat", 403)
        return JoinResponse(code=table.code, seat=seat, token=live.token)

    @app.post(
        "/api/tables/{code}/claim",
        response_model=JoinResponse,
        responses={403: {"model": ErrorOut}, 409: {"model": ErrorOut}},
    )
    async def claim(code: str, body: ClaimRequest) -> JoinResponse:
        """Take the first free human seat of a public table (from the lobby)."""
        table = hub().require(code)
        if not table.data.public:
            raise TableError("forbidden", "this table is private; ask for an invite link", 403)
        if table.status == "finished":
            raise TableError("finished", "this game is over", 409)
        async with table.lock:
            for live in table.seats:
                if live.kind == "human" and not live.joined:
                    # A fresh token: the host's invite link for this seat no longer opens it.
                    live.token = store.claim_seat(table.data.id, live.index, body.name)
                    return _join(table, live.index, body.name)
        raise TableError("full", "no free seat at this table", 409)

    @app.post(
        "/api/tables/{code}/start",
        response_model=TableInfo,
        responses={403: {"model": ErrorOut}, 409: {"model": ErrorOut}},
    )
    async def start(code: str, body: StartRequest) -> TableInfo:
        """Start the game (host only). Humans who have not joined get the away timeout."""
        table = hub().require(code)
        if not table.is_host(body.host_token):
            raise TableError("forbidden", "only the host can start the table", 403)
        await table.start()
        return table_info(table)

    @app.post(
        "/api/tables/{code}/rematch",
        response_model=RematchResponse,
        responses={403: {"model": ErrorOut}, 409: {"model": ErrorOut}},
    )
    async def rematch(code: str, body: RematchRequest) -> RematchResponse:
        """Play again with the same seats; connected players are sent their new tokens."""
        table = hub().require(code)
        new, token, seat = await hub().rematch(table, body.token)
        return RematchResponse(code=new.code, token=token, seat=seat)

    @app.get("/api/tables/{code}/record", responses={404: {"model": ErrorOut}})
    async def record(code: str) -> Response:
        """The game record as a JSON download (the CLI's format); seed only once finished."""
        table = hub().require(code)
        text = table.record().to_json()
        name = f"lamagames-{table.data.game}-{table.code}.lamarec.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/tables/{code}/replay", responses={409: {"model": ErrorOut}})
    async def replay(code: str) -> dict[str, Any]:
        """A finished game for the replay viewer: events and the public view after each."""
        table = hub().require(code)
        if table.status != "finished":
            raise TableError("not_finished", "the replay opens when the game is over", 409)
        game_record = table.record()
        frames = [table.adapter.view(state, None) for state in iter_replay(game_record)]
        return {
            "code": table.code,
            "game": table.data.game,
            "renderer": table.adapter.renderer,
            "seats": [s.out().model_dump() for s in table.seats],
            "events": [e.model_dump() for e in table.events],
            "frames": frames,
        }

    # ------------------------------------------------------------------ WebSocket
    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        await ws.accept()
        conn = Connection(ws, settings)
        sender = asyncio.create_task(_send_loop(conn))
        table: LiveTable | None = None
        close_code = 1000
        try:
            table = hub().get(code)
            if table is None:
                conn.send(ErrorMsg(code="not_found", message=f"no table with code {code!r}"))
                close_code = 4404
                return
            hello = await _await_hello(ws, conn, settings)
            if hello is None:
                close_code = 4400
                return
            seat = table.seat_for_token(hello.token) if hello.token else None
            if hello.token and seat is None:
                if store.retired_seat(table.data.id, hello.token) is not None:
                    conn.send(ErrorMsg(code="seat_taken", message=SEAT_TAKEN))
                    close_code = 4409
                    return
                conn.send(ErrorMsg(code="bad_token", message="this seat token is not valid here"))
                close_code = 4403
                return
            table.attach(conn, seat)
            while True:
                msg = await _receive(ws, conn, settings, table.version)
                if msg is None:
                    break
                if isinstance(msg, ErrorMsg):
                    conn.send(msg)
                elif isinstance(msg, ActionMsg):
                    await table.submit(conn, msg)
                elif isinstance(msg, PingMsg):
                    conn.send(PongMsg())
                elif conn.seat is None:
                    conn.send(ErrorMsg(code="spectator", message="spectators have no seat"))
                elif isinstance(msg, LeaveMsg):
                    table.leave(conn.seat)
                elif isinstance(msg, BackMsg):
                    table.back(conn.seat)
                else:
                    conn.send(ErrorMsg(code="invalid", message="already said hello"))
        finally:
            if table is not None:
                table.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 2.0)
            with contextlib.suppress(Exception):
                await ws.close(close_code)

    return app


async def _send_loop(conn: Connection) -> None:
    try:
        await conn.run_sender()
    except Exception:  # the client went away; the receive loop notices
        conn.closed = True
    if conn.overflowed:  # too slow to keep up: drop it (it reconnects and gets the state)
        with contextlib.suppress(Exception):
            await conn.ws.close(1013)


async def _await_hello(ws: WebSocket, conn: Connection, settings: Settings) -> HelloMsg | None:
    """Wait for a valid ``hello``; other messages get an error. ``None``: give up."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.hello_timeout
    while True:
        try:
            msg = await asyncio.wait_for(
                _receive(ws, conn, settings, None), max(0.01, deadline - loop.time())
            )
        except TimeoutError:
            conn.send(ErrorMsg(code="timeout", message="no hello received"))
            return None
        if msg is None:
            return None
        if isinstance(msg, HelloMsg):
            return msg
        if isinstance(msg, ErrorMsg):
            conn.send(msg)
        else:
            conn.send(ErrorMsg(code="hello_first", message="send hello first"))


async def _receive(
    ws: WebSocket, conn: Connection, settings: Settings, version: int | None
) -> HelloMsg | ActionMsg | LeaveMsg | BackMsg | PingMsg | ErrorMsg | None:
    """Next client message, an :class:`ErrorMsg` describing why it was refused, or ``None``
    when the client disconnected."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > settings.max_message_bytes:
            return ErrorMsg(code="too_large", message="message too large", version=version)
        return ErrorMsg(code="invalid", message="send JSON text, not binary", version=version)
    if not conn.allow():
        return ErrorMsg(
            code="rate_limited", message="too many messages; slow down", version=version
        )
    if len(text.encode("utf-8")) > settings.max_message_bytes:
        return ErrorMsg(
            code="too_large",
            message=f"message larger than {settings.max_message_bytes} bytes",
            version=version,
        )
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        return ErrorMsg(code="invalid", message=f"not JSON: {exc.msg}", version=version)
    try:
        return CLIENT_MSG.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        return ErrorMsg(code="invalid", message=f"{where}: {first['msg']}", version=version)
