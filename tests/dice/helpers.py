"""Helpers for the LAMA Dice tests: build rule positions and act in notation.

Positions are built through the public :meth:`DiceGame.state_from_dict` (the inverse of
:meth:`DiceState.to_dict`), never by touching private attributes. Cards are written as
symbol text: ``"3 3 3 L 5"`` or ``"3335L"`` (``1``..``6`` and ``L``; spaces ignored).
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lamagames.dice.actions import string_to_chance, string_to_player_action
from lamagames.dice.game import DiceGame
from lamagames.dice.rules import Phase
from lamagames.dice.state import DiceState

SYMBOLS = "123456L"
#: Copies of each symbol among the 43 cards (D-3): llama row plus deck.
TOTAL_COPIES = (6, 6, 6, 6, 6, 6, 7)
#: Deck copies (D-3); the rest of each symbol is the llama-row card.
DECK_COPIES = (5, 5, 5, 5, 5, 5, 6)


def counts(text: str) -> list[int]:
    """Count vector (index 0..5 = numbers 1..6, index 6 = L) of symbol text like ``"33L"``."""
    out = [0] * 7
    for char in text.replace(" ", ""):
        out[SYMBOLS.index(char.upper())] += 1
    return out


def text(count_vector: Sequence[int]) -> str:
    """Sorted symbol text of a count vector, e.g. ``[0, 0, 2, 0, 0, 0, 1] -> "33L"``."""
    return "".join(SYMBOLS[s] * n for s, n in enumerate(count_vector))


def make_state(
    rows: Sequence[str],
    *,
    llama_row: str = "123456L",
    scores: Sequence[int] | None = None,
    quit: Sequence[bool] | None = None,
    phase: int = Phase.TURN,
    player: int = 0,
    dice: str | None = None,
    starter: int | None = None,
    last_actor: int | None = None,
    round_number: int = 1,
    game: DiceGame | None = None,
    **game_params: Any,
) -> DiceState:
    """Build a LAMA Dice position mid-round.

    Args:
        rows: one symbol text per seat (their number sets the number of players unless
            ``game`` is given).
        llama_row: symbols still in the llama row (each at most once).
        scores: points per seat before this round (chips follow from them, D-4); default 0.
        quit: which seats have quit this round (D-7); default none.
        phase: a ``PHASE_*`` constant of :mod:`lamagames.dice.game`.
        player: seat to act (or that rolled ``dice``).
        dice: the current roll as symbol text for dice A, B, C (``"33L"``), or ``None``.
        starter: seat that started this round; default ``player``.
        last_actor: seat that took the last roll or quit; default ``player``.
        round_number: round counter (from 1).
        game: the game; default ``DiceGame(num_players=len(rows), **game_params)``.
        **game_params: further :class:`DiceGame` parameters (``end_score`` ...).

    Cards not in the llama row or a row go to the set-aside deck, up to its size per symbol
    (D-3), the rest to the discard pile, so the 43 cards are conserved.

    Raises:
        ValueError: a symbol is used more often than the 43 cards allow.
    """
    if game is None:
        game = DiceGame(num_players=len(rows), **game_params)
    n = game.num_players
    if len(rows) != n:
        raise ValueError(f"{len(rows)} rows for a {n}-player game")
    row_counts = [counts(r) for r in rows]
    middle = counts(llama_row)
    setaside = []
    discards = []
    for s in range(7):
        rest = TOTAL_COPIES[s] - middle[s] - sum(r[s] for r in row_counts)
        if rest < 0:
            raise ValueError(f"too many {SYMBOLS[s]} cards in this position")
        setaside.append(min(rest, DECK_COPIES[s]))
        discards.append(rest - setaside[-1])
    data = {
        "phase": phase,
        "player": player,
        "starter": player if starter is None else starter,
        "last_actor": player if last_actor is None else last_actor,
        "deal_seat": n,
        "round": round_number,
        "dice": None if dice is None else dice_symbols(dice),
        "scores": list(scores) if scores is not None else [0] * n,
        "rows": row_counts,
        "quit": list(quit) if quit is not None else [False] * n,
        "llama_row": middle,
        "setaside": setaside,
        "discards": discards,
        "give_queue": [],
        "round_points": [],
        "history": [],
    }
    return game.state_from_dict(data)


def dice_symbols(dice: str) -> list[int]:
    """Symbol indices of dice A, B, C in order, from text like ``"3 3 L"``."""
    symbols = [SYMBOLS.index(c.upper()) for c in dice.replace(" ", "")]
    if len(symbols) != 3:
        raise ValueError(f"three dice, got {dice!r}")
    return symbols


def act(state: DiceState, *actions: str) -> DiceState:
    """Apply actions written in notation (``"roll"``, ``"dice 3 3 L"``, ``"discard 3"``)."""
    for notation in actions:
        state.apply_action(state.string_to_action(notation))
    return state


def legal(state: DiceState) -> set[str]:
    """The legal actions (or chance outcomes) of ``state`` in notation."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def row_text(state: DiceState, seat: int) -> str:
    """The seat's row as sorted symbol text."""
    return text(state.rows[seat])


def deal_round(state: DiceState, seed: int = 0) -> DiceState:
    """Apply random deals (D-5) while the state is at a deal chance node."""
    rng = random.Random(seed)
    while state.phase == Phase.DEAL:
        state.apply_action(state.sample_chance_outcome(rng))
    return state


GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "dice_playthrough.txt"


#: A step of the golden file: ``(player, action id, legal actions in notation or None)``.
GoldenStep = tuple[int, int, list[str] | None]


def golden_playthrough() -> tuple[dict[str, object], list[GoldenStep], list[int]]:
    """The golden playthrough file's (``tests/golden/dice_playthrough.txt``, three
    ``benchmark`` bots) parameters, its steps (:data:`GoldenStep`) and its final scores."""
    text = GOLDEN.read_text(encoding="utf-8")
    header = re.search(r"^# params (\{.*\})  seed", text, re.M)
    assert header is not None
    params = ast.literal_eval(header.group(1))
    steps: list[GoldenStep] = []
    legal: list[str] | None = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("legal "):
            legal = [item.strip() for item in line[len("legal ") :].split(",")]
        elif line.startswith("-> chance: "):
            notation = line[len("-> chance: ") :].split("  p=")[0]
            steps.append((-1, string_to_chance(notation), None))
        elif line.startswith("-> seat "):
            seat, notation = line[len("-> seat ") :].split(": ", 1)
            steps.append((int(seat), string_to_player_action(notation), legal))
            legal = None
    final = re.search(r"^final .*\n(?:.*\n)*?\s+scores\s+([\d ]+?)\s+\(chips", text, re.M)
    assert final is not None
    return params, steps, [int(s) for s in final.group(1).split()]
