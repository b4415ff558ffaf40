# mypy: ignore-errors
# (Numba infers the kernels' types at compile time from the documented array dtypes; mypy
# cannot follow njit, so this one module is left to numba; the Python API in batch.py is typed.)
"""Numba kernels of the Lama Express batch engine (docs/rules.md E-2 .. E-11, turn-by-turn E-9).

The rulings themselves (E-2, E-6 .. E-11: movement, which free actions are available and
what they do, who is asked in a window, what step of the turn follows, winning, the turn
limit) are the compiled primitives of :mod:`lamagames.express.primitives`, the very
functions the scalar engine calls; this module sequences them over the state arrays.

Every kernel works on the struct-of-arrays state documented in
:class:`lamagames.express.batch.ExpressBatchState` (one row per game, index ``g``) and on the
board tables of :class:`lamagames.express.batch.BatchTables`. They mirror
:class:`lamagames.express.game.ExpressState` step for step: the same phases, the same window
asking (seats asked in turn order from the active seat, a seat without an available free
action is skipped, after an action the asking goes on with the seat after the actor, the
window closes when every seat with an action has passed since the last action), the same
action ids. Chance nodes never rest: a die roll is drawn at once from the game's own chance
stream (splitmix64, column 0 of ``rng``); the policies' coin flips use column 1.

Arguments: ``prm = (num_players, llamas_to_win, turn_limit, track_length)``; ``st``, the
state arrays in the field order of ``ExpressBatchState`` (0 phase, 1 stage, 2 active,
3 current, 4 passed, 5 rolls, 6 die, 7 winner, 8 tips, 9 owner, 10 progress, 11 station,
12 house, 13 path_len, 14 path_owner, 15 path_progress, 16 free, 17 rng, 18 trace,
19 trace_len); ``tb``, the board tables of ``BatchTables.arrays()`` (0 next_dist, 1 car_role,
2 car_index, 3 car_need, 4 station_seat, 5 fp_cap, 6 walk_back, 7 lap_range, 8 specials);
``sc``, a scratch state of one row (``ExpressBatchState.empty(1, ...)``, any trace length: it
logs nothing) where the ``heuristic`` policy plays its look-ahead.

Kernels are compiled with ``cache=True`` (on-disk cache in this package's ``__pycache__``, or
``NUMBA_CACHE_DIR``); every array has one fixed dtype (int32 for state and tables, uint64 for
bitmasks and streams), so each kernel compiles for one signature only. The rules are inlined
(``inline="always"``) into one entry kernel, :func:`run_games` (set up, step or play), so they
are compiled once; with :func:`legal_masks` that is the whole compile. No kernel allocates an
array, so they run without Numba's reference counting (``_nrt=False``): inlining and no
reference counting together made the kernels about 3x faster
(``benchmarks/bench_batch_express.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lamagames.bots import express as express_bots
from lamagames.core.game import CHANCE_PLAYER as CHANCE
from lamagames.core.game import TERMINAL_PLAYER as TERMINAL
from lamagames.core.jit import compiled, install_cache_key
from lamagames.express import primitives
from lamagames.express.actions import (
    FREE_BASE,
    KIND_BOARD,
    KIND_DETOUR,
    KIND_EXIT,
    KIND_REBOARD,
    MOVE_A,
    NUM_CAR_SLOTS,
    PASS,
)
from lamagames.express.board import LLAMAS_PER_PLAYER
from lamagames.express.material import PASSENGER_CARS
from lamagames.express.rules import (
    STAGE_AFTER_MOVE,
    STAGE_AFTER_ROLL,
    Phase,
)

install_cache_key()  # the disk-cache key covers every module these kernels use

# The engine's constants, imported (not copied) so the two engines cannot drift apart.
CARS = PASSENGER_CARS
SLOTS = NUM_CAR_SLOTS
# The rule primitives (lamagames.express.primitives), compiled: each ruling is written once,
# for this engine and the scalar one.
movable = compiled(primitives.movable)
move_train = compiled(primitives.move_train)
detour_progress = compiled(primitives.detour_progress)
next_asked = compiled(primitives.next_asked)
has_won = compiled(primitives.has_won)
turn_limit_reached = compiled(primitives.turn_limit_reached)
available = compiled(primitives.available)
# The heuristic bot's own valuation (lamagames.bots.express), compiled: one definition.
ride_value = compiled(express_bots.ride_value)
board = compiled(primitives.board)
exit_car = compiled(primitives.exit_car)
detour = compiled(primitives.detour)
reboard = compiled(primitives.reboard)
train_to_move = compiled(primitives.train_to_move)
next_active = compiled(primitives.next_active)
step_after_window = compiled(primitives.step_after_window)
ask_from = compiled(primitives.ask_from)
# Policies inside the kernel.
POLICY_RANDOM = 0
POLICY_BENCHMARK = 1
POLICY_HEURISTIC = 2
# The heuristic's weights (lamagames.bots.express), whole spaces; WIN_SCORE as an int.
HOME_BONUS = express_bots.HOME_BONUS
FOOTPATH_WAIT = express_bots.FOOTPATH_WAIT
WIN_SCORE = int(express_bots.WIN_SCORE)
# Benchmark rank of each kind (board, exit, detour, re-board): exit, board, re-board, detour;
# the rank of kind k is k ^ 1.
_RANK = (1, 0, 3, 2)
# What settle does next: the steps of a turn (E-6, E-9), shared with the scalar engine.
_DO_ROLL = primitives.STEP_ROLL
_DO_OPEN_AFTER_ROLL = primitives.STEP_OPEN_AFTER_ROLL
_DO_OPEN_AFTER_MOVE = primitives.STEP_OPEN_AFTER_MOVE
_DO_RESOLVE = primitives.STEP_RESOLVE
_DO_END_TURN = primitives.STEP_END_TURN
_CHOOSE_TRAIN = primitives.CHOOSE_TRAIN

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U1 = np.uint64(1)
_U6 = np.uint64(6)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S63 = np.uint64(63)


@njit(cache=True, inline="always", _nrt=False)
def next_u64(rng, g, stream):
    """Next 64-bit output of splitmix64 stream ``stream`` (0 chance, 1 policy) of game ``g``."""
    s = rng[g, stream] + _GOLDEN
    rng[g, stream] = s
    z = (s ^ (s >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always", _nrt=False)
def below(rng, g, stream, k):
    """A draw in ``0..k-1`` from the high 32 bits of the stream (bias below 2**-32 * k)."""
    x = next_u64(rng, g, stream) >> _S32
    return np.int32((x * np.uint64(k)) >> _S32)


@njit(cache=True, inline="always", _nrt=False)
def fill_free(g, st, tb):
    """Fill ``free[g, s]`` with the bitmask of seat ``s``'s available free actions (E-7,
    the primitive :func:`~lamagames.express.primitives.available`)."""
    available(st[16][g], tb[8], st[8][g], st[9][g], st[10][g], st[11][g], st[13][g], st[14][g])


@njit(cache=True, inline="always", _nrt=False)
def open_window(g, after, n, st, tb):
    """Open the window of stage ``after`` (``STAGE_AFTER_ROLL`` or ``STAGE_AFTER_MOVE``) in
    game ``g`` (E-9): no passes yet, the free actions computed (E-7), the first seat with one
    from the active seat asked. Returns False (and leaves the phase) when nobody has one."""
    phase = st[0]
    stage = st[1]
    active = st[2]
    cur = st[3]
    passed = st[4]
    free = st[16]
    stage[g] = after
    passed[g] = 0
    fill_free(g, st, tb)
    asked = next_asked(free[g], passed[g], active[g], n)
    if asked < 0:
        return False
    phase[g] = Phase.WINDOW
    cur[g] = asked
    return True


@njit(cache=True, inline="always", _nrt=False)
def settle(g, todo, prm, st, tb):
    """Run the automatic part of the turn from step ``todo`` until a seat must decide or the
    game ends: die rolls (drawn from the chance stream and logged to ``trace``), windows that
    do not open, forced moves, ends of turns and the turn limit (E-6, E-9, E-11)."""
    n = prm[0]
    turn_limit = prm[2]
    length = prm[3]
    phase = st[0]
    active = st[2]
    cur = st[3]
    rolls = st[5]
    die = st[6]
    tips = st[8]
    owner = st[9]
    prog = st[10]
    rng = st[17]
    trace = st[18]
    trace_len = st[19]
    next_dist = tb[0]
    while True:
        if todo == _DO_ROLL:
            d = np.int32(((next_u64(rng, g, 0) >> _S32) * _U6) >> _S32)
            die[g] = d
            rolls[g] += 1
            k = trace_len[g]
            if k < trace.shape[1]:
                trace[g, k, 0] = CHANCE
                trace[g, k, 1] = d
                trace_len[g] = k + 1
            todo = _DO_OPEN_AFTER_ROLL
        elif todo in (_DO_OPEN_AFTER_ROLL, _DO_OPEN_AFTER_MOVE):
            after = STAGE_AFTER_ROLL if todo == _DO_OPEN_AFTER_ROLL else STAGE_AFTER_MOVE
            if open_window(g, after, n, st, tb):
                return
            todo = step_after_window(after)
        elif todo == _DO_RESOLVE:
            # E-6: choice if both trains can move, forced move if one can, else nothing.
            d0 = next_dist[die[g], tips[g, 0]]
            d1 = next_dist[die[g], tips[g, 1]]
            train = train_to_move(movable(d0, d1, tips[g, 0], tips[g, 1], length))
            if train == _CHOOSE_TRAIN:
                phase[g] = Phase.CHOOSE
                cur[g] = active[g]
                return
            if train >= 0:
                move(g, train, length, die, tips, owner, prog, next_dist)
                todo = _DO_OPEN_AFTER_MOVE
            else:
                todo = _DO_END_TURN
        else:  # _DO_END_TURN
            if turn_limit_reached(rolls[g], turn_limit):
                phase[g] = Phase.OVER  # E-11: truncated, no winner
                cur[g] = TERMINAL
                return
            active[g] = next_active(active[g], n)
            phase[g] = Phase.ROLL
            cur[g] = CHANCE
            todo = _DO_ROLL


@njit(cache=True, inline="always", _nrt=False)
def move(g, t, length, die, tips, owner, prog, next_dist):
    """Move train ``t`` with the rolled colour (E-6); riders gain progress (E-8)."""
    move_train(tips[g], owner[g], prog[g], t, next_dist[die[g], tips[g, t]], length)


@njit(cache=True, inline="always", _nrt=False)
def apply_action(g, action, prm, st, tb):
    """Apply a legal ``action`` of the current seat of game ``g`` (checked by the caller) and
    log it to ``trace``; returns what :func:`settle` must do next, or -1 when a seat is asked
    again in the window or the game is won."""
    n = prm[0]
    llamas_to_win = prm[1]
    length = prm[3]
    phase = st[0]
    stage = st[1]
    cur = st[3]
    passed = st[4]
    die = st[6]
    winner = st[7]
    tips = st[8]
    owner = st[9]
    prog = st[10]
    station = st[11]
    house = st[12]
    path_len = st[13]
    path_owner = st[14]
    path_prog = st[15]
    free = st[16]
    trace = st[18]
    trace_len = st[19]
    next_dist = tb[0]
    car_index = tb[2]
    walk_back = tb[6]
    seat = cur[g]
    k = trace_len[g]
    if k < trace.shape[1]:
        trace[g, k, 0] = seat
        trace[g, k, 1] = action
        trace_len[g] = k + 1
    if phase[g] == Phase.CHOOSE:
        move(g, action - MOVE_A, length, die, tips, owner, prog, next_dist)
        todo = _DO_OPEN_AFTER_MOVE
    else:  # Phase.WINDOW
        acted = action != PASS
        if not acted:
            passed[g] |= 1 << seat
        else:
            kind = (action - FREE_BASE) // SLOTS
            slot = (action - FREE_BASE) % SLOTS
            if kind == KIND_EXIT:
                if has_won(exit_car(owner[g], house[g], slot, seat), llamas_to_win):
                    winner[g] = seat  # E-10: the game ends at once
                    phase[g] = Phase.OVER
                    cur[g] = TERMINAL
                    passed[g] = 0
                    return -1
            elif kind == KIND_BOARD:
                board(owner[g], prog[g], station[g], slot, seat)
            else:
                idx = car_index[tips[g, slot // CARS], slot % CARS]
                if kind == KIND_DETOUR:
                    walked = detour_progress(prog[g, slot], walk_back[idx])
                    detour(owner[g], slot, path_len[g], path_owner[g], path_prog[g], idx, walked)
                else:
                    reboard(owner[g], prog[g], slot, path_len[g], path_owner[g], path_prog[g], idx)
            passed[g] = 0  # E-9: an action resets the passes
            fill_free(g, st, tb)
        asked = next_asked(free[g], passed[g], ask_from(seat, seat, acted, n), n)
        if asked >= 0:
            cur[g] = asked
            return -1
        passed[g] = 0
        todo = step_after_window(stage[g])
    return todo


@njit(cache=True, inline="always", _nrt=False)
def benchmark_action(g, bits, tips, car_index):
    """The benchmark choice among the free actions in ``bits`` (bots/express.py): kind in
    the order exit, board, re-board, detour; then footpath in track order; then train A
    before B; then car 1..5."""
    best = -1
    best_key = 1 << 30
    for a in range(FREE_BASE, FREE_BASE + 4 * SLOTS):
        if (bits >> np.uint64(a)) & _U1:
            kind = (a - FREE_BASE) // SLOTS
            slot = (a - FREE_BASE) % SLOTS
            fp = -1
            if kind in (KIND_DETOUR, KIND_REBOARD):
                fp = car_index[tips[g, slot // CARS], slot % CARS]
            key = (kind ^ 1) * 100_000 + (fp + 1) * 16 + slot  # rank: kind ^ 1 (see _RANK)
            if key < best_key:
                best_key = key
                best = a
    return best


@njit(cache=True, inline="always", _nrt=False)
def random_action(g, bits, rng):
    """Uniform choice among ``pass`` and the free actions in ``bits`` (policy stream)."""
    count = 1
    for a in range(FREE_BASE, FREE_BASE + 4 * SLOTS):
        if (bits >> np.uint64(a)) & _U1:
            count += 1
    r = below(rng, g, 1, count)
    if r == 0:
        return PASS
    for a in range(FREE_BASE, FREE_BASE + 4 * SLOTS):
        if (bits >> np.uint64(a)) & _U1:
            r -= 1
            if r == 0:
                return a
    return PASS


@njit(cache=True, inline="always", _nrt=False)
def policy_action(g, policy, phase, cur, tips, free, rng, car_index):
    """The action of the current seat of game ``g`` under ``policy``. A train choice is a
    fair coin of the policy stream for both policies (benchmark: uniform among the two)."""
    if phase[g] == Phase.CHOOSE:
        return MOVE_A + np.int32(next_u64(rng, g, 1) >> _S63)
    bits = free[g, cur[g]]
    if policy == POLICY_BENCHMARK:
        return benchmark_action(g, bits, tips, car_index)
    return random_action(g, bits, rng)


@njit(cache=True, inline="always", _nrt=False)
def llama_value(seat, progress, length, lap):
    """:func:`lamagames.bots.express.llama_value` (E-8): the bot's own
    :func:`~lamagames.bots.express.ride_value`; ``lap[seat]`` holds the smallest and
    largest lap need of the seat's exits."""
    return ride_value(progress, lap[seat, 0], lap[seat, 1], length)


