"""Compiled rollouts from a LAMA Dice position (lamagames.dice.batch_rollout).

A rollout is the scalar engine with every seat on :class:`DiceHeuristicBot`, played with
the kernel's dice: each traced copy replays through the scalar engine from the position,
every heuristic decision equal, with the same scores at the stop (end of the round, D-9,
D-10, or of the game, D-11). Common random numbers: copy ``k`` depends only on
``seeds[k]``.
"""

from __future__ import annotations

import numpy as np
import pytest

from lamagames import make
from lamagames.bots import make_bot
from lamagames.bots.dice import DiceHeuristicBot
from lamagames.core.errors import IllegalActionError, ParameterError
from lamagames.core.game import Game, State
from lamagames.core.rng import make_rng
from lamagames.dice.batch_rollout import position_arrays, rollouts
from lamagames.dice.game import DiceGame, as_dice_state
from lamagames.dice.rules import Phase


def _positions(game: Game, seed: int, count: int) -> list[State]:
    """Decision positions with several legal actions from a heuristic game (copies)."""
    bots = [make_bot("heuristic", game, s, seed) for s in range(game.num_players)]
    rng = make_rng(seed, "chance")
    state = game.new_initial_state()
    found: list[State] = []
    while not state.is_terminal() and len(found) < count:
        player = state.current_player()
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if len(state.legal_actions(player)) > 1:
            found.append(state.clone())
        state.apply_action(bots[player].step(state))
    return found


def _replay(state: State, player: list[int], action: list[int]) -> State:
    """Replay a traced copy through the scalar engine, checking the heuristic's choices."""
    scalar = state.clone()
    game = as_dice_state(scalar).game
    bots = [DiceHeuristicBot(game, s) for s in range(game.num_players)]
    for t, (p, a) in enumerate(zip(player, action, strict=True)):
        assert scalar.current_player() == p, t
        if p >= 0 and t > 0:  # entry 0 is the candidate action
            assert bots[p].step(scalar) == a, t
        scalar.apply_action(a)
    return scalar


@pytest.mark.parametrize(("players", "rounds"), [(3, 1), (5, 2)])
def test_rollouts_replay_as_scalar_heuristic_play_d9_d11(players: int, rounds: int) -> None:
    game = make("dice", num_players=players, end_score=30)
    positions = _positions(game, 40 + players, 12)[::4]
    assert positions
    for state in positions:
        legal = state.legal_actions()
        before = as_dice_state(state).to_dict()
        r = rollouts(state, legal, np.arange(2, dtype=np.uint64), rounds=rounds, capacity=4000)
        assert as_dice_state(state).to_dict() == before
        assert (r.trace_length <= 4000).all()
        for i, action in enumerate(legal):
            for k in range(2):
                length = int(r.trace_length[i, k])
                trace_p = r.trace_player[i, k, :length].tolist()
                trace_a = r.trace_action[i, k, :length].tolist()
                assert trace_a[0] == action
                end = as_dice_state(_replay(state, trace_p, trace_a))
                assert end.scores == r.final_scores[i, k].tolist()
                assert bool(r.over[i, k]) == end.is_terminal()
                start = as_dice_state(state)
                assert end.is_terminal() or end.round - start.round == rounds
                assert (r.changes[i, k] == r.final_scores[i, k] - start.scores).all()


def test_rollouts_from_built_positions_in_every_phase_d8() -> None:
    """Discard, take, give-back and last-standing positions convert and roll out."""
    game = DiceGame(num_players=3)
    built = [
        game.build_state(rows=["3 3 5", "1 2", "4"], phase=Phase.DISCARD, dice="3 L 3"),
        game.build_state(rows=["1 1", "2 6 L", "3"], phase=Phase.TAKE, dice="4 5 5"),
        game.build_state(
            rows=["1 1 4", "2 6 L", "3 3"], scores=[12, 0, 31], quit_seats=[0, 2], current=1
        ),
        game.build_state(rows=["1", "2", "4"], scores=[15, 3, 0], phase=Phase.GIVE_LLAMAS,
                         dice="L L L"),
    ]  # fmt: skip
    for state in built:
        legal = state.legal_actions()
        r = rollouts(state, legal, np.arange(4, dtype=np.uint64), capacity=500)
        for i in range(len(legal)):
            for k in range(4):
                length = int(r.trace_length[i, k])
                end = as_dice_state(
                    _replay(
                        state,
                        r.trace_player[i, k, :length].tolist(),
                        r.trace_action[i, k, :length].tolist(),
                    )
                )
                assert end.scores == r.final_scores[i, k].tolist()


def test_copy_k_depends_only_on_seed_k() -> None:
    game = make("dice", num_players=4)
    state = _positions(game, 3, 5)[-1]
    legal = state.legal_actions()
    seeds = np.array([11, 12, 13, 14, 15], dtype=np.uint64)
    whole = rollouts(state, legal, seeds)
    part = rollouts(state, legal[::-1], seeds[[3, 1]])
    assert (part.final_scores == whole.final_scores[::-1][:, [3, 1]]).all()
    twice = rollouts(state, [legal[0], legal[0]], seeds)
    assert (twice.final_scores[0] == twice.final_scores[1]).all()


def test_position_arrays_mirror_the_state() -> None:
    game = DiceGame(num_players=3)
    state = game.build_state(
        rows=["1 1 4", "2 6 L", "3 3"], llama_row="1 2 4 6 L", scores=[12, 0, 31],
        quit_seats=[2], current=1,
    )  # fmt: skip
    p = position_arrays(state)
    assert p.rows.tolist() == state.rows
    assert p.llama_row.tolist() == state.llama_row
    assert p.scores.tolist() == [12, 0, 31]
    assert p.quit.tolist() == [False, False, True]
    assert p.ctrl[1] == 1 and p.ctrl[0] == Phase.TURN
    assert p.dice.tolist() == [-1, -1, -1]


def test_bad_rollout_requests_are_refused() -> None:
    game = make("dice", num_players=3)
    state = _positions(game, 1, 1)[0]
    with pytest.raises(IllegalActionError, match="not legal"):
        rollouts(state, [9], [1])
    with pytest.raises(ParameterError, match="seeds"):
        rollouts(state, [0], [-1])
    with pytest.raises(ParameterError, match="rounds"):
        rollouts(state, [0], [1], rounds=0)
    with pytest.raises(ParameterError, match="capacity"):
        rollouts(state, [0], [1], capacity=-1)
    with pytest.raises(IllegalActionError, match="chance"):
        rollouts(game.new_initial_state(), [0], [1])
    with pytest.raises(IllegalActionError):
        rollouts(make("express").new_initial_state(), [0], [1])
