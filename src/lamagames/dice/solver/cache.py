"""Disk cache of solved value tables (``platformdirs`` user cache directory).

Files live in ``<user cache dir>/lamagames/solver/`` (or in the directory named by the
environment variable ``LAMAGAMES_SOLVER_CACHE``; the value ``off`` disables the disk cache).
The directory is kept under a size bound (``LAMAGAMES_SOLVER_CACHE_MB``, default 1000 MB),
least recently used tables deleted first (:func:`prune`). A file name holds the solver
version, the dice faces (D-1), the llama row and the number of score levels, so a new
solver version or another dice set never reads a stale table. Only files whose names match
the solver's own patterns (:func:`is_cache_file`) are ever counted or deleted, so the
variable may safely name a folder that holds other files.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, Final

import numpy as np
import numpy.typing as npt
import platformdirs

#: Environment variable that moves (or, with ``off``, disables) the disk cache.
CACHE_ENV = "LAMAGAMES_SOLVER_CACHE"

#: Environment variable with the most megabytes (10**6 bytes) the cache may hold.
CACHE_SIZE_ENV = "LAMAGAMES_SOLVER_CACHE_MB"

#: Default size bound of the cache in bytes. Last-standing tables alone could reach about
#: 4.6 GB (128 llama rows times four level counts, 3.6-14.5 MB each).
DEFAULT_MAX_BYTES = 1_000_000_000


def max_bytes() -> int:
    """The cache's size bound in bytes: ``LAMAGAMES_SOLVER_CACHE_MB`` megabytes when set to
    a non-negative number, else :data:`DEFAULT_MAX_BYTES` (a bad value is ignored: the
    cache is only an optimisation and must never stop play)."""
    configured = os.environ.get(CACHE_SIZE_ENV, "").strip()
    try:
        megabytes = float(configured)
    except ValueError:
        return DEFAULT_MAX_BYTES
    if not megabytes >= 0:  # also NaN
        return DEFAULT_MAX_BYTES
    return int(megabytes * 1_000_000)


def prune(directory: Path, keep: Path, limit: int | None = None) -> None:
    """Delete the least recently used solver tables (files matching :func:`is_cache_file`;
    by modification time, which :func:`touch` refreshes on every hit) until they hold at
    most ``limit`` bytes (default :func:`max_bytes`). Other files of the directory are
    never counted nor deleted. ``keep``, the table just written, is never deleted, even
    alone over the limit. I/O errors are ignored.
    """
    bound = max_bytes() if limit is None else limit
    try:
        files = []
        for f in _cache_files(directory):
            stat = f.stat()
            files.append((stat.st_mtime, stat.st_size, f))
        total = sum(size for _, size, _ in files)
        for _, size, f in sorted(files, key=lambda t: t[0]):
            if total <= bound:
                break
            if f == keep:
                continue
            f.unlink(missing_ok=True)
            total -= size
    except OSError:
        return


def touch(path: Path) -> None:
    """Mark a cached table as just used (for :func:`prune`); errors are ignored."""
    try:
        os.utime(path)
    except OSError:
        return


def cache_dir() -> Path | None:
    """The cache directory, or ``None`` when caching is off.

    ``LAMAGAMES_SOLVER_CACHE`` names the directory; ``off`` (any case) turns the disk cache
    off; unset, empty or only whitespace means the default
    ``<user cache dir>/lamagames/solver`` (an empty value never means the current folder).
    """
    configured = os.environ.get(CACHE_ENV, "").strip()
    if configured.lower() == "off":
        return None
    if configured:
        return Path(configured)
    return Path(platformdirs.user_cache_dir("lamagames")) / "solver"


#: Dice faces in a file name: three dice of six faces (D-1) joined by ``-``.
_FACES = r"[1-6Ll]{6}-[1-6Ll]{6}-[1-6Ll]{6}"
#: Names of last-standing tables (:func:`table_name`): the only ``.npy`` files the cache
#: counts or deletes.
TABLE_NAME = re.compile(rf"v\d+(?:s[0-9a-f]{{12}})?_{_FACES}_llamas\d{{3}}_levels\d+\.npy")
#: Names of two-player tables (:func:`pair_name`): the only ``.npz`` files the cache counts
#: or deletes.
PAIR_NAME = re.compile(
    rf"pair\d+(?:s[0-9a-f]{{12}})?_{_FACES}_[0-7]{{7}}-[0-7]{{7}}_llamas\d{{3}}_scores\d+-\d+\.npz"
)


#: The solver modules whose source (and every module of the package they import) decides
#: what the tables hold (:func:`code_stamp`).
SOLVER_MODULES: Final = ("lamagames.dice.solver.last_standing", "lamagames.dice.solver.pair_table")


@functools.cache
def code_stamp() -> str:
    """12 hex digits naming the source of the solver and every rule it uses
    (:func:`lamagames.core.jit.source_stamp` of :data:`SOLVER_MODULES`), part of every
    table's file name: a table solved by other code (an upgrade, an edited primitive or
    card value) is never read, with or without a version bump. Computed once a process."""
    from lamagames.core.jit import source_stamp

    digest = hashlib.sha256("".join(map(source_stamp, SOLVER_MODULES)).encode())
    return digest.hexdigest()[:12]


def table_name(version: int, dice: tuple[str, ...], mask: int, levels: int, stamp: str = "") -> str:
    """File name of a last-standing table (matches :data:`TABLE_NAME`); ``stamp``: the
    :func:`code_stamp` it was solved with (empty only in names of older tables)."""
    faces = "-".join(dice)
    code = f"s{stamp}" if stamp else ""
    return f"v{version}{code}_{faces}_llamas{mask:03d}_levels{levels}.npy"


def pair_name(
    version: int,
    dice: tuple[str, ...],
    row_a: tuple[int, ...],
    row_b: tuple[int, ...],
    mask: int,
    score_a: int,
    score_b: int,
    stamp: str = "",
) -> str:
    """File name of a two-player table (matches :data:`PAIR_NAME`); ``stamp`` as in
    :func:`table_name`."""
    faces = "-".join(dice)
    rows = "".join(map(str, row_a)) + "-" + "".join(map(str, row_b))
    code = f"s{stamp}" if stamp else ""
    return f"pair{version}{code}_{faces}_{rows}_llamas{mask:03d}_scores{score_a}-{score_b}.npz"


def is_cache_file(path: Path) -> bool:
    """Whether ``path`` is named like a table of this cache (:data:`TABLE_NAME` or
    :data:`PAIR_NAME`); :func:`prune` and :func:`store_arrays` touch no other file."""
    return bool(TABLE_NAME.fullmatch(path.name) or PAIR_NAME.fullmatch(path.name))


def _cache_files(directory: Path, pattern: re.Pattern[str] | None = None) -> list[Path]:
    """The solver's table files in ``directory`` (those matching ``pattern``, default
    either pattern); raises ``OSError`` as :meth:`Path.iterdir` does."""
    return [
        f
        for f in directory.iterdir()
        if (pattern.fullmatch(f.name) if pattern else is_cache_file(f)) and f.is_file()
    ]


def table_path(version: int, dice: tuple[str, ...], mask: int, levels: int) -> Path | None:
    """Where the table of these parameters is stored (``None`` when caching is off)."""
    base = cache_dir()
    if base is None:
        return None
    return base / table_name(version, dice, mask, levels, code_stamp())


def load(path: Path | None, shape: tuple[int, int]) -> npt.NDArray[np.float64] | None:
    """A cached float64 table of exactly ``shape``, or ``None`` (missing, unreadable or of
    another shape: the caller then solves again)."""
    if path is None or not path.is_file():
        return None
    try:
        table = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if table.dtype != np.float64 or table.shape != shape:
        return None
    touch(path)
    return np.asarray(table, dtype=np.float64)


def _write_atomic(path: Path, write: Callable[[BinaryIO], None]) -> bool:
    """Write through ``write`` to a temporary file beside ``path`` and rename it, so a
    reader never sees half a table. Returns ``False`` on an I/O error (ignored by the
    callers: the cache is only an optimisation)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as handle:
            write(handle)
        tmp.replace(path)
    except OSError:
        return False
    return True


