"""Numba loops over a batch of LAMA Dice games (internal; see :mod:`lamagames.dice.batch`).

Every loop here takes its steps through the step kernels of
:mod:`lamagames.dice.batch_kernel` (:func:`~lamagames.dice.batch_kernel.sample_chance`,
:func:`~lamagames.dice.batch_kernel.apply_chance`,
:func:`~lamagames.dice.batch_kernel.apply_player`) and chooses with the in-kernel policies
(:func:`~lamagames.dice.batch_kernel.policy_action`,
:func:`~lamagames.dice.batch_heuristic.heuristic_action`): one step path for D-5 .. D-11.
:func:`play_games` runs whole games one after another on a single game's scratch state and
writes only the results, the fast path of ``lama simulate``. The other loops work on the
batch state arrays of :class:`lamagames.dice.batch.DiceBatchState` (shapes there).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lamagames.dice.batch_heuristic import (
    F64,
    MEMO_SIZE,
    SCRATCH_SIZE,
    heuristic_action,
)
from lamagames.dice.batch_kernel import (
    CTRL_SIZE,
    ERR_CHANCE,
    ERR_ILLEGAL,
    ERR_OVER,
    I8,
    I16,
    I32,
    OK,
    PHASE,
    PLAYER,
    POLICY_HEURISTIC,
    ROUND,
    U64,
    Bools,
    _inline,
    _jit,
    _jit_no_refcount,
    apply_chance,
    apply_player,
    chance_legal,
    legal_actions,
    policy_action,
    reset_game,
    sample_chance,
    seed_streams,
    wins,
)
from lamagames.dice.rules import Phase


class Tables(NamedTuple):
    """Read-only tables of :func:`play_games`: ``faces`` int8 ``(3, 6)`` (D-1), the step
    tables ``hand_ids`` int16 ``(7**7,)``, ``hand_counts`` int8 ``(outcomes, 7)``,
    ``discard_ids`` int16 ``(4**7,)`` and ``discard_counts`` int8 ``(actions, 7)`` (count
    codes to outcome or action ids and back, :mod:`lamagames.dice.batch`), and the
    heuristic's roll table ``rvec``, ``rsym``, ``rp``
    (:func:`lamagames.dice.batch_heuristic.roll_table`)."""

    faces: I8
    hand_ids: I16
    hand_counts: I8
    discard_ids: I16
    discard_counts: I8
    rvec: I8
    rsym: I8
    rp: F64


class Results(NamedTuple):
    """What :func:`play_games` writes per game ``g`` (shapes ``(G, n)`` or ``(G,)``): final
    scores, wins (lowest score, D-11), rounds played, summed round points (D-10, before
    give-backs) and decisions taken by seats."""

    scores: I32
    wins: I8
    length: I32
    rpts: I32
    decisions: I32


class TraceArrays(NamedTuple):
    """The trace :func:`play_games` writes: ``player`` int8 ``(G, T)`` (-1 for chance),
    ``action`` int16 ``(G, T)``, ``length`` int32 ``(G,)``."""

    player: I8
    action: I16
    length: I32


class Seats(NamedTuple):
    """The scratch state :func:`play_games` reuses game after game (:func:`new_seats`):
    ``policies`` int8 ``(n,)``; one game's views of :mod:`lamagames.dice.batch_kernel`
    (``ctrl`` int32 ``(6,)``, ``dice`` int8 ``(3,)``, ``scores`` int32 ``(n,)``, ``rows``
    int8 ``(n, 7)``, ``quit`` bool ``(n,)``, ``llama``, ``setaside``, ``discards`` int8
    ``(7,)``, ``give`` bool ``(n,)``, ``rpts`` int32 ``(n,)``, ``rng`` uint64 ``(2,)``);
    the legal-action buffer ``buf`` int32 ``(16,)`` of the random policy; and the
    heuristic's memo (``memo`` uint64, ``vals`` float64) and work buffer ``scratch`` int8
    (:mod:`lamagames.dice.batch_heuristic`)."""

    policies: I8
    ctrl: I32
    dice: I8
    scores: I32
    rows: I8
    quit: Bools
    llama: I8
    setaside: I8
    discards: I8
    give: Bools
    rpts: I32
    rng: U64
    buf: I32
    memo: U64
    vals: F64
    scratch: I8


@_inline
def _seat_action(seats: Seats, tables: Tables) -> int:
    """The action the in-kernel policy of the seat to act chooses, as
    :func:`policy_actions` chooses it (random draws advance stream 1 of ``seats.rng``)."""
    policy = seats.policies[seats.ctrl[PLAYER]]
    if policy == POLICY_HEURISTIC:
        return heuristic_action(
            seats.ctrl, seats.dice, seats.scores, seats.rows, seats.quit, seats.llama,
            tables.discard_ids, tables.rvec, tables.rsym, tables.rp, seats.memo, seats.vals,
            seats.scratch,
        )  # fmt: skip
    return policy_action(
        seats.ctrl, seats.dice, seats.scores, seats.rows, seats.llama, seats.rng, policy,
        tables.discard_ids, seats.buf,
    )  # fmt: skip


@_inline
def _step(seats: Seats, tables: Tables, end_score: int) -> tuple[int, int]:
    """Take one step of the game in ``seats``: at a chance node (D-5 deal, D-8 roll) draw
    the outcome from stream 0 and apply it, at a decision apply the seat's policy action.
    Returns ``(player, action)``, player -1 for a chance outcome id."""
    ctrl, setaside = seats.ctrl, seats.setaside
    phase = ctrl[PHASE]
    if phase == Phase.DEAL or phase == Phase.DICE:
        outcome = sample_chance(ctrl, setaside, seats.rng, tables.faces, tables.hand_ids)
        apply_chance(
            ctrl, seats.dice, seats.scores, seats.rows, seats.quit, seats.llama, setaside,
            seats.discards, seats.give, seats.rpts, outcome, tables.hand_counts, end_score,
        )  # fmt: skip
        return -1, outcome
    player = ctrl[PLAYER]
    action = _seat_action(seats, tables)
    apply_player(
        ctrl, seats.dice, seats.scores, seats.rows, seats.quit, seats.llama, setaside,
        seats.discards, seats.give, seats.rpts, action, tables.discard_counts, end_score,
    )  # fmt: skip
    return player, action


@_inline
def _write_results(seats: Seats, results: Results, g: int, decisions: int) -> None:
    """Store game ``g``'s :class:`Results` from its final state (a win: the lowest score,
    D-11; rounds: the round number, which counts up only when a new round is dealt)."""
    scores = seats.scores
    for q in range(scores.shape[0]):
        results.scores[g, q] = scores[q]
        results.wins[g, q] = 1 if wins(scores, q) else 0  # D-11
        results.rpts[g, q] = seats.rpts[q]
    results.length[g] = seats.ctrl[ROUND]
    results.decisions[g] = decisions


def new_seats(policies: I8) -> Seats:
    """The scratch state of :func:`play_games` for seats with in-kernel ``policies`` (int8
    ``(n,)``, one ``POLICY_*`` code per seat), zeroed."""
    n = policies.shape[0]
    return Seats(
        policies,
        np.zeros(CTRL_SIZE, dtype=np.int32),
        np.zeros(3, dtype=np.int8),
        np.zeros(n, dtype=np.int32),
        np.zeros((n, 7), dtype=np.int8),
        np.zeros(n, dtype=np.bool_),
        np.zeros(7, dtype=np.int8),
        np.zeros(7, dtype=np.int8),
        np.zeros(7, dtype=np.int8),
        np.zeros(n, dtype=np.bool_),
        np.zeros(n, dtype=np.int32),
        np.zeros(2, dtype=np.uint64),
        np.zeros(16, dtype=np.int32),
        np.zeros(MEMO_SIZE + 1, dtype=np.uint64),
        np.zeros(MEMO_SIZE, dtype=np.float64),
        np.zeros(SCRATCH_SIZE, dtype=np.int8),
    )


@_jit_no_refcount
def play_games(
    seeds: U64,
    start: int,
    end_score: int,
    seats: Seats,
    tables: Tables,
    results: Results,
    trace: TraceArrays,
) -> None:
    """Play ``len(seeds)`` whole games with in-kernel policies (``seats.policies``, one
    int8 code per seat) on the scratch state ``seats`` (:func:`new_seats`).

    Each game is the step path of :func:`step_states` and :func:`policy_actions`:
    :func:`~lamagames.dice.batch_kernel.reset_game` with the streams seeded from
    ``seeds[g]``, then step by step until the game is over (D-11): at a chance node the
    outcome drawn by :func:`~lamagames.dice.batch_kernel.sample_chance` and applied by
    :func:`~lamagames.dice.batch_kernel.apply_chance`, at a decision the seat's policy
    action applied by :func:`~lamagames.dice.batch_kernel.apply_player`. It allocates
    nothing (the scratch comes from the caller), so it runs without Numba's reference
    counting (``_nrt=False``). While there is room it writes the steps to the trace as
    ``(player, action)`` pairs (player -1: a chance outcome id), so the agreement tests
    replay it through the scalar engine.

    Writes :class:`Results` per game ``g`` and the trace length ``trace.length[g]`` (it may
    exceed ``trace.player.shape[1]``; then the trace is cut).
    """
    game = (
        seats.ctrl, seats.dice, seats.scores, seats.rows, seats.quit, seats.llama,
        seats.setaside, seats.discards, seats.give, seats.rpts,
    )  # fmt: skip
    capacity = trace.player.shape[1]
    for g in range(seeds.shape[0]):
        seed_streams(seats.rng, seeds[g])
        reset_game(game, start)
        t = 0
        decisions = 0
        while seats.ctrl[PHASE] != Phase.OVER:
            player, action = _step(seats, tables, end_score)
            if t < capacity:
                trace.player[g, t] = player
                trace.action[g, t] = action
            t += 1
            decisions += player >= 0
        _write_results(seats, results, g, decisions)
        trace.length[g] = t


#: The batch state arrays of :class:`lamagames.dice.batch.DiceBatchState` in
#: :mod:`lamagames.dice.batch_kernel` order, passed as one argument: ``(ctrl, dice,
#: scores, rows, quit, llama, setaside, discards, give, rpts, rng)``, each with a leading
#: game axis ``G``.
States = tuple[I32, I8, I32, I8, Bools, I8, I8, I8, Bools, I32, U64]
#: The read-only step tables: ``(faces, hand_ids, hand_counts, discard_ids,
#: discard_counts)`` (:mod:`lamagames.dice.batch`).
StepTables = tuple[I8, I16, I8, I16, I8]


@_jit
def init_states(seeds: U64, start: int, states: States) -> None:
    """Every game before its first deal, with its streams seeded from ``seeds[g]``."""
    ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, rng = states
    for g in range(seeds.shape[0]):
        game = (
            ctrl[g], dice[g], scores[g], rows[g], quit[g], llama[g], setaside[g],
            discards[g], give[g], rpts[g],
        )  # fmt: skip
        reset_game(game, start)
        seed_streams(rng[g], seeds[g])


@_jit
def step_states(
    actions: I32, end_score: int, tables: StepTables, states: States, err: I32
) -> None:
    """Apply ``actions[g]`` to every game, or change nothing if any is refused.

    ``actions[g]``: a player action id at a seat's decision; a chance outcome id at a chance
    node, or -1 to draw it from the game's chance stream; -1 for a finished game.
    On refusal ``err`` holds ``(game, code)`` of the first bad game (codes ``ERR_*``);
    otherwise ``err[1] == OK``. ``tables``: :data:`StepTables`; ``states``: :data:`States`.
    """
    faces, hand_ids, hand_counts, discard_ids, discard_counts = tables
    ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, rng = states
    buf = np.zeros(16, dtype=np.int32)
    err[0] = -1
    err[1] = OK
    for g in range(actions.shape[0]):  # check everything first: refusal changes nothing
        a = actions[g]
        phase = ctrl[g, PHASE]
        code = OK
        if phase == Phase.OVER:
            if a != -1:
                code = ERR_OVER
        elif phase in (Phase.DEAL, Phase.DICE):
            if a != -1 and not chance_legal(ctrl[g], setaside[g], faces, hand_counts, a):
                code = ERR_CHANCE
        else:
            k = legal_actions(ctrl[g], dice[g], scores[g], rows[g], llama[g], discard_ids, buf)
            code = ERR_ILLEGAL
            for i in range(k):
                if buf[i] == a:
                    code = OK
        if code != OK:
            err[0] = g
            err[1] = code
            return
    for g in range(actions.shape[0]):
        a = actions[g]
        phase = ctrl[g, PHASE]
        if phase == Phase.OVER:
            continue
        if phase in (Phase.DEAL, Phase.DICE):
            if a == -1:
                a = sample_chance(ctrl[g], setaside[g], rng[g], faces, hand_ids)
            apply_chance(
                ctrl[g], dice[g], scores[g], rows[g], quit[g], llama[g], setaside[g],
                discards[g], give[g], rpts[g], a, hand_counts, end_score,
            )  # fmt: skip
        else:
            apply_player(
                ctrl[g], dice[g], scores[g], rows[g], quit[g], llama[g], setaside[g],
                discards[g], give[g], rpts[g], a, discard_counts, end_score,
            )  # fmt: skip


@_jit
def legal_masks(
    ctrl: I32, dice: I8, scores: I32, rows: I8, llama: I8, discard_ids: I16, mask: Bools
) -> None:
    """``mask[g, a]`` = player action ``a`` is legal in game ``g`` (all False at chance
    and terminal nodes)."""
    buf = np.zeros(16, dtype=np.int32)
    mask[:, :] = False
    for g in range(ctrl.shape[0]):
        k = legal_actions(ctrl[g], dice[g], scores[g], rows[g], llama[g], discard_ids, buf)
        for i in range(k):
            mask[g, buf[i]] = True


@_jit
def policy_actions(
    policies: I8,
    states: States,
    discard_ids: I16,
    roll_table: tuple[I8, I8, F64],
    out: I32,
) -> None:
    """``out[g]``: the action the in-kernel policy of the seat to act chooses in game
    ``g`` (random draws advance that game's policy stream; the heuristic uses the
    ``roll_table = (rvec, rsym, rp)`` of :mod:`lamagames.dice.batch_heuristic`); -1 at
    chance and terminal nodes. ``states``: :data:`States`."""
    ctrl, dice, scores, rows, quit, llama, _, _, _, _, rng = states
    rvec, rsym, rp = roll_table
    buf = np.zeros(16, dtype=np.int32)
    memo = np.zeros(MEMO_SIZE + 1, dtype=np.uint64)
    vals = np.zeros(MEMO_SIZE, dtype=np.float64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int8)
    for g in range(ctrl.shape[0]):
        phase = ctrl[g, PHASE]
        if phase == Phase.OVER or phase in (Phase.DEAL, Phase.DICE):
            out[g] = -1
            continue
        policy = policies[ctrl[g, PLAYER]]
        if policy == POLICY_HEURISTIC:
            out[g] = heuristic_action(
                ctrl[g], dice[g], scores[g], rows[g], quit[g], llama[g], discard_ids,
                rvec, rsym, rp, memo, vals, scratch,
            )  # fmt: skip
            continue
        out[g] = policy_action(
            ctrl[g], dice[g], scores[g], rows[g], llama[g], rng[g], policy, discard_ids, buf
        )