@njit(cache=True, _nrt=False)
def position_value(g, seat, length, st, lap):
    """:func:`lamagames.bots.express.position_value` of ``seat`` in game ``g`` (an int: all
    its terms are whole spaces): llamas home a lap plus ``HOME_BONUS`` each, riding llamas
    their :func:`llama_value`, llamas on a footpath that value minus ``FOOTPATH_WAIT`` per
    queue place."""
    owner, prog, house = st[9], st[10], st[12]
    path_len, path_owner, path_prog = st[13], st[14], st[15]
    value = np.int64(house[g, seat]) * (length + HOME_BONUS)
    for slot in range(SLOTS):
        if owner[g, slot] == seat:
            value += llama_value(seat, prog[g, slot], length, lap)
    for i in range(path_len.shape[1]):
        for j in range(path_len[g, i]):
            if path_owner[g, i, j] == seat:
                value += llama_value(seat, path_prog[g, i, j], length, lap)
                value -= FOOTPATH_WAIT * (j + 1)
    return value


@njit(cache=True, _nrt=False)
def heuristic_window_action(g, length, st, lap):
    """:class:`lamagames.bots.express.ExpressHeuristicBot`'s window action (E-7, E-9) for
    the seat asked in game ``g``: the least free action by (kind rank exit, detour,
    re-board, board; for a detour the victim's llamas home, then its position value, both
    highest first; the action id); ``pass`` when it has none."""
    cur, owner, house, free = st[3], st[9], st[12], st[16]
    bits = free[g, cur[g]]
    best = PASS
    best_rank = 4
    best_target = np.int64(0)
    for a in range(FREE_BASE, FREE_BASE + 4 * SLOTS):
        if (bits >> np.uint64(a)) & _U1:
            kind = (a - FREE_BASE) // SLOTS
            rank = (kind + 3) % 4  # board 3, exit 0, detour 1, re-board 2 (_HEURISTIC_RANK)
            if rank > best_rank:
                continue
            target = np.int64(0)
            if kind == KIND_DETOUR:
                victim = owner[g, (a - FREE_BASE) % SLOTS]
                target = -(
                    np.int64(house[g, victim]) * WIN_SCORE
                    + position_value(g, victim, length, st, lap)
                )
            if rank < best_rank or target < best_target:  # ties: the lower id, seen first
                best = a
                best_rank = rank
                best_target = target
    return best


