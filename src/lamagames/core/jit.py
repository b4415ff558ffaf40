"""Rule primitives written once, run as plain Python or compiled by Numba.

A game's rule primitives (for LAMA Dice :mod:`lamagames.dice.primitives`) are plain Python
functions over ints and arrays (NumPy arrays or lists: anything indexed by ints). The scalar
engine calls them as they are; the batch engine, the in-kernel bots and the solver kernels
call their Numba forms, :func:`compiled`. Numba is applied only where it is installed and
only when a compiled kernel asks for it, so importing a scalar engine never imports Numba
(about a second of start-up).

A primitive may call other primitives of its own module by their plain names: the
compiled form of a function (:func:`compiled`) calls the compiled forms of the primitives
it names (:func:`_with_compiled_callees`), inlined, so the plain and the compiled forms run
the very same code.

A whole compiled kernel can run interpreted too, :func:`interpreted`: the same code with
every compiled callee replaced by its own interpreted form. ``lama play`` uses it for a
bot's first decisions while the kernel compiles in the background (issue 19): slower per
call than the machine code, but no compile to wait for, and the same results.

Numba's disk cache (``cache=True``) is keyed on the content of the kernel's own source file
only: a kernel that inlines a primitive from another module would be loaded stale from the
cache after that primitive changed (an upgrade, or a developer's edit). :func:`install_cache_key`
makes the key of every cached function of this package cover the source of each module of
the package its module imports, transitively (:func:`source_stamp`).
"""

from __future__ import annotations

import ast
import contextlib
import enum
import functools
import hashlib
import sys
import threading
import types
from collections.abc import Callable, Iterator
from pathlib import Path
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

        install_cache_key()
        done = njit(cache=True, nogil=True, inline="always")(_with_compiled_callees(function))
    else:
        done = function
    _compiled[function] = done
    return cast(_F, done)


def _with_compiled_callees(function: _F) -> _F:
    """``function`` itself when the names its code reads from its module name no rule
    primitive (:func:`rule`); else a copy of it whose globals map each such name to the
    primitive's compiled form (:func:`compiled`), so Numba can compile a primitive that
    calls another one (a plain function is no callee Numba can type). The copy keeps the
    code, name, module and docstring (and so Numba's cache file)."""
    module = function.__globals__
    callees = {
        name: value
        for name in function.__code__.co_names
        if isinstance(value := module.get(name), types.FunctionType)
        and getattr(value, RULING_ATTRIBUTE, None) is not None
        and value is not function
    }
    if not callees:
        return function
    names = dict(module)
    for name, value in callees.items():
        names[name] = compiled(value)
    copy = types.FunctionType(
        function.__code__, names, function.__name__, function.__defaults__, function.__closure__
    )
    copy.__qualname__ = function.__qualname__
    copy.__doc__ = function.__doc__
    return cast(_F, copy)


_twins: dict[tuple[object, bool], Callable[..., Any]] = {}
_twin_globals: dict[tuple[int, bool], dict[str, Any]] = {}
_runners: dict[object, Callable[..., Any]] = {}
_twin_lock = threading.Lock()
_mode = threading.local()


def _is_dispatcher(value: object) -> bool:
    """True for a Numba dispatcher (``njit`` function), without importing Numba."""
    return hasattr(value, "py_func") and type(value).__module__.startswith("numba")


class NoSourceError(Exception):
    """A compiled function's source cannot be read, so it has no views form
    (:func:`interpreted` then runs the kernel on NumPy arrays)."""


class Rows(list[Any]):
    """An array of two or more dimensions as an interpreted kernel sees it (:func:`view`):
    the list of its sub-arrays' views, so ``rows[i]`` is a view sharing the array's memory
    (as in compiled code) and ``rows[i][j]`` a Python number.

    Attributes:
        shape: the array's shape.
        array: the array itself (:func:`unview`).
    """

    shape: tuple[int, ...]
    array: Any


