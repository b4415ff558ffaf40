"""Rollout search: one step of policy improvement over a base policy, any game.

At a decision with more than one legal action, :class:`RolloutSearchBot` plays every
candidate action on a copy of the state and then ``rollouts`` simulations in which every
seat (its own included) follows the base policy (the game's ``heuristic`` bot) until a
game-specific stopping point (the end of the LAMA Dice round, a horizon of die rolls in
Lama Express), where a game-specific leaf evaluation scores the result for the bot's seat.
This is the rollout algorithm of Tesauro and Galperin (1996), "On-line policy improvement
using Monte-Carlo search", and Bertsekas' rollout policies.

Two choices make it reliable with few simulations:

- **Common random numbers**: simulation ``k`` draws its chance outcomes from the same
  random stream for every candidate, so the candidates are compared on the same dice.
- **A paired test against the base action**: the bot leaves the base policy's choice only
  when a candidate's mean advantage (paired over the simulations) exceeds ``z`` standard
  errors. With ``z = 0`` it simply takes the best mean.

The budget is an iteration budget (``rollouts`` per candidate), not a clock, so a bot is
deterministic for its seed on any machine (a clock budget would make games depend on load).
The one exception: the LAMA Dice bot's decisions made while its compiled code is still
being prepared on a new install run interpreted on a smaller budget
(:attr:`lamagames.bots.dice_search.DiceSearchBot.INTERPRETED_ROLLOUTS`, issue 19); which
decisions those are depends on the machine (records keep the actions, so games replay).

The simulations here are Python loops over the core protocol (Lama Express uses them); a
game with a compiled engine may override :meth:`RolloutSearchBot.action_values` with the
same contract (LAMA Dice: :mod:`lamagames.bots.dice_search` over
:mod:`lamagames.dice.batch_rollout`).
"""

from __future__ import annotations

import math
import numbers
import random
from abc import abstractmethod
from typing import Any

from lamagames.bots.base import Bot
from lamagames.core.errors import ParameterError
from lamagames.core.game import Game, State

#: A rollout stops after this many actions (chance included) whatever the stopping rule says
#: (LAMA Dice rounds can in principle last forever, D-8.1).
MAX_ROLLOUT_ACTIONS = 2000


#: Most simulations per candidate a search bot accepts: the compiled rollouts hold a seed and
#: a few int32 scores per simulation and candidate in memory, so ``10**12`` would fail to
#: allocate (or run for days) instead of being refused.
MAX_ROLLOUTS = 100_000


