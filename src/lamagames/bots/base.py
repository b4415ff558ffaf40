"""Bot protocol and registry.

A bot plays one seat. It sees the game only through the public :class:`State` protocol (and
the public helpers of the game package, such as action decoders) and owns its own seeded
random stream, so a game with bots replays exactly from its seed.
"""

from __future__ import annotations

import functools
import numbers
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import ClassVar

from lamagames.core.errors import ParameterError, quoted
from lamagames.core.extras import missing
from lamagames.core.game import Game, State
from lamagames.core.rng import make_rng
from lamagames.core.spec import get_spec, load_ref


class Bot(ABC):
    """A policy for one seat.

    Args:
        game: the game instance the bot plays.
        seat: the bot's seat (0-based).
        seed: root seed; the bot's stream is ``make_rng(seed, "bot", seat)``.

    Raises:
        ParameterError: ``game`` not a :class:`Game`, ``seat`` not an integer or out of
            range, ``seed`` not an integer.
    """

    #: registry name of the bot kind, for example ``"random"``.
    kind: ClassVar[str]
    #: top-level modules the kind needs beyond the base install (``("numba",)``), checked
    #: before a bot is made (:func:`bot_unavailable`, with
    #: :func:`lamagames.core.extras.is_installed`).
    requires: ClassVar[tuple[str, ...]] = ()
    #: the optional extra of ``lamagames`` that installs :attr:`requires` (``"sim"``), named
    #: in the message of a missing requirement.
    extra: ClassVar[str | None] = None
    #: the bot's compiled code also runs interpreted with the same decisions (inside
    #: :func:`lamagames.core.jit.interpreting`), fast enough to decide while that code is
    #: still compiling (``lama play``'s first moves, issue 19).
    interpretable: bool = False

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        _check_game(game)
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral):
            raise ParameterError(f"seat must be an integer, got {quoted(seat)}")
        if not 0 <= seat < game.num_players:
            raise ParameterError(f"seat {seat} out of range for {game.num_players} players")
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise ParameterError(f"seed must be an integer, got {quoted(seed)}")
        self.game: Game = game
        self.seat: int = int(seat)
        self.rng: random.Random = make_rng(int(seed), "bot", self.seat)

    @abstractmethod
    def step(self, state: State) -> int:
        """Choose an action for :attr:`seat`.

        Called only when ``state.legal_actions(self.seat)`` is non-empty.

        Returns:
            One of ``state.legal_actions(self.seat)``.
        """

    def warm_code(self, state: State) -> None:
        """Compile (or load from the disk cache) the compiled code the bot's decisions run,
        working on ``state``, a throwaway position where :attr:`seat` decides (the bot is a
        throwaway too). The default decides once there; a bot may do something cheaper
        that runs the same kernels.
        """
        self.step(state)

    def interpretable_at(self, state: State) -> bool:
        """Whether the decision at ``state`` may run interpreted while the compiled code is
        not ready (see :attr:`interpretable`); the default is :attr:`interpretable`, a bot
        may say yes at some positions only."""
        return self.interpretable

    def warm_interpreted(self) -> None:
        """Make ready the interpreted form of the code an :attr:`interpretable` bot runs
        while its compiled code is not (building it reads and rewrites the kernels' source,
        a few tenths of a second): ``lama play``'s warm-up calls it on a cold cache, while
        the people make their first moves, so the bot's first decision does not pay for it.
        The default does nothing."""
        return None

    def interim_step(self, state: State) -> int | None:
        """An action for :attr:`seat` at ``state`` chosen without the compiled code a warm-up
        is still preparing, by a weaker rule that runs interpreted in well under a second
        and never compiles: what a warm-up's driver plays once a bot that cannot decide
        interpreted (not :meth:`interpretable_at` ``state``) has waited
        :data:`~lamagames.bots.warmup.INTERIM_AFTER` seconds for that code (issue 19: the
        first move of a cold install must not wait more than 3 s). It must leave the bot
        as a compiled decision would (its random stream included), so that only this
        action may differ from a warm install's. ``None`` (the default): none, the driver
        waits for the code.

        Raises:
            whatever :meth:`step` raises for a bad ``state``.
        """
        return None

    def warm_kind(self) -> str:
        """The bot kind whose warm-up prepares the compiled code this bot's decisions run
        (a web server warms each kind once, on a two-seat position): its own kind by
        default; the ``exact`` bot with three or more seats decides with the ``search``
        bot's code."""
        return self.kind

    def later_code(self) -> tuple[object, ...]:
        """The code the bot's decisions run that a warm-up prepares only after the bot's
        own (:meth:`warm_code`), running it interpreted until then with the same results
        (:attr:`later_ready`; issue 19: the first moves of a cold install waited for it).
        Two sorts of items: Numba kernels the bot calls through
        :func:`lamagames.core.jit.choose`, cheap enough interpreted that their compile waits
        until after the bot's first decision (compiled in the warm-up's later phase, in its
        own process: a fraction of a second); and bot kinds (strings), the kinds whose
        decisions this bot makes at some positions (its fallback) and whose code
        :meth:`warm_code` does not prepare (compiled in a helper process, then loaded).
        The default: none."""
        return ()

    #: Set by a warm-up that prepares :meth:`later_code` in the background:
    #: ``later_ready(item)`` says whether that item (one of :meth:`later_code`) is ready;
    #: until it is, the bot runs it interpreted (no compile on the deciding thread, issue
    #: 19). ``None`` (the default): all compiled.
    later_ready: Callable[[object], bool] | None = None

    def later_until(self, item: object) -> Callable[[], bool] | None:
        """``None`` when ``item`` of :meth:`later_code` is ready or no warm-up prepares it
        (:attr:`later_ready`); else the question whether it is ready now, for
        :func:`lamagames.core.jit.interpreting`'s ``until``."""
        ready = self.later_ready
        if ready is None or ready(item):
            return None
        return functools.partial(ready, item)

    def warm_split(self) -> tuple[object, ...] | None:
        """How ``lama play``'s warm-up shares :meth:`warm_code`'s compiles between a helper
        process and its own (issue 19: the two run on two cores, and a compile in a helper
        process does not hold this process's GIL).

        Returns:
            ``None`` (the default): the helper process compiles everything, this process
            then loads it from Numba's disk cache. Else the kernels (Numba dispatchers that
            the bot's code calls through :func:`lamagames.core.jit.choose`) the helper
            compiles, running the others interpreted, while this process compiles the
            others, running these interpreted.
        """
        return None

    def prepare(self, state: State) -> None:
        """A hint that ``state`` is the current position, given whenever a driver sees a new
        one (after a deal, while another seat thinks, before its pause ahead of a bot's
        decision). A bot may start work for its next decisions in the background; it must
        return at once, and :meth:`step` must choose the same action whether or not (and
        however far) that work ran. The default does nothing.
        """
        return None

    def preparing(self) -> bool:
        """Whether work started by :meth:`prepare` is still running (default ``False``)."""
        return False