def _views_supported(array: Any) -> bool:
    """True for an array :func:`view` shows through memoryviews: integers and booleans of
    any width, float64 (Python floats are IEEE doubles, so arithmetic on them rounds as
    compiled code does), native byte order, at least one dimension."""
    dtype = array.dtype
    return (
        array.ndim > 0
        and dtype.isnative
        and (dtype.kind in "biu" or (dtype.kind == "f" and dtype.itemsize == 8))
    )


def view(value: Any) -> Any:
    """What an interpreted kernel works on in place of ``value`` (:func:`interpreted`).

    A 1-D integer, boolean or float64 NumPy array becomes a :class:`memoryview` of it and an
    array of more dimensions a :class:`Rows` of its sub-arrays' views: both share the
    array's memory, so writes land in the caller's array (and a slice ``a[2:5]`` is a view,
    as in compiled code), and an element read is a Python ``int``, ``float`` or ``bool``,
    which Python computes with several times faster than NumPy scalars. Integers read so
    have no width: they compute as compiled code's 64-bit integers do, never wrapping at
    an int8's 127 as NumPy would (uint64 wrap-around comes from ``np.uint64`` operands, as
    written in the kernels). Tuples are viewed item by item; an ``IntEnum`` class becomes
    a namespace of its members' plain ints (what Numba compiles them to). Anything else,
    other arrays included (float32, byte-swapped, 0-d), is returned unchanged.
    """
    import numpy as np

    if isinstance(value, np.ndarray):
        if not _views_supported(value):
            return value
        if value.ndim == 1:
            return value.data  # a memoryview of the array
        rows = Rows(view(value[i]) for i in range(value.shape[0]))
        rows.shape = value.shape
        rows.array = value
        return rows
    if isinstance(value, tuple):
        return tuple(view(item) for item in value)
    if isinstance(value, type) and issubclass(value, enum.IntEnum):
        return types.SimpleNamespace(**{m.name: int(m) for m in value})
    return value


_seen_views: dict[int, tuple[Any, Any]] = {}
#: Arrays whose :func:`view` :func:`_viewed` keeps (a table of hands is viewed once, not at
#: every call of a kernel that takes it).
_SEEN_VIEWS_MAX: Final = 64


def _viewed(value: Any) -> Any:
    """:func:`view` of an argument, the view of an array it saw before reused: a view shares
    its array's memory, so it stays right while that array lives (checked by a weak
    reference: an id is reused only after its object is gone)."""
    import weakref

    import numpy as np

    if isinstance(value, tuple):
        return tuple(_viewed(item) for item in value)
    if not isinstance(value, np.ndarray) or value.ndim < 2:
        return view(value)  # a memoryview is cheap to make
    seen = _seen_views.get(id(value))
    if seen is not None and seen[0]() is value:
        return seen[1]
    made = view(value)
    if len(_seen_views) >= _SEEN_VIEWS_MAX:
        _seen_views.clear()
    _seen_views[id(value)] = (weakref.ref(value), made)
    return made


def unview(value: Any) -> Any:
    """The NumPy array behind a :func:`view` (tuples item by item); anything else as is."""
    import numpy as np

    if isinstance(value, memoryview):
        return np.asarray(value)
    if isinstance(value, Rows):
        return value.array
    if isinstance(value, tuple):
        return tuple(unview(item) for item in value)
    return value


def _copy(value: Any) -> Any:
    """``value.copy()`` for an interpreted kernel: a view of a copy of the array behind a
    :func:`view` (memoryviews have no ``copy``; a list's would share the rows)."""
    import numpy as np

    if isinstance(value, memoryview):
        return np.array(value).data
    if isinstance(value, Rows):
        return view(value.array.copy())
    return value.copy()


def _set_slice(target: Any, index: Any, value: Any) -> None:
    """``target[index] = value`` for an interpreted kernel, where ``index`` holds a slice
    (``codes[:] = 0``): done on the array behind the :func:`view`."""
    import numpy as np

    if isinstance(target, Rows):
        target.array[index] = unview(value)
    elif isinstance(target, memoryview):
        np.asarray(target)[index] = unview(value)
    else:
        target[index] = unview(value)


