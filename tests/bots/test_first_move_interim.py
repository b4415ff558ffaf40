"""Issue 19: a first bot move on a cold install waits at most about 3 s. A bot that cannot
decide interpreted (``exact`` with two seats) waits for the warm-up at most
:data:`~lamagames.bots.warmup.INTERIM_AFTER` seconds from the position told, then plays its
:meth:`~lamagames.bots.base.Bot.interim_step`; the web server wraps a bot with the warm-up
of the code it runs (:meth:`~lamagames.bots.base.Bot.warm_kind`), and a kind's warm-up
leaves the code of another kind to that kind's warm-up (``elsewhere``)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from lamagames import make
from lamagames.bots import make_bot, warmup
from lamagames.bots.base import Bot
from lamagames.bots.dice_search import DiceSearchBot
from lamagames.bots.warmup import AfterWarmUp, BackgroundWarmUp, decision_for
from lamagames.core.game import Game, State
from lamagames.dice.actions import GIVE_BLACK, GIVE_WHITE
from lamagames.dice.game import as_dice_state
from lamagames.dice.rules import Phase


class _Waiter(Bot):
    """Cannot decide interpreted; its step plays the first legal action, its interim step
    the last one (or none)."""

    kind = "waiter"

    def __init__(self, game: Game, seat: int, interim: bool) -> None:
        super().__init__(game, seat)
        self.interim = interim
        self.steps = 0

    def step(self, state: State) -> int:
        self.steps += 1
        return state.legal_actions(self.seat)[0]

    def interim_step(self, state: State) -> int | None:
        return state.legal_actions(self.seat)[-1] if self.interim else None


def _running_warm_up(game: Game) -> tuple[BackgroundWarmUp, threading.Event]:
    """A warm-up that runs (compiling, a cold cache) until the event is set."""
    warm_up = BackgroundWarmUp(game, [], 1)  # no compiled kinds: nothing runs
    release = threading.Event()
    warm_up._thread = threading.Thread(target=release.wait, daemon=True)
    warm_up._thread.start()
    warm_up.compiling.set()
    return warm_up, release


def _turn(game: Game, seed: int = 1) -> State:
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.sample_chance_outcome(random.Random(seed)))
    return state


def test_a_waiting_bot_plays_its_interim_step_once_it_has_waited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(warmup, "INTERIM_AFTER", 0.05)
    game = make("dice", num_players=2)
    state = _turn(game)
    legal = state.legal_actions(state.current_player())
    assert len(legal) > 1
    warm_up, release = _running_warm_up(game)
    bot = _Waiter(game, state.current_player(), interim=True)
    assert AfterWarmUp(bot, warm_up, None).step(state) == legal[-1]
    assert bot.steps == 0 and warm_up.running  # the code still compiles
    # a bot without an interim step waits for the warm-up
    unable = _Waiter(game, state.current_player(), interim=False)
    waiting = threading.Thread(target=AfterWarmUp(unable, warm_up, None).step, args=(state,))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive() and unable.steps == 0
    release.set()
    waiting.join(10)
    assert unable.steps == 1
    # once the code is ready: the real decision
    assert AfterWarmUp(bot, warm_up, None).step(state) == legal[0]


def test_the_wait_counts_from_the_first_position_told_of_the_bots_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot's roll and its discard are one run: the second decision does not wait the
    whole time again; a position where another seat acts ends the run."""
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])  # the warm-up module's clock
    game = make("dice", num_players=2)
    warm_up, release = _running_warm_up(game)
    turn = _turn(game)
    seat = turn.current_player()
    after = AfterWarmUp(_Waiter(game, seat, interim=True), warm_up, None)
    assert after._interim_wait() == warmup.INTERIM_AFTER  # nothing told: from now
    after.prepare(turn)  # told at 100 (the web table's bot pause follows)
    clock[0] = 100.25
    assert after._interim_wait() == pytest.approx(warmup.INTERIM_AFTER - 0.25)
    clock[0] = 100.5
    after.prepare(turn)  # its next position (after its roll): the same run
    assert after._interim_wait() == pytest.approx(warmup.INTERIM_AFTER - 0.5)
    clock[0] = 100.0 + 10 * warmup.INTERIM_AFTER
    assert after._interim_wait() == 0.0
    other = _turn(make("dice", num_players=2, starting_seat=1 - seat))
    assert other.current_player() != seat
    after.prepare(other)  # another seat acts: the run is over
    after.prepare(turn)
    assert after._interim_wait() == warmup.INTERIM_AFTER
    release.set()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_exact_bots_interim_step_is_its_fallbacks_interpreted_choice(seed: int) -> None:
    """Two seats: the search fallback's choice on INTERPRETED_ROLLOUTS simulations (its
    rollouts interpreted while its code is not ready), the fallback's stream put back."""
    game = make("dice", num_players=2)
    state = decision_for(game, 1, seed)
    assert state is not None
    bot = make_bot("exact", game, 1, seed)
    bot.later_ready = lambda item: False
    fallback: DiceSearchBot = bot.fallback  # type: ignore[attr-defined]
    stream = fallback.rng.getstate()
    action = bot.interim_step(state)
    assert action in state.legal_actions(1)
    assert fallback.rng.getstate() == stream
    small = DiceSearchBot(game, 1, seed, rollouts=DiceSearchBot.INTERPRETED_ROLLOUTS)
    assert small.step(state) == action
    if len(state.legal_actions(1)) > 1 and fallback.last_rollouts:
        assert fallback.last_rollouts == DiceSearchBot.INTERPRETED_ROLLOUTS
    assert make_bot("exact", make("dice", num_players=3), 1, seed).interim_step(state) is None


