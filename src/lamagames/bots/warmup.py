"""Compiled code on first use: compile the bots' code while people play (issue 19).

The ``search`` and ``exact`` bots and the batch engines run Numba code, compiled on first use
and then loaded from Numba's disk cache (``__pycache__`` or ``NUMBA_CACHE_DIR``). A first
compile takes from about 15 s to a minute. This module holds what every front end uses to
hide it (``lama play``: :mod:`lamagames.cli.warmup`, which adds the terminal's notice; the
web server: :mod:`lamagames.web.warmup`):

* :func:`warm_bots` makes each compiled bot kind decide once on a throwaway position, so
  that its code is compiled (or loaded) before the real games start.
* :class:`BackgroundWarmUp` does that in a thread while people make their first moves.
  With a warm cache it only loads the code. On a cold cache (the first compile it would
  start) it starts a **helper process** (:func:`helper_main`) that compiles into Numba's
  disk cache, on the other core and without holding this process's GIL; this process
  compiles its own share meanwhile (:meth:`~lamagames.bots.base.Bot.warm_split`: the
  ``exact`` bot's two-seat solver is split, other kinds leave everything to the helper) or,
  with ``compile_here=False`` (the web server, whose event loop a compile would stall),
  nothing, then loads the helper's kernels from the cache. If the helper cannot start or
  fails, this process compiles them itself, as without a helper.
  :meth:`BackgroundWarmUp.close` (at the game's end, ``q``, Ctrl-C, the server's shutdown,
  and at exit) kills and reaps the helper; a helper whose parent died ends when its stdin
  closes.
* A bot whose compiled code also runs interpreted with the same decisions
  (:attr:`~lamagames.bots.base.Bot.interpretable`: ``search``) decides interpreted while
  the warm-up compiles, and goes on compiled within the same decision once the code is
  loaded (:func:`lamagames.core.jit.interpreting` ``until``), so its first moves wait no
  compile; other compiled bots (``exact`` with two seats) wait for the warm-up
  (:meth:`BackgroundWarmUp.wait`) instead of compiling from scratch (:class:`AfterWarmUp`).
* The code a bot's decisions run that is prepared later
  (:meth:`~lamagames.bots.base.Bot.later_code`): the kernels cheap enough interpreted that
  their compile waits until after the first decision (the ``exact`` bot's roll value,
  compiled in this process, :attr:`BackgroundWarmUp.deferred_ready`), and the code of the
  kinds a bot falls back on (the ``exact`` bot's ``search`` fallback with two seats, for
  tables over its budget), are prepared once the bots' own is ready, in a thread of its
  own (a helper process compiles the kinds' code on a cold cache, then it is loaded:
  :attr:`BackgroundWarmUp.later_ready`); until then the bot runs it interpreted
  (:attr:`~lamagames.bots.base.Bot.later_ready`), so no decision compiles on the deciding
  thread (issue 19: round 2 waited 19-26 s for it).
  That work starts only once no bot decides or works ahead
  (:meth:`BackgroundWarmUp.deciding`): started at once, its helper's start and the
  interpreted code's build took a core and the GIL from the first decision's solve, the
  first ``exact`` move of a cold install then waiting about 1 s for a 0.3 s solve.

Nothing here prints: a front end passes ``notice``, a context manager factory shown while a
bot waits (the terminal's spinner), or a :class:`HeldNotice` shared by a table's bots: one
steady notice for a run of decisions, released at a person's turn.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Final, Literal

from lamagames import prestart
from lamagames.bots.base import Bot, bot_class, make_bot
from lamagames.core.errors import LamaError
from lamagames.core.game import Game, State
from lamagames.core.jit import interpreting
from lamagames.core.registry import make
from lamagames.core.rng import derive_seed

#: Most actions played from the initial position to reach a seat's decision.
MAX_WARM_ACTIONS: Final = 10_000
#: The Python code the helper process runs (``python -c``), its argument a JSON object
#: ``{"game": id, "params": {...}, "kinds": [...], "seed": n, "part": "helper" | "all"}``.
#: Once its compiles are done (each already written to the disk cache) it ends with
#: ``os._exit``: the interpreter's shutdown with Numba loaded takes 0.1-0.2 s, which the
#: parent, waiting for the helper's end before it loads the helper's kernels, would wait
#: too. An error still ends it with a traceback and exit code 1.
HELPER_CODE: Final = (
    "import os; from lamagames.bots.warmup import helper_main; os._exit(helper_main())"
)
#: Which share of the compiles :func:`warm_bots` runs (see :func:`warm_bots`).
Part = Literal["all", "helper", "here", "now"]
#: What a waiting bot shows while it waits for the warm-up: a factory of a context manager
#: entered for the wait (the terminal's spinner), or ``None``.
Notice = Callable[[], AbstractContextManager[object]] | None
#: Seconds a bot's decision made interpreted while the warm-up compiles runs before its
#: notice shows (:func:`delayed_notice`).
NOTICE_AFTER: Final = 0.3
#: Seconds a bot that cannot decide interpreted (not
#: :meth:`~lamagames.bots.base.Bot.interpretable_at` its position: the ``exact`` bot with
#: two seats) waits for the warm-up, counted from the moment its driver told it the first
#: position of its run of decisions (:meth:`AfterWarmUp.prepare`: the web table's bot pause
#: runs meanwhile; the bot's roll and discard are one run) or else from its decision's
#: start, before it plays its :meth:`~lamagames.bots.base.Bot.interim_step` instead
#: (issue 19: a first bot move on a cold install waits at most 3 s; the interim decisions
#: take a few tenths of a CPU second). Only while the warm-up compiles (a cold cache): a
#: load from a warm cache is waited for.
INTERIM_AFTER: Final = 1.0
#: Longest time (seconds) the preparation of the fallbacks' code
#: (:meth:`BackgroundWarmUp._run_later`) waits for the bots' decisions and work ahead under
#: way when the bots' own code becomes ready (:meth:`BackgroundWarmUp.deciding`): a table
#: whose bots never pause (a busy server) gets it started all the same.
LATER_HOLD_MAX: Final = 10.0


@contextlib.contextmanager
def delayed_notice(notice: Notice, after: float = NOTICE_AFTER) -> Iterator[None]:
    """Enter ``notice()`` (the terminal's spinner) once the block has run for ``after``
    seconds, and leave it when the block ends; nothing for a shorter block (no flicker for
    a decision of a few milliseconds) or without a notice. One block's :class:`HeldNotice`:
    entered from a timer thread and left in the block's thread, also when the block
    raises; a notice that cannot be entered then (another live display) is left out.
    """
    held = HeldNotice(notice, after)
    try:
        with held.during():
            yield
    finally:
        held.release()


class HeldNotice:
    """One notice (the terminal's spinner) for a run of bot decisions made while the
    compiled code is being prepared: entered once a decision has taken ``after`` seconds
    (default :data:`NOTICE_AFTER`; at once for a wait, see :meth:`during`) and then kept
    across the decisions, moves and pauses that follow, until :meth:`release` (the
    person's turn, the code ready, the game's end). Issue 19: shown and cleared per
    decision, six ``search`` seats flashed it on and off 63 times in about 13 s.

    Args:
        notice: the notice's factory (:data:`Notice`); ``None``: nothing is shown.
        after: seconds a decision runs before the notice is entered (``None``:
            :data:`NOTICE_AFTER`, read when a decision starts).

    Thread-safe: decisions, the warm-up's thread and the person's turn may call it at
    once; a notice that cannot be entered (another live display) is left out.
    """

    def __init__(self, notice: Notice, after: float | None = None) -> None:
        self.notice = notice
        self.after = after
        #: how many times the notice was entered (tests count them).
        self.starts = 0
        self._lock = threading.Lock()
        self._shown: AbstractContextManager[object] | None = None
        self._pending: threading.Event | None = None

    @property
    def shown(self) -> bool:
        """Whether the notice is on now."""
        return self._shown is not None

    def _enter(self, done: threading.Event) -> None:
        with self._lock:
            if done.is_set() or self._shown is not None or self.notice is None:
                return
            shown = self.notice()
            with contextlib.suppress(Exception):  # another live display: no spinner
                shown.__enter__()
                self._shown = shown
                self.starts += 1

    @contextlib.contextmanager
    def during(self, at_once: bool = False) -> Iterator[None]:
        """A decision (or a wait, ``at_once``: the notice is entered at its start) that may
        be slow: the notice is entered once it has run for ``after`` seconds, unless it is
        on already or released meanwhile, and stays on when the block ends."""
        if self.notice is None or self._shown is not None:
            yield
            return
        done = threading.Event()
        with self._lock:
            self._pending = done
        timer: threading.Thread | None = None
        if at_once:
            self._enter(done)
        else:
            after = NOTICE_AFTER if self.after is None else self.after

            def show() -> None:
                if not done.wait(after):
                    self._enter(done)

            timer = threading.Thread(target=show, name="lama-notice", daemon=True)
            timer.start()
        try:
            yield
        finally:
            done.set()
            if timer is not None:
                timer.join()

    def release(self) -> None:
        """Leave the notice if it is on, and keep a decision under way from entering it;
        safe to call again."""
        with self._lock:
            if self._pending is not None:
                self._pending.set()
            shown, self._shown = self._shown, None
            if shown is not None:
                with contextlib.suppress(Exception):
                    shown.__exit__(None, None, None)


@contextlib.contextmanager
def on_compile(
    callback: Callable[[], None], thread: threading.Thread | None = None
) -> Iterator[None]:
    """Within this block, call ``callback()`` at the start of every Numba compile (Numba's
    ``numba:compile`` event, sent only on a cache miss), of those in ``thread`` only when it
    is given. An exception ``callback`` raises propagates out of the compile. Nothing
    happens where Numba is not installed."""
    try:
        from numba.core import event
    except ImportError:
        yield
        return

    class _Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            if thread is None or threading.current_thread() is thread:
                callback()

        def on_end(self, ev: Any) -> None:
            """Nothing to do when a compile ends (Numba's listeners must define it)."""

    with event.install_listener("numba:compile", _Listener()):
        yield


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


def warm_bots(game: Game, kinds: Sequence[str], seed: int, part: Part = "all") -> None:
    """Make a throwaway bot of each compiled kind in ``kinds`` warm up on a throwaway
    position (:func:`decision_for`, :meth:`~lamagames.bots.base.Bot.warm_code`: decide once
    there, or something cheaper), compiling its code or loading it from the cache.

    ``part``: ``"all"`` compiles (or loads) everything; ``"helper"`` what a helper process
    compiles (:meth:`~lamagames.bots.base.Bot.warm_split`: the kernels it names, the others
    run interpreted; everything when it names none); ``"here"`` the rest, the helper's
    kernels run interpreted (nothing for a kind that leaves everything to the helper);
    ``"now"`` everything but the kernels whose compile waits until after the first
    decision (the kernels of :meth:`~lamagames.bots.base.Bot.later_code`, run
    interpreted). ``"here"``
    leaves those out too.

    The bots and positions are new (seeds derived from ``seed``): the real games' bots and
    random streams are not touched. A kind that cannot be made or fails is skipped (the
    real game reports it).
    """
    for kind in compiled_kinds(game.game_id, kinds):
        for seat in range(game.num_players):
            state = decision_for(game, seat, derive_seed(seed, "warm-up", seat))
            if state is None:
                continue
            with contextlib.suppress(LamaError, ValueError, RuntimeError):
                bot = make_bot(kind, game, seat, derive_seed(seed, "warm-up bot", seat))
                _warm_part(bot, state, part)
            break


def warm_interpreted_bots(
    game: Game, kinds: Sequence[str], seed: int, *, interim: bool = False
) -> None:
    """Build the interpreted code of each compiled kind in ``kinds`` whose bots decide
    interpreted while the compiled code is not ready
    (:meth:`~lamagames.bots.base.Bot.warm_interpreted`), with a throwaway bot; with
    ``interim``, instead that of the kinds whose bots do not, for their
    :meth:`~lamagames.bots.base.Bot.interim_step` (the ``exact`` bot with two seats). A
    kind that cannot be made or fails is skipped (the real game reports it)."""
    for kind in compiled_kinds(game.game_id, kinds):
        with contextlib.suppress(LamaError, ValueError, RuntimeError, OSError):
            bot = make_bot(kind, game, 0, derive_seed(seed, "warm-up bot", 0))
            if bot.interpretable != interim:
                bot.warm_interpreted()


def later_kernels(bot: Bot) -> tuple[object, ...]:
    """The kernels among ``bot``'s :meth:`~lamagames.bots.base.Bot.later_code` (compiled in
    the warm-up's later phase, in this process)."""
    return tuple(item for item in bot.later_code() if not isinstance(item, str))


def later_kinds(bot: Bot) -> tuple[str, ...]:
    """The bot kinds among ``bot``'s :meth:`~lamagames.bots.base.Bot.later_code` (the kinds
    it falls back on, compiled in a helper process)."""
    return tuple(item for item in bot.later_code() if isinstance(item, str))


def _among(kernel: object, kernels: Sequence[object]) -> bool:
    return any(kernel is k for k in kernels)


def _warm_part(bot: Bot, state: State, part: Part) -> None:
    """:meth:`~lamagames.bots.base.Bot.warm_code` for one ``part`` (see :func:`warm_bots`)."""
    if part == "all":
        bot.warm_code(state)
        return
    deferred = later_kernels(bot)
    if part == "now":
        with interpreting(only=lambda kernel: _among(kernel, deferred)):
            bot.warm_code(state)
        return
    split = bot.warm_split()
    if split is None:
        if part == "helper":
            bot.warm_code(state)
        return
    chosen = split
    if part == "helper":
        with interpreting(only=lambda kernel: not _among(kernel, chosen)):
            bot.warm_code(state)
    else:
        with interpreting(only=lambda kernel: _among(kernel, (*chosen, *deferred))):
            bot.warm_code(state)


def helper_main(argv: Sequence[str] | None = None) -> int:
    """The helper process of :class:`BackgroundWarmUp`: :func:`warm_bots` with ``part=
    "helper"``, writing Numba's disk cache (the kernels are ``cache=True``; the same
    ``NUMBA_CACHE_DIR`` as the parent, inherited).

    Args:
        argv: one JSON object ``{"game", "params", "kinds", "seed"}`` and optionally
            ``"part"`` (``"helper"``, the default, or ``"all"``: every compile, for a parent
            that compiles nothing itself) and ``"nice"`` (added to the helper's niceness)
            (default ``sys.argv[1:]``).

    Returns:
        0 once done. Ends at once (exit code 0) when its stdin closes.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no usable stdin
        _StdinWatch(sys.stdin.fileno())  # its end ends the helper
    return _run_spec(args[0])


def _run_spec(text: str) -> int:
    """:func:`helper_main`'s work, given its JSON spec: 0 once done.

    Raises:
        json.JSONDecodeError, KeyError, ValueError, LamaError: a malformed spec (the helper
            ends with exit code 1 and its traceback; the parent compiles instead).
    """
    spec = json.loads(text)
    game = make(str(spec["game"]), **spec["params"])
    part: Part = "all" if spec.get("part") == "all" else "helper"
    nice = int(spec.get("nice", 0))
    if nice > 0:
        with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice
            os.nice(nice)
    warm_bots(game, [str(kind) for kind in spec["kinds"]], int(spec["seed"]), part=part)
    return 0


def _preload(words: Sequence[str] = ()) -> None:
    """What a helper needs before its work is known: NumPy, Numba, and Numba's compiler
    set up (its typing and target contexts fill their registries at the first compile,
    about a quarter of a CPU second), by compiling a throwaway function (not cached); then
    the code of each compiled bot kind named in ``words`` (the command line of ``lama
    play``) for each game named there, by making a throwaway bot (its solver's modules,
    about half a CPU second). Whatever fails here is left to the real work to report."""
    with contextlib.suppress(ImportError):
        import numba

        numba.njit(cache=False)(_throwaway)(1)
    from lamagames.core.registry import game_ids

    text = " ".join(words)
    for game_id in game_ids():
        if game_id not in text:
            continue
        named = [kind for kind in prestart.COMPILED_KINDS if kind in text]
        with contextlib.suppress(Exception):  # a guess: the real work reports errors
            import_compiled_bots(make(game_id), named)


def import_compiled_bots(game: Game, kinds: Sequence[str], seed: int = 0) -> None:
    """Import the code of each compiled kind among ``kinds`` (:func:`compiled_kinds`: its
    modules and its solver's), by making one throwaway bot of each (seat 0, ``seed``);
    nothing is compiled. Used ahead of the work that needs it: the early helper
    (:func:`prestarted_main`) and the web server's start, where Numba's first import from
    several threads at once could deadlock (:func:`lamagames.web.warmup.import_compiled_code`).

    Raises:
        LamaError, ImportError, ValueError: a kind that cannot be made (as
            :func:`~lamagames.bots.base.make_bot` raises them).
    """
    for kind in compiled_kinds(game.game_id, kinds):
        make_bot(kind, game, 0, seed)


def _throwaway(x: int) -> int:
    """Compiled once by :func:`_preload`."""
    return x + 1


class _StdinWatch:
    """A helper's standard input, read by a daemon thread from its raw descriptor (a thread
    blocked in ``sys.stdin``'s buffered reader would abort the interpreter's shutdown): its
    first line is the early helper's spec (:meth:`wait`); its end, whenever it comes, ends
    the process at once (exit code 0: the parent closed it, had no use for the helper, or
    died)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._line = ""
        self._arrived = threading.Event()
        threading.Thread(target=self._read, name="lama-helper-stdin", daemon=True).start()

    def _read(self) -> None:
        data = b""
        with contextlib.suppress(OSError, ValueError):
            chunk = os.read(self._fd, 4096)
            while chunk:
                if not self._arrived.is_set():
                    data += chunk
                    if b"\n" in data:
                        self._line = data.split(b"\n", 1)[0].decode(errors="replace")
                        self._arrived.set()
                chunk = os.read(self._fd, 4096)
        os._exit(0)

    def wait(self) -> str:
        """The spec line (without its newline), once it has come."""
        self._arrived.wait()
        return self._line


def guessed_table(words: Sequence[str]) -> tuple[Game, list[str]] | None:
    """The game and seat kinds a ``lama play`` command line (without the program name)
    names, as far as its words tell without the option parser: exactly one game id among
    them and a ``--seats``/``-s`` value (``human,exact``: two seats); ``None`` otherwise or
    when that game cannot be made with that many seats. A guess, for work started before
    ``lama play`` has parsed its options (:func:`prestarted_main`)."""
    from lamagames.core.registry import game_ids

    known = set(game_ids())
    games = {word for word in words if word in known}
    seats = None
    for at, word in enumerate(words):
        if word in ("--seats", "-s") and at + 1 < len(words):
            seats = words[at + 1]
        elif word.startswith("--seats="):
            seats = word.split("=", 1)[1]
    if len(games) != 1 or not seats:
        return None
    kinds = [kind.strip().lower() for kind in seats.split(",")]
    try:
        game = make(games.pop(), num_players=len(kinds))
    except (LamaError, TypeError, ValueError):
        return None
    return game, kinds


def prestarted_main() -> int:
    """The helper process started before its work is known (:mod:`lamagames.prestart`,
    which gives it ``lama``'s command line as its arguments): :func:`_preload`; then, while
    ``lama play`` imports its commands, parses its options and makes the game, the work of
    the table its command line names (:func:`guessed_table`: the same kernels as the real
    table's, whose seed only picks the throwaway positions); then :func:`helper_main`'s
    work with the JSON spec read as the first line of its standard input (written once the
    game is made, :meth:`BackgroundWarmUp._start_helper`), which finds its kernels compiled
    already when the guess was right. The end of its standard input ends it at once,
    whatever it is doing.

    Returns:
        :func:`helper_main`'s exit code (0 once done).
    """
    words = sys.argv[1:]
    _preload(words)
    inbox = _StdinWatch(sys.stdin.fileno())
    guess = guessed_table(words)
    if guess is not None:
        game, kinds = guess
        with contextlib.suppress(Exception):  # a guess: the real spec's work reports errors
            warm_bots(game, kinds, 0, part="helper")
    return _run_spec(inbox.wait())


class _CacheMiss(Exception):
    """Numba is about to compile in the warm-up's first look at the cache."""


class BackgroundWarmUp:
    """:func:`warm_bots` in a daemon thread, started at once; on a cold cache with a helper
    process (see the module docstring).

    Args:
        game: the game.
        kinds: the seats' kinds (``human`` and kinds without compiled code are left out).
        seed: the game's seed (the warm-up's own seeds are derived from it).
        compile_here: on a cold cache, whether this process compiles its share of the code
            (:meth:`~lamagames.bots.base.Bot.warm_split`) while the helper compiles the
            rest (``lama play``); ``False``: the helper compiles everything and this process
            only loads it from the cache once the helper is done (the web server: a compile
            holds the GIL for seconds and would stall its event loop, issue 19).
        helper_nice: added to the helper process's niceness (``os.nice``): a server runs
            the helpers of kinds whose bots decide interpreted meanwhile at a lower
            priority, so that those whose bots wait get the cores first.
        elsewhere: the warm-up of a kind that another warm-up of this process prepares
            (the web server warms each kind on its own), else ``None``: the code of a kind
            the bots fall back on (:attr:`later_kinds`) is then that warm-up's to prepare,
            and :attr:`later_ready` waits for it instead of compiling it a second time
            (issue 19: the server's ``exact`` warm-up compiled the ``search`` rollouts
            again, at normal priority, beside the ``search`` warm-up's niced helper, and
            six-seat tables' interpreted first decisions waited 5 s for the cores).
    """

    #: the helper's command before its JSON argument (``None``: this Python running
    #: :data:`HELPER_CODE`; tests put others).
    helper_command: ClassVar[Sequence[str] | None] = None
    #: see ``compile_here`` above (an instance's own value is set by ``__init__``).
    compile_here: bool = True
    #: see ``helper_nice`` above.
    helper_nice: int = 0

    def __init__(
        self,
        game: Game,
        kinds: Sequence[str],
        seed: int,
        *,
        compile_here: bool = True,
        helper_nice: int = 0,
        elsewhere: Callable[[str], BackgroundWarmUp | None] | None = None,
    ) -> None:
        self.kinds = compiled_kinds(game.game_id, kinds)
        self.compile_here = compile_here
        self.helper_nice = helper_nice
        self._elsewhere = elsewhere
        #: called in the warm-up thread once the code is ready (before it ends).
        self.then: list[Callable[[], None]] = []
        #: set once Numba compiles for the warm-up (a cache miss), or once it has ended.
        self.compiling = threading.Event()
        #: set once the first look at the cache found everything there (nothing to compile).
        self.cached = threading.Event()
        #: set once the code is ready in this process (compiled or loaded), or the warm-up
        #: has ended otherwise.
        self.ready = threading.Event()
        #: the kinds the bots fall back on whose code the warm-up prepares after theirs
        #: (:func:`later_kinds`), known once the code is ready.
        self.later_kinds: list[str] = []
        #: set once the code of :attr:`later_kinds` is ready too (loaded or compiled), at
        #: once after :attr:`ready` when there are none, or once the warm-up has ended; until
        #: then the bots run that code interpreted (:class:`AfterWarmUp`).
        self.later_ready = threading.Event()
        #: set once the bots' :func:`later_kernels` are compiled
        #: (or loaded) in the later phase, at once when there are none, or once the warm-up
        #: has ended; until then the bots run them interpreted (:class:`AfterWarmUp`).
        self.deferred_ready = threading.Event()
        #: called once :attr:`later_ready` is set (in the warm-up's threads).
        self.later_then: list[Callable[[], None]] = []
        #: the helper process, once started.
        self.helper: subprocess.Popen[bytes] | None = None
        #: the helper process compiling :attr:`later_kinds`, once started.
        self.later_helper: subprocess.Popen[bytes] | None = None
        #: ``None``: no helper was started (warm cache, or none could start); else whether
        #: it finished its compiles (exit code 0).
        self.helped: bool | None = None
        #: Numba compiles (cache misses, nested ones included) in the warm-up thread:
        #: ``"here"`` its share while the helper ran, ``"after"`` after the helper (0 when
        #: the helper's kernels were loaded from the cache).
        self.compiles: dict[str, int] = {"here": 0, "after": 0}
        self._phase = ""
        self._closed = False
        self._lock = threading.Lock()
        self._deciding = 0  # bot decisions under way (:meth:`deciding`)
        self._working: list[Callable[[], bool]] = []  # bots' work ahead (:meth:`busy_while`)
        self._thread: threading.Thread | None = None
        self._later_thread: threading.Thread | None = None
        if not self.kinds:
            self._later_done()
        if self.kinds:
            self._thread = threading.Thread(
                target=self._run, args=(game, seed), name="lama-warm-up", daemon=True
            )
            atexit.register(self.close)
            self._thread.start()

    def _run(self, game: Game, seed: int) -> None:
        try:
            with self._watch_compiles():
                # At once, alongside the first look at the cache: on a cold cache it compiles
                # from the start; on a warm one it is stopped as soon as that is known.
                self._start_helper(game, seed)
                if self._cold(game, seed):
                    self.compiling.set()
                    # while the helper compiles: what the bots decide with meanwhile, and
                    # what a waiting bot's interim decision runs (built on the deciding
                    # thread, 0.6 s of a loaded machine's first move)
                    warm_interpreted_bots(game, self.kinds, seed)
                    warm_interpreted_bots(game, self.kinds, seed, interim=True)
                    self.helped = self._help(game, seed)
                else:
                    self.cached.set()
                    self._stop_helper()
                if self._closed:
                    return
                self._phase = "after"
                # loads; compiles what no helper did; the deferred kernels come later
                warm_bots(game, self.kinds, seed, part="now")
                self._phase = ""
            self.ready.set()
            for then in list(self.then):
                then()
            self._start_later(game, seed)
        finally:
            self.ready.set()
            self.compiling.set()
            self._stop_helper()
            if self._later_thread is None:
                self._later_done()

    def _later_done(self) -> None:
        """Set :attr:`later_ready` (and :attr:`deferred_ready`) and call :attr:`later_then`
        (once)."""
        self.deferred_ready.set()
        with self._lock:
            if self.later_ready.is_set():
                return
            self.later_ready.set()
        for then in list(self.later_then):
            with contextlib.suppress(Exception):
                then()

    def _start_later(self, game: Game, seed: int) -> None:
        """Once the bots' own code is ready: prepare the code of the kinds they fall back on
        (:func:`later_kinds`: the ``exact`` bot's ``search``
        fallback with two seats) in a thread of its own (:meth:`_run_later`), so that
        :meth:`wait` and :attr:`running` still mean the bots' own code."""
        later: list[str] = []
        deferred = False
        for kind in self.kinds:
            with contextlib.suppress(LamaError, ValueError, ImportError, AttributeError):
                bot = make_bot(kind, game, 0, derive_seed(seed, "warm-up bot", 0))
                later += [k for k in later_kinds(bot) if k not in self.kinds]
                deferred = deferred or bool(later_kernels(bot))
        self.later_kinds = compiled_kinds(game.game_id, later)
        if not deferred:
            self.deferred_ready.set()
        with self._lock:
            if (not self.later_kinds and not deferred) or self._closed:
                return
            self._later_thread = threading.Thread(
                target=self._run_later, args=(game, seed), name="lama-warm-up-later", daemon=True
            )
            self._later_thread.start()

    def later_code_ready(self, item: object) -> bool:
        """Whether ``item`` of a bot's :meth:`~lamagames.bots.base.Bot.later_code` is ready:
        a kind's code once :attr:`later_ready` is set, a kernel once :attr:`deferred_ready`
        is (the bots' :attr:`~lamagames.bots.base.Bot.later_ready`)."""
        if isinstance(item, str):
            return self.later_ready.is_set()
        return self.deferred_ready.is_set()

    @contextlib.contextmanager
    def deciding(self) -> Iterator[None]:
        """A bot's decision under way (:class:`AfterWarmUp` wraps each): the preparation of
        the fallbacks' code (:meth:`_run_later`) does not start meanwhile, so that the first
        decision's solve has both cores and the GIL. Reentrant and thread-safe."""
        with self._lock:
            self._deciding += 1
        try:
            yield
        finally:
            with self._lock:
                self._deciding -= 1

    def busy_while(self, working: Callable[[], bool]) -> None:
        """Hold the preparation of the fallbacks' code back, as :meth:`deciding` does, while
        ``working()`` is true (a bot's work ahead, :meth:`~lamagames.bots.base.Bot.preparing`:
        the ``exact`` bot's solve started as soon as its code is ready)."""
        with self._lock:
            self._working.append(working)

    def bots_idle(self) -> bool:
        """Whether no bot decides (:meth:`deciding`) or works ahead (:meth:`busy_while`) now;
        a ``working`` check that raises counts as idle."""
        with self._lock:
            if self._deciding:
                return False
            working = list(self._working)
        for busy in working:
            with contextlib.suppress(Exception):
                if busy():
                    return False
        return True

    def _hold_later(self) -> None:
        """Wait until :meth:`bots_idle` (polled every 20 ms), the warm-up is closed, or
        :data:`LATER_HOLD_MAX` seconds have passed."""
        deadline = time.monotonic() + LATER_HOLD_MAX
        while not self._closed and not self.bots_idle() and time.monotonic() < deadline:
            time.sleep(0.02)

    def _run_later(self, game: Game, seed: int) -> None:
        """The code of :attr:`later_kinds`, once no bot decides or works ahead
        (:meth:`_hold_later`): loaded from the cache when it is there; on a cold cache
        compiled by a helper process (all of it: a compile here would hold this process's
        GIL for 15 s or more, the bots' interpreted decisions with it) while this thread
        builds the interpreted code the bots run meanwhile, then loaded; compiled here only
        if no helper could do it."""
        others = [w for w in map(self._prepared_elsewhere, self.later_kinds) if w is not None]
        kinds = [k for k in self.later_kinds if self._prepared_elsewhere(k) is None]
        try:
            self._hold_later()
            helper = self._spawn(game, seed, kinds, "all") if kinds else None
            with self._lock:
                self.later_helper = helper
            if self._closed:
                return
            if not self.deferred_ready.is_set():
                # the bots' deferred kernels (a fraction of a second): compiled or loaded here
                warm_bots(game, self.kinds, seed)
                self.deferred_ready.set()
            if kinds and self._cold(game, seed, kinds):
                warm_interpreted_bots(game, kinds, seed)
                while helper is not None and not self._closed:
                    try:
                        helper.wait(0.05)
                        break
                    except subprocess.TimeoutExpired:
                        continue
                if self._closed:
                    return
                warm_bots(game, kinds, seed)  # loads; compiles what no helper did
            for other in others:  # their code, prepared by their own warm-ups
                while not self._closed and not other.wait(timeout=0.05):
                    continue
        finally:
            self.deferred_ready.set()
            with self._lock:
                helper, self.later_helper = self.later_helper, None
            if helper is not None:
                prestart.stop(helper)
            self._later_done()

    def _prepared_elsewhere(self, kind: str) -> BackgroundWarmUp | None:
        """The other warm-up that prepares ``kind``'s code (see ``elsewhere``), if any."""
        if self._elsewhere is None:
            return None
        other = self._elsewhere(kind)
        return None if other is self else other

    def _cold(self, game: Game, seed: int, kinds: Sequence[str] | None = None) -> bool:
        """:func:`warm_bots` of ``kinds`` (default: the bots' own) in this thread up to
        Numba's first compile, not started: True there (a cache miss), False when everything
        was loaded (or Numba is missing)."""

        def stop() -> None:
            raise _CacheMiss

        try:
            with on_compile(stop, threading.current_thread()):
                if kinds is None:  # the bots' own: not the kernels deferred to the later phase
                    warm_bots(game, self.kinds, seed, part="now")
                else:
                    warm_bots(game, kinds, seed)
        except _CacheMiss:
            return True
        return False

    def _start_helper(self, game: Game, seed: int) -> None:
        """Start the helper process of the bots' own code (:func:`helper_main`, or the one
        ``lama``'s entry point started, :meth:`_take_prestarted`); nothing if it cannot
        start."""
        part: Part = "helper" if self.compile_here else "all"
        argument = self._spec(game, seed, self.kinds, part)
        if argument is None:
            return
        with self._lock:
            if self._closed:
                return
            if self.helper_command is None and self._take_prestarted(argument):
                return
        helper = self._spawn(game, seed, self.kinds, part)
        with self._lock:
            self.helper = helper
            closed = self._closed
        if closed:
            self._stop_helper()

    def _spec(self, game: Game, seed: int, kinds: Sequence[str], part: Part) -> str | None:
        """A helper's JSON argument (:func:`helper_main`); ``None`` for game parameters it
        cannot be given."""
        spec = {
            "game": game.game_id,
            "params": game.params,
            "kinds": list(kinds),
            "seed": seed,
            "part": part,
            "nice": self.helper_nice,
        }
        try:
            return json.dumps(spec)
        except (TypeError, ValueError):  # parameters the helper cannot be given: no helper
            return None

    def _spawn(
        self, game: Game, seed: int, kinds: Sequence[str], part: Part
    ) -> subprocess.Popen[bytes] | None:
        """A new helper process compiling ``part`` of the code of ``kinds``; ``None`` when
        none can start (no Python to start, parameters it cannot be given, closed)."""
        argument = self._spec(game, seed, kinds, part)
        if argument is None or self._closed:
            return None
        command = [*(self.helper_command or (sys.executable, "-c", HELPER_CODE)), argument]
        if not command[0]:  # no Python to start (an embedded one)
            return None
        try:
            return subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # the terminal's Ctrl-C is this process's to handle
            )
        except OSError:
            return None

    def _take_prestarted(self, argument: str) -> bool:
        """Hand the helper started by ``lama``'s entry point (:mod:`lamagames.prestart`), its
        imports done by now, its spec (one line on its standard input): whether it took it
        (else a new helper is started, as without one)."""
        helper = prestart.take()
        if helper is None or helper.stdin is None:
            return False
        try:
            helper.stdin.write(argument.encode() + b"\n")
            helper.stdin.flush()
        except (OSError, ValueError):  # it ended meanwhile
            prestart.stop(helper)
            return False
        self.helper = helper
        return True

    def _help(self, game: Game, seed: int) -> bool | None:
        """Compile this process's share while the helper compiles its own (with
        :attr:`compile_here`), then wait for the helper: whether it finished (``None``:
        there is none)."""
        with self._lock:
            helper = self.helper
        if helper is None:
            return None
        if self.compile_here:
            self._phase = "here"
            warm_bots(game, self.kinds, seed, part="here")
            self._phase = ""
        while not self._closed:
            try:
                return helper.wait(0.05) == 0
            except subprocess.TimeoutExpired:
                continue
        return False

    def _stop_helper(self) -> None:
        """Kill the helper if it still runs, reap it (no zombie), close its pipe."""
        with self._lock:
            helper = self.helper
        if helper is not None:
            prestart.stop(helper)

    def close(self) -> None:
        """Stop the warm-up's helper process (killed and reaped) and its further work; the
        thread itself, a daemon, ends after what it is compiling. Called when the game
        ends (also by ``q`` or Ctrl-C) and at exit; safe to call again."""
        with self._lock:
            self._closed = True
            later, self.later_helper = self.later_helper, None
        self._stop_helper()
        if later is not None:
            prestart.stop(later)
        with contextlib.suppress(Exception):
            atexit.unregister(self.close)

    @contextlib.contextmanager
    def _watch_compiles(self) -> Iterator[None]:
        """Set :attr:`compiling` at Numba's first compile in this thread (its
        ``numba:compile`` event comes only on a cache miss) and count the compiles of each
        phase (:attr:`compiles`)."""

        def count() -> None:
            self.compiling.set()
            if self._phase:
                self.compiles[self._phase] += 1

        with on_compile(count, threading.current_thread()):
            yield

    @property
    def preparing(self) -> bool:
        """Whether the warm-up compiles now (a cold cache: the first run after an install),
        as far as is known at once (unlike :meth:`compiling_now`, it does not wait)."""
        return self.compiling.is_set() and not self.ready.is_set() and self.running

    @property
    def may_be_preparing(self) -> bool:
        """Whether the warm-up compiles now or may be about to: it runs, its code is not
        ready and its first look at the cache has not found everything there (that look
        takes a second or two after the start; a web table's bot whose turn starts then
        would otherwise be told no preparation, issue 19). Does not wait."""
        return self.running and not self.ready.is_set() and not self.cached.is_set()

    def compiling_now(self) -> bool:
        """Whether the warm-up is compiling (not only loading code from the cache): waits
        until that is known, that is until its first compile or its end (with a warm cache
        the end comes after a second or two of loading). The first look can wait for
        Numba's compiler lock while another thread of the process compiles: the web
        server compiles the heuristic's code only after the warm-ups' first looks
        (:func:`lamagames.web.warmup.wait_for_waiting_kinds`; it held the first tables'
        bots 5-19 s, issue 19)."""
        thread = self._thread
        if thread is None:
            return False
        while not self.ready.is_set() and thread.is_alive():
            if self.compiling.wait(0.05):
                break
        return not self.ready.is_set() and thread.is_alive()

    @property
    def running(self) -> bool:
        """True while the warm-up thread has not finished."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, notice: Notice = None, timeout: float | None = None) -> bool:
        """Wait for the warm-up to finish, inside ``notice()`` (the terminal's spinner)
        while it runs, at most ``timeout`` seconds (``None``: until it has). Several
        threads may wait at once (a web server's tables).

        Returns:
            Whether it has finished.
        """
        thread = self._thread
        if thread is None:
            return True
        if thread.is_alive() and notice is not None:
            with notice():
                thread.join(timeout)
        thread.join(timeout)
        if thread.is_alive():
            return False
        self._thread = None
        return True


def _acting(state: State) -> tuple[int, ...]:
    """The seats that act at ``state`` (none at a chance node or the end)."""
    if state.is_terminal():
        return ()
    player = state.current_player()
    return (player,) if player >= 0 else ()


class AfterWarmUp(Bot):
    """A bot whose decisions wait for a :class:`BackgroundWarmUp` (so that it never compiles
    the same code concurrently nor races it for shared tables), except those of an
    :attr:`~lamagames.bots.base.Bot.interpretable` bot, made interpreted while the warm-up
    compiles (the same actions, no compile to wait for; while it only loads the code from
    the cache, a second or two, the bot waits for it). The code of the kinds the bot falls
    back on and its deferred kernels (:meth:`~lamagames.bots.base.Bot.later_code`) run
    interpreted until the
    warm-up has it ready too (:attr:`BackgroundWarmUp.later_ready`).

    Args:
        bot: the bot that decides.
        warm_up: the warm-up to wait for.
        notice: what is shown while the bot waits or decides interpreted: a
            :class:`HeldNotice` shared by a table's bots (one steady notice for a run of
            decisions; the table releases it at a person's turn), or a notice factory
            (see :meth:`BackgroundWarmUp.wait`), then shown for each decision alone.
    """

    def __init__(
        self, bot: Bot, warm_up: BackgroundWarmUp, notice: Notice | HeldNotice = None
    ) -> None:
        super().__init__(bot.game, bot.seat)
        self.bot = bot
        self.warm_up = warm_up
        self._own = not isinstance(notice, HeldNotice)
        #: the notice of this bot's slow decisions and waits.
        self.held = notice if isinstance(notice, HeldNotice) else HeldNotice(notice)
        self.interpretable = bot.interpretable
        self._lock = threading.Lock()
        self._ready = False  # the warm-up's code is ready: prepare goes straight on
        self._pending: State | None = None  # the last position told during the warm-up
        self._run_start: float | None = None  # first position told of this run of decisions
        warm_up.then.append(self._catch_up)
        warm_up.busy_while(bot.preparing)
        if bot.later_code():
            bot.later_ready = warm_up.later_code_ready

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
        """The wrapped bot's action: interpreted while the warm-up compiles if the bot can
        at this position (:meth:`~lamagames.bots.base.Bot.interpretable_at`; compiled again
        from the moment the code is ready, within the decision; the notice shows once it
        has taken :data:`NOTICE_AFTER` seconds), else after the warm-up (with the notice at
        once, :meth:`BackgroundWarmUp.wait`), or, once it has waited :data:`INTERIM_AFTER`
        seconds since the position was told, the bot's
        :meth:`~lamagames.bots.base.Bot.interim_step` if it has one. With a
        :class:`HeldNotice` of the table the notice, once on, stays on after the decision."""
        held = self.held
        try:
            with self.warm_up.deciding():
                return self._step(state)
        finally:
            if self._own:
                held.release()

    def _step(self, state: State) -> int:
        """:meth:`step` within :meth:`BackgroundWarmUp.deciding`."""
        held = self.held
        if self.bot.interpretable_at(state) and self.warm_up.compiling_now():
            ready = self.warm_up.ready.is_set
            # slower than it will be (interpreted): say why rather than wait silently (six
            # `search` seats waited 2-5 s without a word, issue 19)
            # the lock: not alongside the catch-up's prepare
            with self._lock, held.during(), interpreting(until=ready):
                return self.bot.step(state)
        if self.warm_up.running:
            with held.during(at_once=True):
                # at most INTERIM_AFTER while it compiles (a cold cache); a load from a warm
                # cache is waited for (the compiled decisions: a warm game's moves follow
                # from its seed)
                if not self.warm_up.wait(timeout=self._interim_wait()) and (
                    self.warm_up.compiling_now()
                ):
                    with self._lock:
                        action = self.bot.interim_step(state)
                    if action is not None:
                        return action
                    self.warm_up.wait()
        self.warm_up.wait()
        if not self.warm_up.later_ready.is_set():  # its fallback's code interpreted
            with held.during():
                return self.bot.step(state)
        return self.bot.step(state)

    def _interim_wait(self) -> float:
        """Seconds left to wait for the warm-up before the wrapped bot's
        :meth:`~lamagames.bots.base.Bot.interim_step`: :data:`INTERIM_AFTER` from the first
        position told (:meth:`prepare`) of the bot's run of decisions, else from now."""
        now = time.monotonic()
        start = now if self._run_start is None else min(self._run_start, now)
        return max(0.0, start + INTERIM_AFTER - now)

    def interim_step(self, state: State) -> int | None:
        """The wrapped bot's answer."""
        return self.bot.interim_step(state)

    def warm_kind(self) -> str:
        """The wrapped bot's answer."""
        return self.bot.warm_kind()

    def interpretable_at(self, state: State) -> bool:
        """The wrapped bot's answer."""
        return self.bot.interpretable_at(state)

    def prepare(self, state: State) -> None:
        """Passed on to the wrapped bot once the warm-up's code is ready (work ahead must
        not compile the same code concurrently); before that the last position told is kept
        and passed on as soon as it is ready. The first position told where this bot acts,
        after one where another seat acts, starts the wait of its run of decisions
        (:data:`INTERIM_AFTER`)."""
        if self.seat not in _acting(state):
            self._run_start = None
        elif self._run_start is None:
            self._run_start = time.monotonic()
        with self._lock:
            if self._ready or not self.warm_up.running:
                self._pending = None
                self.bot.prepare(state)
            else:
                self._pending = state

    def preparing(self) -> bool:
        """Whether the wrapped bot works ahead."""
        return self.bot.preparing()
