"""uvicorn's HTTP protocol with a request-head deadline and a request-head size cap.

uvicorn alone keeps a connection whose request head never ends open for as long as the
client likes (300 connections that sent half a header stayed open for 20 s), and
httptools accepts heads of any size (a 200 KB header was answered 200).
:class:`GuardedHttpProtocol` closes a connection that has not sent a complete request
head within ``header_timeout`` seconds of its first byte (or of connecting), answering 408
when a request had begun,
and refuses a head (request line and headers) over ``max_header_bytes`` with 431, without
reading more of it. WebSocket upgrades pass through unchanged once their head is in.

:class:`LamaWebSocketProtocol` is uvicorn's WebSocket protocol with two savings of server
CPU per message (issue 16; the messages and their order are the same): the server
compresses at zlib level :data:`WS_LEVEL` with a window of :data:`WS_WINDOW_BITS` (16 KB,
so a state message compresses against the whole previous one, where uvicorn's 4 KB window
saw only its tail), half the CPU and a third fewer bytes than uvicorn's settings; and the
frames an event-loop step sends on one connection (an ``ack`` and the ``state`` after it)
leave in one socket write at the end of that step instead of one write each.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Final

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

#: Seconds a client has to send a complete request head.
HEADER_TIMEOUT: Final = 10.0
#: Largest request head (request line and headers), bytes.
MAX_HEADER_BYTES: Final = 16 * 1024
#: zlib window of the server's WebSocket compression, bits (``2**14`` = 16 KB). A LAMA Dice
#: state message is 6 to 9 KB of JSON, mostly the log window of the previous one: in a
#: 16 KB window zlib finds the previous message whole, in uvicorn's 4 KB window only its
#: tail. It costs 48 KB more memory per compressing connection (about 80 KB in all).
WS_WINDOW_BITS: Final = 14
#: zlib compression level of the server's WebSocket messages (uvicorn: zlib's default, 6).
#: Measured on the development machine with 200 connections' streams interleaved (each
#: its own zlib state, as on a busy server) and a real game's messages: level 6 with
#: uvicorn's 4 KB window 78 us and 0.83 KB out per message; level 6 in 16 KB 75 us and
#: 0.13 KB; level 1 in 16 KB 40 us and 0.55 KB. Level 1 halves the CPU and still sends
#: a third fewer bytes than before.
WS_LEVEL: Final = 1
#: zlib window of the client's compression that the server asks for, bits (client
#: messages are small; uvicorn's value).
WS_CLIENT_WINDOW_BITS: Final = 12


class GuardedConfig(uvicorn.Config):
    """A :class:`uvicorn.Config` that also carries the head limits of
    :class:`GuardedHttpProtocol` (and selects it as the HTTP protocol, and
    :class:`LamaWebSocketProtocol` as the WebSocket protocol).

    Args:
        header_timeout: seconds a connection has to send a complete request head.
        max_header_bytes: largest request head, bytes.
        args, kwargs: those of :class:`uvicorn.Config`.
    """

    def __init__(
        self,
        *args: Any,
        header_timeout: float = HEADER_TIMEOUT,
        max_header_bytes: int = MAX_HEADER_BYTES,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("http", GuardedHttpProtocol)
        kwargs.setdefault("ws", LamaWebSocketProtocol)
        kwargs.setdefault("h11_max_incomplete_event_size", max_header_bytes)
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout
        self.max_header_bytes = max_header_bytes


class _HeadTooLarge(Exception):
    """Raised from the parser's callback: the complete head is over the cap."""


