# mypy: ignore-errors
# (Numba infers the kernel's types at compile time; mypy cannot follow njit, as in
# batch_kernels.py. The typed Python API is lamagames.express.vector.)
"""The compiled kernel of the Lama Express vector engine (internal; see
:mod:`lamagames.express.vector`): one vector step over the batch state of
:class:`lamagames.express.batch.ExpressBatchState`, calling the batch engine's rule kernels
(:mod:`lamagames.express.batch_kernels`, inlined) unchanged."""

from __future__ import annotations

import numpy as np
from numba import njit

from lamagames.core.jit import install_cache_key
from lamagames.express import batch_kernels as kk
from lamagames.express.board import LLAMAS_PER_PLAYER
from lamagames.express.rules import Phase
from lamagames.express.views import (
    LLAMA_FEATURES,
    NUM_OBS_PHASES,
    OBS_CHOOSE,
    OBS_OVER,
    OBS_ROLL,
    OBS_WINDOW_AFTER_ROLL,
    OWNER_SLOTS,
)

install_cache_key()  # the disk-cache key covers every module these kernels use

KEEP = 0
APPLY = 1
RESET = 2
RUNNING = 0
TERMINATED = 1
TRUNCATED = 2

_setup_game = kk.setup_game
_settle = kk.settle
_apply_action = kk.apply_action
_seat_action = kk.seat_action
_next_u64 = kk.next_u64


@njit(cache=True, inline="always", _nrt=False)
def _observe(g, me, prm, st, tb, obs):
    """Game ``g`` as seat ``me`` sees it, in the layout of the scalar engine's tensor."""
    n = prm[0]
    llamas_to_win = prm[1]
    turn_limit = prm[2]
    length = prm[3]
    phase = st[0]
    stage = st[1]
    active = st[2]
    cur = st[3]
    passed = st[4]
    rolls = st[5]
    die = st[6]
    tips = st[8]
    owner = st[9]
    prog = st[10]
    station = st[11]
    house = st[12]
    path_len = st[13]
    path_owner = st[14]
    path_prog = st[15]
    fp_cap = tb[5]
    for i in range(obs.shape[1]):
        obs[g, i] = 0.0
    off = 0
    for t in range(2):
        obs[g, off + tips[g, t]] = 1.0
        off += length
    for slot in range(10):
        who = owner[g, slot]
        if who >= 0:
            obs[g, off + (who - me) % n] = 1.0
            obs[g, off + OWNER_SLOTS] = prog[g, slot] / length
        off += LLAMA_FEATURES
    for i in range(fp_cap.shape[0]):
        for j in range(fp_cap[i]):
            if j < path_len[g, i]:
                obs[g, off + (path_owner[g, i, j] - me) % n] = 1.0
                obs[g, off + OWNER_SLOTS] = path_prog[g, i, j] / length
            off += LLAMA_FEATURES
    for r in range(n):
        s = (me + r) % n
        obs[g, off + r] = station[g, s] / LLAMAS_PER_PLAYER
        obs[g, off + OWNER_SLOTS + r] = house[g, s] / llamas_to_win
    off += 2 * OWNER_SLOTS
    if die[g] >= 0:
        obs[g, off + die[g]] = 1.0
    off += 6
    ph = phase[g]
    if ph == Phase.OVER:
        slot = OBS_OVER
    elif ph == Phase.CHOOSE:
        slot = OBS_CHOOSE
    elif ph == Phase.WINDOW:
        slot = OBS_WINDOW_AFTER_ROLL + stage[g]
    else:
        slot = OBS_ROLL
    obs[g, off + slot] = 1.0
    off += NUM_OBS_PHASES
    obs[g, off + (active[g] - me) % n] = 1.0
    off += OWNER_SLOTS
    if ph == Phase.WINDOW:
        obs[g, off + (cur[g] - me) % n] = 1.0
        bits = passed[g]
        for s in range(n):
            if (bits >> s) & 1:
                obs[g, off + OWNER_SLOTS + (s - me) % n] = 1.0
    off += 2 * OWNER_SLOTS
    obs[g, off] = rolls[g] / turn_limit


@njit(cache=True, _nrt=False)
def run_vector(request, setup, prm, st, tb, sc, episodes, out):
    """One vector step of every game (see :meth:`ExpressVectorEngine.run`); returns -1, or
    the first game whose action is not legal (then nothing changed). ``request = (mode,
    actions, view, codes)``: this call's arguments of ``run`` and each seat's policy code
    (-1 the caller's), unpacked once at the top;
    ``setup[0]``: the starting seat; ``sc``: the one-row scratch state of the in-kernel
    ``heuristic`` (:func:`lamagames.express.batch_kernels.heuristic_choice`)."""
    mode, actions, view, codes = request
    start = setup[0]
    n = prm[0]
    phase = st[0]
    cur = st[3]
    winner = st[7]
    free = st[16]
    ep_rng = episodes[0]
    last = episodes[1]
    obs = out[0]
    mask = out[1]
    rewards = out[2]
    status = out[3]
    seat_out = out[4]
    games = mode.shape[0]
    for g in range(games):  # check first (the mask is the last call's): a refusal changes nothing
        if mode[g] == APPLY:
            a = actions[g]
            if phase[g] == Phase.OVER or a < 0 or a >= mask.shape[1] or mask[g, a] == 0:
                return g
    for g in range(games):
        m = mode[g]
        if m == RESET:
            _setup_game(g, _next_u64(ep_rng, g, 0), setup, prm, st)
            _settle(g, 0, prm, st, tb)  # roll the first die and run to the first decision
            last[g] = start
        elif m == APPLY:
            seat = cur[g]
            todo = _apply_action(g, actions[g], prm, st, tb)
            if todo >= 0:
                _settle(g, todo, prm, st, tb)
            last[g] = seat
        if m != KEEP:
            while phase[g] != Phase.OVER and codes[cur[g]] >= 0:
                a = _seat_action(g, codes[cur[g]], prm, st, tb, sc)
                todo = _apply_action(g, a, prm, st, tb)
                if todo >= 0:
                    _settle(g, todo, prm, st, tb)
        ph = phase[g]
        running = ph != Phase.OVER
        seat = cur[g] if running else last[g]
        seat_out[g] = seat
        _observe(g, view if view >= 0 else seat, prm, st, tb, obs)
        for a in range(mask.shape[1]):
            mask[g, a] = 0
        for s in range(n):
            rewards[g, s] = 0.0
        if not running:
            if winner[g] >= 0:
                status[g] = TERMINATED
                rewards[g, winner[g]] = 1.0
            else:
                status[g] = TRUNCATED  # E-11: the turn limit, no winner
            continue
        status[g] = RUNNING
        if view >= 0 and cur[g] != view:
            continue
        if ph == Phase.CHOOSE:
            mask[g, kk.MOVE_A] = 1
            mask[g, kk.MOVE_A + 1] = 1
        elif ph == Phase.WINDOW:
            bits = free[g, cur[g]]
            mask[g, kk.PASS] = 1
            for a in range(kk.FREE_BASE, mask.shape[1]):
                if (bits >> np.uint64(a)) & np.uint64(1):
                    mask[g, a] = 1
    return -1
