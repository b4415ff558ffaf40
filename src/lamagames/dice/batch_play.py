"""Numba loops over a batch of LAMA Dice games (internal; see :mod:`lamagames.dice.batch`).

:func:`play_games` runs whole games one after another on a single game's scratch state and
writes only the results, the fast path of ``lama simulate``. The other loops work on the
batch state arrays of :class:`lamagames.dice.batch.DiceBatchState` (shapes there).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lamagames.dice import primitives
from lamagames.dice.batch_heuristic import (
    F64,
    MEMO_SIZE,
    SCRATCH_SIZE,
    heuristic_action,
    heuristic_discard,
    heuristic_take,
    heuristic_turn,
)
from lamagames.dice.batch_kernel import (
    _DECK,
    _LLAMA_ROW,
    _POW7,
    A_BLACK,
    A_NONE,
    A_QUIT,
    A_ROLL,
    A_TAKE,
    A_WHITE,
    ERR_CHANCE,
    ERR_ILLEGAL,
    ERR_OVER,
    I8,
    I16,
    I32,
    LL,
    OK,
    PHASE,
    PLAYER,
    POLICY_BENCHMARK,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    QUIT_AT,
    U64,
    Bools,
    _jit,
    apply_chance,
    apply_player,
    below,
    best_chip,
    bust,
    can_take,
    chance_legal,
    chip_choices,
    chip_points,
    game_over,
    give_greedy,
    gives_back_after_round,
    is_empty,
    legal_actions,
    max_discard,
    next_seat,
    policy_action,
    reset_game,
    row_score,
    sample_chance,
    seed_streams,
)
from lamagames.dice.rules import Phase


class Tables(NamedTuple):
    """Read-only tables of :func:`play_games`: ``faces`` int8 ``(3, 6)`` (D-1),
    ``hand_ids`` int16 ``(7**7,)`` and ``discard_ids`` int16 ``(4**7,)`` (count code to
    outcome or action id, :mod:`lamagames.dice.batch`), and the heuristic's roll table
    ``rvec``, ``rsym``, ``rp`` (:func:`lamagames.dice.batch_heuristic.roll_table`)."""

    faces: I8
    hand_ids: I16
    discard_ids: I16
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


@_jit
def _record(trace_player: I8, trace_action: I16, g: int, t: int, player: int, action: int) -> int:
    """Store trace entry ``t`` of game ``g`` if there is room; return ``t + 1``."""
    if t < trace_player.shape[1]:
        trace_player[g, t] = player
        trace_action[g, t] = action
    return t + 1


@_jit
def _give_choice(score: int, policy: int, rng: U64) -> int:
    """Chip give-back (D-8.1, D-10) of a seat with ``score`` > 0: black before white for
    the benchmark and heuristic policies, uniform over the legal choices for the random
    one."""
    if policy != POLICY_RANDOM:
        return give_greedy(score)
    choices = chip_choices(score)
    black = choices & 1 != 0
    white = choices & 2 != 0
    k = below(rng, 1, 1 + int(black) + int(white))
    if k == 0 and black:
        return A_BLACK
    if (k == 1 and black and white) or (k == 0 and white):
        return A_WHITE
    return A_NONE


@_jit
def play_games(
    seeds: U64,
    policies: I8,
    start: int,
    end_score: int,
    tables: Tables,
    results: Results,
    trace: TraceArrays,
) -> None:
    """Play ``len(seeds)`` whole games with in-kernel policies (one int8 code per seat).

    A straight-line loop over turns (no phase machine, no per-action legality lists) for
    speed, on the same rule
    primitives as the step kernels (:mod:`lamagames.dice.primitives`); they take exactly
    the steps of the scalar engine (D-5 .. D-11) and, while there is room, write them to
    the trace as ``(player, action)`` pairs (player -1: a chance outcome id), so the
    agreement tests replay it through the scalar engine.

    Writes :class:`Results` per game ``g`` and the trace length ``trace.length[g]`` (it may
    exceed ``trace.player.shape[1]``; then the trace is cut).
    """
    faces, hand_ids, discard_ids, rvec, rsym, rp = tables
    scores_out, wins_out, length_out, rpts_out, decisions_out = results
    trace_player, trace_action, trace_len = trace
    n = policies.shape[0]
    memo = np.zeros(MEMO_SIZE + 1, dtype=np.uint64)  # the heuristic's memo (batch_heuristic)
    vals = np.zeros(MEMO_SIZE, dtype=np.float64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int8)  # and its work buffer
    scores = np.zeros(n, dtype=np.int32)
    rows = np.zeros((n, 7), dtype=np.int8)
    quit = np.zeros(n, dtype=np.bool_)
    llama = np.zeros(7, dtype=np.int8)
    setaside = np.zeros(7, dtype=np.int8)
    rpts = np.zeros(n, dtype=np.int32)
    rng = np.zeros(2, dtype=np.uint64)
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        scores[:] = 0
        rpts[:] = 0
        starter = start
        rounds = 0
        t = 0
        decisions = 0
        while True:
            rounds += 1
            total = 0
            for s in range(7):  # D-3, D-5
                llama[s] = _LLAMA_ROW[s]
                setaside[s] = _DECK[s]
                total += _DECK[s]
            for p in range(n):  # deal six cards to each seat, seat 0 first
                quit[p] = False
                code = 0
                for s in range(7):
                    rows[p, s] = 0
                for _ in range(6):
                    r = below(rng, 0, total)
                    s = 0
                    while r >= setaside[s]:
                        r -= setaside[s]
                        s += 1
                    setaside[s] -= 1
                    total -= 1
                    rows[p, s] += 1
                    code += _POW7[s]
                t = _record(trace_player, trace_action, g, t, -1, hand_ids[code])
            p = starter
            last = starter
            active = n
            while True:  # turns (D-6)
                row = rows[p]
                policy = policies[p]
                last = p
                over = False
                if policy == POLICY_BENCHMARK:
                    act = A_QUIT if row_score(row) <= QUIT_AT else A_ROLL
                elif policy == POLICY_HEURISTIC:
                    act = heuristic_turn(
                        row, llama, active == 1, best_chip(scores[p]), rvec, rsym, rp,
                        memo, vals,
                    )  # fmt: skip
                else:
                    act = below(rng, 1, 2)
                t = _record(trace_player, trace_action, g, t, p, act)
                decisions += 1
                if act == A_QUIT:  # D-7
                    quit[p] = True
                    active -= 1
                    if active == 0:  # D-9
                        break
                else:
                    a = faces[0, below(rng, 0, 6)]
                    b = faces[1, below(rng, 0, 6)]
                    c = faces[2, below(rng, 0, 6)]
                    t = _record(trace_player, trace_action, g, t, -1, a * 49 + b * 7 + c)
                    # D-8 in the order of primitives.roll_result, written out here: calling
                    # it costs this loop 15-20% (measured); the trace-replay tests check it.
                    if a == LL and b == LL and c == LL:
                        result = primitives.THREE_LLAMAS
                    elif row[a] > 0 or row[b] > 0 or row[c] > 0:
                        result = primitives.MATCH
                    elif active > 1 and (llama[a] > 0 or llama[b] > 0 or llama[c] > 0):
                        result = primitives.TAKE
                    else:
                        result = primitives.BUST
                    if result == primitives.THREE_LLAMAS:  # D-8.1
                        if chip_choices(scores[p]) != 0:
                            give = _give_choice(scores[p], policy, rng)
                            t = _record(trace_player, trace_action, g, t, p, give)
                            decisions += 1
                            scores[p] -= chip_points(give)
                    elif result == primitives.MATCH:  # D-8.2
                        if policy == POLICY_HEURISTIC:
                            code = heuristic_discard(
                                row, a, b, c, llama, active == 1, best_chip(scores[p]),
                                discard_ids, rvec, rsym, rp, memo, vals, scratch,
                            )  # fmt: skip
                        else:
                            code = _discard_code(row, a, b, c, policy, rng)
                        t = _record(trace_player, trace_action, g, t, p, discard_ids[code])
                        decisions += 1
                        for s in range(7):
                            row[s] -= (code >> (2 * s)) & 3
                        over = is_empty(row)  # D-9
                    elif result == primitives.TAKE:  # D-8.3 (not the last standing, D-8.5)
                        n_take = 0
                        first = -1
                        for s in range(7):
                            if can_take(llama, a, b, c, s):
                                n_take += 1
                                if first < 0:
                                    first = s
                        take = first
                        if policy == POLICY_HEURISTIC:
                            take = heuristic_take(
                                row, a, b, c, llama, False, best_chip(scores[p]),
                                rvec, rsym, rp, memo, vals, scratch,
                            )  # fmt: skip
                        elif policy == POLICY_RANDOM and n_take > 1:
                            k = below(rng, 1, n_take)
                            for s in range(7):
                                if can_take(llama, a, b, c, s):
                                    if k == 0:
                                        take = s
                                        break
                                    k -= 1
                        t = _record(trace_player, trace_action, g, t, p, A_TAKE + take)
                        decisions += 1
                        llama[take] = 0
                        row[take] += 1
                        over = is_empty(llama)  # D-9
                    else:  # D-8.4 / D-8.5 bust: the whole llama row, round over
                        bust(row, llama)
                        over = True
                if over:
                    break
                p = next_seat(quit, p)  # D-6
            for q in range(n):  # D-10 scoring
                points = row_score(rows[q])
                rpts[q] += points
                scores[q] += points
            for q in range(n):  # give-backs after an emptied row, in seat order
                if gives_back_after_round(row_score(rows[q]), scores[q]):
                    give = _give_choice(scores[q], policies[q], rng)
                    t = _record(trace_player, trace_action, g, t, q, give)
                    decisions += 1
                    scores[q] -= chip_points(give)
            starter = last  # D-5
            if game_over(scores, end_score):  # D-11
                break
        low = scores[0]
        for q in range(n):
            low = min(low, scores[q])
        for q in range(n):
            scores_out[g, q] = scores[q]
            wins_out[g, q] = 1 if scores[q] == low else 0
            rpts_out[g, q] = rpts[q]
        length_out[g] = rounds
        decisions_out[g] = decisions
        trace_len[g] = t


@_jit
def _discard_code(row: I8, a: int, b: int, c: int, policy: int, rng: U64) -> int:
    """D-8.2 discard as a count code (2 bits per symbol): the maximal one for the
    benchmark policy, a uniform legal one (at least one card) for the random policy."""
    maximal = max_discard(row, a, b, c)
    if policy == POLICY_BENCHMARK:
        return maximal
    # the legal discards are the non-empty sub-multisets of the maximal one
    count = 1
    for s in range(7):
        count *= ((maximal >> (2 * s)) & 3) + 1
    k = below(rng, 1, count - 1) + 1  # skip the empty discard (index 0)
    code = 0
    for s in range(7):
        base = ((maximal >> (2 * s)) & 3) + 1
        code += (k % base) << (2 * s)
        k //= base
    return code


@_jit
def init_states(
    seeds: U64,
    start: int,
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
    rpts: I32,
    rng: U64,
) -> None:
    """Every game before its first deal, with its streams seeded from ``seeds[g]``."""
    for g in range(seeds.shape[0]):
        reset_game(
            ctrl[g], dice[g], scores[g], rows[g], quit[g], llama[g], setaside[g],
            discards[g], give[g], rpts[g], start,
        )  # fmt: skip
        seed_streams(rng[g], seeds[g])


@_jit
def step_states(
    actions: I32,
    end_score: int,
    faces: I8,
    hand_ids: I16,
    hand_counts: I8,
    discard_ids: I16,
    discard_counts: I8,
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
    rpts: I32,
    rng: U64,
    err: I32,
) -> None:
    """Apply ``actions[g]`` to every game, or change nothing if any is refused.

    ``actions[g]``: a player action id at a seat's decision; a chance outcome id at a chance
    node, or -1 to draw it from the game's chance stream; -1 for a finished game.
    On refusal ``err`` holds ``(game, code)`` of the first bad game (codes ``ERR_*``);
    otherwise ``err[1] == OK``.
    """
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
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    rng: U64,
    discard_ids: I16,
    rvec: I8,
    rsym: I8,
    rp: F64,
    out: I32,
) -> None:
    """``out[g]``: the action the in-kernel policy of the seat to act chooses in game
    ``g`` (random draws advance that game's policy stream; the heuristic uses the roll
    table ``rvec``, ``rsym``, ``rp`` of :mod:`lamagames.dice.batch_heuristic`); -1 at
    chance and terminal nodes."""
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
