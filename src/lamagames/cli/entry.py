"""The ``lama`` program's entry point (``[project.scripts]``, ``python -m lamagames``).

Kept apart from :mod:`lamagames.cli.main`, and light (the standard library only, as is
``import lamagames``): importing the commands takes about a second of numpy, numba,
pydantic, Typer and Rich, and a Ctrl-C during it printed a Python traceback (issue 19).
Here the imports run inside :func:`run`, which ends such an interrupt quietly. Once the
commands are imported, :func:`lamagames.cli.main.run` and the commands handle Ctrl-C
themselves (exit code 130 as well).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: see lamagames/__init__.py
if TYPE_CHECKING:
    from typing import NoReturn

#: Exit code after Ctrl-C (128 + SIGINT, as shells report it); the same as
#: :data:`lamagames.cli.common.INTERRUPTED`, not imported from there (that module is heavy).
INTERRUPTED = 130


def run() -> NoReturn:
    """Import the ``lama`` commands and run them (:func:`lamagames.cli.main.run`).

    A Ctrl-C (:class:`KeyboardInterrupt`) before the command handles it, during the imports
    above all, ends the process with exit code 130 and one line, ``Interrupted.``, on
    standard error: no traceback.
    """
    try:
        # ``lama play`` with a compiled bot: its compile helper starts now, its imports
        # alongside the commands' (issue 19; :mod:`lamagames.prestart`)
        from lamagames import prestart

        prestart.start()
        from lamagames.cli.main import run as run_command

        run_command()
    except KeyboardInterrupt:
        _interrupted()
    raise SystemExit(0)  # pragma: no cover - run_command always exits


def _interrupted() -> NoReturn:
    """Leave after a Ctrl-C: a second one while leaving ends the process at once (killed by
    the signal, no traceback either)."""
    import contextlib
    import signal

    with contextlib.suppress(ValueError, OSError):  # ValueError: not the main thread
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no or a closed stderr
        sys.stderr.write("Interrupted.\n")
        sys.stderr.flush()
    raise SystemExit(INTERRUPTED)
