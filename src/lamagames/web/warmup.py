"""The compiled bot kinds made ready when the server starts, without stalling it (issue 19).

On a cold install (an empty Numba cache) the first decision of an ``exact`` LAMA Dice bot
compiled its solver's kernels on the server's event loop: the table sat 7-9 s on "Exact
(solver) 2's turn" without a word, and every other table stood still meanwhile (a compile
holds the GIL). Now :func:`start_warm_ups`, called once when the server starts
(``Settings.warm_compiled``, which ``lama serve`` turns on), starts for each game and each
bot kind of it that runs compiled code (:func:`~lamagames.bots.warmup.compiled_kinds`) a
:class:`~lamagames.bots.warmup.BackgroundWarmUp` with ``compile_here=False``: on a cold
cache a **helper process** (the one ``lama play`` uses) compiles everything into Numba's
disk cache and the server only loads it once the helper is done; on a warm cache the server
loads it at once. One warm-up per kind, all at once (the code of a kind another kind's
bots fall back on is left to that kind's warm-up: ``BackgroundWarmUp``'s ``elsewhere``), so
that a kind whose bots must wait for their code (``exact`` with two seats) is not held up by
a slower one whose bots decide interpreted meanwhile (``search``): the helpers of those run
at a lower priority (:data:`INTERPRETED_HELPER_NICE`).

While a kind's warm-up runs, the table driver wraps each new bot of that kind in an
:class:`~lamagames.bots.warmup.AfterWarmUp` (:func:`running_warm_up`): it decides
interpreted where it can (:meth:`~lamagames.bots.base.Bot.interpretable_at`), else waits
for the warm-up, in a worker thread, never on the event loop. :func:`preparing` tells the
table's ``state`` message (``preparing``) that a bot of the table waits for code being
compiled, and the browser then says "Preparing the fast engine (first run only)…".

The warm-ups are per process: a second app in the same process (tests) reuses the ones
already done; :func:`close_warm_ups` (the server's shutdown) stops those still running and
forgets them.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Iterable
from typing import Final

from lamagames.bots import available_bot_kinds, bot_class
from lamagames.bots.warmup import BackgroundWarmUp, compiled_kinds, import_compiled_bots
from lamagames.core.errors import LamaError
from lamagames.core.registry import make
from lamagames.web.adapters import get_adapter

log = logging.getLogger("lamagames.web")

#: Root seed of the warm-up's throwaway positions and bots (no table's).
WARM_SEED: Final = 19
#: Niceness added to the helper process of a kind whose bots decide interpreted while their
#: code compiles (``search``, about 12 CPU s of compiles): the helper of a kind whose bots
#: wait for it (``exact``, about 5 CPU s with the helper's start) gets the cores first.
INTERPRETED_HELPER_NICE: Final = 10

_WARM_UPS: dict[tuple[str, str], BackgroundWarmUp] = {}
_LOCK = threading.Lock()


def import_compiled_code(game_ids: Iterable[str]) -> None:
    """Import Numba and everything a compiled bot kind of each game in ``game_ids`` imports
    (by making one throwaway bot of each), in the calling thread, before the warm-up
    threads start (the server awaits it at start, before it serves).

    Numba's first import from several threads at once can deadlock: a trial's server hung
    for good in 3 of 4 cold starts (issue 19), the warm-up thread failing with *partially
    initialized module 'numba.core.event'* while a request making an ``exact`` bot and the
    heuristic's warm-up waited on the import lock and on llvmlite's lock. Done once here, no
    other thread imports them for the first time; a request that makes such a bot then does
    not import the solver on the event loop either (it held every table 1-5 s). A game or
    kind that cannot be made is logged and left to its first use.
    """
    with contextlib.suppress(ImportError):  # without numba: nothing compiled to import
        import numba
        import numba.core.event  # noqa: F401
    for game_id in game_ids:
        try:
            game = make(game_id, **get_adapter(game_id).warm_params())
            import_compiled_bots(game, available_bot_kinds(game_id), WARM_SEED)
        except (LamaError, ImportError, AttributeError, TypeError, ValueError):
            log.exception("the compiled bots of %s cannot be imported", game_id)


def start_warm_ups(game_ids: Iterable[str]) -> list[BackgroundWarmUp]:
    """Start the warm-up of every compiled bot kind of each game in ``game_ids`` that this
    installation can use (each in its own thread; see the module docstring), on a position
    of the game with the parameters its web adapter names
    (:meth:`~lamagames.web.adapters.WebAdapter.warm_params`). A kind whose warm-up already
    runs or ran in this process is not warmed again; a game that cannot be made is logged
    and left out (its tables work as before, compiling on first use).

    Returns:
        The warm-ups started now.
    """
    started: list[BackgroundWarmUp] = []
    for game_id in game_ids:
        try:
            game = make(game_id, **get_adapter(game_id).warm_params())
            kinds = compiled_kinds(game_id, available_bot_kinds(game_id))
        except (LamaError, ImportError, AttributeError, TypeError):
            log.exception("the compiled bots of %s cannot be warmed up", game_id)
            continue
        for kind in kinds:
            with _LOCK:
                if (game_id, kind) in _WARM_UPS:
                    continue
                nice = INTERPRETED_HELPER_NICE if bot_class(game_id, kind).interpretable else 0
                warm_up = BackgroundWarmUp(
                    game,
                    [kind],
                    WARM_SEED,
                    compile_here=False,
                    helper_nice=nice,
                    elsewhere=functools.partial(_warm_up_of, game_id),
                )
                _WARM_UPS[(game_id, kind)] = warm_up
            note = "the compiled code of the %s %s bot is ready"
            warm_up.then.append(functools.partial(log.info, note, game_id, kind))
            started.append(warm_up)
    return started


def wait_for_waiting_kinds(warm_ups: Iterable[BackgroundWarmUp]) -> None:
    """Wait until the code of each kind among ``warm_ups`` whose bots wait for it (their
    helpers at full priority, not :data:`INTERPRETED_HELPER_NICE`: ``exact``) is ready,
    and until the others have had their first look at the cache (compiling or loaded).
    The server compiles the ``heuristic`` bot's Numba roll value in its own process only
    after that (:func:`lamagames.web.live._warm_bots`): that compile holds Numba's compiler
    lock for seconds (18 s on a loaded machine), and the warm-ups' first looks and loads
    waited for it while the first tables' bots waited for them (issue 19)."""
    for warm_up in warm_ups:
        if warm_up.helper_nice == 0:
            warm_up.wait()
        else:
            warm_up.compiling_now()


