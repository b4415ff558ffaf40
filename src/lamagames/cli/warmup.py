"""Compiled code on first use, in the terminal: say so (issue 19).

The warm-up itself (:func:`warm_bots`, :class:`BackgroundWarmUp` with its helper process,
:class:`AfterWarmUp`) is :mod:`lamagames.bots.warmup`, shared with the web server; it is
imported from here too. This module adds what the terminal shows:

* :func:`compile_notice` shows one line with a spinner, :data:`PREPARING`, on a terminal from
  the moment Numba starts compiling in its block (Numba's ``numba:compile`` event, sent only
  on a cache miss) to the block's end; off a terminal (a pipe, a log) it writes that line
  once, plain, at the first compile. Nothing is shown when everything comes from the
  cache.
* :func:`preparing_notice` is the spinner a bot waiting for the background warm-up shows
  (:meth:`BackgroundWarmUp.wait`, :class:`AfterWarmUp`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Final

from rich.console import Console
from rich.status import Status
from rich.text import Text

from lamagames.bots.warmup import (
    HELPER_CODE,
    MAX_WARM_ACTIONS,
    AfterWarmUp,
    BackgroundWarmUp,
    HeldNotice,
    Notice,
    compiled_kinds,
    decision_for,
    helper_main,
    on_compile,
    warm_bots,
    warm_interpreted_bots,
)
from lamagames.cli import i18n
from lamagames.core.i18n import mark as _mark

__all__ = [
    "HELPER_CODE",
    "MAX_WARM_ACTIONS",
    "PREPARING",
    "AfterWarmUp",
    "BackgroundWarmUp",
    "HeldNotice",
    "compile_notice",
    "compiled_kinds",
    "decision_for",
    "helper_main",
    "on_compile",
    "preparing_notice",
    "warm_bots",
    "warm_interpreted_bots",
]

#: The line shown while compiled code is being prepared.
PREPARING: Final = _mark("Preparing the fast engine, first run only…")


@contextlib.contextmanager
def compile_notice(console: Console) -> Iterator[None]:
    """Tell on ``console`` (the command's standard error) that Numba compiles in this
    block, from its first compile (a cache miss) on.

    On a terminal :data:`PREPARING` shows with a spinner until the block ends. Off a
    terminal (``lama simulate ... | cat``, ``2>log``) it is written once, as one plain line
    without control characters, at the first compile (issue 19: a first run sat silent
    there for 15 s or more). Nothing is shown when nothing is compiled (a warm cache) or
    when Numba is not installed.
    """
    status: list[Status] = []
    told: list[bool] = []

    def show() -> None:
        if told:
            return
        told.append(True)
        if console.is_terminal:
            status.append(console.status(i18n._(PREPARING)))
            status[0].start()
        else:  # plain text, not wrapped: one line a log or a pipe can read
            console.print(Text(i18n._(PREPARING)), soft_wrap=True)

    try:
        with on_compile(show):
            yield
    finally:
        if status:
            status[0].stop()


def preparing_notice(console: Console | None) -> Notice:
    """What a wait for the background warm-up shows on ``console``: :data:`PREPARING` with
    a spinner on a terminal; nothing (``None``) without a console or off a terminal."""
    if console is None or not console.is_terminal:
        return None
    shown = console

    def notice() -> Status:
        return shown.status(i18n._(PREPARING))

    return notice
