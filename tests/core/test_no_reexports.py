"""Every module of the two games imports a name from the module that defines it: no module
of ``lamagames.dice`` (its solver included) or ``lamagames.express`` re-exports another's
names (``import X as X``, an imported name in ``__all__``), and none gives a rule primitive
(a function marked with :func:`lamagames.core.jit.rule`) a second name at module level
(``alias = primitives.name``), so a ruling has one home and one name (issue 17). Each
package's ``__init__`` is the one facade. (Module-level bindings of constants, such as the
batch kernels' ``CARS = PASSENGER_CARS`` for Numba, are not rule functions.)"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import lamagames
from lamagames.core.jit import RULING_ATTRIBUTE

SRC = Path(lamagames.__path__[0]).parent
MODULES = sorted(
    path
    for package in ("dice", "express")
    for path in (SRC / "lamagames" / package).rglob("*.py")
    if path.name != "__init__.py"
)


def _is_rule(value: object) -> bool:
    """A rule primitive, plain or compiled (a Numba dispatcher's ``py_func``)."""
    return hasattr(value, RULING_ATTRIBUTE) or hasattr(
        getattr(value, "py_func", None), RULING_ATTRIBUTE
    )


def _reexports(path: Path, namespace: Mapping[str, Any]) -> list[str]:
    """What module ``path`` (its globals ``namespace``) re-exports or renames."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    found = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom | ast.Import):
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                if isinstance(node, ast.ImportFrom) and alias.asname == alias.name:
                    found.append(f"{alias.name} (import ... as itself)")
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            assert isinstance(node.value, ast.List | ast.Tuple)
            for item in node.value.elts:
                assert isinstance(item, ast.Constant)
                if item.value in imported:
                    found.append(f"{item.value} (imported, in __all__)")
        elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(
            node.value, ast.Name | ast.Attribute
        ):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and _is_rule(namespace.get(target.id)):
                    found.append(f"{target.id} (a second name of a rule primitive)")
    return found


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_game_module_reexports_or_renames_a_ruling(path: Path) -> None:
    module = importlib.import_module(_module_name(path))
    assert _reexports(path, vars(module)) == []


def test_the_check_sees_a_reexport_and_a_second_name(tmp_path: Path) -> None:
    def primitive() -> None:
        """Stands for a rule primitive."""

    setattr(primitive, RULING_ATTRIBUTE, "D-2")
    module = tmp_path / "m.py"
    module.write_text(
        "import p\nfrom a import B as B\nfrom c import D\n__all__ = ['D', 'E']\nE = 1\n"
        "F = p.G\nH = D\nI: int = p.J\n",
        encoding="utf-8",
    )
    namespace = {"p": SimpleNamespace(G=primitive, J=3), "F": primitive, "H": primitive, "I": 3}
    assert _reexports(module, namespace) == [
        "B (import ... as itself)",
        "D (imported, in __all__)",
        "F (a second name of a rule primitive)",
        "H (a second name of a rule primitive)",
    ]
