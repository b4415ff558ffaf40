"""Write the Lama Express golden playthrough, ``tests/golden/express_playthrough.txt``.

One seeded 2-player game with two ``benchmark`` bots, played exactly as
:func:`lamagames.sim.runner.play_game` plays it. At every step the file lists the state (its
one-line text), the chance outcomes with their probabilities or the legal actions of every
seat that may act (E-9), and the action applied with the seat that took it. The test
``tests/express/test_express_golden.py`` regenerates the text and diffs it with the file, so
any change to the rules, the notation or the benchmark bot shows up as a diff.

Usage: python scripts/regen_golden_express.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from lamagames.bots.base import make_bot
from lamagames.core import CHANCE_PLAYER, make, make_rng
from lamagames.express import ExpressState

GOLDEN: Final = Path(__file__).resolve().parents[1] / "tests" / "golden" / "express_playthrough.txt"
SEED: Final = 7
PARAMS: Final[dict[str, Any]] = {"num_players": 2, "turn_limit": 400}
BOT_KIND: Final = "benchmark"


def playthrough_lines(seed: int = SEED, params: dict[str, Any] | None = None) -> list[str]:
    """The golden text of one seeded benchmark-bot game, one entry per line."""
    game = make("express", **(PARAMS if params is None else params))
    bots = [make_bot(BOT_KIND, game, seat, seed) for seat in range(game.num_players)]
    chance_rng = make_rng(seed, "chance")
    state = game.new_initial_state()
    assert isinstance(state, ExpressState)
    lines = [
        "# Lama Express golden playthrough (scripts/regen_golden_express.py)",
        f"# params {json.dumps(game.params, sort_keys=True)}",
        f"# seed {seed}, bots {BOT_KIND} x{game.num_players}",
    ]
    step = 0
    while True:
        lines.append(f"step {step}: {state}")
        if state.is_terminal():
            lines.append(f"  returns {state.returns()} winner {state.winner()}")
            break
        player = state.current_player()
        if player == CHANCE_PLAYER:
            outcomes = ", ".join(
                f"{state.action_to_string(a)} {p:.4f}" for a, p in state.chance_outcomes()
            )
            lines.append(f"  chance: {outcomes}")
            action = state.sample_chance_outcome(chance_rng)
            lines.append(f"  apply chance: {state.action_to_string(action)}")
        else:
            for seat in state.acting_players():
                legal = ", ".join(
                    state.action_to_string(a, seat) for a in state.legal_actions(seat)
                )
                lines.append(f"  legal seat {seat}: {legal}")
            action = bots[player].step(state)
            lines.append(f"  apply seat {player}: {state.action_to_string(action, player)}")
        state.apply_action(action)
        step += 1
    return lines


def main() -> None:
    """Rewrite the golden file."""
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text("\n".join(playthrough_lines()) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
