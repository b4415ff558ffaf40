"""Opponents as policies: what plays the seats the learner does not (single and vector envs).

An opponent is either a bot kind of the game (``"random"``, ``"benchmark"``,
``"heuristic"``...: :mod:`lamagames.bots`) or a *policy*: a callable
``policy(observation, action_mask) -> action`` taking the seat's observation tensor
(float32, the game's ``observation_shape``) and its 0/1 mask (int8,
``(num_distinct_actions,)``) and returning an action id. A policy that draws at random owns
its generator (seed it for reproducible episodes). :func:`frozen_policy` turns a learner
(for example an sb3-contrib ``MaskablePPO``) into such a callable from a copy of its
current weights, for self-play against earlier versions of itself.

In the vector environments (:mod:`lamagames.rl.vector`) a policy gets a batch: observations
``(k, *observation_shape)`` and masks ``(k, num_distinct_actions)`` of the ``k`` games whose
opponent seat acts, and returns ``k`` actions; :func:`batched` turns a one-position policy
into one for batches.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import ParameterError

#: ``policy(observation, action_mask) -> action id``.
Policy: TypeAlias = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]
#: A bot kind or a :data:`Policy`.
Opponent: TypeAlias = str | Policy


def frozen_policy(learner: Any, *, deterministic: bool = False) -> Policy:
    """A policy playing as ``learner`` plays now, unaffected by its later training.

    Args:
        learner: an object with a Stable-Baselines3 style ``predict(observation,
            deterministic=..., action_masks=...)`` (``MaskablePPO`` or its ``.policy``;
            without an ``action_masks`` keyword the mask is not passed), or a plain
            policy callable. A deep copy is taken now (for a Stable-Baselines3 model, of
            its ``policy`` network only).
        deterministic: passed to ``predict``.

    Returns:
        ``policy(observation, action_mask) -> int``.

    Raises:
        ParameterError: ``learner`` has no ``predict`` and is not callable.
    """
    source = getattr(learner, "policy", learner)
    if not hasattr(source, "predict") and not callable(source):
        raise ParameterError(
            f"frozen_policy needs a learner with predict() or a callable, got {learner!r}"
        )
    snapshot = copy.deepcopy(source)
    if not hasattr(snapshot, "predict"):
        plain: Policy = snapshot
        return plain

    def policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
        try:
            action, _ = snapshot.predict(
                observation, deterministic=deterministic, action_masks=mask.astype(np.bool_)
            )
        except TypeError:  # a predict without action masks
            action, _ = snapshot.predict(observation, deterministic=deterministic)
        return action

    return policy


def batched(policy: Policy) -> Policy:
    """A batch policy (observations ``(k, ...)``, masks ``(k, A)`` -> ``k`` actions) that
    calls ``policy`` on each row."""

    def run(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Any:
        return np.array(
            [int(policy(o, m)) for o, m in zip(observations, masks, strict=True)],
            dtype=np.int64,
        )

    return run


def check_opponents(opponents: object) -> list[Opponent]:
    """The opponents as a list (one entry stays one entry).

    Raises:
        ParameterError: empty, or an entry that is neither a string nor callable.
    """
    if isinstance(opponents, str) or callable(opponents):
        entries: list[object] = [opponents]
    elif isinstance(opponents, Sequence):
        entries = list(opponents)
    else:
        raise ParameterError(
            f"opponents must be bot kinds or policies (callables), got {opponents!r}"
        )
    if not entries or not all(isinstance(e, str) or callable(e) for e in entries):
        raise ParameterError(
            f"opponents must be bot kinds or policies (callables), got {opponents!r}"
        )
    return entries  # type: ignore[return-value]


def describe(opponent: Opponent) -> str:
    """A bot kind itself, a policy by its name (``policy <name>``)."""
    if isinstance(opponent, str):
        return opponent
    return f"policy {getattr(opponent, '__name__', type(opponent).__name__)}"
