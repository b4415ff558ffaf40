"""lamagames games as PettingZoo AEC environments.

::

    from lamagames.rl.pettingzoo import make_env
    env = make_env("dice", num_players=3)    # any LAMA Dice parameter (docs/dice.md)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs["observation"],
                                                             obs["action_mask"])
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). ``agent_selection`` is always the
engine's :meth:`~lamagames.core.game.State.current_player`: chance nodes (deals, dice, the
Lama Express die) are resolved inside the environment with a random stream derived from the
reset seed, and Lama Express windows (E-9) are AEC turns in the engine's asking order (seats
with no available action are not asked; after an action asking goes on from the next seat).

Observations: ``{"observation": float32 tensor (the engine's observation_tensor of that seat),
"action_mask": int8 mask over the action space}``; the mask is zero for every agent but
``agent_selection``. Rewards are 0 until the end, then the game's returns (1.0 per winner).

Dead agents follow PettingZoo's rules: agents are terminated (or truncated) only when the game
is over, all at once; each then steps once with ``None`` and leaves ``agents``. A LAMA Dice
seat that quit a round (D-7) is not dead: it is simply not selected until the next round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from lamagames.core.errors import ParameterError
from lamagames.core.game import Game, State
from lamagames.core.rng import make_rng
from lamagames.rl.common import (
    action_mask,
    agent_names,
    check_legal,
    make_engine_game,
    render_text,
    rl_spec,
)

#: Render modes: ``"ansi"`` returns the text view, ``"human"`` prints it.
RENDER_MODES: Final = ("ansi", "human")

ObsDict = dict[str, npt.NDArray[Any]]


class LamaAECEnv(AECEnv):  # type: ignore[misc]
    """A lamagames game as an AEC environment.

    Args:
        game_id: a registered game (``"dice"``, ``"express"``, ...).
        params: the game's parameters (``make(game_id, **params)``), with the spec's default
            parameters added unless given (Lama Express: ``turn_limit=1000``; see
            :func:`lamagames.rl.common.make_engine_game`).
        max_game_length: optional cap on decisions (all agents); reaching it truncates the
            game for every agent. ``None``: no cap.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the position as text) or
            ``"human"`` (``render()`` prints it and returns ``None``).

    Raises:
        ParameterError: bad game parameters, ``max_game_length`` or ``render_mode``.
    """

    def __init__(
        self,
        game_id: str,
        params: Mapping[str, Any] | None = None,
        *,
        max_game_length: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game: Game = make_engine_game(game_id, params or {})
        if max_game_length is not None and (
            type(max_game_length) is not int or max_game_length < 1
        ):
            raise ParameterError(
                f"max_game_length must be None or a positive integer, got {max_game_length!r}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ParameterError(
                f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}"
            )
        self.metadata = {
            "name": rl_spec(game_id).pettingzoo_name,
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
        }
        self.render_mode = render_mode
        self.max_game_length = max_game_length
        info = self.game.info
        self.possible_agents: list[str] = agent_names(info.num_players)
        self.agent_name_mapping = {name: seat for seat, name in enumerate(self.possible_agents)}
        self._observation_spaces = {
            name: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        -np.inf, np.inf, shape=info.observation_shape, dtype=np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(
                        0, 1, shape=(info.num_distinct_actions,), dtype=np.int8
                    ),
                }
            )
            for name in self.possible_agents
        }
        self._action_spaces = {
            name: gymnasium.spaces.Discrete(info.num_distinct_actions)
            for name in self.possible_agents
        }
        self.np_random: np.random.Generator | None = None
        self._state: State = self.game.new_initial_state()
        self._decisions = 0

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Dict(observation=Box(float32, observation_shape), action_mask=Box(int8))``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(num_distinct_actions)``: the game's action ids."""
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ engine view
    @property
    def lama_state(self) -> State:
        """The engine state (read only: mutating it breaks the environment)."""
        return self._state

    def _seat(self, agent: str) -> int:
        return self.agent_name_mapping[agent]

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        With ``seed`` the environment's generator is re-seeded; every episode then draws its
        chance seed from it, so ``reset(seed=s)`` followed by the same actions replays the
        same game (chance stream ``make_rng(episode_seed, "chance")``).
        """
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        episode_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._chance_rng = make_rng(episode_seed, "chance")
        self._state = self.game.new_initial_state()
        self._decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = {name: 0.0 for name in self.agents}
        self._cumulative_rewards = {name: 0.0 for name in self.agents}
        self.terminations = {name: False for name in self.agents}
        self.truncations = {name: False for name in self.agents}
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}
        self._skip_agent_selection = None
        self._resolve_chance()
        self._sync_selection()

    def observe(self, agent: str) -> ObsDict:
        """The agent's observation tensor and action mask (zeros unless it is selected)."""
        seat = self._seat(agent)
        selected = agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        )
        return {
            "observation": self._state.observation_tensor(seat),
            "action_mask": action_mask(self._state, seat if selected else None),
        }

    def step(self, action: Any) -> None:
        """Apply ``agent_selection``'s action (``None`` for a dead agent).

        Raises:
            InvalidActionError: not an id of the action space.
            IllegalActionError: not legal for the selected agent now (the message lists the
                legal actions). The environment is unchanged in both cases.
            ValueError: an action other than ``None`` for a dead agent (PettingZoo's rule).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        value = check_legal(self._state, action, seat)  # raises before any change
        self._cumulative_rewards[agent] = 0.0
        self._state.apply_action(value, seat)
        self._decisions += 1
        self._resolve_chance()
        self._clear_rewards()
        state = self._state
        capped = self.max_game_length is not None and self._decisions >= self.max_game_length
        if state.is_terminal() or capped:
            returns = state.returns() if state.is_terminal() else [0.0] * len(self.agents)
            truncated = not state.is_terminal() or not any(returns)
            for name in self.agents:
                self.rewards[name] = float(returns[self._seat(name)])
                self.terminations[name] = not truncated
                self.truncations[name] = truncated
        else:
            self._sync_selection()
        self._accumulate_rewards()

    def _resolve_chance(self) -> None:
        state = self._state
        while state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(self._chance_rng))

    def _sync_selection(self) -> None:
        self.agent_selection = self.possible_agents[self._state.current_player()]

    def render(self) -> str | None:
        """``"ansi"``: the position as text; ``"human"``: print it (returns ``None``);
        ``None`` without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = render_text(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> npt.NDArray[np.float32]:
        """A global view: the observation tensor of ``player_0`` (nothing is hidden)."""
        return self._state.observation_tensor(0)


def _wrap(env: LamaAECEnv) -> AECEnv:
    return wrappers.OrderEnforcingWrapper(env)


def make_env(
    game_id: str,
    *,
    max_game_length: int | None = None,
    render_mode: str | None = None,
    **params: Any,
) -> AECEnv:
    """The AEC environment of a game (``metadata["name"]`` from its spec: ``lama_dice_v0``,
    ``lama_express_v0``), order-enforcing wrapper applied.

    Args:
        game_id: a registered game.
        max_game_length, render_mode: see :class:`LamaAECEnv`.
        params: the game's parameters as keywords (LAMA Dice: ``num_players``, ``dice``,
            ``end_score``, ``starting_seat``, docs/dice.md; Lama Express: ``num_players``,
            ``colours``, ``starting_seat``, ``llamas_to_win``, ``board``, ``turn_limit``
            — default 1000 rolls here, E-11, docs/express.md).

    Raises:
        ParameterError: unknown game, bad parameters, ``max_game_length`` or
            ``render_mode``.
    """
    return _wrap(
        LamaAECEnv(game_id, params, max_game_length=max_game_length, render_mode=render_mode)
    )
