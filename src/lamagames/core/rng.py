"""Seeded randomness.

Every random choice in lamagames flows from an integer seed. Independent streams (the chance
events of a game, each bot seat) are derived from one seed with :func:`derive_seed`, so that
adding a bot or changing one seat's policy never changes the dice another stream sees.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *labels: str | int) -> int:
    """Derive an independent 64-bit seed from ``seed`` and a path of labels.

    Stable across Python versions and platforms (SHA-256 of the decimal text).

    Args:
        seed: the root seed (any integer, negative allowed).
        labels: names of the stream, for example ``("game", 3)`` or ``("bot", 1)``.

    Returns:
        An integer in ``[0, 2**64)``.
    """
    text = "/".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def make_rng(seed: int, *labels: str | int) -> random.Random:
    """Return a :class:`random.Random` seeded with ``derive_seed(seed, *labels)``."""
    return random.Random(derive_seed(seed, *labels))


def game_seed(seed: int, index: int) -> int:
    """Seed of game ``index`` of a batch (or of ``lama play``) with root ``seed``:
    ``derive_seed(seed, "game", index)``."""
    return derive_seed(seed, "game", index)
