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
    OK,
    PHASE,
    PLAYER,
    POLICY_BENCHMARK,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    QUIT_AT,
    U64,
    Bools,
    _inline,
    _jit,
    _jit_no_refcount,
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
    roll_result,
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


class Seats(NamedTuple):
    """The scratch state :func:`play_games` reuses game after game (:func:`new_seats`):
    ``policies`` int8 ``(n,)``, ``scores`` and ``rpts`` int32 ``(n,)``, ``rows`` int8
    ``(n, 7)``, ``quit`` bool ``(n,)``, ``llama`` and ``setaside`` int8 ``(7,)``, ``rng``
    uint64 ``(2,)``, and the heuristic's memo (``memo`` uint64, ``vals`` float64) and work
    buffer ``scratch`` int8 (:mod:`lamagames.dice.batch_heuristic`)."""

    policies: I8
    scores: I32
    rows: I8
    quit: Bools
    llama: I8
    setaside: I8
    rpts: I32
    rng: U64
    memo: U64
    vals: F64
    scratch: I8


#: ``(t, decisions)``: trace steps taken so far in a game (chance included), and how many of
#: them were seats' decisions.
Steps = tuple[int, int]


@_inline
def _seat_step(trace: TraceArrays, g: int, steps: Steps, player: int, action: int) -> Steps:
    """Record seat ``player``'s ``action`` as trace step ``steps[0]`` of game ``g`` while
    there is room; return both counts one up."""
    t, decisions = steps
    if t < trace.player.shape[1]:
        trace.player[g, t] = player
        trace.action[g, t] = action
    return t + 1, decisions + 1


@_inline
def _chance_step(trace: TraceArrays, g: int, steps: Steps, outcome: int) -> Steps:
    """Record chance ``outcome`` (player -1) as :func:`_seat_step` does; return the step
    count one up, the decision count as it was."""
    t, decisions = steps
    if t < trace.player.shape[1]:
        trace.player[g, t] = -1
        trace.action[g, t] = outcome
    return t + 1, decisions


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


@_inline
def _deal(seats: Seats, hand_ids: I16, trace: TraceArrays, g: int, steps: Steps) -> Steps:
    """D-3, D-5: a full llama row and the rest of the deck set aside, then six cards
    drawn without replacement for each seat, seat 0 first (one chance step each)."""
    rows, setaside, rng = seats.rows, seats.setaside, seats.rng
    total = 0
    for s in range(7):
        seats.llama[s] = _LLAMA_ROW[s]
        setaside[s] = _DECK[s]
        total += _DECK[s]
    for p in range(rows.shape[0]):
        seats.quit[p] = False
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
        steps = _chance_step(trace, g, steps, hand_ids[code])
    return steps


@_inline
def _turn_choice(seats: Seats, tables: Tables, p: int, alone: bool) -> int:
    """Roll or quit (D-6, D-7) for seat ``p`` on its policy; ``alone``: the last seat
    standing (D-8.5)."""
    policy = seats.policies[p]
    row = seats.rows[p]
    if policy == POLICY_BENCHMARK:
        return A_QUIT if row_score(row) <= QUIT_AT else A_ROLL
    if policy == POLICY_HEURISTIC:
        return heuristic_turn(
            row, seats.llama, alone, best_chip(seats.scores[p]), tables.rvec, tables.rsym,
            tables.rp, seats.memo, seats.vals,
        )  # fmt: skip
    return below(seats.rng, 1, 2)


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


@_inline
def _discard_choice(
    seats: Seats, tables: Tables, p: int, dice: tuple[int, int, int], alone: bool
) -> int:
    """Seat ``p``'s discard after a match (D-8.2) as a count code, on its policy;
    ``alone``: the last seat standing (D-8.5)."""
    a, b, c = dice
    row = seats.rows[p]
    if seats.policies[p] == POLICY_HEURISTIC:
        return heuristic_discard(
            row, a, b, c, seats.llama, alone, best_chip(seats.scores[p]), tables.discard_ids,
            tables.rvec, tables.rsym, tables.rp, seats.memo, seats.vals, seats.scratch,
        )  # fmt: skip
    return _discard_code(row, a, b, c, seats.policies[p], seats.rng)


@_inline
def _take_choice(seats: Seats, tables: Tables, p: int, dice: tuple[int, int, int]) -> int:
    """Seat ``p``'s llama-row card after a roll with no match (D-8.3), on its policy: the
    benchmark takes the lowest one."""
    a, b, c = dice
    llama = seats.llama
    policy = seats.policies[p]
    if policy == POLICY_HEURISTIC:
        return heuristic_take(
            seats.rows[p], a, b, c, llama, False, best_chip(seats.scores[p]), tables.rvec,
            tables.rsym, tables.rp, seats.memo, seats.vals, seats.scratch,
        )  # fmt: skip
    n_take = 0
    first = -1
    for s in range(7):
        if can_take(llama, a, b, c, s):
            n_take += 1
            if first < 0:
                first = s
    if policy == POLICY_RANDOM and n_take > 1:
        k = below(seats.rng, 1, n_take)
        for s in range(7):
            if can_take(llama, a, b, c, s):
                if k == 0:
                    return s
                k -= 1
    return first