@njit(cache=True, inline="always", _nrt=False)
def copy_game(g, st, sc):
    """Copy game ``g``'s position (every field but the streams and the trace) to row 0 of
    the scratch state ``sc`` (arrays of the same dtypes, one row, an empty trace)."""
    sc[0][0] = st[0][g]
    sc[1][0] = st[1][g]
    sc[2][0] = st[2][g]
    sc[3][0] = st[3][g]
    sc[4][0] = st[4][g]
    sc[5][0] = st[5][g]
    sc[6][0] = st[6][g]
    sc[7][0] = st[7][g]
    for t in range(2):
        sc[8][0, t] = st[8][g, t]
    for slot in range(SLOTS):
        sc[9][0, slot] = st[9][g, slot]
        sc[10][0, slot] = st[10][g, slot]
    for s in range(st[11].shape[1]):
        sc[11][0, s] = st[11][g, s]
        sc[12][0, s] = st[12][g, s]
        sc[16][0, s] = st[16][g, s]
    for i in range(st[13].shape[1]):
        m = st[13][g, i]
        sc[13][0, i] = m
        for j in range(m):
            sc[14][0, i, j] = st[14][g, i, j]
            sc[15][0, i, j] = st[15][g, i, j]
    sc[19][0] = sc[18].shape[1]  # a full trace: the look-ahead logs nothing