#: Names under which the views form of a function finds :func:`_copy` and
#: :func:`_set_slice`.
_COPY_NAME: Final = "__lama_views_copy__"
_SET_SLICE_NAME: Final = "__lama_views_set_slice__"
#: NumPy functions that make arrays: in the views form they return :func:`view` of it.
_MAKERS: Final = ("zeros", "empty", "ones", "full", "zeros_like", "empty_like", "ones_like")


def _has_slice(index: ast.expr) -> bool:
    return isinstance(index, ast.Slice) or (
        isinstance(index, ast.Tuple) and any(isinstance(item, ast.Slice) for item in index.elts)
    )


def _index_value(index: ast.expr) -> ast.expr:
    """An index as a value: ``a:b`` as ``slice(a, b, None)`` (tuples item by item)."""
    if isinstance(index, ast.Slice):
        bounds = [index.lower, index.upper, index.step]
        return ast.Call(
            func=ast.Name(id="slice", ctx=ast.Load()),
            args=[ast.Constant(value=None) if b is None else b for b in bounds],
            keywords=[],
        )
    if isinstance(index, ast.Tuple):
        return ast.Tuple(elts=[_index_value(item) for item in index.elts], ctx=ast.Load())
    return index


class _ForViews(ast.NodeTransformer):
    """Rewrites a kernel's source for :func:`view` arguments: ``a[i, j]`` becomes
    ``a[i][j]`` (a :class:`Rows` takes one index at a time; an index with a slice is left
    alone: a 1-D slice is a view), ``a.copy()`` becomes :func:`_copy` ``(a)`` and an
    assignment to a slice (``a[:] = 0``) :func:`_set_slice`."""

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        self.generic_visit(node)
        target = node.targets[0]
        if (
            len(node.targets) == 1
            and isinstance(target, ast.Subscript)
            and _has_slice(target.slice)
        ):
            call = ast.Call(
                func=ast.Name(id=_SET_SLICE_NAME, ctx=ast.Load()),
                args=[target.value, _index_value(target.slice), node.value],
                keywords=[],
            )
            return ast.copy_location(ast.Expr(value=call), node)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        index = node.slice
        if not isinstance(index, ast.Tuple) or any(
            isinstance(item, ast.Slice | ast.Starred) for item in index.elts
        ):
            return node
        chained: ast.expr = node.value
        for position, item in enumerate(index.elts):
            last = position == len(index.elts) - 1
            chained = ast.Subscript(value=chained, slice=item, ctx=node.ctx if last else ast.Load())
        return ast.copy_location(chained, node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        function = node.func
        if (
            isinstance(function, ast.Attribute)
            and function.attr == "copy"
            and not node.args
            and not node.keywords
        ):
            call = ast.Call(
                func=ast.Name(id=_COPY_NAME, ctx=ast.Load()), args=[function.value], keywords=[]
            )
            return ast.copy_location(call, node)
        return node


def _same_outline(made: object, code: types.CodeType) -> bool:
    """True if ``made`` is a code object with the names, constants and arguments of
    ``code``."""

    def outline(c: types.CodeType) -> tuple[object, ...]:
        constants = tuple(k for k in c.co_consts if not isinstance(k, types.CodeType))
        return (c.co_name, c.co_argcount, c.co_names, c.co_varnames, constants)

    return isinstance(made, types.CodeType) and outline(made) == outline(code)


def _views_source(py_func: Callable[..., Any]) -> types.CodeType:
    """The module-level code that defines the views form of ``py_func`` (its source,
    undecorated, rewritten by :class:`_ForViews`, at its own file's line numbers).

    Raises:
        NoSourceError: the source cannot be read, is not the code imported (the file was
            edited since) or the function has free variables.
    """
    import __future__

    import inspect
    import textwrap

    code = py_func.__code__
    if code.co_freevars:
        raise NoSourceError(f"{py_func.__qualname__} has free variables")
    try:
        source = textwrap.dedent(inspect.getsource(py_func))
    except (OSError, TypeError) as exc:
        raise NoSourceError(f"no source for {py_func.__qualname__}: {exc}") from exc
    tree = ast.parse(source)
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, ast.FunctionDef) or definition.name != py_func.__name__:
        raise NoSourceError(f"the source of {py_func.__qualname__} is not its definition")
    definition.decorator_list = []
    flags = __future__.annotations.compiler_flag
    # The file must still hold the code that was imported, not an edit made since (the
    # same names and constants; the bytecode itself differs between compiler runs).
    unchanged = compile(tree, code.co_filename, "exec", flags=flags, dont_inherit=True)
    if not any(_same_outline(item, code) for item in unchanged.co_consts):
        raise NoSourceError(f"the source of {py_func.__qualname__} changed since its import")
    tree = ast.fix_missing_locations(_ForViews().visit(tree))
    ast.increment_lineno(tree, code.co_firstlineno - 1)
    return cast(
        types.CodeType, compile(tree, code.co_filename, "exec", flags=flags, dont_inherit=True)
    )


