"""lamagames: LAMA Dice and Lama Express engines, bots, terminal play and research tools.

Importing the package itself is light (the standard library only): :func:`make` and
:data:`__version__` are looked up on first use. The ``lama`` program's entry point
(:mod:`lamagames.cli.entry`) relies on that, so that a Ctrl-C during the heavy imports
(numpy, pydantic, Numba) that follow is its own to report, not a traceback (issue 19).
"""

from __future__ import annotations

# Not ``typing.TYPE_CHECKING``: importing typing takes tens of milliseconds on a cold start,
# inside the window where a Ctrl-C would still print a traceback. Type checkers read this
# constant the same way.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from lamagames.core import make

    #: The installed version, from the package metadata (``pyproject.toml``'s ``version``).
    __version__: str

__all__ = ["__version__", "make"]


def _installed_version() -> str:
    """The version of the installed distribution (``pyproject.toml`` is the one source):
    ``importlib.metadata`` reads it from the package metadata, so a source tree that was
    never installed says ``0+unknown`` instead of a number that may be stale."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lamagames")
    except PackageNotFoundError:  # pragma: no cover - only without an install
        return "0+unknown"


def __getattr__(name: str) -> Any:
    """``make`` (from :mod:`lamagames.core`) and ``__version__``, looked up on first use and
    kept (PEP 562)."""
    value: Any
    if name == "make":
        from lamagames.core import make as value
    elif name == "__version__":
        value = _installed_version()
    else:
        raise AttributeError(f"module 'lamagames' has no attribute {name!r}")
    globals()[name] = value
    return value
