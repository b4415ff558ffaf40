"""The documented action space, notation, observation and observation tensor layout."""

from __future__ import annotations

import numpy as np
import pytest

from lamagames.core.game import CHANCE_PLAYER
from lamagames.dice import DiceGame
from lamagames.dice.rules import Phase
from tests.dice.helpers import act, make_state


@pytest.mark.parametrize("num_players", range(2, 7))
def test_game_info(num_players: int) -> None:
    info = DiceGame(num_players=num_players).info
    assert info.game_id == "dice"
    assert info.num_players == num_players
    assert (info.min_players, info.max_players) == (2, 6)
    assert info.num_distinct_actions == 131
    assert info.max_chance_outcomes == 343 + 924
    assert info.observation_shape == (10 * num_players + 36,)


@pytest.mark.parametrize(
    ("action", "notation"),
    [
        (0, "roll"),
        (1, "quit"),
        (2, "take 1"),
        (7, "take 6"),
        (8, "take L"),
        (9, "give black"),
        (10, "give white"),
        (11, "give none"),
        (12, "discard 1"),
        (18, "discard L"),
        (19, "discard 1 1"),
        (130, "discard L L L"),
    ],
)
def test_player_action_ids_and_notation(action: int, notation: str) -> None:
    state = make_state(["1", "2"])
    assert state.action_to_string(action) == notation
    assert state.string_to_action(notation) == action


def test_every_player_action_has_distinct_notation() -> None:
    state = make_state(["1", "2"])
    texts = [state.action_to_string(a) for a in range(131)]
    assert len(set(texts)) == 131
    assert all(state.string_to_action(t) == a for a, t in enumerate(texts))
    discards = [t for t in texts if t.startswith("discard")]
    assert len(discards) == 7 + 28 + 84  # multisets of 1, 2 and 3 symbols


@pytest.mark.parametrize(
    ("outcome", "notation"),
    [(0, "dice 1 1 1"), (2 * 49 + 4 * 7 + 6, "dice 3 5 L"), (342, "dice L L L")],
)
def test_roll_ids_and_notation(outcome: int, notation: str) -> None:
    state = act(make_state(["1", "2"]), "roll")
    assert state.action_to_string(outcome) == notation
    assert state.string_to_action(notation) == outcome


def test_deal_ids_and_notation() -> None:
    state = DiceGame(num_players=2).new_initial_state()
    ids = [a for a, _ in state.chance_outcomes()]
    assert min(ids) >= 343
    texts = [state.action_to_string(a) for a in ids]
    assert all(t.startswith("deal ") and len(t) == len("deal ") + 6 for t in texts)
    assert state.string_to_action("deal L53211") == state.string_to_action("deal 11235L")


def test_observation_contents() -> None:
    state = make_state(
        ["3 3 3 L 5", "1 2", "6"],
        llama_row="1 2 4 L",
        scores=[23, 0, 7],
        quit=[False, False, True],
        player=0,
        starter=1,
    )
    act(state, "roll", "dice 3 L 3")
    observation = state.observation(1)
    assert observation["round"] == 1
    assert observation["phase"] == "discard"
    assert observation["current_player"] == 0
    assert observation["starter"] == 1
    assert observation["dice"] == ["3", "L", "3"]
    assert observation["llama_row"] == ["1", "2", "4", "L"]
    assert observation["rows"] == [["3", "3", "3", "5", "L"], ["1", "2"], ["6"]]
    assert observation["row_scores"] == [18, 3, 6]
    assert observation["quit"] == [False, False, True]
    assert observation["scores"] == [23, 0, 7]
    assert observation["chips"] == [[2, 3], [0, 0], [0, 7]]
    assert observation["setaside_count"] + observation["discard_count"] == 43 - 4 - 5 - 2 - 1
    assert observation["legal_actions"] == []  # seat 1 is not to act
    assert "discard 3 3 L" in state.observation(0)["legal_actions"]
    assert observation["winners"] == []


def test_observation_tensor_layout() -> None:
    state = make_state(
        ["3 3 3 L 5", "1 2", "6"],
        llama_row="1 2 4 L",
        scores=[23, 0, 7],
        quit=[False, False, True],
        player=0,
    )
    act(state, "roll", "dice 3 L 3")
    assert state.phase == Phase.DISCARD
    tensor = state.observation_tensor(1)
    assert tensor.dtype == np.float32
    assert tensor.shape == (66,)
    # Seats rotated so the observer (seat 1) comes first: seat 1, seat 2, seat 0.
    np.testing.assert_allclose(tensor[0:10], [1, 1, 0, 0, 0, 0, 0, 0, 0.0, 0])
    np.testing.assert_allclose(tensor[10:20], [0, 0, 0, 0, 0, 1, 0, 1, 0.7, 0])
    np.testing.assert_allclose(tensor[20:30], [0, 0, 3, 0, 1, 0, 1, 0, 2.3, 1])
    np.testing.assert_allclose(tensor[30:37], [1, 1, 0, 1, 0, 0, 1])  # llama row
    dice = tensor[37:58].reshape(3, 7)
    assert dice.argmax(axis=1).tolist() == [2, 6, 2] and dice.sum() == 3  # 3 L 3
    phase = tensor[58:66]
    assert phase.argmax() == Phase.DISCARD and phase.sum() == 1


def test_observation_tensor_without_a_roll() -> None:
    state = make_state(["1", "2"])
    tensor = state.observation_tensor(0)
    assert tensor[27:48].sum() == 0  # no dice shown
    assert tensor[48 + Phase.TURN] == 1


def test_current_player_selects_the_notation_at_chance_nodes() -> None:
    # The OpenSpiel idiom action_to_string(action, state.current_player()) passes -1 at a
    # chance node: that must give chance notation, as apply_action(action, -1) applies one.
    state = act(make_state(["1", "2"]), "roll")
    player = state.current_player()
    assert player == CHANCE_PLAYER
    outcome = state.string_to_action("dice 3 5 L")
    assert state.action_to_string(outcome, player) == "dice 3 5 L"
    assert state.string_to_action("dice 3 5 L", player) == outcome
    deal = DiceGame(num_players=2).new_initial_state()
    first = deal.legal_actions()[0]
    assert deal.action_to_string(first, CHANCE_PLAYER) == deal.action_to_string(first)
    # A seat's id selects player notation wherever it is asked.
    assert state.action_to_string(0, 0) == "roll"
    assert state.string_to_action("quit", 1) == 1
