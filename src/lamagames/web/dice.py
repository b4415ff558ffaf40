"""Web adapter of LAMA Dice: action labels; the move log comes from
:mod:`lamagames.dice.events`. The browser renderer is ``games/dice/render.js``
(``lamagames/dice/static/``, the spec's ``web_static``)."""

from __future__ import annotations

from typing import ClassVar

from lamagames.core.game import State
from lamagames.web.adapters import WebAdapter

_VERBS = {
    "roll": "Roll the dice",
    "quit": "Quit the round",
    "give black": "Give back a black chip (10)",
    "give white": "Give back a white chip (1)",
    "give none": "Keep my chips",
}


class DiceWebAdapter(WebAdapter):
    """LAMA Dice in the browser (rulings D-1 .. D-11 are the engine's business)."""

    game_id: ClassVar[str] = "dice"
    renderer: ClassVar[str] = "games/dice/render.js"

    def action_label(self, state: State, seat: int, action: int) -> str:
        """English label, e.g. ``Discard 3 3 L`` or ``Take the 5 from the llama row``."""
        notation = state.action_to_string(action, seat)
        if notation in _VERBS:
            return _VERBS[notation]
        verb, _, rest = notation.partition(" ")
        if verb == "take":
            return f"Take the {rest} from the llama row"
        if verb == "discard":
            return f"Discard {rest}"
        return notation