class RandomBot(Bot):
    """Uniform over the legal actions (any game)."""

    kind = "random"

    def step(self, state: State) -> int:
        """Return a legal action drawn uniformly with the bot's own stream."""
        return self.rng.choice(state.legal_actions(self.seat))


# Game-specific bots are named in the game's spec (``GameSpec.bots``: kind -> "module:Class");
# ``random`` is generic. ``register_bot`` adds kinds at run time (tests, notebooks).
_GENERIC: dict[str, type[Bot]] = {"random": RandomBot}
_REGISTERED: dict[tuple[str, str], type[Bot]] = {}


def register_bot(game_id: str, cls: type[Bot]) -> None:
    """Register a bot class for a game under ``cls.kind`` (a built-in kind is usually
    named in the game's spec instead: ``GameSpec.bots``)."""
    _REGISTERED[(game_id, cls.kind)] = cls


def _spec_bots(game_id: str) -> Mapping[str, str]:
    """The game's own bot kinds from its spec (none for an unknown game)."""
    try:
        return get_spec(game_id).bots
    except ParameterError:
        return {}


def bot_kinds(game_id: str) -> list[str]:
    """Bot kinds available for a game, sorted."""
    kinds = set(_GENERIC) | set(_spec_bots(game_id))
    kinds |= {kind for (gid, kind) in _REGISTERED if gid == game_id}
    return sorted(kinds)