@njit(cache=True, _nrt=False)
def lookahead_apply(g, action, prm, st, tb):
    """:func:`apply_action` as an ordinary compiled function for the look-ahead of
    :func:`heuristic_choice`, which calls it at two places: inlined at both it made the
    kernels' first compile take longer."""
    return apply_action(g, action, prm, st, tb)


@njit(cache=True, _nrt=False)
def heuristic_choice(g, prm, st, tb, sc):
    """:class:`lamagames.bots.express.ExpressHeuristicBot`'s train choice (E-6) in game
    ``g``: each move played on a copy (row 0 of ``sc``), the following window (E-9) resolved
    with every asked seat taking :func:`heuristic_window_action`, scored as the chooser's
    position value minus the best opponent's, a win (loss) in the window as +-``WIN_SCORE``;
    ties to train A. The rules are :func:`apply_action` and :func:`open_window`."""
    n = prm[0]
    length = prm[3]
    lap = tb[7]
    me = st[3][g]
    phase, winner = sc[0], sc[7]
    best = MOVE_A
    best_score = np.int64(0)
    for t in range(2):
        copy_game(g, st, sc)
        lookahead_apply(0, MOVE_A + t, prm, sc, tb)  # the move; the window after it is next
        if open_window(0, STAGE_AFTER_MOVE, n, sc, tb):
            while phase[0] == Phase.WINDOW:
                a = heuristic_window_action(0, length, sc, lap)
                if lookahead_apply(0, a, prm, sc, tb) >= 0:
                    break  # the window closed
        if winner[0] >= 0:
            score = WIN_SCORE if winner[0] == me else -WIN_SCORE
        else:
            score = position_value(0, me, length, sc, lap)
            other = np.int64(-(1 << 62))
            for s in range(n):
                if s != me:
                    other = max(other, position_value(0, s, length, sc, lap))
            score -= other
        if t == 0 or score > best_score:
            best = MOVE_A + t
            best_score = score
    return best