def _warm_up_of(game_id: str, kind: str) -> BackgroundWarmUp | None:
    """The warm-up of ``kind`` bots of ``game_id`` started in this process, running or
    done, else ``None``: a kind's warm-up leaves the code of the kinds its bots fall back
    on (the ``exact`` bot's ``search``) to theirs."""
    with _LOCK:
        return _WARM_UPS.get((game_id, kind))


def running_warm_up(game_id: str, kind: str) -> BackgroundWarmUp | None:
    """The warm-up of ``kind`` bots of ``game_id`` while it runs (their code is being
    compiled or loaded), else ``None``."""
    with _LOCK:
        warm_up = _WARM_UPS.get((game_id, kind))
    if warm_up is None or not warm_up.running:
        return None
    return warm_up


def preparing(game_id: str, kinds: Iterable[str]) -> bool:
    """Whether the code of a bot kind among ``kinds`` of ``game_id`` is being compiled now
    (a cold cache, the first run after an install) or may be (the warm-up's first look at
    the cache is not over), so that such a bot may have to wait for it
    (:attr:`~lamagames.bots.warmup.BackgroundWarmUp.may_be_preparing`; it does not wait).
    A table's ``state`` is sent when its turn changes, not when the warm-up finds that it
    must compile: a trial's table, made as soon as the server answered, was told no
    preparation for the whole 10 s its bot waited (issue 19)."""
    with _LOCK:
        found = [_WARM_UPS.get((game_id, kind)) for kind in set(kinds)]
    return any(warm_up is not None and warm_up.may_be_preparing for warm_up in found)


def close_warm_ups() -> None:
    """Stop every warm-up still running (its helper process killed and reaped) and forget
    it, so that a later start warms those kinds again; finished ones are kept (their code
    is loaded in this process)."""
    with _LOCK:
        running = [(key, w) for key, w in _WARM_UPS.items() if w.running]
        for key, _ in running:
            del _WARM_UPS[key]
    for _, warm_up in running:
        warm_up.close()
