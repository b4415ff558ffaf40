"""Vector environments on the compiled batch engines (Gymnasium 1.x ``VectorEnv``).

::

    import gymnasium as gym
    import lamagames.rl.gymnasium  # registers the ids, with their vector entry points
    envs = gym.make_vec("lamagames/LamaDice-v0", num_envs=4096,
                        vectorization_mode="vector_entry_point", opponents="random")
    obs, infos = envs.reset(seed=0)                  # obs (N, *observation_shape) float32
    actions = policy(obs, infos["action_mask"])     # mask (N, num_actions) int8
    obs, rewards, terminations, truncations, infos = envs.step(actions)

Every ``step`` is one compiled (Numba) call over all ``N`` games: the agents' actions are
applied, chance and the other seats (in-kernel ``random``, ``benchmark`` or ``heuristic``)
play inside the kernel until each agent must act again, finished games start again
(autoreset) and the observation tensors (the single env's layout), masks, rewards and flags
are written. The game's spec gives the engine as its ``"vector"`` extra
(:class:`VectorEngine`); LAMA Dice and Lama Express have one (``dice/vector.py``,
``express/vector.py``).

- Autoreset: Gymnasium's next-step mode (``metadata["autoreset_mode"]``): the step that
  ends an episode returns its last observation with ``terminated`` or ``truncated``; the
  next step ignores that sub-env's action and returns the first observation of a new
  episode with reward 0.
- Seeds: ``reset(seed=s)`` seeds sub-env ``i`` with ``s + i`` (a list gives one seed per
  sub-env); each sub-env draws the seed of every episode from its own stream, so a sub-env
  plays the same episodes whatever ``N`` and whatever the other sub-envs do, and as
  :class:`VectorSingleEnv` (the single-env view, ``N = 1``) with the same seed.
- Rewards, termination, truncation, ``max_game_length``, ``illegal_action`` (default
  ``"raise"``) as :class:`lamagames.rl.gymnasium.LamaEnv`.
- Opponents: in-kernel policy names, or batch policies ``(observations (k, ...), masks
  (k, A)) -> k actions`` (:mod:`lamagames.rl.policies`; a self-play copy of the learner),
  called from Python between compiled calls for the games where such a seat acts.
- :class:`MultiAgentVectorEnv`: every seat's action comes from the caller (self-play).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.core.spec import get_spec
from lamagames.rl.common import check_seat, make_engine_game, rl_spec
from lamagames.rl.policies import Opponent, Policy, check_opponents, describe

#: ``mode`` values of :meth:`VectorEngine.run`.
KEEP: Final = 0
APPLY: Final = 1
RESET: Final = 2
#: ``status`` values of a :class:`VectorEngine`.
RUNNING: Final = 0
TERMINATED: Final = 1
TRUNCATED: Final = 2


class VectorEngine(Protocol):
    """What a game's ``"vector"`` extra makes: ``make(num_envs, params, seats,
    trace_length)`` -> an engine of ``num_envs`` games, ``seats[s]`` ``None`` for a seat the
    caller plays or an in-kernel policy name. After :meth:`run`, the output arrays hold
    each game's observation, mask, returns, status and the seat to act."""

    policies: tuple[str, ...]
    num_envs: int
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    params: dict[str, Any]
    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float32]
    status: npt.NDArray[np.int8]
    seat: npt.NDArray[np.int32]

    def seed(self, seeds: npt.NDArray[np.uint64]) -> None:
        """Seed each game's episode stream."""
        ...

    def run(self, mode: npt.NDArray[np.int8], actions: npt.NDArray[np.int32], view: int) -> int:
        """One compiled call (``mode[g]``: keep, apply ``actions[g]``, new episode); returns
        -1 or the first game whose action is illegal (then nothing changed)."""
        ...

    def history(self, game: int) -> list[tuple[int, int]]:
        """``(player, action)`` pairs of game ``game``'s episode (if traced)."""
        ...


