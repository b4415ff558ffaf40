"""Compiled code on first use: say so, and compile while people play (issue 19).

The ``search`` and ``exact`` bots and the batch engines run Numba code, compiled on first use
and then loaded from Numba's disk cache (``__pycache__`` or ``NUMBA_CACHE_DIR``). A first
compile takes from about 15 s to a minute: without a word, ``lama simulate`` sat at
``0/100000`` and a first game waited for its first bot move.

* :func:`compile_notice` shows one line with a spinner, :data:`PREPARING`, on a terminal from
  the moment Numba starts compiling in its block (Numba's ``numba:compile`` event, sent only
  on a cache miss) to the block's end: nothing is shown when everything comes from the
  cache.
* :func:`warm_bots` makes each compiled bot kind decide once on a throwaway position, so
  that its code is compiled (or loaded) before the real games start.
* :class:`BackgroundWarmUp` does that in a thread while people make their first moves
  (``lama play``). A bot whose compiled code also runs interpreted with the same decisions
  (:attr:`~lamagames.bots.base.Bot.interpretable`: ``search``) decides interpreted while
  the warm-up runs, so its first moves wait no compile; other compiled bots (``exact``) wait
  for it (:meth:`BackgroundWarmUp.wait`, with the spinner) instead of compiling from
  scratch.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from rich.console import Console
from rich.status import Status

from lamagames.bots.base import Bot, bot_class, make_bot
from lamagames.cli import i18n
from lamagames.core.errors import LamaError
from lamagames.core.game import Game, State
from lamagames.core.i18n import mark as _mark
from lamagames.core.jit import interpreting
from lamagames.core.rng import derive_seed

#: The line shown while compiled code is being prepared.
PREPARING: Final = _mark("Preparing the fast engine, first run only…")
#: Most actions played from the initial position to reach a seat's decision.
MAX_WARM_ACTIONS: Final = 10_000


@contextlib.contextmanager
def compile_notice(console: Console) -> Iterator[None]:
    """Show :data:`PREPARING` with a spinner on ``console`` while Numba compiles in this
    block: from the first compile (a cache miss) to the end of the block.

    Nothing is shown when nothing is compiled, when Numba is not installed or when
    ``console`` is not a terminal (pipes, logs, tests).
    """
    try:
        from numba.core import event
    except ImportError:
        yield
        return
    status: list[Status] = []

    class _Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            if not status and console.is_terminal:
                status.append(console.status(i18n._(PREPARING)))
                status[0].start()

        def on_end(self, ev: Any) -> None:
            pass

    try:
        with event.install_listener("numba:compile", _Listener()):
            yield
    finally:
        if status:
            status[0].stop()


def compiled_kinds(game_id: str, kinds: Sequence[str]) -> list[str]:
    """The kinds among ``kinds`` (once each, in order) whose bots run compiled code (their
    class ``requires`` numba); unknown kinds are left out (refused elsewhere)."""
    found: list[str] = []
    for kind in kinds:
        if kind in found:
            continue
        try:
            cls = bot_class(game_id, kind)
        except (LamaError, ImportError, AttributeError):
            continue
        if "numba" in cls.requires:
            found.append(kind)
    return found


def decision_for(game: Game, seat: int, seed: int) -> State | None:
    """A position where ``seat`` decides: the initial position played on with random chance
    outcomes and random actions (from ``seed``) until that seat is to act; ``None`` if the
    game ends first."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(MAX_WARM_ACTIONS):
        if state.is_terminal():
            return None
        player = state.current_player()
        if player == seat:
            return state
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions(player)))
    return None


def warm_bots(game: Game, kinds: Sequence[str], seed: int) -> None:
    """Make a throwaway bot of each compiled kind in ``kinds`` warm up on a throwaway
    position (:func:`decision_for`, :meth:`~lamagames.bots.base.Bot.warm_code`: decide once
    there, or something cheaper), compiling its code or loading it from the cache.

    The bots and positions are new (seeds derived from ``seed``): the real games' bots and
    random streams are not touched. A kind that cannot be made or fails is skipped (the
    real game reports it).
    """
    for kind in compiled_kinds(game.game_id, kinds):
        for seat in range(game.num_players):
            state = decision_for(game, seat, derive_seed(seed, "warm-up", seat))
            if state is None:
                continue
            try:
                bot = make_bot(kind, game, seat, derive_seed(seed, "warm-up bot", seat))
                bot.warm_code(state)
            except (LamaError, ValueError, RuntimeError):
                pass
            break


