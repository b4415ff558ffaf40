"""A public conformance check of the game protocol, in the spirit of Pgx's ``api_test``.

:func:`check_random_playthrough` plays one game with uniformly random choices and checks, at
every node, the invariants every lamagames game promises. Game test suites call it with many
seeds (through Hypothesis); third-party games can use it too.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

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
    check_chance_player(state)


def check_chance_player(state: State) -> None:
    """Check the rule of the chance player (see :mod:`lamagames.core.game`): ``None`` and
    :data:`CHANCE_PLAYER` agree at a chance node in ``legal_actions``,
    ``legal_actions_mask``, ``action_to_string``, ``string_to_action`` and ``apply_action``
    (on a copy, for the first and the last outcome), every seat has no legal action there;
    elsewhere the chance player has no legal action and its ``apply_action`` is refused
    without a change. The state is left unchanged.

    Raises:
        ProtocolViolation: naming the broken invariant.
    """
    info = state.game.info
    chance_legal = state.legal_actions(CHANCE_PLAYER)
    chance_mask = state.legal_actions_mask(CHANCE_PLAYER)
    _check(chance_mask.shape == (info.max_chance_outcomes,), "chance mask has the wrong shape")
    _check(list(np.flatnonzero(chance_mask)) == chance_legal, "chance mask disagrees")
    if not state.is_chance_node():
        _check(chance_legal == [], "the chance player has legal actions at a non-chance node")
        before = state.to_dict()
        _check(
            _refused(state, 0, (LamaError,), CHANCE_PLAYER),
            "apply_action(0, CHANCE_PLAYER) was accepted at a non-chance node",
        )
        _check(state.to_dict() == before, "a refused chance action changed the state")
        return
    legal = state.legal_actions()
    _check(chance_legal == legal, "legal_actions(CHANCE_PLAYER) differs from legal_actions()")
    _check(
        list(np.flatnonzero(state.legal_actions_mask())) == legal,
        "legal_actions_mask() at a chance node disagrees with the chance outcomes",
    )
    for seat in range(info.num_players):
        _check(state.legal_actions(seat) == [], f"seat {seat} has legal actions at chance")
    for action in legal:
        text = state.action_to_string(action, CHANCE_PLAYER)
        _check(text == state.action_to_string(action), "chance notation depends on None")
        _check(
            state.string_to_action(text, CHANCE_PLAYER) == action,
            f"chance notation {text!r} does not round-trip for CHANCE_PLAYER",
        )
    for action in {legal[0], legal[-1]}:
        _check(
            state.child(action, CHANCE_PLAYER) == state.child(action),
            "apply_action(a, CHANCE_PLAYER) differs from apply_action(a) at a chance node",
        )


def _refused(
    state: State, action: int, errors: tuple[type[LamaError], ...], player: int | None = None
) -> bool:
    """True if ``apply_action(action, player)`` raises one of ``errors``."""
    try:
        state.apply_action(action, player)
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


def _check_seats(state: State, rng: random.Random) -> None:
    """Every acting seat has legal actions whose notation round-trips for that seat; a seat
    that may not act has none, and an action of it is refused without a change."""
    acting = state.acting_players()
    _check(len(set(acting)) == len(acting), "acting_players() repeats a seat")
    for seat in range(state.game.num_players):
        legal = state.legal_actions(seat)
        if seat in acting:
            _check(bool(legal), f"acting seat {seat} has no legal action")
            for action in legal:
                text = state.action_to_string(action, seat)
                _check(
                    state.string_to_action(text, seat) == action,
                    f"notation {text!r} of seat {seat} does not round-trip",
                )
        else:
            _check(legal == [], f"seat {seat} may not act but has legal actions")
            before = state.to_dict()
            action = rng.randrange(state.game.info.num_distinct_actions)
            _check(
                _refused(state, action, (LamaError,), seat),
                f"seat {seat} may not act but apply_action({action}) was accepted",
            )
            _check(state.to_dict() == before, "a refused out-of-turn action changed the state")


def check_random_playthrough(
    game: Game, seed: int, max_actions: int = 5000, *, any_seat: bool = False
) -> State:
    """Play ``game`` with uniformly random choices and check every state on the way.

    Also checks that refused actions leave the state unchanged, that the finished game's
    record survives JSON and replays to an equal state.

    Args:
        game: the game to check.
        seed: seed of the random choices.
        max_actions: stop after this many actions (for games without a turn limit).
        any_seat: at every decision, let a random seat among
            :meth:`~lamagames.core.game.State.acting_players` act (games with windows in
            which several seats may act, Lama Express E-9), and check every seat's legal
            actions; ``False``: the current player acts.

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
        seat: int | None = None
        if state.is_chance_node():
            action = state.sample_chance_outcome(rng)
            _check(action in state.legal_actions(), "sampled chance outcome is not legal")
            actor = CHANCE_PLAYER
        elif any_seat:
            if step % 3 == 0:
                _check_seats(state, rng)
            seat = rng.choice(state.acting_players())
            action = rng.choice(state.legal_actions(seat))
            actor = seat
        else:
            action = rng.choice(state.legal_actions())
            actor = state.current_player()
        child = state.child(action, seat)
        state.apply_action(action, seat)
        _check(child == state, "child() differs from apply_action()")
        _check(state.history()[-1] == (actor, action), "history() misses the last action")
    seats = [(f"seat {i}", "random") for i in range(game.num_players)]
    record = parse_record(record_from_state(state, seats, seed=seed).to_json())
    _check(replay(record) == state, "the record does not replay to the same state")
    return state


#: A golden playthrough lists the chance outcomes of a node with at most this many.
MAX_LISTED_OUTCOMES = 12