def make_vector_engine(
    game_id: str,
    num_envs: int,
    params: Mapping[str, Any],
    seats: Sequence[str | None],
    trace_length: int = 0,
) -> VectorEngine:
    """The vector engine of a game (its spec's ``"vector"`` extra), with the spec's default
    parameters (:func:`lamagames.rl.common.make_engine_game`) added unless given.

    Raises:
        ParameterError: the game has no vector engine, or bad parameters or seats.
    """
    spec = get_spec(game_id)
    if "vector" not in spec.extras:
        raise ParameterError(f"{spec.title} has no vector engine (no 'vector' extra)")
    reason = spec.extra_unavailable("vector")
    if reason is not None:
        raise ParameterError(f"{spec.title}'s vector engine {reason}")
    chosen = {**rl_spec(game_id).default_params, **params}
    engine: VectorEngine = spec.load_extra("vector")(num_envs, chosen, seats, trace_length)
    return engine


def _seeds(seed: int | Sequence[int] | None, num_envs: int) -> npt.NDArray[np.uint64] | None:
    if seed is None:
        return None
    if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
        values = [int(seed) + i for i in range(num_envs)]
    elif isinstance(seed, Sequence) and len(seed) == num_envs:
        values = [int(s) for s in seed]
    else:
        raise ParameterError(f"seed must be an int or {num_envs} ints, got {seed!r}")
    if any(v < 0 for v in values):
        raise ParameterError("seeds must be non-negative")
    # SplitMix64 streams: mix the seed so that neighbouring seeds start far apart
    mixed = np.array(values, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    return mixed ^ np.uint64(0xD1B54A32D192ED03)


class _Driver:
    """The engine and the Python side of a vector step (opponent policies, flags)."""

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        seats: Sequence[str | Policy | None],
        params: Mapping[str, Any],
        view: int,
        trace_length: int,
    ) -> None:
        kernel_seats = [s if isinstance(s, str) or s is None else None for s in seats]
        self.engine = make_vector_engine(game_id, num_envs, params, kernel_seats, trace_length)
        self.policies = {i: s for i, s in enumerate(seats) if s is not None and callable(s)}
        self.view = view
        self.num_envs = num_envs
        self._idle = np.zeros(num_envs, np.int8)
        self._zeros = np.zeros(num_envs, np.int32)

    def run(self, mode: npt.NDArray[np.int8], actions: npt.NDArray[np.int32]) -> int:
        """The compiled call, then the Python policies until every game waits for the
        caller (or is over)."""
        bad = self.engine.run(mode, actions, self.view)
        if bad >= 0 or not self.policies:
            return bad
        e = self.engine
        seats = np.array(list(self.policies))
        played = False
        for _ in range(1_000_000):  # bounded: every round plays at least one decision
            waiting = (e.status == RUNNING)[:, None] & (e.seat[:, None] == seats[None, :])
            if not waiting.any():
                break
            if self.view >= 0 and not played:  # outputs of the seats to act, not the agent's
                e.run(self._idle, self._zeros, -1)
            played = True
            mode2 = self._idle.copy()
            acts = self._zeros.copy()
            for column, (seat, policy) in enumerate(self.policies.items()):
                games = np.flatnonzero(waiting[:, column])
                if not len(games):
                    continue
                masks = e.mask[games].copy()
                chosen = np.asarray(policy(e.obs[games].copy(), masks)).reshape(-1)
                if chosen.shape != (len(games),) or chosen.dtype.kind not in "ui":
                    raise InvalidActionError(
                        f"opponent {describe(policy)} at seat {seat}: need {len(games)} "
                        f"integer actions, got {chosen!r}"
                    )
                ok = (chosen >= 0) & (chosen < e.num_actions)
                ok[ok] = masks[np.flatnonzero(ok), chosen[ok]] == 1
                if not ok.all():
                    g = int(games[np.flatnonzero(~ok)[0]])
                    raise IllegalActionError(
                        f"opponent {describe(policy)} at seat {seat}: action "
                        f"{int(chosen[~ok][0])} is not legal in game {g}"
                    )
                mode2[games] = APPLY
                acts[games] = chosen
            bad = e.run(mode2, acts, -1)
            if bad >= 0:  # checked above; a kernel refusal here is an engine bug
                raise IllegalActionError(f"game {bad}: an opponent's action was refused")
        else:  # pragma: no cover
            raise RuntimeError("opponent policies did not finish")
        if played and self.view >= 0:
            e.run(self._idle, self._zeros, self.view)  # the agent's outputs again
        return -1


