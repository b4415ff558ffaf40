"""The examples in docstrings (``>>>``) of every module under ``src/lamagames`` run and
give what they show (like ``pytest --doctest-modules`` on the sources, which the test
paths do not include)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import lamagames


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(lamagames.__path__, "lamagames."):
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec is not None else None
        if origin and origin.endswith(".py"):
            with open(origin, encoding="utf-8") as source:
                if ">>> " in source.read():
                    names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_some_modules_have_examples() -> None:
    assert {"lamagames.core.spec", "lamagames.core.errors", "lamagames.core.metrics"} <= set(
        MODULES
    )


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
