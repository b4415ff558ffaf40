"""The ``lama`` terminal program (Typer + Rich): play, simulate, replay, rules.

Game-specific drawing and wording come from per-game views (:mod:`lamagames.cli.views`).
"""
