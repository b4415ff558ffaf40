"""Research interfaces: OpenSpiel, PettingZoo and Gymnasium adapters (the ``rl`` extra).

Install with ``pip install 'lamagames[rl]'``. Each adapter lives in its own module and imports
its library only when that module is imported, so ``import lamagames`` never needs them:

- :mod:`lamagames.rl.openspiel`: ``python_lama_dice`` and ``python_lama_express`` registered
  as pyspiel Python games (explicit chance, observation tensors, information state strings).
- :mod:`lamagames.rl.pettingzoo`: AEC environments with action masks; Lama Express windows
  (E-9) become AEC turns in the engine's asking order.
- :mod:`lamagames.rl.gymnasium`: single-agent environments (one seat against lamagames bots
  or policies), registered as ``lamagames/LamaDice-v0`` and ``lamagames/LamaExpress-v0``.
- :mod:`lamagames.rl.vector`: Gymnasium vector envs stepping ``N`` games in one compiled
  call (the ids' vector entry point), their single-env view, and a multi-agent batched env
  for self-play (needs numba).
- :mod:`lamagames.rl.policies`: opponents as policies, frozen copies of a learner.

Adapters use only the game protocol (:mod:`lamagames.core.game`), the bot registry and the
game's spec (:class:`lamagames.core.rlspec.RLSpec`, the ``"rl"`` and ``"vector"`` extras),
naming no game; see
``docs/rl.md`` for an overview and the last sections of ``docs/dice.md`` and
``docs/express.md`` for each game's encoding.
"""