def _numpy_for_views(numpy: types.ModuleType) -> types.ModuleType:
    """A copy of the ``numpy`` namespace whose array makers (:data:`_MAKERS`) return
    :func:`view` of the new array."""
    shim = types.ModuleType(numpy.__name__)
    shim.__dict__.update(vars(numpy))
    for name in _MAKERS:
        maker = getattr(numpy, name)

        def make(*args: Any, _maker: Any = maker, **kwargs: Any) -> Any:
            return view(_maker(*args, **kwargs))

        setattr(shim, name, make)
    return shim


def _plain(function: Callable[..., Any], views: bool = False) -> Callable[..., Any]:
    """The interpreted form of a dispatcher (or ``function`` itself if it is none): its
    Python code with module globals in which every dispatcher is its interpreted form.

    With ``views`` the code is the one :func:`_views_source` rewrites, to run on
    :func:`view` arguments, its module's arrays viewed too and ``numpy``'s array makers
    returning views; else the code itself on NumPy arrays (integer arrays of fewer than 64
    bits read as int64 copies).

    Raises:
        NoSourceError: ``views`` and the source of ``function`` or of a compiled function
            it calls cannot be read.
    """
    if not _is_dispatcher(function):
        return function
    done = _twins.get((function, views))
    if done is not None:
        return done
    py_func = cast(Any, function).py_func
    code = _views_source(py_func) if views else None
    module = py_func.__globals__
    names = _twin_globals.get((id(module), views))
    if names is None:  # one copy of each module's globals, shared by its functions
        names = dict(module)
        _twin_globals[(id(module), views)] = names
        if views:
            names[_COPY_NAME] = _copy
            names[_SET_SLICE_NAME] = _set_slice
        for name, value in module.items():
            if _is_dispatcher(value):
                names[name] = _plain(value, views)  # recursion ends: each twin is stored first
            elif views and isinstance(value, types.ModuleType) and value.__name__ == "numpy":
                names[name] = _numpy_for_views(value)
            else:  # tables (Numba freezes global arrays as constants): as arguments
                names[name] = view(value) if views else _widened(value)
    if code is None:
        twin = types.FunctionType(
            py_func.__code__, names, py_func.__name__, py_func.__defaults__, py_func.__closure__
        )
    else:
        made: dict[str, Any] = {}
        exec(code, names, made)
        twin = made[py_func.__name__]
    twin.__doc__ = py_func.__doc__
    _twins[(function, views)] = twin
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


_on_views: set[object] = set()


def interpret_on_views(kernel: _F) -> _F:
    """Mark ``kernel`` (a compiled kernel) to run interpreted on :func:`view` s of its
    arrays (see :func:`interpreted`); returns it unchanged.

    For kernels of small arrays read element by element, such as the LAMA Dice rollouts
    (about 2.5 times faster interpreted). Not for kernels given large arrays of two or more
    dimensions (viewing costs one memoryview per row at every call: the two-player solver's
    tables), nor for kernels that apply NumPy to whole arrays (a view has no arithmetic;
    such a kernel fails with a ``TypeError``). The marked kernel needs a test that both
    forms give the same results."""
    if _is_dispatcher(kernel):
        with _twin_lock:
            _on_views.add(kernel)
            _runners.pop(kernel, None)
    return kernel