def _check_actions(actions: Any, num_envs: int) -> npt.NDArray[np.int32]:
    array = np.asarray(actions)
    if array.shape != (num_envs,) or array.dtype.kind not in "ui":
        raise InvalidActionError(
            f"actions must be {num_envs} integers, got shape {array.shape} of {array.dtype}"
        )
    return array.astype(np.int32)


class LamaVectorEnv(VectorEnv):
    """``num_envs`` games of one seat against opponents, stepped by one compiled call.

    Args:
        game_id: a game whose spec has a ``"vector"`` extra.
        num_envs: sub-envs ``N``.
        opponents: per other seat (seat order, skipping ``seat``) or one for all: an
            in-kernel policy name (``random``, ``benchmark``, ``heuristic``) or a batch
            policy callable (:mod:`lamagames.rl.policies`).
        seat: the agent's seat.
        params: game parameters (the spec's defaults added: Lama Express
            ``turn_limit=1000``).
        max_game_length: optional cap on the agent's steps per episode (then truncated).
        illegal_action: ``"raise"`` (default; nothing changes) or ``"warn"`` (the illegal
            sub-envs stay as they were, ``infos["illegal_action"]`` marks them, reward 0).
        trace_length: ``(player, action)`` entries kept per episode and sub-env
            (``history``), for tests and debugging.
        render_mode: only ``None``: a vector env does not render (Gymnasium passes the
            argument on); render one game with :class:`~lamagames.rl.gymnasium.LamaEnv`.

    Raises:
        ParameterError: bad parameters, seat, opponents, ``num_envs`` or options, or a
            ``render_mode`` other than ``None``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium's API: a class attribute)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game_id: str,
        num_envs: int = 1,
        opponents: Opponent | Sequence[Opponent] = "random",
        *,
        seat: int = 0,
        params: Mapping[str, Any] | None = None,
        max_game_length: int | None = None,
        illegal_action: str = "raise",
        trace_length: int = 0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None:  # gymnasium.make_vec passes it on when asked for one
            raise ParameterError(
                f"render_mode {render_mode!r}: the vector env does not render; render one game "
                "with gymnasium.make(..., render_mode='human') (LamaEnv)"
            )
        self.render_mode = None
        chosen = dict(params or {})
        entries = check_opponents(opponents)
        if "num_players" not in chosen:
            chosen["num_players"] = 1 + len(entries)
        n = int(chosen["num_players"]) if isinstance(chosen["num_players"], int) else 0
        if n < 2:
            raise ParameterError(f"num_players must be an integer >= 2, got {n!r}")
        self.seat_index = check_seat(seat, n)
        if isinstance(opponents, str) or callable(opponents):
            entries = entries * (n - 1)
        if len(entries) != n - 1:
            raise ParameterError(
                f"opponents: need {n - 1} policies for {n} players, got {len(entries)}"
            )
        if illegal_action not in ("warn", "raise"):
            raise ParameterError(
                f"illegal_action must be 'warn' or 'raise', got {illegal_action!r}"
            )
        if max_game_length is not None and (
            type(max_game_length) is not int or max_game_length < 1
        ):
            raise ParameterError(
                f"max_game_length must be None or a positive integer, got {max_game_length!r}"
            )
        others = iter(entries)
        seats: list[str | Policy | None] = [
            None if s == self.seat_index else next(others) for s in range(n)
        ]
        self.opponents: tuple[Opponent, ...] = tuple(entries)
        self._driver = _Driver(game_id, num_envs, seats, chosen, self.seat_index, trace_length)
        self.engine = self._driver.engine
        self.game_id = game_id
        self.num_envs = num_envs
        self.max_game_length = max_game_length
        self.illegal_action = illegal_action
        e = self.engine
        self.single_observation_space = gymnasium.spaces.Box(
            -np.inf, np.inf, shape=e.observation_shape, dtype=np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(e.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._needs_reset = np.ones(num_envs, np.bool_)
        self._steps = np.zeros(num_envs, np.int64)
        self._started = False

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a new episode in every sub-env (or in ``options["reset_mask"]``'s).

        Returns:
            Observations ``(N, *observation_shape)`` and ``{"action_mask": (N, A) int8}``.

        Raises:
            ParameterError: a bad seed or reset mask.
        """
        seeds = _seeds(seed, self.num_envs)
        if seeds is None and not self._started:
            seeds = np.asarray(
                np.random.SeedSequence().generate_state(self.num_envs, np.uint64), np.uint64
            )
        if seeds is not None:
            self.engine.seed(seeds)
        self._started = True
        which = np.ones(self.num_envs, np.bool_)
        if options and "reset_mask" in options:
            which = np.asarray(options["reset_mask"])
            if which.shape != (self.num_envs,) or which.dtype != np.bool_:
                raise ParameterError(f"reset_mask must be {self.num_envs} bools")
        mode = np.where(which, RESET, KEEP).astype(np.int8)
        self._driver.run(mode, np.zeros(self.num_envs, np.int32))
        self._steps[which] = 0
        self._needs_reset[which] = False
        return self.engine.obs.copy(), self._infos()

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self.engine.mask.copy(),
            "_action_mask": np.ones(self.num_envs, np.bool_),
        }

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Apply one action per sub-env, play on, autoreset the sub-envs that had ended.

        Returns:
            ``(obs, rewards float32 (N,), terminations bool (N,), truncations bool (N,),
            infos)``; ``infos["action_mask"]`` int8 ``(N, A)``.

        Raises:
            InvalidActionError: not ``N`` integers.
            IllegalActionError: with ``illegal_action="raise"``, an action that is not
                legal in a sub-env that is not being reset (no sub-env changes).
        """
        if not self._started:
            raise ParameterError("call reset() before step()")
        acts = _check_actions(actions, self.num_envs)
        e = self.engine
        resetting = self._needs_reset
        legal = np.zeros(self.num_envs, np.bool_)
        inside = (acts >= 0) & (acts < e.num_actions)
        legal[inside] = e.mask[np.flatnonzero(inside), acts[inside]] == 1
        illegal = ~legal & ~resetting
        infos_extra: dict[str, Any] = {}
        if illegal.any():
            g = int(np.flatnonzero(illegal)[0])
            message = (
                f"sub-env {g}: action {int(acts[g])} is not legal for seat "
                f"{self.seat_index} now; legal: {np.flatnonzero(e.mask[g]).tolist()}"
            )
            if self.illegal_action == "raise":
                raise IllegalActionError(message)
            gymnasium.logger.warn(f"illegal action ignored: {message}")
            infos_extra = {"illegal_action": illegal.copy(), "_illegal_action": illegal.copy()}
        mode = np.where(resetting, RESET, np.where(illegal, KEEP, APPLY)).astype(np.int8)
        self._driver.run(mode, np.where(mode == APPLY, acts, 0).astype(np.int32))
        self._steps[resetting] = 0
        self._steps[mode == APPLY] += 1
        status = e.status
        rewards = e.rewards[:, self.seat_index].copy()
        terminations = status == TERMINATED
        truncations = status == TRUNCATED
        if self.max_game_length is not None:
            truncations |= (self._steps >= self.max_game_length) & ~terminations
        rewards[~terminations & ~truncations] = 0.0
        self._needs_reset = terminations | truncations
        infos = self._infos()
        infos.update(infos_extra)
        return e.obs.copy(), rewards, terminations, truncations, infos

    def history(self, index: int) -> list[tuple[int, int]]:
        """The traced ``(player, action)`` pairs of sub-env ``index``'s episode, chance as
        player -1 (needs ``trace_length``)."""
        return self.engine.history(index)


class VectorSingleEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """The single-env view of :class:`LamaVectorEnv` (``N = 1``): a Gymnasium ``Env`` that
    plays exactly the episodes of a sub-env with the same seed (for ``check_env``, tests,
    and code written for single envs). Arguments as :class:`LamaVectorEnv`."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(self, game_id: str, **kwargs: Any) -> None:
        self.vector = LamaVectorEnv(game_id, 1, **kwargs)
        self.observation_space = self.vector.single_observation_space
        self.action_space = self.vector.single_action_space
        self._over = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new episode (``seed`` seeds the episode stream, as sub-env 0 of a vector env
        reset with ``seed``)."""
        super().reset(seed=seed)
        obs, infos = self.vector.reset(seed=seed)
        self._over = False
        return obs[0], {"action_mask": infos["action_mask"][0]}

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """As :meth:`LamaVectorEnv.step` for one sub-env, without autoreset.

        Raises:
            ParameterError: ``step`` after the episode ended (call ``reset``).
            IllegalActionError, InvalidActionError: see :meth:`LamaVectorEnv.step`.
        """
        if self._over:
            raise ParameterError("the episode is over; call reset()")
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise InvalidActionError(f"{action!r} is not an action id")
        obs, rewards, terms, truncs, infos = self.vector.step(np.array([action]))
        self._over = bool(terms[0] or truncs[0])
        info: dict[str, Any] = {"action_mask": infos["action_mask"][0]}
        if "illegal_action" in infos:
            info["illegal_action"] = True
        return obs[0], float(rewards[0]), bool(terms[0]), bool(truncs[0]), info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now as bools (for sb3-contrib's MaskablePPO)."""
        mask: npt.NDArray[np.bool_] = self.vector.engine.mask[0].astype(np.bool_)
        return mask


