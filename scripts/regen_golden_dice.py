"""Write the LAMA Dice golden playthrough, ``tests/golden/dice_playthrough.txt``.

One seeded 3-player game played by the ``benchmark`` bots through
:func:`lamagames.sim.runner.play_game`, recorded step by step by an observer: the public
observation essentials before each action, the legal actions in notation (at chance nodes
the number of outcomes and the probability of the one drawn), and the action applied.
``tests/dice/test_golden.py`` regenerates the text in memory and diffs it against the file,
so any change in the engine's behaviour, notation or chance model shows up there.

Usage (from the repository root)::

    PYTHONPATH=src python scripts/regen_golden_dice.py          # rewrite the file
    PYTHONPATH=src python scripts/regen_golden_dice.py --check  # exit 1 if it differs
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lamagames.bots.base import make_bot
from lamagames.core.game import CHANCE_PLAYER, State
from lamagames.dice import DiceGame
from lamagames.sim.runner import play_game

SEED = 20240601
NUM_PLAYERS = 3
GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "dice_playthrough.txt"


def describe(state: State) -> list[str]:
    """The observation essentials of ``state`` (seat 0's view; everything is public)."""
    obs = state.observation(0)
    to_act = obs["current_player"]
    who = "chance" if to_act == CHANCE_PLAYER else f"seat {to_act}" if to_act >= 0 else "-"
    rows = "   ".join(
        f"{seat}: {' '.join(row) or '-'} ({points}){' quit' if quit else ''}"
        for seat, (row, points, quit) in enumerate(
            zip(obs["rows"], obs["row_scores"], obs["quit"], strict=True)
        )
    )
    lines = [
        f"round {obs['round']}  phase {obs['phase']}  to act {who}  starter {obs['starter']}",
        f"  llama row {' '.join(obs['llama_row']) or '-'}",
        f"  rows      {rows}",
        f"  scores    {' '.join(str(s) for s in obs['scores'])}"
        f"  (chips {' '.join(f'{b}b{w}w' for b, w in obs['chips'])})",
    ]
    if obs["dice"] is not None:
        lines.append(f"  dice      {' '.join(obs['dice'])}")
    if state.is_chance_node():
        lines.append(f"  chance    {len(state.chance_outcomes())} outcomes")
    elif not state.is_terminal():
        legal = ", ".join(state.action_to_string(a) for a in state.legal_actions())
        lines.append(f"  legal     {legal}")
    return lines


def playthrough(seed: int = SEED) -> str:
    """The golden text of the seeded benchmark game."""
    game = DiceGame(num_players=NUM_PLAYERS)
    bots = [make_bot("benchmark", game, seat, seed) for seat in range(NUM_PLAYERS)]
    lines = [
        "# LAMA Dice golden playthrough: regenerate with "
        "`PYTHONPATH=src python scripts/regen_golden_dice.py`",
        f"# params {game.params}  seed {seed}  bots benchmark x{NUM_PLAYERS}",
        "",
    ]
    previous: list[State] = [game.new_initial_state()]

    def observer(state: State, player: int, action: int) -> None:
        before = previous[0]
        first, *rest = describe(before)
        lines.append(f"step {len(before.history())}  {first}")
        lines.extend(rest)
        if player == CHANCE_PLAYER:
            probability = dict(before.chance_outcomes())[action]
            lines.append(f"  -> chance: {before.action_to_string(action)}  p={probability:.9g}")
        else:
            lines.append(f"  -> seat {player}: {before.action_to_string(action, player)}")
        previous[0] = state.clone()

    result = play_game(game, bots, seed, observer=observer)
    final = result.state
    first, *rest = describe(final)
    lines.append(f"final  {first}")
    lines.extend(rest)
    lines.append(
        f"  returns   {final.returns()}  decisions {result.decisions}  "
        f"chance events {result.chance_events}"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, exit 1 on a diff")
    args = parser.parse_args(argv)
    text = playthrough()
    if args.check:
        same = GOLDEN.exists() and GOLDEN.read_text(encoding="utf-8") == text
        print(f"{GOLDEN}: {'up to date' if same else 'DIFFERS'}")
        return 0 if same else 1
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {GOLDEN} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
