"""PettingZoo adapter: the upstream api_test and seed_test, turn order, dead agents, bad input."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test

from lamagames.core.errors import IllegalActionError, InvalidActionError
from lamagames.express import ExpressState
from lamagames.express.rules import Phase
from lamagames.rl.pettingzoo import LamaAECEnv, make_env

# PettingZoo warns about dict observations for every environment it does not know by name;
# an action mask inside the observation is its documented convention, so these two are noise.
_DICT_OBS_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


def _upstream(check: Callable[[], None]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(_DICT_OBS_WARNINGS)
    ]
    assert unexpected == []


CASES = [("dice", n) for n in (2, 3, 4, 5, 6)] + [("express", n) for n in (2, 3, 4)]
ENVS: dict[str, Callable[..., Any]] = {
    game: functools.partial(make_env, game) for game in ("dice", "express")
}


@pytest.mark.parametrize(("game", "players"), CASES)
def test_pettingzoo_api_test(game: str, players: int) -> None:
    env = ENVS[game](num_players=players)
    _upstream(lambda: api_test(env, num_cycles=300))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_pettingzoo_seed_test(game: str, players: int) -> None:
    _upstream(lambda: seed_test(lambda: ENVS[game](num_players=players), num_cycles=100))


def _play(env: LamaAECEnv, seed: int, policy_seed: int = 0) -> list[tuple[str, int | None]]:
    """Play one game with random masked actions, checking at every step that the selected
    agent is the engine's current player; return the (agent, action) sequence."""
    rng = np.random.default_rng(policy_seed)
    env.reset(seed=seed)
    steps: list[tuple[str, int | None]] = []
    while env.agents:
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert env.lama_state.is_terminal() or truncated
            env.step(None)
            steps.append((agent, None))
            continue
        state = env.lama_state
        assert agent == f"player_{state.current_player()}"
        assert np.flatnonzero(obs["action_mask"]).tolist() == state.legal_actions()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        steps.append((agent, action))
    return steps


def test_dice_selection_follows_the_engine_and_quit_seats_come_back() -> None:
    # D-6/D-7: a seat that quit is skipped for the rest of the round, and plays again in the
    # next round; it is never terminated before the game ends (PettingZoo dead agents).
    env = LamaAECEnv("dice", {"num_players": 4})
    quit_then_acted_next_round = 0
    for seed in range(12):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        quitters: dict[int, int] = {}  # seat -> round it quit
        while not any(env.terminations.values()):
            state = env.lama_state
            seat = state.current_player()
            assert env.agent_selection == f"player_{seat}"
            assert not state.observation(seat)["quit"][seat]
            round_ = state.observation(seat)["round"]
            if seat in quitters and quitters[seat] < round_:
                quit_then_acted_next_round += 1
                del quitters[seat]
            assert quitters.get(seat) != round_, "a seat that quit was asked again this round"
            legal = state.legal_actions()
            action = int(rng.choice(legal))
            if action == 1 and legal == [0, 1]:  # quit (D-7)
                quitters[seat] = round_
            env.step(action)
            assert not any(env.truncations.values())
        assert all(env.terminations.values())
        assert len(env.agents) == 4
    assert quit_then_acted_next_round > 0


@pytest.mark.parametrize("players", [2, 4])
def test_express_windows_are_aec_turns_in_asking_order(players: int) -> None:
    # E-9 turn by turn: the selected agent is the seat the engine asks; windows select seats
    # other than the active player.
    env = LamaAECEnv("express", {"num_players": players})
    steps = _play(env, seed=players)
    assert any(a is None for _, a in steps)
    env.reset(seed=players)
    asked_others = 0
    rng = np.random.default_rng(0)
    for _ in range(400):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        state = env.lama_state
        assert isinstance(state, ExpressState)
        if state.phase() == Phase.WINDOW and state.current_player() != state.active_player():
            asked_others += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert asked_others > 0