def playthrough(game: Game, seed: int, max_actions: int = 10_000) -> str:
    """A golden playthrough of ``game`` in the style of OpenSpiel's ``playthroughs/``: one
    game with seeded uniformly random choices, told through the protocol only.

    Each step lists who acts, the observation of the seat to act (seat 0 at chance and
    terminal nodes) as sorted JSON, the legal actions in notation (at a chance node the
    outcomes with their probabilities) and the action applied; the end lists the returns.
    Any change of a game's behaviour, notation, chance model or observation shows up in a
    diff against the stored text.

    Args:
        game: the game.
        seed: seed of the random choices (``random.Random(seed)``).
        max_actions: stop after this many actions (for games without an end).

    Returns:
        The text, ending with a newline.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    lines = [f"game: {game.game_id}", f"params: {_json(game.params)}", f"seed: {seed}", ""]
    for step in range(max_actions):
        player = state.current_player()
        if state.is_terminal():
            break
        who = "chance" if player == CHANCE_PLAYER else f"seat {player}"
        lines.append(f"step {step}: {who} (acting {state.acting_players()})")
        lines.append(f"  observation: {_json(state.observation(max(player, 0)))}")
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = state.sample_chance_outcome(rng)
            if len(outcomes) <= MAX_LISTED_OUTCOMES:
                shown = ", ".join(f"{state.action_to_string(a)}={p:.6g}" for a, p in outcomes)
            else:
                shown = f"{len(outcomes)} outcomes, p(drawn)={dict(outcomes)[action]:.6g}"
            lines.append(f"  chance outcomes: {shown}")
        else:
            legal = state.legal_actions()
            lines.append(f"  legal: {', '.join(state.action_to_string(a) for a in legal)}")
            action = rng.choice(legal)
        lines.append(f"  apply: {state.action_to_string(action)}")
        state.apply_action(action)
    lines.append(f"end after {len(state.history())} actions: terminal {state.is_terminal()}")
    lines.append(f"  observation: {_json(state.observation(0))}")
    lines.append(f"  returns: {state.returns()}")
    return "\n".join(lines) + "\n"


def _json(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def check_batch_engine(
    game_id: str, *, games: int = 4, seed: int = 0, max_steps: int = 400
) -> int:
    """Check a game's batch engine against its scalar engine, as Pgx's ``api_test`` does:
    for every player count and every variant the engine lists, play ``games`` games in the
    batch engine with uniformly random legal actions (from ``seed``), replay each game's
    trace (chance outcomes and actions) through the scalar engine step by step and check,
    after every batch step, who acts, the legal-action mask and the state.

    The game's batch engine (its spec's ``batch`` extra, ``ENGINE``) must offer
    ``stepper(num_players, params)`` returning an object with ``game`` (the scalar game of
    those parameters), ``init(seeds)``, ``legal_mask(states)`` (bool ``(G, A)``, all False
    at chance and terminal nodes), ``done(states)`` (bool ``(G,)``), ``step(states, actions)``
    (one action per game; the engine runs chance itself), ``history(states, g)`` (the
    ``(player, action)`` pairs so far, player -1 for chance) and ``state_dict(states, g)``
    (a subset of the scalar state's ``to_dict()``); and ``check_variants``, a sequence of
    parameter dicts (``{}`` for the defaults).

    Returns:
        The number of batch steps checked.

    Raises:
        ProtocolViolation: naming the game, players, variant, game index and step that
            disagree.
        ParameterError: the game has no batch engine or it cannot be stepped.
    """
    from lamagames.core.errors import ParameterError
    from lamagames.core.spec import get_spec

    engine = get_spec(game_id).load_extra("batch")
    if not hasattr(engine, "stepper"):
        raise ParameterError(f"game {game_id!r} has no batch engine with a stepper")
    rng = random.Random(seed)
    checked = 0
    for players in range(engine.min_players, engine.max_players + 1):
        for variant in engine.check_variants:
            where = f"{game_id}, {players} players, variant {variant!r}"
            stepper = engine.stepper(players, variant)
            checked += _check_stepper(stepper, where, games, rng, max_steps)
    return checked


def _check_stepper(stepper: Any, where: str, games: int, rng: random.Random, steps: int) -> int:
    """Step one batch of ``games`` games and hold it to the scalar engine (see
    :func:`check_batch_engine`); returns the steps taken."""
    seeds = np.array([rng.getrandbits(32) for _ in range(games)], dtype=np.uint64)
    states = stepper.init(seeds)
    scalars = [stepper.game.new_initial_state() for _ in range(games)]
    applied = [0] * games
    for step in range(steps + 1):
        mask = stepper.legal_mask(states)
        done = stepper.done(states)
        actions = np.full(games, -1, dtype=np.int64)
        for g, scalar in enumerate(scalars):
            at = f"{where}, game {g}, step {step}"
            history = stepper.history(states, g)
            for player, action in history[applied[g] :]:
                _check(
                    scalar.current_player() == player,
                    f"{at}: the batch trace has seat {player} act, the scalar engine "
                    f"seat {scalar.current_player()}",
                )
                scalar.apply_action(action)
            applied[g] = len(history)
            _check(bool(done[g]) == scalar.is_terminal(), f"{at}: game over disagrees")
            legal = [] if scalar.is_chance_node() else scalar.legal_actions()
            _check(list(np.flatnonzero(mask[g])) == legal, f"{at}: legal actions disagree")
            data = scalar.to_dict()
            for key, value in stepper.state_dict(states, g).items():
                _check(data[key] == value, f"{at}: {key} is {value!r}, scalar {data[key]!r}")
            if legal:
                actions[g] = rng.choice(legal)
        if done.all():
            return step
        stepper.step(states, actions)
    return steps
