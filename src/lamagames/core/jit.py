"""Rule primitives written once, run as plain Python or compiled by Numba.

A game's rule primitives (for LAMA Dice :mod:`lamagames.dice.primitives`) are plain Python
functions over ints and arrays (NumPy arrays or lists: anything indexed by ints). The scalar
engine calls them as they are; the batch engine, the in-kernel bots and the solver kernels
call their Numba forms, :func:`compiled`. Numba is applied only where it is installed and
only when a compiled kernel asks for it, so importing a scalar engine never imports Numba
(about a second of start-up).

A primitive must be a *leaf*: it calls no other primitive (a compiled caller resolves its
callees itself), so the plain and the compiled forms run the very same code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

from lamagames.core.extras import is_installed

_F = TypeVar("_F", bound=Callable[..., Any])

#: Attribute a primitive carries (its ruling id), set by :func:`rule`.
RULING_ATTRIBUTE: Final = "__ruling__"

_compiled: dict[Callable[..., Any], Callable[..., Any]] = {}


def rule(ruling: str) -> Callable[[_F], _F]:
    """Mark a function as the one implementation of ``ruling`` (e.g. ``"D-8"``); the
    function is returned unchanged (plain Python), with ``__ruling__`` set.

    Raises:
        ValueError: ``ruling`` is not a ``D-n`` or ``E-n`` id.
    """
    head, _, number = ruling.partition("-")
    if head not in ("D", "E") or not number.split(".")[0].isdigit():
        raise ValueError(f"ruling must look like 'D-8' or 'E-9', got {ruling!r}")

    def mark(function: _F) -> _F:
        setattr(function, RULING_ATTRIBUTE, ruling)
        return function

    return mark


def compiled(function: _F) -> _F:
    """The Numba form of a plain function (``njit(cache=True, nogil=True,
    inline="always")``, made once per function and process), or ``function`` itself where
    Numba is not installed. Primitives are inlined into their callers at Numba's IR level
    (measured: the batch engine's whole-game loop ran about 5% faster than with ordinary
    calls).

    Compilation happens at the first call with given argument types; the machine code is
    cached on disk next to the function's module (``__pycache__``) or in
    ``NUMBA_CACHE_DIR``.
    """
    done = _compiled.get(function)
    if done is not None:
        return cast(_F, done)
    if is_installed("numba"):
        from numba import njit

        done = njit(cache=True, nogil=True, inline="always")(function)
    else:
        done = function
    _compiled[function] = done
    return cast(_F, done)