def bot_class(game_id: str, kind: str) -> type[Bot]:
    """Look up a bot class: registered, generic, then the game's spec.

    Raises:
        ParameterError: no bot of that kind for that game (the message lists the kinds).
        ImportError, AttributeError: the spec names a module or class that does not exist.
    """
    key = (game_id, kind)
    if key in _REGISTERED:
        return _REGISTERED[key]
    if kind in _GENERIC:
        return _GENERIC[kind]
    target = _spec_bots(game_id).get(kind)
    if target is None:
        kinds = ", ".join(bot_kinds(game_id))
        raise ParameterError(f"unknown bot kind {kind!r} for {game_id}; available: {kinds}")
    cls: type[Bot] = load_ref(target)
    return cls


class BotUnavailableError(ParameterError):
    """A known bot kind cannot be used in this installation (a package is missing).

    Attributes:
        kind: the bot kind.
        reason: why, as :func:`bot_unavailable` says it
            (``"needs numba: pip install 'lamagames[sim]'"``).
    """

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(f"the {quoted(kind)} bot is not available in this installation ({reason})")
        self.kind = kind
        self.reason = reason


def bot_unavailable(game_id: str, kind: str) -> str | None:
    """Why bot ``kind`` of ``game_id`` cannot be used in this installation, else ``None``.

    A kind is unusable when its module or class cannot be loaded, or when a module of its
    class's :attr:`Bot.requires` is not installed. The reason reads on from "the bot ...":
    ``"needs numba: pip install 'lamagames[sim]'"``, ``"cannot be loaded: No module named
    'x'"``.

    Raises:
        ParameterError: no bot of that kind for that game (the message lists the kinds).
    """
    try:
        cls = bot_class(game_id, kind)
    except (ImportError, AttributeError) as exc:
        return f"cannot be loaded: {exc}"
    return missing(cls.requires, cls.extra)


def available_bot_kinds(game_id: str) -> list[str]:
    """The bot kinds of a game that can be used in this installation, sorted (the kinds of
    :func:`bot_kinds` without those :func:`bot_unavailable` refuses)."""
    return [kind for kind in bot_kinds(game_id) if bot_unavailable(game_id, kind) is None]


def usable_bot_class(game_id: str, kind: str) -> type[Bot]:
    """:func:`bot_class`, refusing a kind this installation cannot use.

    Raises:
        ParameterError: an unknown kind.
        BotUnavailableError: a known kind that :func:`bot_unavailable` refuses (the message
            names the missing package and the extra that installs it).
    """
    reason = bot_unavailable(game_id, kind)
    if reason is not None:
        raise BotUnavailableError(kind, reason)
    return bot_class(game_id, kind)


def _check_game(game: object) -> None:
    """Refuse a ``game`` argument that is not a :class:`Game` (a :class:`ParameterError`
    naming it, instead of an ``AttributeError`` deep inside)."""
    if not isinstance(game, Game):
        raise ParameterError(
            f"game must be a Game (for example lamagames.make('dice')), got {quoted(game)}"
        )


def make_bot(kind: str, game: Game, seat: int, seed: int = 0) -> Bot:
    """Create a bot of ``kind`` for ``seat``.

    Raises:
        ParameterError: ``game`` is not a :class:`Game`, an unknown kind, bad arguments for
            the kind (such as a seat count it does not play).
        BotUnavailableError: the kind cannot be used in this installation (see
            :func:`usable_bot_class`).
    """
    _check_game(game)
    return usable_bot_class(game.game_id, kind)(game, seat, seed)
