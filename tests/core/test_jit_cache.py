"""The disk cache's key of compiled kernels covers the modules they use (core.jit).

Numba keys a cached function on its own source file only, so a kernel that inlines a
primitive from another module was loaded stale after the primitive changed.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from lamagames.core import jit

#: The modules that define compiled kernels (``njit``), whose stamps are compared below.
KERNEL_MODULES = [
    "lamagames.dice.batch_kernel",
    "lamagames.dice.batch_play",
    "lamagames.dice.batch_heuristic",
    "lamagames.dice.vector",
    "lamagames.dice.solver.kernel",
    "lamagames.dice.solver.kernel2p",
    "lamagames.express.batch_kernels",
    "lamagames.express.vector_kernel",
]


def _all_modules() -> list[str]:
    import lamagames

    return [
        info.name
        for info in pkgutil.walk_packages(lamagames.__path__, "lamagames.")
        if ".migrations" not in info.name  # Alembic scripts, run by Alembic only
    ]


def test_every_cached_kernel_of_the_package_carries_the_key() -> None:
    seen = 0
    for name in _all_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if not jit._is_dispatcher(value) or value.py_func.__module__ != name:
                continue
            if type(getattr(value, "_cache", None)).__name__ == "NullCache":
                continue  # not cached on disk
            seen += 1
            assert jit.has_cache_key(value), f"{name}: {value.py_func.__name__}"
            # Numba's "cannot cache" warning reads the locator's _py_file (it crashed on
            # an uncachable kernel compiled with NUMBA_OPT=0)
            assert value._cache._impl.locator._py_file == module.__file__
    assert seen > 40  # the sweep, step, heuristic and vector kernels


def test_every_module_with_cached_kernels_is_listed() -> None:
    defining = set()
    for name in _all_modules():
        module = importlib.import_module(name)
        if any(
            jit._is_dispatcher(value) and value.py_func.__module__ == name
            for value in vars(module).values()
        ):
            defining.add(name)
    assert defining == set(KERNEL_MODULES)


def _write_package(root: Path, offset: int, constant: int = 0) -> None:
    package = root / "lamacachetest"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "leaf.py").write_text(f"def bump(x):\n    return x + {offset}\n", encoding="utf-8")
    (package / "table.py").write_text(f"CONSTANT = {constant}\n", encoding="utf-8")
    (package / "kern.py").write_text(
        textwrap.dedent(
            """
            from numba import njit

            from lamagames.core import jit
            from lamacachetest import leaf
            from lamacachetest.table import CONSTANT

            jit.install_cache_key()
            bump = jit.compiled(leaf.bump)


            @njit(cache=True)
            def kernel(x):
                return bump(x) * 10 + CONSTANT
            """
        ),
        encoding="utf-8",
    )


RUN = """
from lamagames.core import jit
jit.CACHE_ROOTS.append("lamacachetest")
from lamacachetest import kern
print(kern.kernel(1), kern.kernel.stats.cache_hits.get(kern.kernel.signatures[0], 0))
"""


def _run(root: Path, cache: Path) -> tuple[int, int]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(root))
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    out = subprocess.run(
        [sys.executable, "-c", RUN], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), int(out[1])


def test_a_changed_callee_module_recompiles_the_cached_kernel(tmp_path: Path) -> None:
    root, cache = tmp_path / "src", tmp_path / "cache"
    root.mkdir()
    _write_package(root, 1)
    assert _run(root, cache) == (20, 0)  # compiled
    assert _run(root, cache) == (20, 1)  # loaded from the cache
    time.sleep(0.01)
    _write_package(root, 2)  # only the inlined callee's module changes
    assert _run(root, cache) == (30, 0)  # plain Numba loads the stale 20 from the cache
    assert _run(root, cache) == (30, 1)


def test_a_changed_imported_constant_recompiles_the_cached_kernel(tmp_path: Path) -> None:
    """Numba compiles a global constant into the machine code: a module that only provides
    one (like ``dice.actions``' values and action ids) is part of the key too."""
    root, cache = tmp_path / "src", tmp_path / "cache"
    root.mkdir()
    _write_package(root, 1, constant=0)
    assert _run(root, cache) == (20, 0)
    assert _run(root, cache) == (20, 1)
    time.sleep(0.01)
    _write_package(root, 1, constant=5)  # only the table module changes
    assert _run(root, cache) == (25, 0)


def test_source_stamp_follows_the_used_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_package(tmp_path, 1)
    (tmp_path / "lamacachetest" / "kern.py").write_text(
        "from lamacachetest import leaf\nfrom lamacachetest.table import CONSTANT\n",
        encoding="utf-8",
    )
    (tmp_path / "lamacachetest" / "other.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(jit, "CACHE_ROOTS", ["lamacachetest"])
    for name in (
        "lamacachetest.kern",
        "lamacachetest.leaf",
        "lamacachetest.other",
        "lamacachetest.table",
    ):
        importlib.import_module(name)
    try:
        assert jit.dependency_modules("lamacachetest.kern") == [
            "lamacachetest.kern",
            "lamacachetest.leaf",
            "lamacachetest.table",
        ]
        before = jit.source_stamp("lamacachetest.kern")
        assert len(before) == 64 and jit.source_stamp("lamacachetest.kern") == before
        (tmp_path / "lamacachetest" / "other.py").write_text("X = 2\n", encoding="utf-8")
        assert jit.source_stamp("lamacachetest.kern") == before  # not used: same key
        (tmp_path / "lamacachetest" / "leaf.py").write_text(
            "def bump(x):\n    return x + 55\n", encoding="utf-8"
        )
        changed = jit.source_stamp("lamacachetest.kern")
        assert changed != before
        (tmp_path / "lamacachetest" / "table.py").write_text("CONSTANT = 77\n", encoding="utf-8")
        assert jit.source_stamp("lamacachetest.kern") != changed  # a constant's module
    finally:
        for name in [m for m in sys.modules if m.startswith("lamacachetest")]:
            del sys.modules[name]


STAMPS = """
import importlib, json, sys
MODULES = json.loads(sys.argv[1])
for name in sys.argv[2:]:
    importlib.import_module(name)
from lamagames.core import jit
stamps = {}
for name in MODULES:
    module = importlib.import_module(name)
    for key, value in vars(module).items():
        cache = getattr(value, "_cache", None)
        file = getattr(cache, "_cache_file", None)
        if jit._is_dispatcher(value) and file is not None:
            stamps[name + "." + key] = file._source_stamp
print(json.dumps(stamps, sort_keys=True))
"""


def test_the_key_does_not_depend_on_what_was_imported_before() -> None:
    """``lama play``'s helper process and the game import in different orders, and must
    share the cache."""

    def stamps(*first: str) -> dict[str, str]:
        out = subprocess.run(
            [sys.executable, "-c", STAMPS, json.dumps(KERNEL_MODULES), *first],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return dict(json.loads(out))

    alone = stamps()
    assert len(alone) > 40
    after_everything = stamps(
        "lamagames.web.app",
        "lamagames.cli.main",
        "lamagames.express.batch",
        "lamagames.rl.gymnasium",
        "lamagames.coach.review",
        "lamagames.dice.solver.pair_table",
        "lamagames.express.vector",
    )
    assert after_everything == alone
