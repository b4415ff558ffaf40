"""Web adapter of LAMA Dice: labels and log notes; the browser renderer is
``games/dice/render.js``."""

from __future__ import annotations

from typing import Any, ClassVar

from lamagames.core.game import State
from lamagames.dice.actions import GIVE_BLACK, GIVE_NONE, GIVE_WHITE
from lamagames.dice.game import PHASE_DEAL, DiceState, round_end_reason
from lamagames.web.adapters import WebAdapter

_VERBS = {
    "roll": "Roll the dice",
    "quit": "Quit the round",
    "give black": "Give back a black chip (10)",
    "give white": "Give back a white chip (1)",
    "give none": "Keep my chips",
}
_GIVE = {GIVE_BLACK: "black", GIVE_WHITE: "white", GIVE_NONE: "none"}


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

    def notes(
        self, before: State, player: int | None, action: int, after: State
    ) -> list[dict[str, Any]]:
        """Round start, bust, round end (reason and each seat's points), chip give-backs
        and game end, read from the engine's states (as ``lamagames.dice.render.narrate``).

        Kinds: ``round_start`` (``round``, ``starter``), ``bust`` (``player``),
        ``round_end`` (``round``, ``reason``: ``bust`` / ``emptied`` / ``llama_row`` /
        ``all_quit``, ``player``, ``points`` per seat, ``scores`` per seat), ``give``
        (``player``, ``chip``: black / white / none, ``score``), ``game_end`` (``winners``,
        ``scores``).
        """
        if not isinstance(before, DiceState) or not isinstance(after, DiceState):
            return []
        out: list[dict[str, Any]] = []
        actor = -1 if player is None else player
        if player is None or player < 0:
            if before.phase == PHASE_DEAL and after.phase != PHASE_DEAL:
                out.append({"kind": "round_start", "round": after.round, "starter": after.starter})
        elif action in _GIVE:
            chip, score = _GIVE[action], after.scores[player]
            out.append({"kind": "give", "player": player, "chip": chip, "score": score})
        reason = round_end_reason(before, player, action, after)
        if reason == "bust":
            actor = before.history()[-1][0]  # the roller
            out.append({"kind": "bust", "player": actor})
        if reason is not None:
            out.append(
                {
                    "kind": "round_end",
                    "round": len(after.round_points),
                    "reason": reason,
                    "player": actor,
                    "points": after.round_points[-1],
                    "scores": list(after.scores),
                }
            )
        if after.is_terminal() and not before.is_terminal():
            winners, scores = after.winners(), list(after.scores)
            out.append({"kind": "game_end", "winners": winners, "scores": scores})
        return out
