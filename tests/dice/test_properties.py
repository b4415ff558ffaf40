"""Hypothesis properties of the LAMA Dice engine over random games.

Each example plays one game from a random seed: 2..6 players, standard or alternative dice
(D-1), a random starting seat (D-5), a random end score (D-11) and a random quit rate; at
chance nodes the engine's sampler draws, at seats a uniformly random legal action is taken.
Every property is checked at every step. The default profile is small; the ``slow``
variants (``pytest -m slow``) run many more examples.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lamagames.core.game import CHANCE_PLAYER, TERMINAL_PLAYER
from lamagames.core.records import parse_record, record_from_state, replay
from lamagames.dice import STANDARD_DICE, DiceGame
from lamagames.dice.rules import Phase
from lamagames.dice.state import DiceState
from tests.dice.helpers import SYMBOLS, TOTAL_COPIES, counts

ALTERNATIVE_DICE = ("2345LL", "1346LL", "1256LL")
#: Steps per game at most (a safety net; games end far sooner).
MAX_STEPS = 5000

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
THOROUGH = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Config:
    seed: int
    num_players: int
    starting_seat: int
    end_score: int
    quit_rate: float
    dice: tuple[str, ...]

    def game(self) -> DiceGame:
        return DiceGame(
            num_players=self.num_players,
            dice=self.dice,
            end_score=self.end_score,
            starting_seat=self.starting_seat % self.num_players,
        )


configs = st.builds(
    Config,
    seed=st.integers(0, 2**32 - 1),
    num_players=st.integers(2, 6),
    starting_seat=st.integers(0, 5),
    end_score=st.sampled_from([5, 20, 40]),
    quit_rate=st.sampled_from([0.02, 0.15, 0.5]),
    dice=st.sampled_from([STANDARD_DICE, ALTERNATIVE_DICE]),
)


@dataclass
class Step:
    """One applied action: the state before (a copy), who acted, what, and the state after."""

    before: DiceState
    player: int
    action: int
    after: DiceState


def random_play(config: Config) -> Iterator[Step]:
    """Play one random game, yielding every step (the final state is the last ``after``)."""
    rng = random.Random(config.seed)
    state = config.game().new_initial_state()
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return
        before = state.clone()
        player = state.current_player()
        if player == CHANCE_PLAYER:
            action = state.sample_chance_outcome(rng)
        else:
            actions = state.legal_actions()
            if 1 in actions and rng.random() < config.quit_rate:  # 1 = quit
                action = 1
            else:
                choices = [a for a in actions if a != 1] or actions
                action = rng.choice(choices)
        state.apply_action(action)
        yield Step(before, player, action, state)
    pytest.fail(f"game not over after {MAX_STEPS} steps: {config}")


def every_state(config: Config) -> Iterator[DiceState]:
    """The initial state and the state after each step (copies)."""
    first = True
    for step in random_play(config):
        if first:
            yield step.before
            first = False
        yield step.after.clone()


def points(row: list[int]) -> int:
    """Minus points of a row, written from D-10: distinct numbers once, 10 for any llama."""
    return sum(s + 1 for s in range(6) if row[s]) + (10 if row[6] else 0)


# ------------------------------------------------------------------------------ properties


def cards_are_conserved(config: Config) -> None:
    """D-3: the 43 cards are always in the llama row, a row, the discard pile or set aside."""
    for state in every_state(config):
        places = [state.llama_row, state.setaside, state.discards, *state.rows]
        assert all(n >= 0 for place in places for n in place)
        assert all(n <= 1 for n in state.llama_row)
        total = [sum(place[s] for place in places) for s in range(7)]
        assert total == list(TOTAL_COPIES)


def table_at_scoring(step: Step) -> tuple[list[list[int]], list[int]]:
    """Rows and llama row as the round-ending action left them (a new deal clears them)."""
    before = step.before
    rows = [list(r) for r in before.rows]
    llama_row = list(before.llama_row)
    verb, _, rest = before.action_to_string(step.action).partition(" ")
    if verb == "discard":
        for s, n in enumerate(counts(rest)):
            rows[step.player][s] -= n
    elif verb == "take":
        rows[step.player][SYMBOLS.index(rest)] += 1
        llama_row[SYMBOLS.index(rest)] = 0
    elif verb == "dice":  # a bust (D-8.4, D-8.5): the roller takes the whole llama row
        roller = before.to_dict()["player"]
        rows[roller] = [a + b for a, b in zip(rows[roller], llama_row, strict=True)]
        llama_row = [0] * 7
    return rows, llama_row


def scores_change_only_by_scoring_and_give_backs(config: Config) -> None:
    """D-10 / D-4: scores grow only when a round is scored, by the row scores, and shrink
    only by a chip given back (1 or 10 points), never below 0. Rounds end exactly on D-9."""
    for step in random_play(config):
        before, after = step.before, step.after
        diff = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
        assert min(after.scores) >= 0
        notation = before.action_to_string(step.action)
        scored = len(after.round_points) - len(before.round_points)
        assert scored in (0, 1)
        if notation.startswith("give"):
            assert scored == 0
            expected = {"give black": -10, "give white": -1, "give none": 0}[notation]
            assert diff == [expected if seat == step.player else 0 for seat in range(len(diff))]
        elif scored:
            rows, llama_row = table_at_scoring(step)
            assert after.round_points[-1] == [points(r) for r in rows]
            assert diff == after.round_points[-1]
            all_quit = notation == "quit" and all(
                q or seat == step.player for seat, q in enumerate(before.quit)
            )
            assert any(not any(r) for r in rows) or not any(llama_row) or all_quit  # D-9
        else:
            assert diff == [0] * len(diff)
            if after.phase != Phase.DEAL:  # mid-round: no D-9 condition holds
                assert all(any(r) for r in after.rows)
                assert any(after.llama_row)
                assert not all(after.quit)


def records_replay_exactly(config: Config) -> None:
    """record -> JSON text -> parse_record -> replay gives the same state (also mid-game)."""
    steps = list(random_play(config))
    final = steps[-1].after
    cut = random.Random(config.seed).randrange(len(steps))
    for state in (final, steps[cut].before):
        seats = [(f"seat {i}", "random") for i in range(config.num_players)]
        text = record_from_state(state, seats, seed=config.seed).to_json()
        assert replay(parse_record(text)) == state


def notation_round_trips(config: Config) -> None:
    """string_to_action(action_to_string(a)) == a for every legal action, chance included."""
    for state in every_state(config):
        if state.is_terminal():
            continue
        player = state.current_player()  # CHANCE_PLAYER at chance nodes
        for action in state.legal_actions():
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action, text
            assert state.action_to_string(action, player) == text
            assert state.string_to_action(text, player) == action


def state_dict_round_trips(config: Config) -> None:
    """state_from_dict(to_dict(s)) == s, through JSON text too, and the copy plays on alike."""
    game = config.game()
    for step in random_play(config):
        state = step.before
        data = state.to_dict()
        copy = game.state_from_dict(json.loads(json.dumps(data)))
        assert copy == state
        assert copy.to_dict() == data
        assert copy.legal_actions() == state.legal_actions()
        copy.apply_action(step.action)
        assert copy == step.after


def chance_outcomes_are_distributions(config: Config) -> None:
    """At chance nodes the probabilities sum to 1 and the sampler draws one of the outcomes."""
    rng = random.Random(config.seed ^ 0x5EED)
    for state in every_state(config):
        if not state.is_chance_node():
            continue
        outcomes = state.chance_outcomes()
        ids = [a for a, _ in outcomes]
        assert len(set(ids)) == len(ids)
        assert all(0.0 < p <= 1.0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
        assert state.legal_actions() == sorted(ids)
        for _ in range(3):
            assert state.sample_chance_outcome(rng) in ids


def masks_agree_with_legal_actions(config: Config) -> None:
    """legal_actions_mask marks exactly legal_actions, for the mover and for every seat."""
    info = config.game().info
    for state in every_state(config):
        mask = state.legal_actions_mask()
        size = info.max_chance_outcomes if state.is_chance_node() else info.num_distinct_actions
        assert mask.shape == (size,)
        assert mask.dtype == np.bool_
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
        mover = state.current_player()
        for seat in range(config.num_players):
            seat_legal = state.legal_actions(seat)
            assert (seat_legal == state.legal_actions()) if seat == mover else seat_legal == []
            seat_mask = state.legal_actions_mask(seat)
            assert seat_mask.shape == (info.num_distinct_actions,)
            assert np.flatnonzero(seat_mask).tolist() == seat_legal
        if mover == TERMINAL_PLAYER:
            assert state.legal_actions() == []


def observations_have_the_declared_shape(config: Config) -> None:
    """observation_tensor has info.observation_shape and dtype float32; observation is JSON."""
    info = config.game().info
    for state in every_state(config):
        for seat in range(config.num_players):
            tensor = state.observation_tensor(seat)
            assert tensor.shape == info.observation_shape
            assert tensor.dtype == np.float32
            assert np.isfinite(tensor).all()
            observation = state.observation(seat)
            json.dumps(observation)
            legal = [state.action_to_string(a, seat) for a in state.legal_actions(seat)]
            assert observation["legal_actions"] == legal


def terminal_returns_reward_the_lowest_scores(config: Config) -> None:
    """D-11: at the end a score reached end_score; winners have the lowest score."""
    final = list(random_play(config))[-1].after
    assert final.is_terminal()
    assert max(final.scores) >= config.end_score
    low = min(final.scores)
    assert final.returns() == [1.0 if s == low else 0.0 for s in final.scores]


PROPERTIES: dict[str, Callable[[Config], None]] = {
    f.__name__: f
    for f in (
        cards_are_conserved,
        scores_change_only_by_scoring_and_give_backs,
        records_replay_exactly,
        notation_round_trips,
        state_dict_round_trips,
        chance_outcomes_are_distributions,
        masks_agree_with_legal_actions,
        observations_have_the_declared_shape,
        terminal_returns_reward_the_lowest_scores,
    )
}


@pytest.mark.parametrize("check", PROPERTIES.values(), ids=list(PROPERTIES))
@FAST
@given(config=configs)
def test_random_play(check: Callable[[Config], None], config: Config) -> None:
    check(config)


@pytest.mark.slow
@pytest.mark.parametrize("check", PROPERTIES.values(), ids=list(PROPERTIES))
@THOROUGH
@given(config=configs)
def test_random_play_thorough(check: Callable[[Config], None], config: Config) -> None:
    check(config)


def test_dice_sampler_matches_the_probabilities() -> None:
    """The fast dice sampler draws with the probabilities of chance_outcomes (D-1)."""
    game = DiceGame(num_players=2)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.phase == Phase.DEAL:
        state.apply_action(state.sample_chance_outcome(rng))
    state.apply_action(state.string_to_action("roll"))
    probabilities = dict(state.chance_outcomes())
    n = 20_000
    draws = [state.sample_chance_outcome(rng) for _ in range(n)]
    three_llamas = state.string_to_action("dice L L L")
    frequency = draws.count(three_llamas) / n
    assert abs(frequency - probabilities[three_llamas]) < 4 * math.sqrt(1 / 27 / n)
    # Die A shows a llama with probability 1/3.
    llama_on_a = sum(1 for d in draws if state.action_to_string(d).split()[1] == "L") / n
    assert abs(llama_on_a - 1 / 3) < 4 * math.sqrt(2 / 9 / n)