def _give_back(phase: Phase) -> State:
    """A two-seat position where the seat to act gives a chip back in ``phase`` (random
    play from seeded games)."""
    game = make("dice", num_players=2)
    for seed in range(500):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:
                state.apply_action(state.sample_chance_outcome(rng))
                continue
            if as_dice_state(state).phase == phase and len(state.legal_actions(player)) > 1:
                return state
            state.apply_action(rng.choice(state.legal_actions(player)), player)
    raise AssertionError(f"no {phase} position found")


def test_the_exact_bots_interim_give_back_is_the_exact_one() -> None:
    """D-10: after emptying the row, black, else white (the first legal); D-8.1 (llamas):
    the best chip, as the exact bot's own decision."""
    game = make("dice", num_players=2)
    for phase in (Phase.GIVE_EMPTY, Phase.GIVE_LLAMAS):
        state = _give_back(phase)
        seat = state.current_player()
        bot = make_bot("exact", game, seat, 1)
        bot.later_ready = lambda item: False
        choice = bot.interim_step(state)
        assert choice == make_bot("exact", game, seat, 1).step(state)
        assert choice in (GIVE_BLACK, GIVE_WHITE)


def test_warm_kind_names_the_kind_whose_code_a_bot_runs() -> None:
    two, six = make("dice", num_players=2), make("dice", num_players=6)
    assert make_bot("exact", two, 0, 1).warm_kind() == "exact"
    assert make_bot("exact", six, 0, 1).warm_kind() == "search"
    assert make_bot("search", six, 0, 1).warm_kind() == "search"
    assert make_bot("heuristic", six, 0, 1).warm_kind() == "heuristic"
    warm_up, release = _running_warm_up(six)
    assert AfterWarmUp(make_bot("exact", six, 0, 1), warm_up, None).warm_kind() == "search"
    release.set()


