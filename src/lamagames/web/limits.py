"""Per-client rate limits of the HTTP API (token buckets keyed by client address): table
creation, seat claims and invite joins."""

from __future__ import annotations

import math
import time
from collections import OrderedDict

from starlette.requests import HTTPConnection


class RateLimited(Exception):
    """A client asked too often; answered 429 ``rate_limited`` with ``Retry-After``.

    Attributes:
        wait: seconds until the next request would be allowed.
    """

    def __init__(self, message: str, wait: float) -> None:
        super().__init__(message)
        self.message = message
        self.wait = wait


class KeyedRateLimit:
    """A token bucket per key (a client address): ``burst`` requests at once, then
    ``per_minute`` a minute. The least recently seen keys are forgotten beyond
    ``max_keys`` (a forgotten key starts with a full bucket again).

    Args:
        per_minute: sustained requests per minute per key; ``0`` or less: no limit.
        burst: requests a key may make at once (at least 1).
        max_keys: keys remembered at most (memory bound).
    """

    def __init__(self, per_minute: float, burst: int, max_keys: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float | None = None) -> float:
        """Take one request from ``key``'s bucket.

        Args:
            now: monotonic time in seconds (default: now).

        Returns:
            0.0 if allowed, else the seconds until the next request would be allowed.
        """
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait

    @staticmethod
    def retry_after(wait: float) -> str:
        """``wait`` seconds as a ``Retry-After`` header value (whole seconds, at least 1)."""
        return str(max(1, math.ceil(wait)))


def client_address(conn: HTTPConnection) -> str:
    """The client address the limits key on: the TCP peer's, or the proxy's
    ``X-Forwarded-For`` when ``lama serve`` trusts it (``--forwarded-allow-ips``)."""
    return conn.client.host if conn.client is not None else "unknown"


def enforce(limit: KeyedRateLimit, conn: HTTPConnection, what: str) -> None:
    """Take one request of ``conn``'s client address from ``limit``.

    Args:
        what: what was asked for too often, for the message ("new tables").

    Raises:
        RateLimited: the bucket is empty (answered 429 ``rate_limited`` with ``Retry-After``).
    """
    wait = limit.take(client_address(conn))
    if wait > 0:
        raise RateLimited(
            f"too many {what} from your address; try again in {KeyedRateLimit.retry_after(wait)} s",
            wait,
        )
