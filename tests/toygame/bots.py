"""A Toy Race bot kind named in the spec: always ``step``."""

from __future__ import annotations

from lamagames.bots.base import Bot
from lamagames.core.game import State
from tests.toygame.game import STEP


class StepperBot(Bot):
    """Always takes the sure point."""

    kind = "stepper"

    def step(self, state: State) -> int:
        """``step``."""
        return STEP
