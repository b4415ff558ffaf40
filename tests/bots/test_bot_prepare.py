"""``Bot.prepare``: drivers tell bots each new position so they can work ahead (issue 18)."""

from __future__ import annotations

import threading

from lamagames import make
from lamagames.bots.base import RandomBot
from lamagames.cli.warmup import AfterWarmUp, BackgroundWarmUp
from lamagames.core.game import State
from lamagames.sim.runner import play_game


class Recorder(RandomBot):
    """A random bot that records the seat to act at each ``prepare``."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.told: list[int] = []

    def prepare(self, state: State) -> None:
        self.told.append(state.current_player())


def test_base_bot_prepare_is_a_no_op() -> None:
    game = make("dice", num_players=2)
    bot = RandomBot(game, 0, 1)
    bot.prepare(game.new_initial_state())  # returns at once, changes nothing
    assert bot.preparing() is False


def test_play_game_prepares_bots_only_when_asked_and_plays_the_same_game() -> None:
    game = make("dice", num_players=2)
    quiet = [Recorder(game, s, 3) for s in range(2)]
    told = [Recorder(game, s, 3) for s in range(2)]
    plain = play_game(game, quiet, 3)
    ahead = play_game(game, told, 3, prepare=True)
    assert plain.state.history() == ahead.state.history()
    assert quiet[0].told == [] and quiet[1].told == []
    # Every bot hears of every decision, its own and the other seat's.
    assert len(told[0].told) == ahead.decisions == len(told[1].told)
    assert set(told[0].told) == {0, 1}


def test_play_game_tells_bots_of_a_position_before_the_observer_pauses() -> None:
    # The terminal's narrator (the observer) pauses after bot moves and deals: the bots must
    # already be working on the new position by then (D-5: a new round's deal).
    game = make("dice", num_players=2)
    told = [Recorder(game, s, 5) for s in range(2)]
    seen: list[tuple[int, int]] = []

    def observer(state: State, player: int, action: int) -> None:
        if not state.is_terminal() and state.current_player() >= 0:
            seen.append((len(told[0].told), len(told[1].told)))

    result = play_game(game, told, 5, observer=observer, prepare=True)
    assert len(seen) == result.decisions
    assert seen == [(n, n) for n in range(1, result.decisions + 1)]


def test_after_warm_up_passes_prepare_on_only_once_the_warm_up_is_done() -> None:
    game = make("dice", num_players=2)
    inner = Recorder(game, 0, 1)
    warm_up = BackgroundWarmUp(game, [], 1)  # no compiled kinds: nothing runs
    release = threading.Event()
    warm_up._thread = threading.Thread(target=release.wait, daemon=True)
    warm_up._thread.start()
    wrapped = AfterWarmUp(inner, warm_up, None)
    state = game.new_initial_state()
    wrapped.prepare(state)
    assert inner.told == []  # still warming up: nothing compiles concurrently
    release.set()
    warm_up.wait()
    wrapped.prepare(state)
    assert inner.told == [state.current_player()]
    assert wrapped.preparing() is False
