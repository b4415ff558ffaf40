"""Optional packages: whether they are installed, and how a message names the extra.

The base install (``pip install lamagames``) lacks the packages of the optional extras
(``sim``, ``solver``: numba; ``ladder``: openskill and matplotlib; ...). A feature that
needs one asks here before it starts, so a missing package is a one-line error naming the
package and the extra, never a traceback in the middle of the work.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

from lamagames.core.errors import ParameterError


def is_installed(module: str) -> bool:
    """True if the top-level ``module`` can be imported as far as the import system knows
    (:func:`importlib.util.find_spec`; ``sys.modules[module] = None`` means not)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a missing parent package; a module without a spec
        return False


def missing(modules: Sequence[str], extra: str | None) -> str | None:
    """``None`` if every module is installed, else what is missing and how to install it,
    phrased to follow a subject: ``"needs numba: pip install 'lamagames[sim]'"``.

    >>> missing(("math",), "sim") is None
    True
    """
    absent = [module for module in modules if not is_installed(module)]
    if not absent:
        return None
    install = f": pip install 'lamagames[{extra}]'" if extra else ""
    return f"needs {', '.join(absent)}{install}"


def require(what: str, modules: Sequence[str], extra: str | None) -> None:
    """Refuse to go on without ``modules``.

    Args:
        what: the subject of the message (``"lama ladder"``).
        modules: top-level modules needed.
        extra: the extra of ``lamagames`` that installs them.

    Raises:
        ParameterError: ``"<what> needs openskill: pip install 'lamagames[ladder]'"``.
    """
    reason = missing(modules, extra)
    if reason is not None:
        raise ParameterError(f"{what} {reason}")