def interpreted(kernel: _F) -> _F:
    """``kernel`` (a :func:`compiled` or ``njit`` function) run as plain Python: the same
    code, every compiled function it calls run the same way, so nothing is compiled.

    The arguments are taken as the compiled kernel takes them. A kernel marked by
    :func:`interpret_on_views` runs its source on :func:`view` s of its arrays
    (memoryviews sharing their memory, whose elements are Python numbers: several times
    faster than NumPy scalars), rewritten only where a view needs it (``a[i, j]`` as
    ``a[i][j]``, ``a.copy()``, ``a[:] = x``); arrays it returns are NumPy arrays again.
    Integers so compute without a width, as compiled code's 64-bit integers do; uint64
    arithmetic (``np.uint64`` operands) wraps as in compiled code. Other kernels, and a
    marked one whose source (or a callee's) cannot be read, run on NumPy arrays (integer
    arrays of fewer than 64 bits as int64 copies, written back afterwards, because NumPy
    would keep int8 and wrap around; NumPy's overflow warnings are silenced). A kernel
    whose results depend on anything else that differs between Numba and Python (float32
    maths, int64 overflow) needs its own test; those used so (the LAMA Dice rollouts, on
    views, and the two-player solver's kernels) have tests that both forms agree.

    Returns ``kernel`` itself where it is not compiled (Numba not installed).
    """
    if not _is_dispatcher(kernel):
        return kernel
    with _twin_lock:
        done = _runners.get(kernel)
        if done is not None:
            return cast(_F, done)
        views = kernel in _on_views
        try:
            body = _plain(kernel, views=views)
        except NoSourceError:
            body = _plain(kernel)
            views = False
    import numpy as np

    def run_on_views(*args: Any) -> Any:
        with np.errstate(over="ignore"):
            return unview(body(*[_viewed(arg) for arg in args]))

    def run_widened(*args: Any) -> Any:
        wide = [_widened_argument(arg) for arg in args]
        with np.errstate(over="ignore"):
            result = body(*wide)
        for arg, copy in zip(args, wide, strict=True):
            _write_back(arg, copy)
        return result

    run = run_on_views if views else run_widened
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


# ---------------------------------------------------------------- the disk cache's key
#: Top-level packages whose cached Numba functions get :func:`source_stamp` as their key
#: (a test adds its own throwaway package).
CACHE_ROOTS: list[str] = ["lamagames"]
_cache_key_lock = threading.Lock()
_cache_key_installed = False


def _under_roots(module_name: str) -> bool:
    """True if ``module_name`` is one of :data:`CACHE_ROOTS` or inside one."""
    return any(module_name == root or module_name.startswith(root + ".") for root in CACHE_ROOTS)


