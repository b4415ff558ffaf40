"""lamagames: LAMA Dice and Lama Express engines, bots, terminal play and research tools."""

from importlib.metadata import PackageNotFoundError, version

from lamagames.core import make


def _installed_version() -> str:
    """The version of the installed distribution (``pyproject.toml`` is the one source):
    ``importlib.metadata`` reads it from the package metadata, so a source tree that was
    never installed says ``0+unknown`` instead of a number that may be stale."""
    try:
        return version("lamagames")
    except PackageNotFoundError:  # pragma: no cover - only without an install
        return "0+unknown"


#: The installed version, from the package metadata (``pyproject.toml``'s ``version``).
__version__: str = _installed_version()
__all__ = ["__version__", "make"]