class MultiAgentVectorEnv:
    """``num_envs`` games where the caller plays every seat (self-play), one compiled call
    per step.

    Each step the caller gives one action per game for the seat to act (``infos["seat"]``);
    the observation is that seat's view (once a game is over, the view of the seat that
    acted last). Rewards are ``(N, num_players)``: every seat's return when the game ended
    on this step, else 0. Autoreset and seeds as :class:`LamaVectorEnv`.

    Raises:
        ParameterError: bad parameters or ``num_envs``.
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int = 1,
        *,
        params: Mapping[str, Any] | None = None,
        trace_length: int = 0,
    ) -> None:
        chosen = dict(params or {})
        n = make_engine_game(game_id, chosen).num_players
        chosen["num_players"] = n
        self._driver = _Driver(game_id, num_envs, [None] * int(n), chosen, -1, trace_length)
        self.engine = self._driver.engine
        self.num_envs = num_envs
        self.num_players = self.engine.num_players
        self._needs_reset = np.ones(num_envs, np.bool_)
        self._started = False

    def reset(
        self, *, seed: int | Sequence[int] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """New episodes everywhere; returns observations and ``{"action_mask", "seat"}``."""
        seeds = _seeds(seed, self.num_envs)
        if seeds is None and not self._started:
            seeds = np.asarray(
                np.random.SeedSequence().generate_state(self.num_envs, np.uint64), np.uint64
            )
        if seeds is not None:
            self.engine.seed(seeds)
        self._started = True
        self._driver.run(np.full(self.num_envs, RESET, np.int8), np.zeros(self.num_envs, np.int32))
        self._needs_reset[:] = False
        return self.engine.obs.copy(), self._infos()

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self.engine.mask.copy(), "seat": self.engine.seat.copy()}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Apply each game's action for its seat to act; autoreset as in next-step mode.

        Returns:
            ``(obs (N, D), rewards (N, n), terminations (N,), truncations (N,), infos)``.

        Raises:
            InvalidActionError: not ``N`` integers.
            IllegalActionError: an illegal action in a game not being reset (no change).
        """
        if not self._started:
            raise ParameterError("call reset() before step()")
        acts = _check_actions(actions, self.num_envs)
        e = self.engine
        mode = np.where(self._needs_reset, RESET, APPLY).astype(np.int8)
        bad = self._driver.run(mode, acts)
        if bad >= 0:
            raise IllegalActionError(
                f"game {bad}: action {int(acts[bad])} is not legal for seat "
                f"{int(e.seat[bad])}; legal: {np.flatnonzero(e.mask[bad]).tolist()}"
            )
        terminations = e.status == TERMINATED
        truncations = e.status == TRUNCATED
        self._needs_reset = terminations | truncations
        return e.obs.copy(), e.rewards.copy(), terminations, truncations, self._infos()

    def history(self, index: int) -> list[tuple[int, int]]:
        """Traced ``(player, action)`` pairs of game ``index``'s episode."""
        return self.engine.history(index)
