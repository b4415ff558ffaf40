"""Views of a LAMA Dice state: the JSON observation and the observation tensor. Pure
functions over the public accessors of :class:`~lamagames.dice.state.DiceState` (its
``observation`` and ``observation_tensor`` check the seat and delegate here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from lamagames.dice.actions import NUM_SYMBOLS, SYMBOLS, player_action_to_string
from lamagames.dice.primitives import row_score
from lamagames.dice.rules import NUM_PHASES

if TYPE_CHECKING:
    from lamagames.dice.state import DiceState


def observation_size(num_players: int) -> int:
    """Length of the flat observation tensor: ``10 * num_players + 36``."""
    return 10 * num_players + 7 + 3 * NUM_SYMBOLS + NUM_PHASES


def observation(state: DiceState, player: int) -> dict[str, Any]:
    """Everything public, as JSON data (LAMA Dice has no hidden information that matters:
    rows are face up, a quit row was seen before it was turned).

    Keys: ``round``, ``phase``, ``current_player``, ``starter``, ``dice`` (symbols of dice A,
    B, C or null), ``llama_row`` (symbols), ``rows`` (per seat, sorted symbols),
    ``row_scores``, ``quit``, ``scores``, ``chips`` (``[black, white]`` per seat),
    ``setaside_count``, ``discard_count``, ``legal_actions`` (notation, for ``player``),
    ``winners``.
    """
    dice = None if state.dice is None else [SYMBOLS[s] for s in state.dice]
    rows = state.rows
    llama_row = state.llama_row
    return {
        "round": state.round,
        "phase": state.phase.label,
        "current_player": state.current_player(),
        "starter": state.starter,
        "dice": dice,
        "llama_row": [SYMBOLS[s] for s in range(NUM_SYMBOLS) if llama_row[s]],
        "rows": [[SYMBOLS[s] for s in range(NUM_SYMBOLS) for _ in range(r[s])] for r in rows],
        "row_scores": [row_score(r) for r in rows],
        "quit": state.quit,
        "scores": state.scores,
        "chips": [list(state.chips(i)) for i in range(state.game.num_players)],
        "setaside_count": sum(state.setaside),
        "discard_count": sum(state.discards),
        "legal_actions": [player_action_to_string(a) for a in state.legal_actions(player)],
        "winners": state.winners(),
    }


def observation_tensor(state: DiceState, player: int) -> npt.NDArray[np.float32]:
    """Flat float32 array of shape ``(10 * n + 36,)``; seats rotated so ``player`` is 0.

    Layout: for each seat ``k = 0..n-1`` (seat ``(player + k) % n``) ten entries: row counts
    of symbols 1..6, L (7), quit flag, score in points / 10, is-current-player; then the
    llama row (7 flags); then dice A, B, C as three one-hots over 7 symbols (zeros without a
    roll); then a one-hot of the 8 phases (deal, turn, dice, discard, take, give after
    llamas, give after empty row, over).
    """
    n = state.game.num_players
    out = np.zeros(observation_size(n), dtype=np.float32)
    current = state.current_player()
    for k in range(n):
        seat = (player + k) % n
        base = 10 * k
        out[base : base + NUM_SYMBOLS] = state.row(seat)
        out[base + 7] = float(state.has_quit(seat))
        out[base + 8] = state.score(seat) / 10.0
        out[base + 9] = float(seat == current)
    base = 10 * n
    out[base : base + NUM_SYMBOLS] = state.llama_row
    base += NUM_SYMBOLS
    dice = state.dice
    if dice is not None:
        for d, s in enumerate(dice):
            out[base + NUM_SYMBOLS * d + s] = 1.0
    base += 3 * NUM_SYMBOLS
    out[base + state.phase] = 1.0
    return out
