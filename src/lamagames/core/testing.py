"""A public conformance check of the game protocol, in the spirit of Pgx's ``api_test``.

:func:`check_random_playthrough` plays one game with uniformly random choices and checks, at
every node, the invariants every lamagames game promises. Game test suites call it with many
seeds (through Hypothesis); third-party games can use it too.
"""

from __future__ import annotations

import math
import random

import numpy as np

from lamagames.core.errors import IllegalActionError, InvalidActionError, LamaError
from lamagames.core.game import CHANCE_PLAYER, Game, State
from lamagames.core.records import parse_record, record_from_state, replay


class ProtocolViolation(AssertionError):
    """Raised by :func:`check_random_playthrough` when a game breaks the protocol."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ProtocolViolation(message)


def check_state(state: State) -> None:
    """Check the protocol invariants of one non-terminal or terminal state.

    Raises:
        ProtocolViolation: naming the broken invariant.
    """
    info = state.game.info
    player = state.current_player()
    legal = state.legal_actions()
    if state.is_terminal():
        _check(legal == [], "a terminal state has legal actions")
        _check(len(state.returns()) == info.num_players, "returns() has the wrong length")
        return
    _check(legal == sorted(set(legal)), "legal_actions() is not ascending and unique")
    _check(bool(legal), f"no legal action at a non-terminal state (player {player})")
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        _check(sorted(a for a, _ in outcomes) == legal, "chance outcomes differ from legal")
        total = math.fsum(p for _, p in outcomes)
        _check(abs(total - 1.0) < 1e-9, f"chance probabilities sum to {total}")
        _check(all(p > 0 for _, p in outcomes), "a chance outcome has probability <= 0")
        _check(all(0 <= a < info.max_chance_outcomes for a in legal), "chance id out of range")
    else:
        _check(player in state.acting_players(), "current player is not among acting players")
        _check(all(0 <= a < info.num_distinct_actions for a in legal), "action id out of range")
        mask = state.legal_actions_mask()
        _check(mask.dtype == np.bool_, "legal_actions_mask is not bool")
        _check(list(np.flatnonzero(mask)) == legal, "legal_actions_mask disagrees")
    for action in legal:
        text = state.action_to_string(action)
        _check(state.string_to_action(text) == action, f"notation {text!r} does not round-trip")
    for seat in range(info.num_players):
        tensor = state.observation_tensor(seat)
        _check(tensor.shape == info.observation_shape, f"observation shape {tensor.shape}")
        _check(tensor.dtype == np.float32, "observation tensor is not float32")
        _check(isinstance(state.observation(seat), dict), "observation is not a dict")
    _check(state.game.state_from_dict(state.to_dict()) == state, "to_dict/from_dict differ")
    _check(state.clone() == state, "clone() differs from the state")


def _refused(state: State, action: int, errors: tuple[type[LamaError], ...]) -> bool:
    """True if ``apply_action(action)`` raises one of ``errors``."""
    try:
        state.apply_action(action)
    except errors:
        return True
    return False


def _check_illegal_is_refused(state: State, rng: random.Random) -> None:
    """An out-of-range action raises and leaves the state unchanged."""
    before = state.to_dict()
    for bad in (-1, 10**9):
        _check(
            _refused(state, bad, (InvalidActionError, IllegalActionError)),
            f"apply_action({bad}) was accepted",
        )
        _check(state.to_dict() == before, f"a refused action {bad} changed the state")
    if not state.is_chance_node():
        illegal = [
            a for a in range(state.game.info.num_distinct_actions) if a not in state.legal_actions()
        ]
        if illegal:
            _check(
                _refused(state, rng.choice(illegal), (LamaError,)),
                "an illegal action was accepted",
            )
            _check(state.to_dict() == before, "a refused illegal action changed the state")


def check_random_playthrough(game: Game, seed: int, max_actions: int = 5000) -> State:
    """Play ``game`` with uniformly random choices and check every state on the way.

    Also checks that refused actions leave the state unchanged, that the finished game's
    record survives JSON and replays to an equal state.

    Args:
        game: the game to check.
        seed: seed of the random choices.
        max_actions: stop after this many actions (for games without a turn limit).

    Returns:
        The last state reached.

    Raises:
        ProtocolViolation: naming the broken invariant.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    for step in range(max_actions):
        check_state(state)
        if state.is_terminal():
            break
        if step % 7 == 0:
            _check_illegal_is_refused(state, rng)
        if state.is_chance_node():
            action = state.sample_chance_outcome(rng)
            _check(action in state.legal_actions(), "sampled chance outcome is not legal")
            actor = CHANCE_PLAYER
        else:
            action = rng.choice(state.legal_actions())
            actor = state.current_player()
        child = state.child(action)
        state.apply_action(action)
        _check(child == state, "child() differs from apply_action()")
        _check(state.history()[-1] == (actor, action), "history() misses the last action")
    seats = [(f"seat {i}", "random") for i in range(game.num_players)]
    record = parse_record(record_from_state(state, seats, seed=seed).to_json())
    _check(replay(record) == state, "the record does not replay to the same state")
    return state
