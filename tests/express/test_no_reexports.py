"""Every Lama Express module imports a name from the module that defines it: no module of
``lamagames.express`` re-exports another's names (``import X as X``, or an imported name in
``__all__``), so a ruling or a constant of the rules has one home to import it from (issue
17). The package's ``__init__`` is the one facade."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import lamagames.express

PACKAGE = Path(lamagames.express.__file__).parent
MODULES = sorted(p for p in PACKAGE.glob("*.py") if p.name != "__init__.py")


def _reexports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    found = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                if alias.asname == alias.name:
                    found.append(f"{alias.name} (import ... as itself)")
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            assert isinstance(node.value, ast.List | ast.Tuple)
            for item in node.value.elts:
                assert isinstance(item, ast.Constant)
                if item.value in imported:
                    found.append(f"{item.value} (imported, in __all__)")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_express_module_reexports_a_name(path: Path) -> None:
    assert _reexports(path) == []


def test_the_check_sees_a_reexport(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from a import B as B\nfrom c import D\n__all__ = ['D', 'E']\nE = 1\n", encoding="utf-8"
    )
    assert _reexports(module) == ["B (import ... as itself)", "D (imported, in __all__)"]