class BackgroundWarmUp:
    """:func:`warm_bots` in a daemon thread, started at once.

    Args:
        game: the game.
        kinds: the seats' kinds (``human`` and kinds without compiled code are left out).
        seed: the game's seed (the warm-up's own seeds are derived from it).
    """

    def __init__(self, game: Game, kinds: Sequence[str], seed: int) -> None:
        self.kinds = compiled_kinds(game.game_id, kinds)
        #: called in the warm-up thread once the code is ready (before it ends).
        self.then: list[Callable[[], None]] = []
        #: set once Numba compiles in the warm-up (a cache miss), or once it has ended.
        self.compiling = threading.Event()
        self._thread: threading.Thread | None = None
        if self.kinds:
            self._thread = threading.Thread(
                target=self._run, args=(game, seed), name="lama-warm-up", daemon=True
            )
            self._thread.start()

    def _run(self, game: Game, seed: int) -> None:
        try:
            with self._watch_compiles():
                warm_bots(game, self.kinds, seed)
            for then in list(self.then):
                then()
        finally:
            self.compiling.set()

    @contextlib.contextmanager
    def _watch_compiles(self) -> Iterator[None]:
        """Set :attr:`compiling` at Numba's first compile in this thread (its
        ``numba:compile`` event comes only on a cache miss)."""
        try:
            from numba.core import event
        except ImportError:
            yield
            return
        me = threading.current_thread()
        flag = self.compiling

        class _Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                if threading.current_thread() is me:
                    flag.set()

            def on_end(self, ev: Any) -> None:
                pass

        with event.install_listener("numba:compile", _Listener()):
            yield

    def compiling_now(self) -> bool:
        """Whether the warm-up is compiling (not only loading code from the cache): waits
        until that is known, that is until its first compile or its end (with a warm cache
        the end comes after a second or two of loading)."""
        if self._thread is None:
            return False
        while self._thread.is_alive() and not self.compiling.wait(0.05):
            pass
        return self._thread.is_alive()

    @property
    def running(self) -> bool:
        """True while the warm-up thread has not finished."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, console: Console | None = None) -> None:
        """Wait for the warm-up to finish, with :data:`PREPARING` and a spinner on
        ``console`` (a terminal) while it runs."""
        if self._thread is None:
            return
        if self._thread.is_alive() and console is not None and console.is_terminal:
            with console.status(i18n._(PREPARING)):
                self._thread.join()
        self._thread.join()
        self._thread = None


class AfterWarmUp(Bot):
    """A bot whose decisions wait for a :class:`BackgroundWarmUp` (so that it never compiles
    the same code concurrently nor races it for shared tables), except those of an
    :attr:`~lamagames.bots.base.Bot.interpretable` bot, made interpreted while the warm-up
    compiles (the same actions, no compile to wait for; while it only loads the code from
    the cache, a second or two, the bot waits for it).

    Args:
        bot: the bot that decides.
        warm_up: the warm-up to wait for.
        console: where the wait is shown.
    """

    def __init__(self, bot: Bot, warm_up: BackgroundWarmUp, console: Console | None) -> None:
        super().__init__(bot.game, bot.seat)
        self.bot = bot
        self.warm_up = warm_up
        self.console = console
        self.interpretable = bot.interpretable
        self._lock = threading.Lock()
        self._ready = False  # the warm-up's code is ready: prepare goes straight on
        self._pending: State | None = None  # the last position told during the warm-up
        warm_up.then.append(self._catch_up)

    def _catch_up(self) -> None:
        """In the warm-up thread once the code is ready: the position told meanwhile, if
        any, is passed on (an ``exact`` bot starts its real solve at once)."""
        with self._lock:
            self._ready = True
            state, self._pending = self._pending, None
            if state is not None:
                with contextlib.suppress(LamaError):  # the bot's step meets it and reports it
                    self.bot.prepare(state)

    def step(self, state: State) -> int:
        """The wrapped bot's action: interpreted while the warm-up runs if the bot can,
        else after the warm-up."""
        if self.interpretable and self.warm_up.compiling_now():
            with self._lock, interpreting():  # not alongside the catch-up's prepare
                return self.bot.step(state)
        self.warm_up.wait(self.console)
        return self.bot.step(state)

    def prepare(self, state: State) -> None:
        """Passed on to the wrapped bot once the warm-up's code is ready (work ahead must
        not compile the same code concurrently); before that the last position told is kept
        and passed on as soon as it is ready."""
        with self._lock:
            if self._ready or not self.warm_up.running:
                self._pending = None
                self.bot.prepare(state)
            else:
                self._pending = state

    def preparing(self) -> bool:
        """Whether the wrapped bot works ahead."""
        return self.bot.preparing()
