"""The Lama Express batch engine's interface: the ``lama simulate`` protocol (ENGINE), the
per-game seeds, the turn limit (E-11) and clear errors that leave states unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.express.batch import ENGINE, ExpressBatch, ExpressBatchState
from lamagames.sim.batch_protocol import BatchEngine, game_seeds

from .conftest import TINY_BOARD

TINY_FILE = Path(__file__).resolve().parents[1] / "data" / "tiny_board.json"


def snapshot(states: ExpressBatchState) -> list[np.ndarray]:
    return [a.copy() for a in states.arrays()]


def test_engine_follows_the_batch_protocol() -> None:
    assert isinstance(ENGINE, BatchEngine)
    assert ENGINE.game_id == "express"
    assert {"random", "benchmark"} <= set(ENGINE.policies)
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)


def test_check_params_fills_defaults_and_embeds_a_board_file() -> None:
    params = ENGINE.check_params(3, {})
    assert params == {
        "num_players": 3,
        "colours": ["yellow", "pink", "green"],
        "starting_seat": 0,
        "llamas_to_win": 4,
        "board": "standard",
        "turn_limit": 2000,
    }
    tiny = ENGINE.check_params(2, {"board": str(TINY_FILE), "short_game": True})
    assert tiny["board"]["track"] == TINY_BOARD["track"]
    assert tiny["llamas_to_win"] == 3  # E-10 short game


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"end_score": 40}, "unknown Lama Express parameter 'end_score'"),
        ({"short_game": True, "llamas_to_win": 4}, "contradicts"),
        ({"short_game": "yes"}, "short_game must be true or false"),
        ({"colours": ["green", "pink", "yellow"]}, "clockwise"),
        ({"turn_limit": 0}, "turn_limit"),
        ({"board": "/no/such/board.json"}, "board:"),
        ({"board": {"track": "RRR"}}, "board"),
    ],
)
def test_check_params_refuses_bad_variants(params: dict[str, object], needle: str) -> None:
    with pytest.raises(ParameterError, match=needle):
        ENGINE.check_params(3, params)


def test_results_of_a_game_depend_only_on_its_seed() -> None:
    """The determinism contract: any chunking gives the same games."""
    params = ENGINE.check_params(4, {"short_game": True})
    seeds = game_seeds(7, 0, 40)
    whole = ENGINE.play(seeds, ["benchmark", "random", "benchmark", "random"], params)
    first = ENGINE.play(seeds[:13], ["benchmark", "random", "benchmark", "random"], params)
    rest = ENGINE.play(seeds[13:], ["benchmark", "random", "benchmark", "random"], params)
    for name in ("scores", "wins", "length", "starter", "finished"):
        joined = np.concatenate([getattr(first, name), getattr(rest, name)])
        assert np.array_equal(getattr(whole, name), joined), name
    # E-10: one winner per finished game, with the short game's 3 llamas home.
    assert (whole.wins.sum(axis=1) == whole.finished).all()
    assert (whole.scores[whole.wins == 1] == 3).all()
    assert whole.scores.dtype == np.int32 and whole.wins.dtype == np.int8


def test_turn_limit_truncates_after_the_limit_rolls_turn() -> None:
    """E-11: the game stops, without a winner, once the limit-th roll's turn is over."""
    engine = ExpressBatch(num_players=2, turn_limit=5)
    states = engine.init(np.arange(20))
    engine.play(states, ["benchmark", "benchmark"])
    assert (states.rolls == 5).all()
    assert (states.winner == -1).all() and states.done().all()
    assert engine.to_state(states, 0).is_truncated()


def test_illegal_action_is_refused_and_no_game_changes() -> None:
    engine = ExpressBatch(num_players=2, board=TINY_BOARD)
    states = engine.init(np.arange(5))
    mask = engine.legal_mask(states)
    actions = mask.argmax(axis=1)
    actions[3] = np.flatnonzero(~mask[3])[-1]  # an id that is not legal for game 3
    before = snapshot(states)
    with pytest.raises(IllegalActionError, match="game 3"):
        engine.step(states, actions)
    assert all(np.array_equal(a, b) for a, b in zip(before, states.arrays(), strict=True))


@pytest.mark.parametrize("actions", [[0, 0], [[0, 0, 0]], [0.5, 0, 0]])
def test_malformed_actions_are_refused(actions: object) -> None:
    engine = ExpressBatch(num_players=2)
    states = engine.init([1, 2, 3])
    before = snapshot(states)
    with pytest.raises(InvalidActionError, match="one per game"):
        engine.step(states, actions)  # type: ignore[arg-type]
    assert all(np.array_equal(a, b) for a, b in zip(before, states.arrays(), strict=True))


def test_bad_arguments_name_what_is_wrong() -> None:
    engine = ExpressBatch(num_players=2)
    with pytest.raises(ParameterError, match="seeds"):
        engine.init([[1, 2]])
    with pytest.raises(ParameterError, match="seeds"):
        engine.init([0.5])
    with pytest.raises(ParameterError, match="policies"):
        engine.play(engine.init([1]), ["benchmark", "greedy"])
    with pytest.raises(ParameterError, match="num_players"):
        ExpressBatch(num_players=5)
    with pytest.raises(ParameterError, match="turn_limit"):
        ExpressBatch(turn_limit=None)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="board"):
        ExpressBatch(board=TINY_FILE.parent / "missing.json")


def test_finished_games_ignore_their_action() -> None:
    engine = ExpressBatch(num_players=2, turn_limit=1)
    states = engine.init(np.arange(4))
    engine.play(states, ["random", "random"])
    before = snapshot(states)
    engine.step(states, np.full(4, 42))
    assert all(np.array_equal(a, b) for a, b in zip(before, states.arrays(), strict=True))


def test_an_empty_batch_is_empty_results_and_an_empty_step() -> None:
    """No seed is no game ([] is float64 to NumPy): init, step, play and from_state work on
    zero games."""
    engine = ExpressBatch(num_players=2)
    states = engine.init([])
    assert len(states) == 0 and engine.legal_mask(states).shape == (0, 43)
    engine.step(states, [])
    engine.play(states, ["random", "random"])
    assert len(engine.from_state(engine.game.new_initial_state(), 0, [])) == 0
    results = ENGINE.play([], ["random", "random"], ENGINE.check_params(2, {}))  # type: ignore[arg-type]
    assert results.scores.shape == (0, 2) and results.length.shape == (0,)
    with pytest.raises(InvalidActionError, match="one per game"):
        engine.step(engine.init([1]), [])


@pytest.mark.parametrize("policies", [None, "random", "rr", 3], ids=repr)
def test_policies_must_be_a_sequence_of_names(policies: object) -> None:
    """A single string is not taken for a list of one-letter policies; None is refused; no
    game changes."""
    engine = ExpressBatch(num_players=2)
    states = engine.init([1, 2, 3])
    before = snapshot(states)
    with pytest.raises(ParameterError, match="policies must be a sequence of policy names"):
        engine.play(states, policies)  # type: ignore[arg-type]
    assert all(np.array_equal(a, b) for a, b in zip(before, states.arrays(), strict=True))
    params = ENGINE.check_params(2, {})
    with pytest.raises(ParameterError, match="policies must be a sequence of policy names"):
        ENGINE.play(np.array([1], np.uint64), policies, params)  # type: ignore[arg-type]


def test_engine_play_refuses_params_that_are_not_a_mapping() -> None:
    with pytest.raises(ParameterError, match="params must be a dict"):
        ENGINE.play(np.array([1], np.uint64), ["random", "random"], None)  # type: ignore[arg-type]
