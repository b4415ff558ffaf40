"""The LAMA Dice batch engine agrees with the scalar engine (D-1 .. D-11).

Three directions, on shared seeds for every player count 2..6:

* the fast in-kernel loop (:func:`batch.play_traced`) records its chance outcomes and
  actions; the trace replays through the scalar engine via the core protocol, every action
  legal there, the benchmark seats' actions those of :class:`DiceBenchmarkBot`, and the
  final scores, rounds, round points and winners equal the batch results;
* scalar games (random bots) drive the batch step API action for action: the seat to act,
  the legal-action masks, the benchmark and heuristic policies and the final state agree
  at every step;
* the step API with in-kernel benchmark policies and seeded chance plays the very games of
  :func:`batch.play` (one chance stream, two code paths).
"""

from __future__ import annotations

import numpy as np
import pytest

from lamagames.bots.base import make_bot
from lamagames.bots.dice import DiceBenchmarkBot, DiceHeuristicBot
from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.core.registry import make
from lamagames.dice import batch
from lamagames.dice.game import as_dice_state
from lamagames.sim.runner import play_game

#: A face set other than the standard one that meets D-1 (every number on two dice).
VARIANT_DICE = ["LL1234", "LL3456", "LL1256"]

#: (num_players, seat policies, extra parameters): all player counts, both policies,
#: a short game and the dice variant.
CASES = [
    (2, ["benchmark", "random"], {}),
    (3, ["random", "random", "benchmark"], {"dice": VARIANT_DICE}),
    (4, ["benchmark"] * 4, {}),
    (5, ["benchmark", "random", "benchmark", "random", "benchmark"], {"end_score": 25}),
    (6, ["random"] * 3 + ["benchmark"] * 3, {"starting_seat": 2}),
]


@pytest.mark.parametrize(("players", "policies", "extra"), CASES)
def test_trace_of_play_replays_in_scalar_engine_d1_d11(
    players: int, policies: list[str], extra: dict[str, object]
) -> None:
    params = batch.check_params(players, extra)
    seeds = np.arange(100 * players, 100 * players + 6, dtype=np.uint64)
    results, trace = batch.play_traced(seeds, policies, params, capacity=6000)
    assert (trace.length <= 6000).all()
    game = make("dice", **params)
    for g in range(len(seeds)):
        state = as_dice_state(game.new_initial_state())
        bots = {s: DiceBenchmarkBot(game, s) for s, p in enumerate(policies) if p == "benchmark"}
        decisions = 0
        for t in range(int(trace.length[g])):
            player, action = int(trace.player[g, t]), int(trace.action[g, t])
            assert state.current_player() == player, (g, t)
            if player >= 0:
                decisions += 1
                assert action in state.legal_actions(player), (g, t)
                if player in bots:
                    assert bots[player].step(state) == action, (g, t)
            state.apply_action(action)
        assert state.is_terminal()
        assert state.scores == results.scores[g].tolist()
        assert len(state.round_points) == results.length[g]
        totals = np.array(state.round_points).sum(axis=0).tolist()
        assert totals == results.extra["round_points"][g].tolist()
        assert state.returns() == results.wins[g].astype(float).tolist()
        assert decisions == results.extra["decisions"][g]
        assert results.starter[g] == params["starting_seat"]


def _scalar_histories(players: int, seeds: list[int]) -> list[list[tuple[int, int]]]:
    game = make("dice", num_players=players)
    out = []
    for seed in seeds:
        bots = [make_bot("random", game, seat, seed) for seat in range(players)]
        out.append(play_game(game, bots, seed).state.history())
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_scalar_games_drive_the_step_api_with_equal_masks_d5_d11(players: int) -> None:
    seeds = [players * 10 + k for k in range(3)]
    histories = _scalar_histories(players, seeds)
    game = make("dice", num_players=players)
    states = batch.init(np.zeros(len(seeds), dtype=np.uint64), batch.check_params(players, {}))
    scalars = [as_dice_state(game.new_initial_state()) for _ in seeds]
    bots = [DiceBenchmarkBot(game, seat) for seat in range(players)]
    heuristic = [DiceHeuristicBot(game, seat) for seat in range(players)]
    for t in range(max(len(h) for h in histories)):
        current = batch.current_player(states)
        mask = batch.legal_mask(states)
        bench = batch.policy_actions(states, ["benchmark"] * players)
        heur = batch.policy_actions(states, ["heuristic"] * players)
        actions = np.full(len(seeds), -1, dtype=np.int64)
        for g, scalar in enumerate(scalars):
            assert current[g] == scalar.current_player(), (g, t)
            seat = scalar.current_player()
            legal = scalar.legal_actions() if seat >= 0 else []
            assert np.flatnonzero(mask[g]).tolist() == legal, (g, t)
            if seat >= 0:
                assert bench[g] == bots[seat].step(scalar), (g, t)
                assert heur[g] == heuristic[seat].step(scalar), (g, t)
            if t < len(histories[g]):
                actions[g] = histories[g][t][1]
                scalar.apply_action(int(actions[g]))
        batch.step(states, actions)
    assert states.is_terminal().all()
    for g, scalar in enumerate(scalars):
        assert states.scores[g].tolist() == scalar.scores
        assert states.rows[g].tolist() == scalar.rows
        assert states.llama_row[g].tolist() == scalar.llama_row
        assert states.setaside[g].tolist() == scalar.setaside
        assert states.discards[g].tolist() == scalar.discards
        assert states.quit[g].tolist() == scalar.quit
        assert states.round[g] == scalar.round
        assert states.round_points[g].tolist() == np.sum(scalar.round_points, axis=0).tolist()


