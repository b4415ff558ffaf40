"""LAMA Dice vector engine for the RL vector environments (:mod:`lamagames.rl.vector`).

``N`` games stepped together by one compiled (Numba) call: the caller's actions are applied
for the seats it plays ("external" seats), then chance (D-1, D-5) and the other seats' in-kernel
policies (``random``, ``benchmark``, ``heuristic``, as in :mod:`lamagames.dice.batch`) play
inside the kernel until an external seat must decide or the game is over; the same call
writes each game's observation tensor (the layout of
:func:`lamagames.dice.views.observation_tensor`), its action mask, returns and status. New
episodes start inside the call too (autoreset), each from the next seed of the sub-env's
own episode stream, so a sub-env's episodes depend only on its seed.

The rules are the batch engine's per-game kernels (:mod:`lamagames.dice.batch_kernel`,
:mod:`lamagames.dice.batch_heuristic`), called here without change; the state arrays are a
:class:`lamagames.dice.batch.DiceBatchState`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numba
import numpy as np
import numpy.typing as npt

from lamagames.core.errors import ParameterError
from lamagames.dice import batch
from lamagames.dice.batch_heuristic import MEMO_SIZE, SCRATCH_SIZE, heuristic_action
from lamagames.dice.batch_kernel import (
    NUM_ACTIONS,
    PHASE,
    PLAYER,
    POLICY_HEURISTIC,
    apply_chance,
    apply_player,
    legal_actions,
    next_u64,
    policy_action,
    reset_game,
    sample_chance,
    seed_streams,
    wins,
)
from lamagames.dice.rules import Phase
from lamagames.dice.views import observation_size


def _kernel(function: Any) -> Any:
    """Compile with Numba (cached on disk, no GIL) without reference counting: these
    functions and the rule kernels they call allocate nothing (the heuristic opponent
    works in the ``scratch`` buffer of ``work``), and passing a dozen arrays per call is
    then cheaper (as the Lama Express kernels do). A kernel without reference counting
    cannot call one that allocates: ``tests/rl/test_vector.py`` compiles this module with
    an empty Numba cache to catch that."""
    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
    return numba.njit(**options)(function)


#: ``codes[seat]`` of a seat whose actions the caller gives.
EXTERNAL: Final = -1
#: ``mode[g]`` of :meth:`DiceVectorEngine.run`: leave the game, apply the caller's action,
#: start a new episode.
KEEP: Final = 0
APPLY: Final = 1
RESET: Final = 2
#: ``status[g]``: running, over with a winner, truncated (LAMA Dice games always have one).
RUNNING: Final = 0
TERMINATED: Final = 1
TRUNCATED: Final = 2


@_kernel
def _record(trace: Any, trace_len: Any, g: int, player: int, action: int) -> None:
    t = trace_len[g]
    if t < trace.shape[1]:
        trace[g, t, 0] = player
        trace[g, t, 1] = action
    trace_len[g] = t + 1


@_kernel
def _advance(g: int, codes: Any, end_score: int, one: Any, tb: Any, work: Any) -> None:
    """Play chance and in-kernel seats of game ``g`` (its arrays copied into ``one``) until
    an external seat decides or the game is over."""
    ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, rng = one
    faces, hand_ids, hand_counts, discard_ids, discard_counts, rvec, rsym, rp = tb
    buf, memo, vals, trace, trace_len, _one, scratch = work
    while True:
        phase = ctrl[PHASE]
        if phase == Phase.OVER:
            return
        if phase in (Phase.DEAL, Phase.DICE):
            a = sample_chance(ctrl, setaside, rng, faces, hand_ids)
            _record(trace, trace_len, g, -1, a)
            apply_chance(
                ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, a,
                hand_counts, end_score,
            )  # fmt: skip
            continue
        seat = ctrl[PLAYER]
        code = codes[seat]
        if code < 0:
            return
        if code == POLICY_HEURISTIC:
            a = heuristic_action(
                ctrl, dice, scores, rows, quit, llama, discard_ids, rvec, rsym, rp, memo, vals,
                scratch,
            )  # fmt: skip
        else:
            a = policy_action(ctrl, dice, scores, rows, llama, rng, code, discard_ids, buf)
        _record(trace, trace_len, g, seat, a)
        apply_player(
            ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, a,
            discard_counts, end_score,
        )  # fmt: skip


@_kernel
def _load(g: int, st: Any, one: Any) -> None:
    """Copy game ``g`` of the batch arrays ``st`` into the one-game arrays ``one`` (the
    kernels then work on arrays made once, not on fresh row views)."""
    ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, rng = st
    c1, d1, s1, r1, q1, l1, a1, x1, g1, p1, n1 = one
    for i in range(c1.shape[0]):
        c1[i] = ctrl[g, i]
    for i in range(3):
        d1[i] = dice[g, i]
    for s in range(s1.shape[0]):
        s1[s] = scores[g, s]
        q1[s] = quit[g, s]
        g1[s] = give[g, s]
        p1[s] = rpts[g, s]
        for y in range(7):
            r1[s, y] = rows[g, s, y]
    for y in range(7):
        l1[y] = llama[g, y]
        a1[y] = setaside[g, y]
        x1[y] = discards[g, y]
    n1[0] = rng[g, 0]
    n1[1] = rng[g, 1]


@_kernel
def _store(g: int, one: Any, st: Any) -> None:
    """Copy the one-game arrays back into game ``g`` of the batch arrays."""
    ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, rng = st
    c1, d1, s1, r1, q1, l1, a1, x1, g1, p1, n1 = one
    for i in range(c1.shape[0]):
        ctrl[g, i] = c1[i]
    for i in range(3):
        dice[g, i] = d1[i]
    for s in range(s1.shape[0]):
        scores[g, s] = s1[s]
        quit[g, s] = q1[s]
        give[g, s] = g1[s]
        rpts[g, s] = p1[s]
        for y in range(7):
            rows[g, s, y] = r1[s, y]
    for y in range(7):
        llama[g, y] = l1[y]
        setaside[g, y] = a1[y]
        discards[g, y] = x1[y]
    rng[g, 0] = n1[0]
    rng[g, 1] = n1[1]


@_kernel
def _output(g: int, view: int, last: Any, one: Any, tb: Any, buf: Any, out: Any) -> None:
    """Observation (of ``view``, or of the seat to act / that acted last when ``view`` is
    -1), mask, returns, status and seat of game ``g`` (its arrays in ``one``)."""
    ctrl, dice, scores, rows, quit, llama, _setaside, _discards, _give, _rpts, _rng = one
    discard_ids = tb[3]
    obs, mask, rewards, status, seat_out = out
    n = scores.shape[0]
    phase = ctrl[PHASE]
    cur = -1
    if phase != Phase.OVER and phase != Phase.DEAL and phase != Phase.DICE:
        cur = ctrl[PLAYER]
    seat = cur if cur >= 0 else last[g]
    seat_out[g] = seat
    me = view if view >= 0 else seat
    for i in range(obs.shape[1]):
        obs[g, i] = 0.0
    for k in range(n):
        s = (me + k) % n
        base = 10 * k
        for y in range(7):
            obs[g, base + y] = rows[s, y]
        obs[g, base + 7] = 1.0 if quit[s] else 0.0
        obs[g, base + 8] = scores[s] / 10.0
        obs[g, base + 9] = 1.0 if s == cur else 0.0
    base = 10 * n
    for y in range(7):
        obs[g, base + y] = llama[y]
    base += 7
    if phase != Phase.OVER:  # the scalar engine shows no dice once the game is over
        for d in range(3):
            if dice[d] >= 0:
                obs[g, base + 7 * d + dice[d]] = 1.0
    base += 21
    obs[g, base + phase] = 1.0
    for a in range(mask.shape[1]):
        mask[g, a] = 0
    for s in range(n):
        rewards[g, s] = 0.0
    if phase == Phase.OVER:
        status[g] = TERMINATED
        for s in range(n):
            if wins(scores, s):  # D-11: the lowest score wins, ties all win
                rewards[g, s] = 1.0
        return
    status[g] = RUNNING
    if cur >= 0 and (view < 0 or cur == view):
        k = legal_actions(ctrl, dice, scores, rows, llama, discard_ids, buf)
        for i in range(k):
            mask[g, buf[i]] = 1


@_kernel
def run_vector(
    request: Any,
    codes: Any,
    scalars: Any,
    episodes: Any,
    st: Any,
    tb: Any,
    work: Any,
    out: Any,
) -> int:
    """One vector step of every game (see :meth:`DiceVectorEngine.run`); returns -1, or the
    first game whose action is not legal (then nothing changed). ``request = (mode,
    actions, view)``: this call's arguments of :meth:`DiceVectorEngine.run`; ``scalars =
    (end_score, start)``; each tuple is unpacked once, at the top."""
    mode, actions, view = request
    end_score, start = scalars
    discard_counts = tb[4]
    buf, _memo, _vals, trace, trace_len, _one, _scratch = work
    ep_rng, last = episodes
    mask = out[1]
    one = work[5]
    ctrl1, dice1, scores1, rows1, quit1, llama1, setaside1, discards1, give1, rpts1, rng1 = one
    games = mode.shape[0]
    for g in range(games):  # check first (the mask is the last call's): a refusal changes nothing
        if mode[g] == APPLY:
            a = actions[g]
            if a < 0 or a >= mask.shape[1] or mask[g, a] == 0:
                return g
    for g in range(games):
        m = mode[g]
        _load(g, st, one)
        if m == RESET:
            reset_game(
                (ctrl1, dice1, scores1, rows1, quit1, llama1, setaside1, discards1, give1, rpts1),
                start,
            )  # fmt: skip
            seed_streams(rng1, next_u64(ep_rng, g))
            trace_len[g] = 0
            last[g] = start
        elif m == APPLY:
            seat = ctrl1[PLAYER]
            a = actions[g]
            _record(trace, trace_len, g, seat, a)
            apply_player(
                ctrl1, dice1, scores1, rows1, quit1, llama1, setaside1, discards1, give1, rpts1,
                a, discard_counts, end_score,
            )  # fmt: skip
            last[g] = seat
        if m != KEEP:
            _advance(g, codes, end_score, one, tb, work)
            _store(g, one, st)
        _output(g, view, last, one, tb, buf, out)
    return -1


class DiceVectorEngine:
    """``num_envs`` LAMA Dice games for a vector environment (see the module docstring).

    Args:
        num_envs: games ``N``.
        params: LAMA Dice parameters (``num_players``, ``dice``, ``end_score``,
            ``starting_seat``; :func:`lamagames.dice.batch.check_params`).
        seats: per seat ``None`` (the caller plays it) or an in-kernel policy name
            (:data:`policies`).
        trace_length: ``(player, action)`` entries kept per episode (0: none), chance as
            player -1, for :meth:`history`.

    Attributes (filled by :meth:`run`):
        obs: float32 ``(N, 10n + 36)``; mask: int8 ``(N, 131)``; rewards: float32 ``(N, n)``
        (returns once over, else 0); status: int8 ``(N,)`` (:data:`RUNNING`,
        :data:`TERMINATED`); seat: int32 ``(N,)`` the external seat to act (or that acted
        last once the game is over).

    Raises:
        ParameterError: bad parameters, seats or sizes.
    """

    policies: tuple[str, ...] = batch.POLICIES

    def __init__(
        self,
        num_envs: int,
        params: Mapping[str, Any],
        seats: Sequence[str | None],
        trace_length: int = 0,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ParameterError(f"num_envs must be a positive integer, got {num_envs!r}")
        if type(trace_length) is not int or trace_length < 0:
            raise ParameterError(f"trace_length must be 0 or more, got {trace_length!r}")
        self.state = s = batch.init(np.zeros(num_envs, np.uint64), dict(params))
        full = s.params
        n = full["num_players"]
        if len(seats) != n:
            raise ParameterError(f"seats: need {n} entries, got {len(seats)}")
        for kind in seats:
            if kind is not None and kind not in self.policies:
                raise ParameterError(
                    f"unknown in-kernel policy {kind!r}; available: {', '.join(self.policies)}"
                )
        self.params = full
        self.num_envs = num_envs
        self.num_players = n
        self.num_actions = NUM_ACTIONS
        self.observation_shape = (observation_size(n),)
        self.codes = np.array(
            [EXTERNAL if kind is None else self.policies.index(kind) for kind in seats],
            dtype=np.int8,
        )
        rvec, rsym, rp = batch.heuristic_tables(full)
        self._tb = (
            batch._faces(full), batch.HAND_IDS, batch.HAND_COUNTS, batch.DISCARD_IDS,
            batch.DISCARD_COUNTS, rvec, rsym, rp,
        )  # fmt: skip
        self._trace = np.zeros((num_envs, trace_length, 2), np.int32)
        self._trace_len = np.zeros(num_envs, np.int32)
        one = (
            np.zeros(s.ctrl.shape[1], np.int32), np.zeros(3, np.int8), np.zeros(n, np.int32),
            np.zeros((n, 7), np.int8), np.zeros(n, np.bool_), np.zeros(7, np.int8),
            np.zeros(7, np.int8), np.zeros(7, np.int8), np.zeros(n, np.bool_),
            np.zeros(n, np.int32), np.zeros(2, np.uint64),
        )  # fmt: skip
        self._work = (
            np.zeros(16, np.int32),
            np.zeros(MEMO_SIZE + 1, np.uint64),
            np.zeros(MEMO_SIZE, np.float64),
            self._trace,
            self._trace_len,
            one,
            np.zeros(SCRATCH_SIZE, np.int8),
        )
        self.ep_rng = np.zeros(num_envs, np.uint64)
        self._last = np.full(num_envs, -1, np.int32)
        self.obs = np.zeros((num_envs, *self.observation_shape), np.float32)
        self.mask = np.zeros((num_envs, NUM_ACTIONS), np.int8)
        self.rewards = np.zeros((num_envs, n), np.float32)
        self.status = np.zeros(num_envs, np.int8)
        self.seat = np.zeros(num_envs, np.int32)
        self._out = (self.obs, self.mask, self.rewards, self.status, self.seat)

    def seed(self, seeds: npt.NDArray[np.uint64]) -> None:
        """Seed each sub-env's episode stream (uint64 ``(N,)``)."""
        self.ep_rng[:] = seeds

    def run(self, mode: npt.NDArray[np.int8], actions: npt.NDArray[np.int32], view: int) -> int:
        """One compiled call: per game ``mode[g]`` :data:`KEEP` (outputs only), :data:`APPLY`
        (``actions[g]`` for the external seat to act) or :data:`RESET` (a new episode);
        then play on to the next external decision and fill the outputs, observations
        from seat ``view`` (-1: the seat to act).

        Returns:
            -1, or the first game whose action is illegal (then no game changed).
        """
        s = self.state
        st = (
            s.ctrl, s.dice, s.scores, s.rows, s.quit, s.llama_row, s.setaside, s.discards,
            s.give, s.round_points, s.rng,
        )  # fmt: skip
        scalars = (int(self.params["end_score"]), int(self.params["starting_seat"]))
        episodes = (self.ep_rng, self._last)
        bad = run_vector(
            (mode, actions, int(view)), self.codes, scalars, episodes, st, self._tb, self._work,
            self._out,
        )  # fmt: skip
        return int(bad)

    def history(self, game: int) -> list[tuple[int, int]]:
        """The traced ``(player, action)`` pairs of game ``game``'s current episode."""
        length = min(int(self._trace_len[game]), self._trace.shape[1])
        return [(int(p), int(a)) for p, a in self._trace[game, :length]]


def make_engine(
    num_envs: int, params: Mapping[str, Any], seats: Sequence[str | None], trace_length: int = 0
) -> DiceVectorEngine:
    """The ``"vector"`` extra of the LAMA Dice spec: a :class:`DiceVectorEngine`."""
    return DiceVectorEngine(num_envs, params, seats, trace_length)
