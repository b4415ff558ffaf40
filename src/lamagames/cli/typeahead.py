"""Keys typed while bots play: neither echoed nor read (issue 19).

At a terminal, a person often types while the bots move. Those keys used to appear in the
move log (the terminal echoed them) and, unless dropped, would answer the next prompt before
it was seen. :class:`TypeAheadGuard` turns the terminal's echo off while bots play and, at
each prompt, drops what was typed (``termios.tcflush``) and turns the echo back on.

Only where standard input is a terminal on a POSIX system; elsewhere (pipes, tests,
Windows) every method does nothing.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO, TypeVar

_T = TypeVar("_T")


class TypeAheadGuard:
    """Echo off between prompts, type-ahead dropped at each prompt, the terminal restored.

    Use :meth:`active` around a game and :meth:`wrap` on its line reader::

        guard = TypeAheadGuard()
        with guard.active():
            read_line = guard.wrap(read_line)
            ...

    Args:
        stream: the input stream (default ``sys.stdin``); nothing is done unless it is a
            terminal and :mod:`termios` is available.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._fd: int | None = None
        self._saved: list[Any] | None = None
        self._termios: Any = None
        source = sys.stdin if stream is None else stream
        try:
            if source is None or not source.isatty():
                return
            import termios

            fd = source.fileno()
            self._saved = termios.tcgetattr(fd)
        except (ImportError, OSError, ValueError, AttributeError):  # not a POSIX terminal
            return
        self._fd = fd
        self._termios = termios

    @property
    def enabled(self) -> bool:
        """True when standard input is a terminal that this guard controls."""
        return self._fd is not None

    def quiet(self) -> None:
        """Stop echoing typed keys (between prompts, while bots play)."""
        if self._fd is None or self._saved is None:
            return
        termios = self._termios
        attrs = list(self._saved)
        attrs[3] = attrs[3] & ~termios.ECHO  # lflag
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(self._fd, termios.TCSANOW, attrs)

    def listen(self) -> None:
        """Before a prompt: drop the keys typed since the last one and echo again."""
        if self._fd is None or self._saved is None:
            return
        termios = self._termios
        with contextlib.suppress(OSError, termios.error):
            termios.tcflush(self._fd, termios.TCIFLUSH)
            termios.tcsetattr(self._fd, termios.TCSANOW, self._saved)

    def restore(self) -> None:
        """Give the terminal back as it was found (echo on)."""
        if self._fd is None or self._saved is None:
            return
        termios = self._termios
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(self._fd, termios.TCSANOW, self._saved)

    @contextlib.contextmanager
    def active(self) -> Iterator[TypeAheadGuard]:
        """Echo off for the block (a game), the terminal restored after it, also on errors
        and Ctrl-C."""
        self.quiet()
        try:
            yield self
        finally:
            self.restore()

    def wrap(self, read_line: Callable[[_T], str]) -> Callable[[_T], str]:
        """``read_line`` that listens (:meth:`listen`) while it reads and is quiet after."""

        def guarded(prompt: _T) -> str:
            self.listen()
            try:
                return read_line(prompt)
            finally:
                self.quiet()

        return guarded