@pytest.mark.parametrize(
    "seats",
    [["benchmark"] * 4, ["random"] * 4, ["random", "heuristic", "benchmark"]],
)
def test_step_api_with_kernel_policies_plays_the_games_of_play(seats: list[str]) -> None:
    """One step path (issue 17): ``play`` takes the steps of ``init``, ``policy_actions``
    and ``step``, so its games are theirs, random seats included (their draws too)."""
    params = batch.check_params(len(seats), {})
    seeds = np.arange(40, 52, dtype=np.uint64)
    results = batch.play(seeds, seats, params)
    states = batch.init(seeds, params)
    for _ in range(5000):
        if states.is_terminal().all():
            break
        batch.step(states, batch.policy_actions(states, seats))
    assert states.is_terminal().all()
    assert (states.scores == results.scores).all()
    assert (states.round == results.length).all()
    assert (states.round_points == results.extra["round_points"]).all()


def test_play_depends_only_on_each_games_seed() -> None:
    params = batch.check_params(3, {})
    seeds = np.arange(1000, 1020, dtype=np.uint64)
    whole = batch.play(seeds, ["random", "benchmark", "random"], params)
    part = batch.play(seeds[[5, 17, 3]], ["random", "benchmark", "random"], params)
    assert (part.scores == whole.scores[[5, 17, 3]]).all()
    assert (part.length == whole.length[[5, 17, 3]]).all()


def test_step_refuses_a_bad_action_and_changes_no_game() -> None:
    params = batch.check_params(2, {})
    states = batch.init(np.arange(3, dtype=np.uint64), params)
    for _ in range(2):  # two deals: every game is at seat 0's roll-or-quit
        batch.step(states, [-1, -1, -1])
    before = [a.copy() for a in states._arrays()]
    with pytest.raises(IllegalActionError, match=r"game 1: action 9 .*legal: \[0, 1\]"):
        batch.step(states, [0, 9, 1])  # give black is not legal at a turn
    with pytest.raises(InvalidActionError, match="3 integers"):
        batch.step(states, [0, 1])
    with pytest.raises(InvalidActionError, match="-1 or ids"):
        batch.step(states, [0, 1, 5000])
    for old, new in zip(before, states._arrays(), strict=True):
        assert (old == new).all()
    batch.step(states, [0, 0, 0])  # rolls: now chance nodes
    with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
        batch.step(states, [-1, 400, -1])  # a deal id at a dice roll


def test_bad_parameters_and_policies_are_refused_d1() -> None:
    with pytest.raises(ParameterError, match="unknown LAMA Dice parameter"):
        batch.check_params(4, {"llamas": 3})
    with pytest.raises(ParameterError, match="number 1 is on"):
        batch.check_params(4, {"dice": ["LL3456", "LL3456", "1234LL"]})
    with pytest.raises(ParameterError, match="num_players"):
        batch.check_params(7, {})
    params = batch.check_params(2, {})
    with pytest.raises(ParameterError, match="unknown in-kernel policy 'search'"):
        batch.play([1], ["search", "random"], params)
    with pytest.raises(ParameterError, match="1 policies for 2 seats"):
        batch.play([1], ["random"], params)
    with pytest.raises(ParameterError, match="seeds"):
        batch.play([-1], ["random", "random"], params)


def test_an_empty_batch_is_empty_results_and_an_empty_step() -> None:
    """No seed is no game: init, masks, policies, step and play all work on zero games."""
    params = batch.check_params(3, {})
    states = batch.init([], params)
    assert states.batch_size == 0
    assert batch.legal_mask(states).shape == (0, 131)
    assert batch.policy_actions(states, ["random"] * 3).shape == (0,)
    batch.step(states, [])  # [] is float64 to NumPy: still no action for no game
    results, trace = batch.play_traced([], ["random"] * 3, params, capacity=4)
    assert results.scores.shape == (0, 3) and results.length.shape == (0,)
    assert trace.player.shape == (0, 4)
    with pytest.raises(InvalidActionError, match="1 integers, got shape"):
        batch.step(batch.init([1], params), [])


def test_params_without_num_players_are_refused() -> None:
    params = {k: v for k, v in batch.check_params(3, {}).items() if k != "num_players"}
    with pytest.raises(ParameterError, match="params has no num_players"):
        batch.play([1, 2], ["random"] * 3, params)
    with pytest.raises(ParameterError, match="params has no num_players"):
        batch.init([1, 2], params)
    with pytest.raises(ParameterError, match="params must be a dict"):
        batch.play([1], ["random"] * 3, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("policies", [None, "random", "abc", 3], ids=repr)
def test_policies_must_be_a_sequence_of_names(policies: object) -> None:
    """A single string is not taken for a list of one-letter policies; None is refused; the
    states and their policy streams are unchanged."""
    params = batch.check_params(3, {})
    with pytest.raises(ParameterError, match="policies must be a sequence of policy names"):
        batch.play([1, 2, 3], policies, params)  # type: ignore[arg-type]
    states = batch.init([1, 2, 3], params)
    batch.step(states, [-1, -1, -1])
    before = [a.copy() for a in states._arrays()]
    with pytest.raises(ParameterError, match="policies must be a sequence of policy names"):
        batch.policy_actions(states, policies)  # type: ignore[arg-type]
    for old, new in zip(before, states._arrays(), strict=True):
        assert (old == new).all()


@pytest.mark.parametrize("capacity", [2.5, -1, "3", True, None], ids=repr)
def test_capacity_must_be_a_non_negative_integer(capacity: object) -> None:
    params = batch.check_params(2, {})
    with pytest.raises(ParameterError, match="capacity must be a non-negative integer"):
        batch.play_traced([1], ["random"] * 2, params, capacity)  # type: ignore[arg-type]
    _, trace = batch.play_traced([1], ["random"] * 2, params, 3)
    assert trace.player.shape == (1, 3)
