"""Bots: policies that play a seat through the public game protocol."""

from lamagames.bots.base import Bot, RandomBot, bot_class, bot_kinds, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_class", "bot_kinds", "make_bot", "register_bot"]