@functools.cache
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    """SHA-256 of a file's bytes (memoized on its path, modification time and size, so an
    edited file is read again)."""
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def module_path(name: str) -> Path | None:
    """The source file of module ``name`` of :data:`CACHE_ROOTS` (``x.py`` or
    ``x/__init__.py`` under its root package's folder), found without importing it;
    ``None`` if there is none (a name imported from a module, not a module)."""
    root, *rest = name.split(".")
    package = sys.modules.get(root)
    folders = getattr(package, "__path__", None)
    if not _under_roots(root) or not folders:
        return None
    base = Path(next(iter(folders))).joinpath(*rest)
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def _parsed_imports(path: str, mtime_ns: int, size: int, package: str) -> tuple[str, ...]:
    """The modules of :data:`CACHE_ROOTS` that the source at ``path`` imports anywhere in
    it (``package``: the package its relative imports start from); memoized on the file's
    modification time and size."""
    tree = ast.parse(Path(path).read_bytes(), filename=path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:  # a submodule, or a name defined in the module
                sub = f"{base}.{alias.name}"
                found.add(sub if module_path(sub) is not None else base)
    return tuple(sorted(name for name in found if _under_roots(name)))


def dependency_modules(module_name: str) -> list[str]:
    """The modules of :data:`CACHE_ROOTS` that module ``module_name`` imports, directly or
    through the modules it imports, itself included (sorted), read from the source files'
    import statements (``import x``, ``from x import name``: ``x.name`` if that is a module,
    else ``x``, whose value the importer may compile in: a function, a table, a constant).

    Compiled code can reach no other Python code or value (Numba resolves a kernel's
    callees and global constants from its module's globals, which come from these imports or
    the module itself), so a change that can alter a cached kernel is a change to one of
    these files. The closure may hold more (imports inside functions, modules a kernel
    module imports for other uses): a change there costs a recompile, never a stale kernel.
    Being read from the files, it does not depend on what else was imported before.
    """
    seen = {module_name}
    todo = [module_name]
    while todo:
        current = todo.pop()
        path = module_path(current)
        if path is None:
            continue
        stat = path.stat()
        package = current if path.name == "__init__.py" else current.rpartition(".")[0]
        for name in _parsed_imports(str(path), stat.st_mtime_ns, stat.st_size, package):
            if name not in seen and module_path(name) is not None:
                seen.add(name)
                todo.append(name)
    return sorted(seen)


def source_stamp(module_name: str) -> str:
    """The disk-cache key of a cached kernel of module ``module_name``: a SHA-256 over the
    name and the content digest of every module of :func:`dependency_modules` (64 hex
    digits)."""
    digest = hashlib.sha256()
    for name in dependency_modules(module_name):
        path = module_path(name)
        if path is None:
            continue
        stat = path.stat()
        digest.update(f"{name}={_file_digest(str(path), stat.st_mtime_ns, stat.st_size)};".encode())
    return digest.hexdigest()


def install_cache_key() -> None:
    """Make every cached Numba function of :data:`CACHE_ROOTS` decorated from now on keyed
    by :func:`source_stamp` of its module instead of its own file's content; the cache files
    stay where Numba puts them (``NUMBA_CACHE_DIR`` or ``__pycache__``). Idempotent; a
    no-op where Numba is not installed or where ``NUMBA_CACHE_LOCATOR_CLASSES`` chooses
    the locators.

    Every module that defines cached kernels calls it before its first ``njit(cache=True)``
    (``tests/core/test_jit_cache.py`` checks that each cached dispatcher of the package
    carries the key). Uses Numba's cache-locator interface (``numba.core.caching``), the
    documented way to change where and how a function is cached.
    """
    global _cache_key_installed
    with _cache_key_lock:
        if _cache_key_installed or not is_installed("numba"):
            return
        from numba.core import caching

        # the implementation class is CacheImpl from Numba 0.61 on, _CacheImpl before
        impl: Any = getattr(caching, "CacheImpl", None) or vars(caching)["_CacheImpl"]

        class SourceClosureLocator(caching._CacheLocator):
            """Numba's own locator for the function (same directory, same file names),
            with :func:`source_stamp` as the freshness stamp."""

            def __init__(self, base: Any, module_name: str, py_file: str) -> None:
                self._base = base
                self._module_name = module_name
                self._py_file = py_file  # Numba's warnings read it (check_cachable)

            def ensure_cache_path(self) -> None:
                self._base.ensure_cache_path()

            def get_cache_path(self) -> str:
                return cast(str, self._base.get_cache_path())

            def get_source_stamp(self) -> str:
                return source_stamp(self._module_name)

            def get_disambiguator(self) -> str:
                return cast(str, self._base.get_disambiguator())

            @classmethod
            def from_function(cls, py_func: Any, py_file: str) -> Any:
                module_name = getattr(py_func, "__module__", None)
                if not isinstance(module_name, str) or not _under_roots(module_name):
                    return None
                for other in impl._locator_classes:
                    if other is cls:
                        continue
                    base = other.from_function(py_func, py_file)
                    if base is not None:
                        return cls(base, module_name, py_file)
                return None

        impl._locator_classes.insert(0, SourceClosureLocator)
        _cache_key_installed = True


def has_cache_key(dispatcher: object) -> bool:
    """True if ``dispatcher`` (a Numba function) is cached on disk under
    :func:`install_cache_key`'s key."""
    cache = getattr(dispatcher, "_cache", None)
    locator = getattr(getattr(cache, "_impl", None), "locator", None)
    return type(locator).__name__ == "SourceClosureLocator"