@njit(cache=True, inline="always", _nrt=False)
def seat_action(g, policy, prm, st, tb, sc):
    """The action of the current seat of game ``g`` under any in-kernel ``policy``
    (:func:`policy_action`, or the heuristic with the scratch state ``sc``)."""
    if policy == POLICY_HEURISTIC:
        if st[0][g] == Phase.CHOOSE:
            return heuristic_choice(g, prm, st, tb, sc)
        return heuristic_window_action(g, prm[3], st, tb[7])
    return policy_action(g, policy, st[0], st[3], st[8], st[16], st[17], tb[2])


@njit(cache=True, inline="always", _nrt=False)
def is_legal(g, action, phase, cur, passed, free):
    """True when ``action`` is legal for the current seat of game ``g`` (turn-by-turn)."""
    ph = phase[g]
    if ph == Phase.CHOOSE:
        return action == MOVE_A or action == MOVE_A + 1
    if ph == Phase.WINDOW:
        if action == PASS:
            return True
        if FREE_BASE <= action < FREE_BASE + 4 * SLOTS:
            return ((free[g, cur[g]] >> np.uint64(action)) & _U1) == _U1
    return False


MODE_INIT = 0
MODE_STEP = 1
MODE_PLAY = 2
MODE_LOAD = 3


@njit(cache=True, _nrt=False)
def run_games(mode, request, setup, prm, st, tb, sc):
    """The one entry kernel (one compiled copy of the rules, so one compile); ``request =
    (seeds, actions, policies)``, the inputs of the modes below (unpacked once, at the top):

    * ``MODE_INIT``: set up game ``g`` (E-5) from ``seeds[g]``, roll the first die and run to
      the first decision; ``setup = (starting_seat, tip A, tip B)``.
    * ``MODE_STEP``: apply ``actions[g]`` in every unfinished game; returns the index of the
      first game whose action is illegal (then nothing at all is applied), else -1.
    * ``MODE_PLAY``: play every game to its end, seat ``s`` following ``policies[s]``
      (the heuristic looks ahead in the one-row scratch state ``sc``).
    * ``MODE_LOAD``: game ``g`` holds a position written from outside (a scalar state's):
      seed its streams from ``seeds[g]``, compute its free actions (E-7) and, if a die is
      to be rolled, roll it from the chance stream and run to the next decision (E-6).
    """
    seeds, actions, policies = request
    phase = st[0]
    cur = st[3]
    passed = st[4]
    free = st[16]
    games = seeds.shape[0] if mode == MODE_INIT else phase.shape[0]
    if mode == MODE_STEP:
        for g in range(games):
            if phase[g] != Phase.OVER and not is_legal(g, actions[g], phase, cur, passed, free):
                return g
    for g in range(games):
        if mode == MODE_INIT:
            setup_game(g, seeds[g], setup, prm, st)
        elif mode == MODE_LOAD:
            seed_streams(g, seeds[g], st[17])
            fill_free(g, st, tb)
            if phase[g] == Phase.ROLL:
                settle(g, _DO_ROLL, prm, st, tb)
            continue
        while phase[g] != Phase.OVER:
            todo = -1
            if mode == MODE_INIT:
                todo = _DO_ROLL
            else:
                if mode == MODE_STEP:
                    action = actions[g]
                else:
                    action = seat_action(g, policies[cur[g]], prm, st, tb, sc)
                todo = apply_action(g, action, prm, st, tb)
            if todo >= 0:
                settle(g, todo, prm, st, tb)
            if mode != MODE_PLAY:
                break
    return -1


