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
(``random``, ``benchmark``, ``heuristic``), seeded from the episode seed. Chance nodes and the
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
- Illegal actions: ``illegal_action="warn"`` (default, so that Gymnasium's ``check_env``,
  which samples without the mask, can run) leaves the game unchanged and returns the same
  observation, reward 0.0 and ``info["illegal_action"]`` with the engine's message;
  ``illegal_action="raise"`` raises :class:`~lamagames.core.errors.IllegalActionError`.
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
from lamagames.core.spec import spec_ids
from lamagames.rl.common import (
    action_mask,
    check_legal,
    check_seat,
    make_engine_game,
    render_text,
    rl_spec,
)

Obs = npt.NDArray[np.float32]


class LamaEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a lamagames game against bots.

    Args:
        game_id: a registered game (``"dice"``, ``"express"``, ...).
        opponents: bot kind of each other seat in seat order (skipping ``seat``), or one kind
            for all of them; the number of players is ``1 + len(opponents)`` unless
            ``num_players`` is in ``params``.
        seat: the agent's seat.
        params: game parameters (``make(game_id, **params)``); Lama Express gets
            ``turn_limit=1000`` unless given.
        max_game_length: optional cap on the agent's steps; reaching it truncates.
        illegal_action: ``"warn"`` or ``"raise"`` (see the module docstring).
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        ParameterError: bad parameters, seat, opponents (unknown bot kind, wrong count),
            ``illegal_action`` or ``render_mode``.
    """

    # Gymnasium's API: a class attribute (render_fps only matters to video recorders)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        opponents: str | Sequence[str] = "heuristic",
        *,
        seat: int = 0,
        params: Mapping[str, Any] | None = None,
        max_game_length: int | None = None,
        illegal_action: str = "warn",
        render_mode: str | None = None,
    ) -> None:
        chosen = dict(params or {})
        kinds = [opponents] if isinstance(opponents, str) else list(opponents)
        if not kinds or not all(isinstance(k, str) for k in kinds):
            raise ParameterError(f"opponents must be bot kinds, got {opponents!r}")
        if "num_players" not in chosen:
            chosen["num_players"] = 1 + len(kinds)
        self.game: Game = make_engine_game(game_id, chosen)
        n = self.game.num_players
        self.seat = check_seat(seat, n)
        if isinstance(opponents, str):
            kinds = [opponents] * (n - 1)
        if len(kinds) != n - 1:
            raise ParameterError(
                f"opponents: need {n - 1} bot kinds for {n} players, got {len(kinds)}"
            )
        self.opponents: tuple[str, ...] = tuple(kinds)
        for other, kind in zip(self._other_seats(), kinds, strict=True):
            make_bot(kind, self.game, other)  # check the kind now (ParameterError)
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
        self._steps = 0

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
            else:
                state.apply_action(self._bots[player].step(state), player)

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
    (once) and return it; ``None`` if the spec names no Gymnasium id.

    Raises:
        ParameterError: unknown game, or a bad ``"rl"`` extra.
    """
    env_id = rl_spec(game_id).gymnasium_id
    if env_id is not None and env_id not in gymnasium.registry:
        gymnasium.register(
            id=env_id, entry_point=f"{__name__}:LamaEnv", kwargs={"game_id": game_id}
        )
    return env_id


def _register_known() -> None:
    for game_id in spec_ids():
        try:
            register(game_id)
        except (LamaError, ImportError) as exc:  # a broken installed game stops no other
            warnings.warn(f"{game_id} not registered with Gymnasium: {exc}", stacklevel=2)


_register_known()
