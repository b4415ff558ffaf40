"""The WebSocket ``/ws/{code}``: play (with a seat token) or watch a table.

The client's first message is ``hello`` (with a seat token, or none to spectate); then
``action`` / ``leave`` / ``back`` / ``ping`` / ``hint`` / ``react`` / ``say``. The server
sends ``state`` on connect
and after every change, ``ack`` or ``error`` for each action, ``hints`` or ``error`` for each
``hint`` (worked out in a worker thread, see :mod:`lamagames.web.hints`; the connection keeps
receiving meanwhile), ``rematch`` and ``pong``, and
everybody's ``reaction`` and ``chat`` (see :mod:`lamagames.web.talk`). Messages are
the models of :mod:`lamagames.web.schemas`; a refused message is answered with ``error`` and
the socket stays open.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket

from lamagames.web.hints import answer_hint
from lamagames.web.live import Connection, LiveTable, Settings
from lamagames.web.routes.common import SEAT_TAKEN, hub_of, store_of
from lamagames.web.schemas import (
    ActionMsg,
    AnyClientMsg,
    BackMsg,
    ErrorMsg,
    HelloMsg,
    HintMsg,
    LeaveMsg,
    MessageRefused,
    PingMsg,
    PongMsg,
    ReactMsg,
    SayMsg,
    echo,
    message_ref,
    parse_client_message,
)

router = APIRouter()


@router.websocket("/ws/{code}")
async def play(ws: WebSocket, code: str) -> None:
    """Play or watch a table (see the module docstring for the messages)."""
    settings: Settings = ws.app.state.settings
    store = store_of(ws)
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings):
        # a page of another site (cross-site WebSocket hijacking): uvicorn answers the
        # handshake 403 and nothing is read
        await ws.close(1008)
        return
    await ws.accept()
    conn = Connection(ws, settings)
    sender = asyncio.create_task(_send_loop(conn))
    table: LiveTable | None = None
    hint_tasks: set[asyncio.Task[None]] = set()
    close_code = 1000
    try:
        table = await hub_of(ws).get(code)
        if table is None:
            conn.send(ErrorMsg(code="not_found", message=f"no table with code {echo(code)}"))
            close_code = 4404
            return
        hello = await _await_hello(ws, conn, settings)
        if hello is None:
            close_code = 4400
            return
        seat = table.seat_for_token(hello.token) if hello.token else None
        if hello.token and seat is None:
            if await store.call(store.retired_seat, table.data.id, hello.token) is not None:
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
            elif isinstance(msg, HintMsg):
                task = asyncio.create_task(answer_hint(table, conn, msg))
                hint_tasks.add(task)
                task.add_done_callback(hint_tasks.discard)
            elif conn.seat is None:
                conn.send(ErrorMsg(code="spectator", message="spectators have no seat"))
            elif isinstance(msg, LeaveMsg):
                table.leave(conn.seat)
            elif isinstance(msg, BackMsg):
                table.back(conn.seat)
            elif isinstance(msg, ReactMsg | SayMsg):
                table.talk(conn, msg)
            else:
                conn.send(ErrorMsg(code="invalid", message="already said hello"))
    finally:
        for task in list(hint_tasks):
            task.cancel()
        if table is not None:
            table.detach(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, 2.0)
        with contextlib.suppress(Exception):
            await ws.close(close_code)


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """May a WebSocket with this ``Origin`` header talk to the server reached as ``host``?

    Browsers always send ``Origin``; it must name the served host (the request's ``Host``,
    port included, any scheme: behind a TLS proxy the page is ``https``) or be one of
    ``settings.allowed_origins``. No ``Origin`` (scripts, bots, tests): allowed, as a
    browser page cannot leave it out.
    """
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origin in {o.strip().lower().rstrip("/") for o in settings.allowed_origins}:
        return True
    scheme, sep, netloc = origin.partition("://")
    if not sep or scheme not in ("http", "https") or host is None:
        return False
    default = {"http": ":80", "https": ":443"}[scheme]
    return netloc.removesuffix(default) == host.strip().lower().removesuffix(default)


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
) -> AnyClientMsg | ErrorMsg | None:
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
    if len(text.encode("utf-8")) > settings.max_message_bytes:
        return ErrorMsg(
            code="too_large",
            message=f"message larger than {settings.max_message_bytes} bytes",
            version=version,
        )
    if not conn.allow():
        return ErrorMsg(
            code="rate_limited",
            message="too many messages; slow down",
            version=version,
            ref=message_ref(text),
        )
    try:
        return parse_client_message(text)
    except MessageRefused as exc:
        return ErrorMsg(code="invalid", message=exc.message, version=version, ref=exc.ref)
