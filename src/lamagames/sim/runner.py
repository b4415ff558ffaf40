"""Play games between bots through the public protocol, reproducibly from a seed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lamagames.bots.base import Bot
from lamagames.core.errors import LamaError
from lamagames.core.game import Game, State
from lamagames.core.rng import make_rng

#: Called after every applied action with ``(state, player, action)``; player -1 is chance.
Observer = Callable[[State, int, int], None]


@dataclass(slots=True)
class GameResult:
    """Outcome of one simulated game.

    Attributes:
        state: the final state (terminal, or stopped by ``max_actions``).
        decisions: actions chosen by seats (chance outcomes not counted).
        chance_events: chance outcomes applied.
    """

    state: State
    decisions: int
    chance_events: int


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    *,
    observer: Observer | None = None,
    max_actions: int | None = None,
    prepare: bool = False,
) -> GameResult:
    """Play one game to the end with one bot per seat.

    Chance outcomes are drawn from ``make_rng(seed, "chance")``; each bot owns its stream, so
    the same seed and bots give the same game. When several seats may act at once (E-9), the
    current player acts (turn-by-turn window asking).

    Args:
        game: the game to play.
        bots: one bot per seat, ``bots[i].seat == i``.
        seed: root seed of the chance stream.
        observer: optional callback after each action.
        prepare: tell every bot each new decision position (:meth:`Bot.prepare`) so it
            can work ahead in the background (interactive play, where narration pauses and
            people think; the moves are the same either way). Bots are told as soon as the
            action leading there is applied, before ``observer`` runs, so a pause the
            observer makes (the terminal's narration after a bot move or a roll, a new
            round's deal) already counts as time to work. Off for simulations: work ahead
            that is never used would only cost time.
        max_actions: stop early after this many actions (chance included); ``None``: no limit.

    Raises:
        LamaError: ``bots`` does not match the seats, or a bot returned an illegal action.
    """
    if len(bots) != game.num_players or any(b.seat != i for i, b in enumerate(bots)):
        raise LamaError("play_game needs one bot per seat, in seat order")
    chance_rng = make_rng(seed, "chance")
    state = game.new_initial_state()
    decisions = 0
    chance_events = 0
    steps = 0
    while not state.is_terminal():
        if max_actions is not None and steps >= max_actions:
            break
        player = state.current_player()
        if prepare and steps == 0 and player >= 0:  # a game that starts with a decision
            for bot in bots:
                bot.prepare(state)
        if player < 0:
            action = state.sample_chance_outcome(chance_rng)
            chance_events += 1
        else:
            action = bots[player].step(state)
            decisions += 1
        state.apply_action(action)
        steps += 1
        if prepare and not state.is_terminal() and state.current_player() >= 0:
            for bot in bots:  # before the observer: its pause (narration) is time to work
                bot.prepare(state)
        if observer is not None:
            observer(state, player, action)
    return GameResult(state=state, decisions=decisions, chance_events=chance_events)