@_inline
def _roll(
    seats: Seats, tables: Tables, p: int, active: int, log: tuple[TraceArrays, int, Steps]
) -> tuple[Steps, bool]:
    """Seat ``p`` rolls (one chance step) and the roll is resolved by D-8 (D-8.1 .. D-8.5)
    with the seat's choices recorded; ``active``: seats still in the round. Returns the
    step counts and whether the round is over (D-9)."""
    trace, g, steps = log
    faces = tables.faces
    rng = seats.rng
    a = faces[0, below(rng, 0, 6)]
    b = faces[1, below(rng, 0, 6)]
    c = faces[2, below(rng, 0, 6)]
    steps = _chance_step(trace, g, steps, a * 49 + b * 7 + c)
    row = seats.rows[p]
    llama = seats.llama
    result = roll_result(row, llama, a, b, c, active == 1)  # D-8
    if result == primitives.THREE_LLAMAS:  # D-8.1
        score = seats.scores[p]
        if chip_choices(score) != 0:
            give = _give_choice(score, seats.policies[p], rng)
            steps = _seat_step(trace, g, steps, p, give)
            seats.scores[p] -= chip_points(give)
        return steps, False
    if result == primitives.MATCH:  # D-8.2
        code = _discard_choice(seats, tables, p, (a, b, c), active == 1)
        steps = _seat_step(trace, g, steps, p, tables.discard_ids[code])
        for s in range(7):
            row[s] -= (code >> (2 * s)) & 3
        return steps, is_empty(row)  # D-9
    if result == primitives.TAKE:  # D-8.3
        take = _take_choice(seats, tables, p, (a, b, c))
        steps = _seat_step(trace, g, steps, p, A_TAKE + take)
        llama[take] = 0
        row[take] += 1
        return steps, is_empty(llama)  # D-9
    bust(row, llama)  # D-8.4 / D-8.5: the whole llama row, round over
    return steps, True


@_inline
def _round(
    seats: Seats, tables: Tables, starter: int, log: tuple[TraceArrays, int, Steps]
) -> tuple[Steps, int]:
    """The turns of one dealt round from seat ``starter`` (D-6 .. D-9) until it ends;
    returns the step counts and the seat that acted last (the next round's starter, D-5)."""
    trace, g, steps = log
    quit = seats.quit
    p = starter
    active = quit.shape[0]
    while True:  # turns (D-6)
        act = _turn_choice(seats, tables, p, active == 1)
        steps = _seat_step(trace, g, steps, p, act)
        if act == A_QUIT:  # D-7
            quit[p] = True
            active -= 1
            if active == 0:  # D-9
                return steps, p
        else:
            steps, over = _roll(seats, tables, p, active, (trace, g, steps))
            if over:
                return steps, p
        p = next_seat(quit, p)  # D-6


@_inline
def _score_round(seats: Seats, trace: TraceArrays, g: int, steps: Steps) -> Steps:
    """D-10: every row scored, then seats with an emptied row and a chip give one back,
    in seat order."""
    scores, rows = seats.scores, seats.rows
    n = scores.shape[0]
    for q in range(n):
        points = row_score(rows[q])
        seats.rpts[q] += points
        scores[q] += points
    for q in range(n):
        if gives_back_after_round(row_score(rows[q]), scores[q]):
            give = _give_choice(scores[q], seats.policies[q], seats.rng)
            steps = _seat_step(trace, g, steps, q, give)
            scores[q] -= chip_points(give)
    return steps


@_inline
def _write_results(seats: Seats, results: Results, g: int, rounds: int, decisions: int) -> None:
    """Store game ``g``'s :class:`Results` (a win: the lowest score, D-11)."""
    scores = seats.scores
    low = scores[0]
    for q in range(scores.shape[0]):
        low = min(low, scores[q])
    for q in range(scores.shape[0]):
        results.scores[g, q] = scores[q]
        results.wins[g, q] = 1 if scores[q] == low else 0
        results.rpts[g, q] = seats.rpts[q]
    results.length[g] = rounds
    results.decisions[g] = decisions


def new_seats(policies: I8) -> Seats:
    """The scratch state of :func:`play_games` for seats with in-kernel ``policies`` (int8
    ``(n,)``, one ``POLICY_*`` code per seat), zeroed."""
    n = policies.shape[0]
    return Seats(
        policies,
        np.zeros(n, dtype=np.int32),
        np.zeros((n, 7), dtype=np.int8),
        np.zeros(n, dtype=np.bool_),
        np.zeros(7, dtype=np.int8),
        np.zeros(7, dtype=np.int8),
        np.zeros(n, dtype=np.int32),
        np.zeros(2, dtype=np.uint64),
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

    A straight-line loop over rounds and turns (no phase machine, no per-action legality
    lists) for speed, on the same rule primitives as the step kernels
    (:mod:`lamagames.dice.primitives`). Its helpers are inlined into it by Numba
    (``inline="always"``) and it allocates nothing, so it runs without Numba's reference
    counting (``_nrt=False``): it compiles to one loop (measured: as fast as the former
    single function, whose reference counting of the arrays its helpers pass about made
    a split 5x slower). It takes exactly the steps of the
    scalar engine (D-5 .. D-11) and, while there is room, writes them to the trace as
    ``(player, action)`` pairs (player -1: a chance outcome id), so the agreement tests
    replay it through the scalar engine.

    Writes :class:`Results` per game ``g`` and the trace length ``trace.length[g]`` (it may
    exceed ``trace.player.shape[1]``; then the trace is cut).
    """
    for g in range(seeds.shape[0]):
        seed_streams(seats.rng, seeds[g])
        seats.scores[:] = 0
        seats.rpts[:] = 0
        starter = start
        rounds = 0
        steps = (0, 0)
        while True:
            rounds += 1
            steps = _deal(seats, tables.hand_ids, trace, g, steps)
            steps, starter = _round(seats, tables, starter, (trace, g, steps))  # D-5
            steps = _score_round(seats, trace, g, steps)
            if game_over(seats.scores, end_score):  # D-11
                break
        _write_results(seats, results, g, rounds, steps[1])
        trace.length[g] = steps[0]


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
