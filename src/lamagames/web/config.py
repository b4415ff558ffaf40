"""The settings of ``lama serve``, from command-line flags and ``LAMA_*`` environment variables.

:class:`ServeSettings` (pydantic-settings) reads ``LAMA_HOST``, ``LAMA_PORT``, ``LAMA_DB``,
``LAMA_BOT_DELAY``, ``LAMA_PROXY_HEADERS``, ``LAMA_FORWARDED_ALLOW_IPS``,
``LAMA_ALLOWED_ORIGINS``, ``LAMA_HEADER_TIMEOUT``, ``LAMA_MAX_HEADER_BYTES`` and
``LAMA_WS_COMPRESSION``; values
given as keywords (the command's flags) win over the environment, the environment over the
defaults.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from lamagames.web.protocol import HEADER_TIMEOUT, MAX_HEADER_BYTES

__all__ = ["ENV_PREFIX", "ServeSettings", "settings_error"]

#: Prefix of the environment variables (``LAMA_PORT`` sets ``port``).
ENV_PREFIX = "LAMA_"
#: Flags whose name is not the field's.
_FLAGS = {"allowed_origins": "--allowed-origin"}


class ServeSettings(BaseSettings):
    """Everything ``lama serve`` can be told, each field also from ``LAMA_<FIELD>``.

    Attributes:
        host: interface to listen on.
        port: TCP port (1 to 65535).
        db: SQLAlchemy database URL; ``None``: an SQLite file in the user's data folder.
        bot_delay: seconds a bot waits before it acts at a table of normal pace (0 to 10).
        proxy_headers: trust ``X-Forwarded-For``/``-Proto`` from ``forwarded_allow_ips``.
        forwarded_allow_ips: comma-separated proxy addresses (implies ``proxy_headers``).
        allowed_origins: other origins whose pages may open the WebSocket
            (``LAMA_ALLOWED_ORIGINS``: comma-separated, or a JSON list).
        header_timeout: seconds a connection has to send a complete request head.
        max_header_bytes: largest request head, bytes.
        workers: server processes sharing the port (1 to 64; more than one needs
            PostgreSQL, docs/deploy.md).
        ws_compression: offer permessage-deflate on the game WebSockets (see
            :func:`~lamagames.web.server.server_config`: a state message goes out in
            about a fortieth of its size, but compressing it costs CPU per connection).

    Raises:
        pydantic.ValidationError: a value (keyword or environment) is not valid; see
            :func:`settings_error` for a one-line message.
    """

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid")

    host: str = Field(default="127.0.0.1", min_length=1)
    port: int = Field(default=8000, ge=1, le=65535)
    db: str | None = None
    bot_delay: float = Field(default=1.2, ge=0.0, le=10.0)
    proxy_headers: bool = False
    forwarded_allow_ips: str | None = None
    allowed_origins: Annotated[tuple[str, ...], NoDecode] = ()
    header_timeout: float = Field(default=HEADER_TIMEOUT, gt=0.0, le=3600.0)
    max_header_bytes: int = Field(default=MAX_HEADER_BYTES, ge=1024, le=1024 * 1024)
    workers: int = Field(default=1, ge=1, le=64)
    ws_compression: bool = True

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: Any) -> Any:
        """``"a, b"`` (the environment's form) or a JSON list as a tuple of origins."""
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return tuple(json.loads(text))
            return tuple(part.strip() for part in text.split(",") if part.strip())
        return value

    @field_validator("allowed_origins")
    @classmethod
    def _check_origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Each origin as a browser sends it: ``http(s)://host[:port]``, no path."""
        for origin in value:
            parts = urlsplit(origin)
            if (
                parts.scheme not in ("http", "https")
                or not parts.hostname
                or parts.path not in ("", "/")
                or parts.query
                or parts.fragment
                or parts.username is not None
            ):
                raise ValueError(
                    f"{origin!r} is not an origin (scheme and host, for example "
                    "https://lama.example or http://127.0.0.1:8000)"
                )
            try:
                parts.port  # noqa: B018 - raises for a port out of range
            except ValueError as exc:
                raise ValueError(f"{origin!r}: {exc}") from None
        return tuple(origin.rstrip("/") for origin in value)

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _check_proxies(cls, value: str | None) -> str | None:
        """Comma-separated IP addresses or networks (CIDR), or ``*`` (any)."""
        if value is None:
            return None
        for item in (part.strip() for part in value.split(",")):
            if item == "*":
                continue
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(
                    f"{item!r} is not an IP address or network (for example 127.0.0.1, "
                    "10.0.0.0/8, or * for any)"
                ) from None
        return value

    @classmethod
    def from_flags(cls, **flags: Any) -> ServeSettings:
        """The settings with these flags over the environment; a flag that is ``None``
        (not given) leaves the environment's value or the default.

        Raises:
            pydantic.ValidationError: a value is not valid.
        """
        return cls(**{name: value for name, value in flags.items() if value is not None})


def settings_error(exc: ValidationError) -> str:
    """One line naming each bad setting by its flag and environment variable, e.g.
    ``--port / LAMA_PORT: Input should be a valid integer``."""
    parts = []
    for error in exc.errors():
        field = str(error["loc"][0]) if error["loc"] else "?"
        flag = _FLAGS.get(field, "--" + field.replace("_", "-"))
        parts.append(f"{flag} / {ENV_PREFIX}{field.upper()}: {error['msg']}")
    return "; ".join(parts)
