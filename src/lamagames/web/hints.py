"""The WebSocket ``hint`` message: every legal action of the asking seat with its value.

The game's hint provider (its spec's ``hints`` extra, see
:meth:`~lamagames.web.adapters.WebAdapter.hint_provider`; LAMA Dice:
:func:`lamagames.dice.hints.hints`) can take a second or two, so it runs in a worker thread
on a copy of the state: the table (and every other table) keeps playing meanwhile. At most
:data:`MAX_HINT_THREADS` hints are computed at once server-wide and one per connection.

Answers (to the asking connection only, echoing ``ref``): ``hints``
(:class:`~lamagames.web.schemas.HintsMsg`) or ``error`` with the code

* ``spectator``: the connection has no seat;
* ``no_hints``: the game has no hint provider;
* ``hints_unavailable``: the game has one but this server cannot run it (a package its
  spec's ``requires`` names is missing, LAMA Dice without numba; or it cannot be loaded):
  the message names the package and the extra that installs it. Such a game and its tables
  say ``"hints": false``, so the browser offers no Hint button;
* ``hints_off``: the table was created with hints switched off;
* ``not_playing``: the game has not started or is over;
* ``not_your_turn``: the seat has no decision now (the provider's ``IllegalActionError``);
* ``not_covered``: the provider does not cover this position (its ``ValueError``, e.g.
  LAMA Dice's ``PositionError``);
* ``busy``: this connection's previous hint is still being computed;
* ``hint_failed``: anything else went wrong while working the hint out (logged with its
  traceback; the socket stays open).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

import anyio
import anyio.to_thread

from lamagames.core.errors import IllegalActionError
from lamagames.web.schemas import ErrorMsg, HintMsg, HintOut, HintsMsg

if TYPE_CHECKING:
    from lamagames.web.connections import Connection
    from lamagames.web.live import LiveTable

log = logging.getLogger("lamagames.web")

#: Hints computed at once on the whole server (each keeps one CPU core busy).
MAX_HINT_THREADS: Final = 2
#: Error code of a game whose hints this server cannot give (a package is missing).
HINTS_UNAVAILABLE: Final = "hints_unavailable"
#: Error code of a hint that failed for any other reason (logged with its traceback).
HINT_FAILED: Final = "hint_failed"

_limiter: anyio.CapacityLimiter | None = None
_asking: set[int] = set()  # id() of the connections whose hint is being computed


def _thread_limiter() -> anyio.CapacityLimiter:
    global _limiter
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(MAX_HINT_THREADS)
    return _limiter


async def answer_hint(table: LiveTable, conn: Connection, msg: HintMsg) -> None:
    """Answer one ``hint`` message (see the module docstring); never raises (but for
    cancellation): whatever goes wrong is an ``error`` to the asking connection, echoing
    ``ref``."""
    try:
        await _answer_hint(table, conn, msg)
    except Exception as exc:
        log.exception("table %s: a hint failed", table.code)
        conn.send(
            ErrorMsg(
                code=HINT_FAILED,
                message=f"the hint could not be worked out ({type(exc).__name__}); "
                "the server log has the details",
                version=table.version,
                ref=msg.ref,
            )
        )


async def _answer_hint(table: LiveTable, conn: Connection, msg: HintMsg) -> None:
    version = table.version

    def refuse(code: str, message: str) -> None:
        conn.send(ErrorMsg(code=code, message=message, version=version, ref=msg.ref))

    def unavailable(why: str) -> None:
        name = table.game.info.long_name
        refuse(HINTS_UNAVAILABLE, f"{name} hints are not available on this server ({why})")

    seat = conn.seat
    if seat is None:
        refuse("spectator", "spectators get no hints; join with an invite link to play")
        return
    adapter = table.adapter
    if not adapter.names_hints():
        refuse("no_hints", f"{table.game.info.long_name} has no hints")
        return
    why = adapter.hints_unavailable()
    if why is not None:
        unavailable(why)
        return
    try:
        provider = adapter.hint_provider()
    except (ImportError, AttributeError) as exc:
        log.error("table %s: the hint provider cannot be loaded: %s", table.code, exc)
        unavailable(f"cannot be loaded: {exc}")
        return
    if provider is None:  # pragma: no cover - names_hints said the spec has one
        refuse("no_hints", f"{table.game.info.long_name} has no hints")
        return
    if not table.data.hints:
        refuse("hints_off", "hints are switched off at this table")
        return
    if table.status != "playing" or table.state.is_terminal():
        refuse("not_playing", "hints are given while the game is being played")
        return
    if seat not in adapter.acting_players(table.state):
        refuse("not_your_turn", "hints are given when it is your turn")
        return
    if id(conn) in _asking:
        refuse("busy", "your previous hint is still being worked out")
        return
    state = table.state.clone()
    _asking.add(id(conn))
    try:
        found = await anyio.to_thread.run_sync(provider, state, seat, limiter=_thread_limiter())
        hints = [
            HintOut(
                action=state.action_to_string(h["action"], seat),
                **{k: v for k, v in h.items() if k not in ("action", "notation")},
            )
            for h in (hint.to_json() for hint in found)
        ]
    except IllegalActionError as exc:
        refuse("not_your_turn", str(exc))
        return
    except ImportError as exc:  # a package the provider imports on first use is missing
        log.error("table %s: hints need a missing package: %s", table.code, exc)
        unavailable(str(exc))
        return
    except ValueError as exc:  # the provider does not cover this position
        log.info("table %s: no hint for seat %d: %s", table.code, seat, exc)
        refuse("not_covered", f"no hint for this position: {exc}")
        return
    finally:
        _asking.discard(id(conn))
    conn.send(HintsMsg(version=version, ref=msg.ref, hints=hints))
