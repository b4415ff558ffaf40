"""Single-agent Gymnasium environments: one seat of a lamagames game against bots.

::

    import gymnasium as gym
    import lamagames.rl.gymnasium  # registers lamagames/LamaDice-v0, lamagames/LamaExpress-v0
                                   # (every game whose spec names a Gymnasium id)
    env = gym.make("lamagames/LamaDice-v0", opponents=("heuristic", "benchmark"))
    obs, info = env.reset(seed=0)
    action = policy(obs, info["action_mask"])
    obs, reward, terminated, truncated, info = env.step(action)

The agent plays ``seat`` (default 0); every other seat is a bot of :mod:`lamagames.bots`
(``random``, ``benchmark``, ``heuristic``), seeded from the episode seed, or a policy
callable (self-play: :func:`lamagames.rl.policies.frozen_policy`). Chance nodes and the
bots' turns are played inside :meth:`LamaEnv.step` until the agent must act again (in Lama
Express windows, E-9, when the engine asks the agent's seat) or the game ends.

- Observation: the engine's ``observation_tensor(seat)``, ``Box(-inf, inf, float32)``.
- Action: ``Discrete(num_distinct_actions)``, the game's action ids; the legal ones are in
  ``info["action_mask"]`` (int8) and :meth:`LamaEnv.action_masks` (for sb3-contrib's
  MaskablePPO).
- Reward: 0.0 on every step but the last, then the game's return for the seat: 1.0 if it
  won (LAMA Dice: lowest score, ties all win, D-11; Lama Express: first to bring its llamas
  home, E-10), else 0.0. The episode return is therefore the win indicator.
- ``terminated`` when the game is over with a winner; ``truncated`` when Lama Express hit its
  ``turn_limit`` (E-11, default 1000 rolls here) or ``max_game_length`` agent steps passed.
- Illegal actions: ``illegal_action="raise"`` (default) raises
  :class:`~lamagames.core.errors.IllegalActionError` (or ``InvalidActionError`` for a value
  that is no action id) and leaves the game unchanged: an agent that ignores the mask fails
  at once instead of learning from no-ops. ``illegal_action="warn"`` (for Gymnasium's
  ``check_env``, which samples without the mask) leaves the game unchanged and returns the
  same observation, reward 0.0 and ``info["illegal_action"]`` with the engine's message.
- Opponents: bot kinds, or policies ``(observation, action_mask) -> action``
  (:mod:`lamagames.rl.policies`); a policy's illegal action always raises, naming its
  seat.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from lamagames.bots.base import Bot, make_bot
from lamagames.core.errors import LamaError, ParameterError
from lamagames.core.game import Game, State
from lamagames.core.rng import make_rng
from lamagames.core.spec import get_spec, spec_ids
from lamagames.rl.common import (
    action_mask,
    check_legal,
    check_seat,
    make_engine_game,
    render_text,
    rl_spec,
)
from lamagames.rl.policies import Opponent, Policy, check_opponents, describe

Obs = npt.NDArray[np.float32]


class LamaEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a lamagames game against bots or policies.

    Args:
        game_id: a registered game (``"dice"``, ``"express"``, ...).
        opponents: what plays each other seat in seat order (skipping ``seat``), or one
            entry for all of them: a bot kind (``"random"``, ``"benchmark"``,
            ``"heuristic"``...) or a policy ``(observation, action_mask) -> action``
            (:mod:`lamagames.rl.policies`; :func:`~lamagames.rl.policies.frozen_policy`
            for self-play against a copy of the learner). The number of players is
            ``1 + len(opponents)`` unless ``num_players`` is in ``params``.
        seat: the agent's seat.
        params: game parameters (``make(game_id, **params)``), with the spec's default
            parameters added unless given (Lama Express: ``turn_limit=1000``).
        max_game_length: optional cap on the agent's steps; reaching it truncates.
        illegal_action: ``"raise"`` (default) or ``"warn"`` (see the module docstring).
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        ParameterError: bad parameters, seat, opponents (unknown bot kind, not a string or
            callable, wrong count), ``illegal_action`` or ``render_mode``.
    """

    # Gymnasium's API: a class attribute (render_fps only matters to video recorders)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        opponents: Opponent | Sequence[Opponent] = "heuristic",
        *,
        seat: int = 0,
        params: Mapping[str, Any] | None = None,
        max_game_length: int | None = None,
        illegal_action: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        chosen = dict(params or {})
        kinds = check_opponents(opponents)
        if "num_players" not in chosen:
            chosen["num_players"] = 1 + len(kinds)
        self.game: Game = make_engine_game(game_id, chosen)
        self.seat = check_seat(seat, self.game.num_players)
        self.opponents: tuple[Opponent, ...] = ()
        self.set_opponents(opponents)
        if max_game_length is not None and (
            type(max_game_length) is not int or max_game_length < 1
        ):
            raise ParameterError(
                f"max_game_length must be None or a positive integer, got {max_game_length!r}"
            )
        if illegal_action not in ("warn", "raise"):
            raise ParameterError(
                f"illegal_action must be 'warn' or 'raise', got {illegal_action!r}"
            )
        if render_mode not in (None, "ansi"):
            raise ParameterError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.max_game_length = max_game_length
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        info = self.game.info
        self.observation_space = gymnasium.spaces.Box(
            -np.inf, np.inf, shape=info.observation_shape, dtype=np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(info.num_distinct_actions)
        self._state: State = self.game.new_initial_state()
        self._bots: dict[int, Bot] = {}
        self._policies: dict[int, Policy] = {}
        self._steps = 0

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Replace the opponents (as the constructor's ``opponents``, for the same number of
        players); they play from the next :meth:`reset` on (self-play: refresh a
        :func:`~lamagames.rl.policies.frozen_policy` of the learner now and then).

        Raises:
            ParameterError: not bot kinds or policies, an unknown kind, or the wrong count.
        """
        kinds = check_opponents(opponents)
        n = self.game.num_players
        if isinstance(opponents, str) or callable(opponents):
            kinds = kinds * (n - 1)
        if len(kinds) != n - 1:
            raise ParameterError(
                f"opponents: need {n - 1} bot kinds or policies for {n} players, got {len(kinds)}"
            )
        for other, kind in zip(self._other_seats(), kinds, strict=True):
            if isinstance(kind, str):
                make_bot(kind, self.game, other)  # check the kind now (ParameterError)
        self.opponents = tuple(kinds)

    def _other_seats(self) -> list[int]:
        return [s for s in range(self.game.num_players) if s != self.seat]

    @property
    def lama_state(self) -> State:
        """The engine state (read only)."""
        return self._state

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal actions of the agent now, as a bool array of shape ``(num_distinct_actions,)``."""
        return action_mask(self._state, self.seat).astype(np.bool_)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self._state, self.seat)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start a game; bots and chance are seeded from a seed drawn from ``np_random``.

        Returns:
            The agent's first observation and ``{"action_mask": ...}``.
        """
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._chance_rng = make_rng(episode_seed, "chance")
        self._bots = {
            other: make_bot(kind, self.game, other, episode_seed)
            for other, kind in zip(self._other_seats(), self.opponents, strict=True)
            if isinstance(kind, str)
        }
        self._policies = {
            other: kind
            for other, kind in zip(self._other_seats(), self.opponents, strict=True)
            if not isinstance(kind, str)
        }
        self._state = self.game.new_initial_state()
        self._steps = 0
        self._advance()
        return self._state.observation_tensor(self.seat), self._info()

    def _advance(self) -> None:
        """Play chance and the bots until the agent must act or the game is over."""
        state = self._state
        while not state.is_terminal():
            player = state.current_player()
            if player == self.seat:
                return
            if player < 0:
                state.apply_action(state.sample_chance_outcome(self._chance_rng))
            elif player in self._bots:
                state.apply_action(self._bots[player].step(state), player)
            else:
                self._play_policy(player)

    def _play_policy(self, player: int) -> None:
        """The policy of seat ``player`` acts (its action is checked first).

        Raises:
            IllegalActionError, InvalidActionError: the policy chose an action that is not
                legal now (the message names the seat; the state is unchanged).
        """
        state = self._state
        policy = self._policies[player]
        action = policy(state.observation_tensor(player), action_mask(state, player))
        try:
            value = check_legal(state, action, player)
        except LamaError as exc:
            raise type(exc)(f"opponent {describe(policy)} at seat {player}: {exc}") from None
        state.apply_action(value, player)

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the agent's action, then play on until it must act again or the game ends.

        Raises:
            IllegalActionError, InvalidActionError: with ``illegal_action="raise"``, an action
                that is not legal now (state unchanged).
            LamaError: ``step`` after the episode ended (call ``reset``).
        """
        state = self._state
        if state.is_terminal() or self._capped():
            raise LamaError("the episode is over; call reset()")
        try:
            value = check_legal(state, action, self.seat)
        except LamaError as exc:
            if self.illegal_action == "raise":
                raise
            gymnasium.logger.warn(f"illegal action ignored: {exc}")
            info = self._info()
            info["illegal_action"] = str(exc)
            return state.observation_tensor(self.seat), 0.0, False, False, info
        state.apply_action(value, self.seat)
        self._steps += 1
        self._advance()
        reward = 0.0
        terminated = truncated = False
        if state.is_terminal():
            reward = float(state.returns()[self.seat])
            terminated = any(state.returns())
            truncated = not terminated  # E-11: no winner
        elif self._capped():
            truncated = True
        return state.observation_tensor(self.seat), reward, terminated, truncated, self._info()

    def _capped(self) -> bool:
        return self.max_game_length is not None and self._steps >= self.max_game_length

    def render(self) -> str | None:
        """``"ansi"``: the position as text (``None`` without a render mode)."""
        if self.render_mode is None:
            return None
        return render_text(self._state)


def register(game_id: str) -> str | None:
    """Register ``LamaEnv(game_id, ...)`` with Gymnasium under the id of the game's spec
    (once) and return it; ``None`` if the spec names no Gymnasium id. A game with a
    ``"vector"`` extra also gets :class:`lamagames.rl.vector.LamaVectorEnv` as its vector
    entry point (``gymnasium.make_vec(id, num_envs=N,
    vectorization_mode="vector_entry_point")``).

    Raises:
        ParameterError: unknown game, or a bad ``"rl"`` extra.
    """
    env_id = rl_spec(game_id).gymnasium_id
    if env_id is not None and env_id not in gymnasium.registry:
        vector = "vector" in get_spec(game_id).extras
        gymnasium.register(
            id=env_id,
            entry_point=f"{__name__}:LamaEnv",
            vector_entry_point="lamagames.rl.vector:LamaVectorEnv" if vector else None,
            kwargs={"game_id": game_id},
        )
    return env_id


def _register_known() -> None:
    for game_id in spec_ids():
        try:
            register(game_id)
        except (LamaError, ImportError) as exc:  # a broken installed game stops no other
            warnings.warn(f"{game_id} not registered with Gymnasium: {exc}", stacklevel=2)


_register_known()