@pytest.mark.parametrize(("game", "players"), [("dice", 3), ("express", 2)])
def test_game_end_terminates_everyone_and_dead_agents_step_none(game: str, players: int) -> None:
    env = LamaAECEnv(game, {"num_players": players})
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    returns = env.lama_state.returns()
    done = env.terminations if any(env.terminations.values()) else env.truncations
    assert all(done.values())
    with pytest.raises(ValueError, match="None"):
        env.step(0)
    seen = {}
    while env.agents:
        agent = env.agent_selection
        _, reward, _, _, _ = env.last()
        seen[agent] = reward
        env.step(None)
    assert seen == {f"player_{s}": returns[s] for s in range(players)}


@pytest.mark.parametrize("game", ["dice", "express"])
def test_illegal_and_malformed_actions_are_refused_and_nothing_changes(game: str) -> None:
    env = LamaAECEnv(game, {})
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.lama_state.to_dict()
    observation = env.observe(agent)
    mask = observation["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="legal: "):
        env.step(illegal)
    for bad in (10_000, -1, 1.5, True, None, "roll"):
        with pytest.raises(InvalidActionError):
            env.step(bad)
    assert env.lama_state.to_dict() == before
    assert env.agent_selection == agent
    np.testing.assert_array_equal(env.observe(agent)["action_mask"], mask)
    assert env._cumulative_rewards == dict.fromkeys(env.agents, 0.0)


@pytest.mark.parametrize("game", ["dice", "express"])
def test_same_seed_same_game_and_other_seed_other_game(game: str) -> None:
    env = LamaAECEnv(game, {"num_players": 3})
    first = _play(env, seed=17)
    history = env.lama_state.history()
    again = _play(env, seed=17)
    assert again == first
    assert env.lama_state.history() == history
    _play(env, seed=18)
    assert env.lama_state.history() != history


def test_max_game_length_truncates_every_agent() -> None:
    env = LamaAECEnv("express", {"num_players": 2}, max_game_length=5)
    env.reset(seed=0)
    for _ in range(5):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert all(env.truncations.values())
    assert not any(env.terminations.values())
    assert all(r == 0.0 for r in env.rewards.values())


def test_render_ansi_and_parameters() -> None:
    env = LamaAECEnv("dice", {"num_players": 2}, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text
    express = LamaAECEnv("express", {"num_players": 3}, render_mode="ansi")
    express.reset(seed=0)
    assert isinstance(express.render(), str)
    assert express.game.params["turn_limit"] == 1000
    assert LamaAECEnv("express", {"turn_limit": None}).game.params["turn_limit"] is None
    assert str(make_env("dice").unwrapped) == "lama_dice_v0"
    with pytest.raises(ValueError, match="num_players"):
        LamaAECEnv("dice", {"num_players": 9})
    with pytest.raises(ValueError, match="render_mode"):
        LamaAECEnv("dice", {}, render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_game_length"):
        LamaAECEnv("dice", {}, max_game_length=0)


@settings(max_examples=15, deadline=None)
@given(
    game=st.sampled_from(["dice", "express"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_property_selection_is_always_the_engine_current_player(
    game: str, players: int, seed: int
) -> None:
    # Invariant (E-9 asking order, D-6 skipping quit seats): whatever the seed and the
    # actions, the selected agent is the engine's current player and its mask its legal
    # actions, until every agent has left after the game's end.
    env = LamaAECEnv(
        game, {"num_players": players, **({"turn_limit": 40} if game == "express" else {})}
    )
    steps = _play(env, seed=seed, policy_seed=seed)
    assert [a for a, act in steps if act is None] != []
    assert env.agents == []


@pytest.mark.parametrize("game", ["dice", "express"])
def test_pettingzoo_render_test(game: str) -> None:
    # issue 20: render_test builds the env with render_mode="human" (and every mode listed)
    render_test(lambda render_mode=None: make_env(game, render_mode=render_mode))


def test_human_render_prints_the_text_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = make_env("dice", num_players=2, render_mode="human")
    env.reset(seed=3)
    assert env.render() is None
    printed = capsys.readouterr().out
    ansi = LamaAECEnv("dice", {"num_players": 2}, render_mode="ansi")
    ansi.reset(seed=3)
    assert printed == f"{ansi.render()}\n" and "player_0" in printed
