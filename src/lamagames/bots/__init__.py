"""Bots: policies that play a seat through the public game protocol."""

from lamagames.bots.base import (
    Bot,
    BotUnavailableError,
    RandomBot,
    available_bot_kinds,
    bot_class,
    bot_kinds,
    bot_unavailable,
    make_bot,
    register_bot,
    usable_bot_class,
)

__all__ = [
    "Bot",
    "BotUnavailableError",
    "RandomBot",
    "available_bot_kinds",
    "bot_class",
    "bot_kinds",
    "bot_unavailable",
    "make_bot",
    "register_bot",
    "usable_bot_class",
]