def _response(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": code, "message": message}, separators=(",", ":")).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a request-head deadline (408) and size cap (431).

    The limits come from the config (:class:`GuardedConfig`; a plain ``uvicorn.Config``
    gets :data:`HEADER_TIMEOUT` and :data:`MAX_HEADER_BYTES`).
    """

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.header_timeout: float = getattr(config, "header_timeout", HEADER_TIMEOUT)
        self.max_header_bytes: int = getattr(config, "max_header_bytes", MAX_HEADER_BYTES)
        self._awaiting_head = True
        self._head_bytes = 0
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_refused = False

    # ------------------------------------------------------------------ timer
    def _arm_head_timer(self) -> None:
        if self._head_timer is None and self.header_timeout > 0:
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._awaiting_head and not self.transport.is_closing():
            if self._head_bytes:  # a request began: say why it ends (a silent
                # connection, e.g. a browser's spare one, is just closed)
                message = f"no complete request head within {self.header_timeout:g} s"
                self.transport.write(_response(408, "Request Timeout", "timeout", message))
            self.transport.close()

    def _refuse_head(self) -> None:
        message = f"request head too large (limit {self.max_header_bytes} bytes)"
        self.transport.write(
            _response(431, "Request Header Fields Too Large", "too_large", message)
        )
        self.transport.close()

    # ------------------------------------------------------------------ protocol
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._awaiting_head:
            self._arm_head_timer()  # a keep-alive connection's next request began
            self._head_bytes += len(data)
        super().data_received(data)
        over = self._awaiting_head and self._head_bytes > self.max_header_bytes
        if over and not self.transport.is_closing():  # an unfinished head over the cap
            self._refuse_head()

    def send_400_response(self, msg: str) -> None:
        if self._head_refused:  # the parser stopped at our _HeadTooLarge
            self._refuse_head()
        else:
            super().send_400_response(msg)

    # ------------------------------------------------------------------ parser callbacks
    def on_headers_complete(self) -> None:
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.max_header_bytes:
            self._head_refused = True
            raise _HeadTooLarge
        self._awaiting_head = False
        self._head_bytes = 0
        self._disarm_head_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._awaiting_head = True  # the next request on this connection reads a new head
        super().on_message_complete()


class LamaWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O implementation) with a larger
    compression window and one socket write per connection and event-loop step.

    * With ``ws_per_message_deflate`` the server compresses at level :data:`WS_LEVEL`
      (uvicorn: 6) with a window of :data:`WS_WINDOW_BITS` bits (uvicorn: 12), memory
      level 5 as uvicorn.
    * ``websocket.send`` frames are encoded at once (in order, through the connection's
      compressor) and collected; they are written together by a callback scheduled on the
      event loop for right after the current step (``loop.call_soon``). Anything else the
      app sends (a close, the handshake) writes what is collected first, so the bytes on
      the wire keep the app's order; so do uvicorn's own writes (a pong, a close frame,
      the app's end). Its keepalive pings may go ahead of collected data frames (control
      frames may come between messages).
    """

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            deflate = ServerPerMessageDeflateFactory(
                server_max_window_bits=WS_WINDOW_BITS,
                client_max_window_bits=WS_CLIENT_WINDOW_BITS,
                compress_settings={"memLevel": 5, "level": WS_LEVEL},
            )
            self.conn = ServerProtocol(
                extensions=[deflate],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
        self._pending: list[bytes] = []
        self._flush_handle: asyncio.Handle | None = None
        app = self.app

        async def flushing_app(scope: Any, receive: Any, send: Any) -> Any:
            try:
                return await app(scope, receive, send)
            finally:  # before uvicorn closes the socket after the app returned
                self._flush()

        self.app = flushing_app

    def _flush(self) -> None:
        """Write the collected frames in one piece (dropped if the socket is closing)."""
        self._flush_handle = None
        pending = self._pending
        if not pending:
            return
        self._pending = []
        if not self.transport.is_closing():
            self.transport.write(b"".join(pending))

    async def send(self, message: Any) -> None:
        """ASGI send: data frames collected for one write per step, the rest as uvicorn.

        Raises:
            ClientDisconnected: the client is gone.
        """
        if (
            message["type"] != "websocket.send"
            or not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
        ):
            self._flush()
            await super().send(message)
            return
        await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        try:
            data = message.get("bytes")
            if data is not None:
                self.conn.send_binary(data)
            else:
                text = message.get("text")
                if text is not None:
                    self.conn.send_text(text.encode())
        except InvalidState:
            raise ClientDisconnected() from None
        self._pending.extend(self.conn.data_to_send())
        if self._flush_handle is None:
            self._flush_handle = self.loop.call_soon(self._flush)

    # uvicorn's own writes (close frames, pong) go after the collected frames
    def shutdown(self) -> None:
        self._flush()
        super().shutdown()

    def handle_ping(self) -> None:
        self._flush()
        super().handle_ping()

    def handle_close(self, event: Any) -> None:
        self._flush()
        super().handle_close(event)

    def keepalive_timeout(self) -> None:
        self._flush()
        super().keepalive_timeout()

    def handle_parser_exception(self) -> None:
        self._flush()
        super().handle_parser_exception()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        self._pending.clear()
        super().connection_lost(exc)
