"""lamagames: LAMA Dice and Lama Express engines, bots, terminal play and research tools."""

from lamagames.core import make

__version__ = "0.1.0"
__all__ = ["__version__", "make"]
