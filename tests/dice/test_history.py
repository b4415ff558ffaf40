"""A LAMA Dice state's history: what ``history()`` returns along a game and across
clones and round trips, and that a long history gives the garbage collector nothing to
traverse (issue 16: every web action clones the state)."""

from __future__ import annotations

import gc
import random

from lamagames.dice import DiceGame
from lamagames.dice.state import DiceState


def play(state: DiceState, actions: int, seed: int = 3) -> list[tuple[int, int]]:
    """Apply ``actions`` actions (chance outcomes sampled, else a random legal action) in
    place; the ``(player, action)`` pairs applied."""
    rng = random.Random(seed)
    done: list[tuple[int, int]] = []
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcome = state.sample_chance_outcome(rng)
            state.apply_action(outcome)
            done.append((-1, outcome))
        else:
            player = state.current_player()
            action = rng.choice(state.legal_actions(player))
            state.apply_action(action, player)
            done.append((player, action))
    return done


def test_history_follows_the_game_and_clones_are_independent() -> None:
    game = DiceGame(num_players=3, end_score=1000)
    state = game.new_initial_state()
    done = play(state, 150)
    assert state.history() == done
    copy = state.clone()
    more = play(copy, 20, seed=4)
    assert copy.history() == done + more and state.history() == done
    child = state.child(state.legal_actions(state.current_player())[0])
    assert child.history()[:-1] == done and state.history() == done
    again = game.state_from_dict(state.to_dict())
    assert again.history() == done and again.to_dict() == state.to_dict()


def test_a_long_history_gives_the_garbage_collector_nothing_to_traverse() -> None:
    """After 600 actions, the objects the collector reaches from a state (one level
    below it) are as few as at the start: the history is not a list of tuples."""
    state = DiceGame(num_players=3, end_score=1000).new_initial_state()

    def reached(s: DiceState) -> int:
        return sum(len(gc.get_referents(part)) for part in gc.get_referents(s))

    start = reached(state)
    play(state, 600)
    assert len(state.history()) == 600
    assert reached(state) < start + 100