def test_a_fallback_kind_warmed_elsewhere_is_waited_for_not_compiled_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The web server's ``exact`` warm-up leaves ``search`` to the ``search`` warm-up: no
    helper is started for it, and the fallback is ready once that warm-up is done."""
    game = make("dice", num_players=2)
    other, release = _running_warm_up(game)
    spawned: list[object] = []
    monkeypatch.setattr(BackgroundWarmUp, "_spawn", lambda *args: spawned.append(args))
    warm_up = BackgroundWarmUp(game, [], 1, elsewhere=lambda kind: other)
    warm_up.later_kinds = ["search"]
    warm_up.later_ready = threading.Event()
    later = threading.Thread(target=warm_up._run_later, args=(game, 1), daemon=True)
    later.start()
    later.join(0.3)
    assert later.is_alive() and not warm_up.later_ready.is_set()
    release.set()
    later.join(10)
    assert warm_up.later_ready.is_set() and not spawned
    own = BackgroundWarmUp(game, [], 1, elsewhere=lambda kind: None)
    assert own._prepared_elsewhere("search") is None


def test_a_bot_waits_for_a_load_from_a_warm_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """No interim decision while the warm-up only loads (a warm cache): the compiled
    decision, so a warm game's moves follow from its seed."""
    monkeypatch.setattr(warmup, "INTERIM_AFTER", 0.05)
    game = make("dice", num_players=2)
    warm_up, release = _running_warm_up(game)
    warm_up.compiling.clear()  # loading, no compile
    state = _turn(game)
    bot = _Waiter(game, state.current_player(), interim=True)
    deciding = threading.Thread(target=AfterWarmUp(bot, warm_up, None).step, args=(state,))
    deciding.start()
    deciding.join(0.3)
    assert deciding.is_alive() and bot.steps == 0
    release.set()
    deciding.join(10)
    assert bot.steps == 1


def test_the_server_warms_its_bots_after_the_waiting_kinds_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:func:`lamagames.web.warmup.wait_for_waiting_kinds`: the code of a kind whose bots
    wait (helper at full priority) must be ready; of an interpretable kind (niced helper)
    only its first look must be over."""
    from lamagames.web.warmup import INTERPRETED_HELPER_NICE, wait_for_waiting_kinds

    game = make("dice", num_players=2)
    waiting, release = _running_warm_up(game)
    interpreted, release_too = _running_warm_up(game)
    interpreted.helper_nice = INTERPRETED_HELPER_NICE  # compiling (set by the helper)
    done = threading.Event()

    def run() -> None:
        wait_for_waiting_kinds([interpreted, waiting])
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert not done.wait(0.3)  # the waiting kind's code is not ready
    release.set()
    assert done.wait(10)
    assert interpreted.running  # not waited for
    release_too.set()


def test_the_interpreted_budget_shrinks_with_the_seats() -> None:
    """A simulation plays every seat's turns: 2 * INTERPRETED_ROLLOUTS // n, at least 16,
    never above the bot's own rollouts."""
    budgets = [
        DiceSearchBot(make("dice", num_players=n), 0, 1).interpreted_rollouts()
        for n in (2, 3, 4, 6)
    ]
    assert budgets == [64, 42, 32, 21]
    assert DiceSearchBot(make("dice", num_players=2), 0, 1, rollouts=8).interpreted_rollouts() == 8


def test_one_notion_of_code_prepared_later() -> None:
    """``Bot.later_code`` names the ``exact`` bot's deferred kernel and its fallback kind;
    a warm-up answers for each (kinds: ``later_ready``, kernels: ``deferred_ready``) and
    ``later_until`` gives the question to ask until the item is ready."""
    from lamagames.dice.solver import kernel2p

    game = make("dice", num_players=2)
    bot = make_bot("exact", game, 0, 1)
    assert bot.later_code() == (kernel2p.roll_value, "search")
    assert warmup.later_kernels(bot) == (kernel2p.roll_value,)
    assert warmup.later_kinds(bot) == ("search",)
    assert bot.later_until("search") is None  # no warm-up: compiled
    warm_up, release = _running_warm_up(game)
    warm_up.later_ready.clear()
    warm_up.deferred_ready.clear()
    AfterWarmUp(bot, warm_up, None)
    kernel_until = bot.later_until(kernel2p.roll_value)
    kind_until = bot.later_until("search")
    assert kernel_until is not None and kind_until is not None
    warm_up.deferred_ready.set()  # the kernel compiled, the fallback's code not yet
    assert kernel_until() and not kind_until()
    assert bot.later_until(kernel2p.roll_value) is None
    warm_up.later_ready.set()
    assert kind_until() and bot.later_until("search") is None
    release.set()