def check_count(name: str, value: object, least: int = 1, most: int | None = None) -> int:
    """A whole-number argument of a bot (``rollouts``, ``rounds``, ``horizon``) as ``int``.

    >>> check_count("rollouts", 8)
    8

    Raises:
        ParameterError: not an integer (``bool`` and ``"8"`` are none), below ``least`` or
            above ``most`` (when given); the message names the argument.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise ParameterError(f"{name} must be an integer >= {least}, got {value!r}")
    count = int(value)
    if most is not None and count > most:
        raise ParameterError(f"{name} must be at most {most:,}, got {value!r}")
    return count


def check_threshold(name: str, value: object) -> float:
    """A non-negative finite number argument of a bot (``z``) as ``float``.

    >>> check_threshold("z", 1)
    1.0

    Raises:
        ParameterError: not a real number (``bool`` and ``"1"`` are none), negative, NaN or
            infinite; the message names the argument.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value < 0
    ):
        raise ParameterError(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


class RolloutSearchBot(Bot):
    """Rollout policy improvement over a base policy, with common random numbers.

    Subclasses give the base policy (:meth:`base_policy`), where a simulation stops
    (:meth:`stop`) and what its end is worth (:meth:`evaluate`), with optional root facts
    (:meth:`root_info`) and candidate pruning (:meth:`candidates`).

    Args:
        game: the game played.
        seat: the bot's seat.
        seed: root seed; the bot's stream is ``make_rng(seed, "bot", seat)`` and every
            decision draws one 62-bit base seed from it for its simulations.
        rollouts: simulations per candidate action (1 .. :data:`MAX_ROLLOUTS`); ``None``:
            :meth:`default_rollouts`.
        z: standard errors by which a candidate must beat the base action (>= 0);
            ``None``: :attr:`Z`.

    Raises:
        ParameterError: ``rollouts`` not an integer in 1 .. :data:`MAX_ROLLOUTS`, ``z`` not
            a finite number >= 0 (the message names the argument), or a bad ``seat`` or
            ``seed`` (see :class:`~lamagames.bots.base.Bot`).
    """

    #: Default simulations per candidate action.
    ROLLOUTS: int = 16
    #: Default threshold of the paired test, in standard errors.
    Z: float = 1.0

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        *,
        rollouts: int | None = None,
        z: float | None = None,
    ) -> None:
        super().__init__(game, seat, seed)
        self.rollouts = check_count(
            "rollouts",
            self.default_rollouts(game) if rollouts is None else rollouts,
            most=MAX_ROLLOUTS,
        )
        self.z = check_threshold("z", self.Z if z is None else z)
        #: one base-policy bot per seat, reused across decisions (their caches stay warm).
        self.policy: list[Bot] = [self.base_policy(s) for s in range(game.num_players)]
        #: simulations run by this bot so far (for budgets and benchmarks).
        self.simulations = 0

    # ------------------------------------------------------------------ game-specific
    def default_rollouts(self, game: Game) -> int:
        """Rollouts per candidate when none are given: :attr:`ROLLOUTS`; a game may
        depend on ``game`` (for example its seat count)."""
        return self.ROLLOUTS

    @abstractmethod
    def base_policy(self, seat: int) -> Bot:
        """The base (rollout) policy of ``seat``; it must be deterministic or seeded."""

    @abstractmethod
    def stop(self, state: State, root: Any) -> bool:
        """True when a simulation that started at the root described by ``root`` ends."""

    @abstractmethod
    def evaluate(self, state: State, root: Any) -> float:
        """Value of the end of a simulation for :attr:`seat` (higher is better)."""

    def root_info(self, state: State) -> Any:
        """Facts about the root position that :meth:`stop` and :meth:`evaluate` need."""
        return None

    def candidates(self, state: State, legal: list[int], base: int) -> list[int]:
        """Actions worth simulating (``base`` is always simulated); default: all legal."""
        return legal

    # ------------------------------------------------------------------ search
    def step(self, state: State) -> int:
        """Return the base action unless a candidate beats it in the paired test."""
        legal = state.legal_actions(self.seat)
        if len(legal) == 1:
            return legal[0]
        base = self.policy[self.seat].step(state)
        others = [a for a in self.candidates(state, legal, base) if a != base]
        if not others:
            return base
        values = self.action_values(state, [base, *others])
        base_values = values[base]
        best, best_gain = base, 0.0
        for action in others:
            diffs = [v - b for v, b in zip(values[action], base_values, strict=True)]
            mean = sum(diffs) / len(diffs)
            if len(diffs) > 1:
                var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
                se = math.sqrt(var / len(diffs))
            else:
                se = 0.0
            if mean > self.z * se and mean > best_gain + 1e-12:
                best, best_gain = action, mean
        return best

    def action_values(self, state: State, actions: list[int]) -> dict[int, list[float]]:
        """Simulated values of each action: ``rollouts`` floats per action, simulation ``k``
        of every action drawing chance from the same stream (common random numbers).
        ``state`` is not changed; one base seed is drawn from the bot's stream."""
        root = self.root_info(state)
        base_seed = self.rng.getrandbits(62)
        values: dict[int, list[float]] = {}
        for action in actions:
            after = state.child(action, self.seat)
            values[action] = [
                self._simulate(after.clone(), random.Random(base_seed + k), root)
                for k in range(self.rollouts)
            ]
        return values

    def _simulate(self, state: State, rng: random.Random, root: Any) -> float:
        self.simulations += 1
        steps = 0
        while not state.is_terminal() and not self.stop(state, root):
            if steps >= MAX_ROLLOUT_ACTIONS:
                break
            player = state.current_player()
            if player < 0:
                state.apply_action(state.sample_chance_outcome(rng))
            else:
                state.apply_action(self.policy[player].step(state), player)
            steps += 1
        return self.evaluate(state, root)
