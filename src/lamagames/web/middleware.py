"""Pure ASGI middleware of the web app.

:class:`SecurityHeaders` adds the Content-Security-Policy and the other security headers
to every HTTP answer.

:class:`BodyLimit` caps HTTP request bodies while they are read: a ``Content-Length`` over
the limit is refused before anything is read, and a body without one (chunked transfer
encoding) is counted chunk by chunk and refused as soon as it passes the limit, so a
client can never make the server hold more than ``limit`` bytes of one body.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The pages' Content-Security-Policy: scripts, styles, images and connections (the
#: WebSocket included: ``'self'`` covers ``ws:``/``wss:`` of the same host) from this
#: server only; no inline script or style (the UI sets styles through the CSSOM), no
#: plugins, no framing by other sites (``frame-ancestors``).
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

#: The policy of FastAPI's API documentation pages (``/docs``: Swagger UI, ``/redoc``:
#: ReDoc, which the game pages never link to): they load their script and styles from
#: FastAPI's default CDN (jsDelivr; ReDoc also Google's fonts), start with an inline
#: script and draw with inline styles, data: images and a blob: worker. Everything else
#: stays as strict as :data:`CONTENT_SECURITY_POLICY` (no framing, no plugins).
DOCS_CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src 'self' https://fonts.gstatic.com; connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

#: Paths served with :data:`DOCS_CONTENT_SECURITY_POLICY`.
DOCS_PATHS: Final = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})

#: Headers :class:`SecurityHeaders` adds to every HTTP answer (lower-case names).
SECURITY_HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
_DOCS_HEADERS: Final = (
    (b"content-security-policy", DOCS_CONTENT_SECURITY_POLICY.encode()),
    *SECURITY_HEADERS[1:],
)

#: Largest HTTP request body accepted by default, bytes.
MAX_BODY_BYTES: Final = 64 * 1024


class BodyTooLarge(HTTPException):
    """Raised into the app from ``receive`` when the body passes the limit (an
    ``HTTPException``, so FastAPI passes it on instead of calling it a parse error)."""

    def __init__(self) -> None:
        super().__init__(413, "request body too large")


def error_body(limit: int) -> bytes:
    """The JSON error body (``{"error": "too_large", "message": ...}``) of a refused body."""
    message = f"request body too large (limit {limit} bytes)"
    # compact, like every other error body (starlette's JSONResponse rendering)
    return bytes(JSONResponse({"error": "too_large", "message": message}).body)


class BodyLimit:
    """Refuse HTTP request bodies larger than ``limit`` bytes with 413 ``too_large``.

    The check runs while the body is received: reading stops at the first chunk that
    passes the limit (nothing more is read), the client gets the 413 JSON error, and
    whatever the app tries to send after that is dropped. WebSocket and lifespan scopes
    pass through unchanged.

    Args:
        app: the wrapped ASGI app.
        limit: largest accepted body, bytes.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        received = 0
        started = False  # the app began its answer
        refused = False  # we answered 413 ourselves

        async def limited_receive() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    if not started and not refused:
                        refused = True
                        await self._refuse(send)
                    raise BodyTooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 is out; the app's own answer to BodyTooLarge is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except BodyTooLarge:
            if not refused and not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = error_body(self.limit)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _relative(location: bytes, host: str) -> bytes:
    """``location`` without scheme and host when it points at ``host`` (this server)."""
    parts = urlsplit(location.decode("latin-1"))
    if parts.scheme in ("http", "https") and parts.netloc.lower() == host:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return path.encode("latin-1")
    return location


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP answer (pages, static files, API and
    error answers alike; a header the app set itself is kept; the API documentation pages
    of :data:`DOCS_PATHS` get :data:`DOCS_CONTENT_SECURITY_POLICY`), and make a redirect to this
    server relative: Starlette builds the ``Location`` of its trailing-slash redirects
    (``/static`` to ``/static/``) from the request's ``Host`` (and scheme), which a client
    chooses; ``Location: /static/`` means the same to every client and echoes nothing.
    WebSocket and lifespan scopes pass through unchanged.

    Args:
        app: the wrapped ASGI app.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").lower()
        added = _DOCS_HEADERS if scope.get("path") in DOCS_PATHS else SECURITY_HEADERS

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, _relative(value, host) if name.lower() == b"location" else value)
                    for name, value in message.get("headers") or []
                ]
                present = {name.lower() for name, _ in headers}
                headers += [(n, v) for n, v in added if n not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
