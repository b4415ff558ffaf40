"""The warm-up's helper process, started before ``lama play`` knows its work (issue 19).

On a cold install a first ``exact`` or ``search`` bot move waits for Numba to compile the
bot's kernels, which ``lama play`` shares with a helper process on the other core
(:class:`lamagames.bots.warmup.BackgroundWarmUp`). Started once the game is made, that
helper spent its first second starting Python and importing NumPy and Numba while the
person was already playing. Started here instead, by the program's entry point
(:mod:`lamagames.cli.entry`) before the commands are imported, it does those imports
alongside ``lama``'s own (a core that is idle then) and waits, on its standard input, for
the JSON line that says what to compile (:func:`lamagames.bots.warmup.prestarted_main`).

Standard library only, like the entry point: importing this costs nothing measurable.
"""

from __future__ import annotations

import atexit
import contextlib
import subprocess
import sys

TYPE_CHECKING = False  # not typing's: see lamagames/__init__.py
if TYPE_CHECKING:
    from collections.abc import Sequence

#: What the helper started here runs (``python -c``): the imports, then its JSON spec from
#: standard input (:func:`lamagames.bots.warmup.prestarted_main`).
PRESTART_CODE = (
    "import os; from lamagames.bots.warmup import prestarted_main; os._exit(prestarted_main())"
)
#: The seat kinds whose bots run compiled code, in any game
#: (:func:`lamagames.bots.warmup.compiled_kinds`; a test checks the two agree). Kept here
#: as names so that the entry point decides without importing the bots.
COMPILED_KINDS = ("exact", "search")

_started: subprocess.Popen[bytes] | None = None


def wanted(argv: Sequence[str]) -> bool:
    """Whether a command line (without the program name) is worth a helper started now:
    ``play`` with a compiled kind named anywhere in it (``--seats human,exact``). A false
    yes (the word in a file name, a batch of bot games) costs an idle process, killed when
    ``lama play`` sees it has no use for it (:func:`discard`)."""
    if not argv or argv[0] != "play":
        return False
    return any(kind in arg for arg in argv[1:] for kind in COMPILED_KINDS)


def start(argv: Sequence[str] | None = None) -> None:
    """Start the helper (:data:`PRESTART_CODE`, given the command line as its arguments:
    the games and kinds named there are imported ahead) if the command line (default
    ``sys.argv[1:]``) is :func:`wanted`; nothing if one is running already or it cannot
    start (then ``lama play`` starts its helper later, as without this). It ends when its
    standard input closes, so it never outlives this process; :func:`discard` runs at exit.
    """
    global _started
    words = list(sys.argv[1:] if argv is None else argv)
    if _started is not None or not wanted(words):
        return
    if not sys.executable:  # an embedded Python: no interpreter to start
        return
    try:
        _started = subprocess.Popen(
            [sys.executable, "-c", PRESTART_CODE, *words],  # what to import ahead
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the terminal's Ctrl-C is this process's to handle
        )
    except OSError:
        _started = None
        return
    atexit.register(discard)


def take() -> subprocess.Popen[bytes] | None:
    """The helper started by :func:`start`, handed over once (``None`` if none was started
    or it has ended): the caller writes its spec line to its standard input and owns it."""
    global _started
    helper, _started = _started, None
    if helper is None:
        return None
    if helper.poll() is not None:
        stop(helper)
        return None
    return helper


def discard() -> None:
    """Kill and reap the helper started by :func:`start` if nobody took it (a command that
    compiles nothing in the background); safe to call again."""
    global _started
    helper, _started = _started, None
    if helper is not None:
        stop(helper)


def stop(helper: subprocess.Popen[bytes]) -> None:
    """Kill ``helper`` if it still runs, reap it (no zombie) and close its standard input
    (any helper process of the warm-up, :class:`lamagames.bots.warmup.BackgroundWarmUp`)."""
    if helper.poll() is None:
        with contextlib.suppress(OSError):
            helper.kill()
    helper.wait()
    if helper.stdin is not None:
        with contextlib.suppress(OSError):
            helper.stdin.close()