@njit(cache=True, inline="always", _nrt=False)
def seed_streams(g, seed, rng):
    """Seed game ``g``'s chance and policy streams from ``seed`` (uint64)."""
    rng[g, 0] = seed * _MIX1 + _GOLDEN
    rng[g, 1] = (seed ^ _MIX2) * _MIX2 + _U1
    next_u64(rng, g, 0)
    next_u64(rng, g, 1)


@njit(cache=True, inline="always", _nrt=False)
def setup_game(g, seed, setup, prm, st):
    """The setup of E-5 for game ``g``, its two streams seeded from ``seed``."""
    n = prm[0]
    (phase, stage, active, cur, passed, rolls, die, winner, tips, owner, prog, station, house,
     path_len, _path_owner, _path_prog, free, rng, _trace, trace_len) = st  # fmt: skip
    seed_streams(g, seed, rng)
    phase[g] = Phase.ROLL
    stage[g] = STAGE_AFTER_ROLL
    active[g] = setup[0]
    cur[g] = CHANCE
    passed[g] = 0
    rolls[g] = 0
    die[g] = -1
    winner[g] = -1
    tips[g, 0] = setup[1]
    tips[g, 1] = setup[2]
    for slot in range(SLOTS):
        owner[g, slot] = -1
        prog[g, slot] = 0
    for s in range(n):
        station[g, s] = LLAMAS_PER_PLAYER  # E-1: every llama starts at its station
        house[g, s] = 0
        free[g, s] = np.uint64(0)
    for i in range(path_len.shape[1]):
        path_len[g, i] = 0
    trace_len[g] = 0


@njit(cache=True, _nrt=False)
def legal_masks(phase, cur, free, out):
    """``out[g, a]`` True when action ``a`` is legal for the current seat of game ``g``."""
    for g in range(phase.shape[0]):
        for a in range(out.shape[1]):
            out[g, a] = False
        ph = phase[g]
        if ph == Phase.CHOOSE:
            out[g, MOVE_A] = True
            out[g, MOVE_A + 1] = True
        elif ph == Phase.WINDOW:
            bits = free[g, cur[g]]
            out[g, PASS] = True
            for a in range(FREE_BASE, out.shape[1]):
                if (bits >> np.uint64(a)) & _U1:
                    out[g, a] = True