def store(path: Path | None, table: npt.NDArray[np.float64]) -> None:
    """Write a table atomically (a temporary file renamed), then :func:`prune` the directory
    to its size bound; I/O errors are ignored because the cache is only an optimisation."""
    if path is None or not _write_atomic(path, lambda f: np.save(f, table, allow_pickle=False)):
        return
    prune(path.parent, path)


def pair_path(
    version: int,
    dice: tuple[str, ...],
    row_a: tuple[int, ...],
    row_b: tuple[int, ...],
    mask: int,
    score_a: int,
    score_b: int,
) -> Path | None:
    """Where a two-player table is stored: solver version, dice faces (D-1), both rows as
    count digits (symbols ``1..6, L``), the llama row mask and both scores (D-4)."""
    base = cache_dir()
    if base is None:
        return None
    return base / pair_name(version, dice, row_a, row_b, mask, score_a, score_b, code_stamp())


def load_arrays(
    path: Path | None, shapes: dict[str, tuple[int, ...]]
) -> dict[str, npt.NDArray[np.float64]] | None:
    """The float64 arrays of an ``.npz`` file holding exactly the names and shapes asked,
    or ``None`` (missing, unreadable, other names or shapes: the caller solves again)."""
    if path is None or not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if set(data.files) != set(shapes):
                return None
            out = {name: np.asarray(data[name]) for name in shapes}
    except (OSError, ValueError, KeyError, EOFError):
        return None
    for name, shape in shapes.items():
        if out[name].dtype != np.float64 or out[name].shape != shape:
            return None
    touch(path)
    return out


#: Most two-player tables kept on disk (each deal has its own, tens of MB each); the least
#: recently written beyond this are deleted.
MAX_PAIR_FILES = 16


def store_arrays(
    path: Path | None, arrays: dict[str, npt.NDArray[np.float64]], keep: int = MAX_PAIR_FILES
) -> None:
    """Write named arrays to an ``.npz`` file atomically, then delete all but the ``keep``
    newest two-player tables of the directory (files matching :data:`PAIR_NAME`; no other
    file) and :func:`prune` it to its size bound; I/O errors are ignored (the cache is only
    an optimisation)."""
    if path is None or not _write_atomic(path, lambda f: np.savez(f, **arrays)):  # type: ignore[arg-type]
        return
    try:
        files = sorted(_cache_files(path.parent, PAIR_NAME), key=lambda f: f.stat().st_mtime)
        for old in files[: max(0, len(files) - keep)]:
            old.unlink(missing_ok=True)
    except OSError:
        return
    prune(path.parent, path)
