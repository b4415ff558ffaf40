"""Rule primitives written once, run as plain Python or compiled by Numba.

A game's rule primitives (for LAMA Dice :mod:`lamagames.dice.primitives`) are plain Python
functions over ints and arrays (NumPy arrays or lists: anything indexed by ints). The scalar
engine calls them as they are; the batch engine, the in-kernel bots and the solver kernels
call their Numba forms, :func:`compiled`. Numba is applied only where it is installed and
only when a compiled kernel asks for it, so importing a scalar engine never imports Numba
(about a second of start-up).

A primitive must be a *leaf*: it calls no other primitive (a compiled caller resolves its
callees itself), so the plain and the compiled forms run the very same code.

A whole compiled kernel can run interpreted too, :func:`interpreted`: the same code with
every compiled callee replaced by its own interpreted form. ``lama play`` uses it for a
bot's first decisions while the kernel compiles in the background (issue 19): slower per
call than the machine code, but no compile to wait for, and the same results.
"""

from __future__ import annotations

import contextlib
import enum
import threading
import types
from collections.abc import Callable, Iterator
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


_twins: dict[object, Callable[..., Any]] = {}
_twin_globals: dict[int, dict[str, Any]] = {}
_runners: dict[object, Callable[..., Any]] = {}
_twin_lock = threading.Lock()
_mode = threading.local()


def _is_dispatcher(value: object) -> bool:
    """True for a Numba dispatcher (``njit`` function), without importing Numba."""
    return hasattr(value, "py_func") and type(value).__module__.startswith("numba")


def _plain(function: Callable[..., Any]) -> Callable[..., Any]:
    """The interpreted form of a dispatcher (or ``function`` itself if it is none): its
    Python code with module globals in which every dispatcher is its interpreted form."""
    if not _is_dispatcher(function):
        return function
    done = _twins.get(function)
    if done is not None:
        return done
    py_func = cast(Any, function).py_func
    module = py_func.__globals__
    names = _twin_globals.get(id(module))
    if names is None:  # one copy of each module's globals, shared by its functions
        names = dict(module)
        _twin_globals[id(module)] = names
        for name, value in module.items():
            if _is_dispatcher(value):
                names[name] = _plain(value)  # recursion ends: each twin is stored first
            else:  # tables (Numba freezes global arrays as constants): as arguments
                names[name] = _widened(value)
    twin = types.FunctionType(
        py_func.__code__, names, py_func.__name__, py_func.__defaults__, py_func.__closure__
    )
    twin.__doc__ = py_func.__doc__
    _twins[function] = twin
    return twin


def _widened(value: Any) -> Any:
    """An int64 copy of an integer array of fewer than 64 bits; for an ``IntEnum`` class a
    namespace of its members' plain ints (what Numba compiles them to, and a plain attribute
    is read much faster than an enum member); else ``value``."""
    import numpy as np

    if isinstance(value, np.ndarray) and value.dtype.kind == "i" and value.itemsize < 8:
        return value.astype(np.int64)
    if isinstance(value, type) and issubclass(value, enum.IntEnum):
        return types.SimpleNamespace(**{m.name: int(m) for m in value})
    return value


def _widened_argument(value: Any) -> Any:
    """:func:`_widened` of an argument, and of each element of a tuple argument (kernels
    take groups of arrays as tuples)."""
    if isinstance(value, tuple):
        return tuple(_widened_argument(item) for item in value)
    return _widened(value)


def _write_back(original: Any, copy: Any) -> None:
    """Copy what the interpreted kernel wrote into a widened copy back into the caller's
    array (inside tuples too)."""
    if isinstance(original, tuple):
        for item, item_copy in zip(original, copy, strict=True):
            _write_back(item, item_copy)
    elif copy is not original:
        original[...] = copy


def interpreted(kernel: _F) -> _F:
    """``kernel`` (a :func:`compiled` or ``njit`` function) run as plain Python: the same
    code, every compiled function it calls run the same way, so nothing is compiled.

    The arguments are taken as the compiled kernel takes them. Integer arrays of fewer than
    64 bits (also inside tuple arguments) are worked on as int64 copies (written back to
    the caller's arrays afterwards; module-level tables are read as int64 copies too),
    because compiled code computes with
    their elements in 64 bits where NumPy would keep int8 and wrap around; uint64
    arithmetic wraps as in compiled code (NumPy's overflow warnings are silenced). A kernel
    whose results depend on anything else that differs between Numba and NumPy (float32
    maths, int64 overflow) needs its own test; the one used so (the LAMA Dice rollouts) has
    tests that both forms agree.

    Returns ``kernel`` itself where it is not compiled (Numba not installed).
    """
    if not _is_dispatcher(kernel):
        return kernel
    with _twin_lock:
        done = _runners.get(kernel)
        if done is not None:
            return cast(_F, done)
        body = _plain(kernel)
    import numpy as np

    def run(*args: Any) -> Any:
        wide = [_widened_argument(arg) for arg in args]
        with np.errstate(over="ignore"):
            result = body(*wide)
        for arg, copy in zip(args, wide, strict=True):
            _write_back(arg, copy)
        return result

    run.__doc__ = body.__doc__
    with _twin_lock:
        _runners[kernel] = run
    return cast(_F, run)


@contextlib.contextmanager
def interpreting(
    only: Callable[[object], bool] | None = None,
    until: Callable[[], bool] | None = None,
) -> Iterator[None]:
    """Within this block, in this thread, :func:`choose` picks the interpreted form of a
    kernel (other threads, such as one compiling it, are not affected).

    Args:
        only: pick the interpreted form only of the kernels for which ``only(kernel)`` is
            true (default: every kernel); ``lama play``'s warm-up compiles some kernels in
            a helper process and the others in its own, each running the other's
            interpreted (issue 19).
        until: once ``until()`` returns true, :func:`choose` picks the compiled form again
            (asked at every :func:`choose`): a caller that runs a kernel in parts (the LAMA
            Dice rollouts) goes on compiled as soon as the compiled code is ready.
    """
    before = getattr(_mode, "interpreting", None)
    _mode.interpreting = (only, until)
    try:
        yield
    finally:
        _mode.interpreting = before


def choose(kernel: _F) -> _F:
    """``kernel``, or :func:`interpreted` ``(kernel)`` inside an :func:`interpreting`
    block of this thread (for the kernels it names, until it says stop)."""
    mode: tuple[Any, Any] | None = getattr(_mode, "interpreting", None)
    if mode is None:
        return kernel
    only, until = mode
    if (only is not None and not only(kernel)) or (until is not None and until()):
        return kernel
    return interpreted(kernel)
