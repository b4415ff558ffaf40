"""Web adapter of LAMA Dice: action labels; the move log comes from
:mod:`lamagames.dice.events`. The browser renderer is ``games/dice/render.js``
(``lamagames/dice/static/``, the spec's ``web_static``)."""

from __future__ import annotations

from typing import Any, ClassVar

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

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The engine's observation plus ``turn_actions``: the notation of every legal
        action of the seat to act (``[]`` at chance and terminal nodes), public to every
        seat and spectator. The renderer highlights from it the cards the dice match
        (``discard ...``, D-8.2) and the llama-row cards that may be taken (``take ...``,
        D-8.3), so the browser decides nothing about the rules."""
        view = super().view(state, seat)
        player = state.current_player()
        actions = state.legal_actions(player) if player >= 0 else []
        view["turn_actions"] = [state.action_to_string(a, player) for a in actions]
        return view

    def warm_bots(self) -> None:
        """Compile the ``heuristic`` bot's roll values with Numba where it is installed
        (:func:`~lamagames.bots.dice.warm_compiled_heuristic`: the same decisions, about a
        thousand times less CPU per lookahead); without numba the bot stays in Python."""
        from lamagames.bots.dice import warm_compiled_heuristic

        warm_compiled_heuristic()

    def warm_params(self) -> dict[str, Any]:
        """Two seats: there the ``exact`` bot runs the two-player solver's kernels (with
        more seats it runs the ``search`` bot's rollouts, which the ``search`` kind's
        warm-up compiles anyway)."""
        return {"num_players": 2}

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
