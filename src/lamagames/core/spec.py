"""One :class:`GameSpec` per game, found through one loader.

A game is one package plus one spec: the spec names, as lazy ``"module:attr"`` strings, every
piece the generic layers need (the game factory, its bots, its terminal view and ``lama play``
options and commands, its web adapter, its statistics hook, and further named ``extras`` such
as a batch engine or a hint provider). Nothing is imported until it is used, so importing the
core (or ``lama --help``) loads no game engine, and the generic modules (``cli/main.py``,
``web/app.py``, ``sim/``) import no game package.

Where specs come from, in this order of precedence:

1. :func:`register_spec` (tests, notebooks, a program embedding lamagames);
2. the built-in games, known by dotted path (:data:`BUILTIN_SPECS`), so the core imports no
   game;
3. the entry-point group ``lamagames.games`` of installed distributions: a third-party
   package adds a game with, in its ``pyproject.toml``::

       [project.entry-points."lamagames.games"]
       mygame = "mygame.spec:SPEC"

   (the entry point's name is the game id; it must point to a :class:`GameSpec`).

A spec, for example (the built-in ones are ``lamagames/dice/spec.py`` and
``lamagames/express/spec.py``):

>>> spec = GameSpec(
...     game_id="coin",
...     title="Coin Toss",
...     game="mypackage.coin:CoinGame",
...     bots={"greedy": "mypackage.coin_bots:GreedyBot"},
...     play_options=(PlayOption("--target", "target", "Coin: heads to win.", value_type=int),),
...     extras={"hints": "mypackage.coin_hints:hints"},
... )
>>> spec.bots["greedy"]
'mypackage.coin_bots:GreedyBot'
>>> spec.play_option("--target").param
'target'
>>> spec.load_extra("solver")
Traceback (most recent call last):
...
lamagames.core.errors.ParameterError: Coin Toss has no extra 'solver'; extras: hints
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from lamagames.core.errors import ParameterError, did_you_mean
from lamagames.core.events import EventsFunction
from lamagames.core.extras import missing
from lamagames.core.game import Game

#: A callable taking a game's parameters as keywords and returning a :class:`Game`.
GameFactory = Callable[..., Game]

#: Entry-point group through which installed packages add games.
ENTRY_POINT_GROUP: Final = "lamagames.games"

#: Built-in games: game id -> ``"module:attr"`` of their :class:`GameSpec`.
BUILTIN_SPECS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "dice": "lamagames.dice.spec:SPEC",
        "express": "lamagames.express.spec:SPEC",
    }
)

#: Bot kinds every game has without naming them (``lamagames.bots.base.RandomBot``).
GENERIC_BOT_KINDS: Final = ("random",)

_GAME_ID = re.compile(r"[a-z][a-z0-9_-]*\Z")
_FLAG = re.compile(r"--[a-z][a-z0-9-]*\Z")
#: ``"package.name:folder/sub"``: a dotted package, a relative folder without ``..``.
_WEB_STATIC = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:(?!.*\.\.)[\w.-]+(/[\w.-]+)*\Z")
_VALUE_TYPES: Final = (bool, int, float, str, Path)


def load_ref(ref: str) -> Any:
    """Import the object a ``"module:attr"`` reference names (``attr`` may be dotted).

    >>> load_ref("lamagames.core.game:CHANCE_PLAYER")
    -1

    Raises:
        ParameterError: ``ref`` is not of the form ``module:attr``.
        ImportError, AttributeError: the module or the attribute does not exist.
    """
    module_name, sep, attr = ref.partition(":")
    if not sep or not module_name or not attr:
        raise ParameterError(f"bad reference {ref!r}; expected 'module:attr'")
    target: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        target = getattr(target, part)
    return target


def _check_ref(where: str, ref: object) -> None:
    if not isinstance(ref, str) or ref.count(":") != 1 or ref.startswith(":") or ref.endswith(":"):
        raise ParameterError(f"{where} must be a 'module:attr' string, got {ref!r}")


@dataclass(frozen=True, slots=True)
class PlayOption:
    """A ``lama play`` option a game contributes: it sets one game parameter.

    Attributes:
        flag: the option, for example ``"--end-score"``.
        param: the game parameter it sets (a keyword of the game factory), ``"end_score"``.
        help: the help text shown by ``lama play --help`` (name the game in it: several
            games share the ``play`` command).
        value_type: what the option takes: ``int``, ``float``, ``str``, ``pathlib.Path``, or
            ``bool`` for a flag that takes no value.
        aliases: further spellings of the flag (``("--colors",)``).
        metavar: the value's placeholder in the help (``"POINTS"``).
        minimum: the smallest number accepted (``int``/``float`` only).
        flag_value: the parameter's value when a ``bool`` flag is given (``--short``: 3).
        convert: lazy ``"module:function"`` turning the typed value into the parameter's
            value; it raises :class:`~lamagames.core.errors.LamaError` for a bad file or
            value the game explains itself (shown as ``Error: <message>``) or another
            ``ValueError`` for a badly typed value (shown as an invalid value of the option).
        bots_only: if set, the option is refused when a person plays, with this message.

    Raises:
        ParameterError: a malformed flag, an unsupported ``value_type`` or a bad reference.
    """

    flag: str
    param: str
    help: str
    value_type: type[Any] = str
    aliases: tuple[str, ...] = ()
    metavar: str | None = None
    minimum: float | None = None
    flag_value: Any = True
    convert: str | None = None
    bots_only: str | None = None

    def __post_init__(self) -> None:
        for flag in (self.flag, *self.aliases):
            if not _FLAG.match(flag):
                raise ParameterError(f"play option {flag!r}: expected --lower-case-words")
        if not self.param.isidentifier():
            raise ParameterError(f"play option {self.flag}: bad parameter name {self.param!r}")
        if self.value_type not in _VALUE_TYPES:
            raise ParameterError(
                f"play option {self.flag}: value_type must be bool, int, float, str or Path"
            )
        if self.convert is not None:
            _check_ref(f"play option {self.flag}: convert", self.convert)

    @property
    def flags(self) -> tuple[str, ...]:
        """The flag and its aliases."""
        return (self.flag, *self.aliases)

    @property
    def is_flag(self) -> bool:
        """True for an option that takes no value (``value_type`` is ``bool``)."""
        return self.value_type is bool

    def to_param(self, value: Any) -> Any:
        """The game parameter's value for the typed ``value``: ``flag_value`` for a flag,
        else ``convert(value)`` or ``value`` itself.

        >>> PlayOption("--short", "llamas_to_win", "Short game.", bool, flag_value=3).to_param(True)
        3
        >>> PlayOption("--end-score", "end_score", "End score.", int).to_param(30)
        30

        Raises:
            ValueError: from the converter (see :attr:`convert`).
        """
        if self.is_flag:
            return self.flag_value
        if self.convert is not None:
            return load_ref(self.convert)(value)
        return value


@dataclass(frozen=True, slots=True)
class Requirement:
    """What an extra of a spec needs beyond the base install (as :attr:`Bot.requires
    <lamagames.bots.base.Bot.requires>` and ``Bot.extra`` for a bot kind), checked without
    importing the extra (:meth:`GameSpec.extra_unavailable`).

    Attributes:
        modules: top-level modules needed (``("numba",)``).
        extra: the optional extra of ``lamagames`` that installs them (``"solver"``), named
            in the message of a missing module.

    Raises:
        ParameterError: no modules, or a module name that is not a dotted identifier.
    """

    modules: tuple[str, ...]
    extra: str | None = None

    def __post_init__(self) -> None:
        modules = tuple(self.modules)
        if not modules or not all(
            isinstance(m, str) and all(part.isidentifier() for part in m.split("."))
            for m in modules
        ):
            raise ParameterError(f"a requirement needs module names, got {self.modules!r}")
        object.__setattr__(self, "modules", modules)

    def unavailable(self) -> str | None:
        """``None`` if every module is installed, else ``"needs numba: pip install
        'lamagames[solver]'"`` (:func:`lamagames.core.extras.missing`)."""
        return missing(self.modules, self.extra)


def _frozen(where: str, mapping: Mapping[str, str]) -> Mapping[str, str]:
    for key, ref in mapping.items():
        _check_ref(f"{where}[{key!r}]", ref)
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything the generic layers need to know about one game, by lazy reference.

    Attributes:
        game_id: the registry name (``make(game_id)``, records, URLs), lower case.
        title: the game's name for people, ``"LAMA Dice"``.
        game: the game factory as ``"module:Class"`` (a :class:`Game` class or a function
            taking the game's parameters as keywords); a callable is accepted too.
        bots: bot kind -> ``"module:Class"`` of a ``lamagames.bots.base.Bot`` subclass; the
            generic kinds (:data:`GENERIC_BOT_KINDS`, ``random``) need no entry.
        cli_view: ``"module:Class"`` of the terminal view (``lamagames.cli.views.GameView``);
            ``None``: the generic protocol-only view.
        play_options: the ``lama play`` options the game contributes.
        cli_commands: ``"module:attr"`` of further ``lama`` commands: a ``typer.Typer``
            (added as a command group, Lama Express's ``lama board``) or a function (added
            as one command).
        web_adapter: ``"module:Class"`` of the web adapter (``lamagames.web.adapters``);
            ``None``: the game cannot be played in the browser.
        stats: ``"module:Class"`` of the batch statistics hook
            (:class:`lamagames.core.metrics.StatsHook`); ``None``: no extra figures.
        events: ``"module:attr"`` of the game's events function
            (``events(before, action, player, after) -> list[Event]``,
            :class:`lamagames.core.events.EventsFunction`): what an applied action led to,
            for every narrator (terminal words, web log); ``None``: the game tells nothing
            beyond the notation.
        web_static: the folder of the game's browser files (its ES module ``render.js``,
            catalogs ``<lang>.json`` for en, de, fr, nl and it, styles) as ``"package:folder"``, a
            folder of package data inside an importable package (``"lamagames.dice:static"``);
            the web app serves it at ``/static/games/<game_id>/``. ``None``: no browser
            files (the game is drawn by nothing of its own).
        extras: further named lazy pieces (for example ``"batch"`` for a batch engine,
            ``"hints"`` for a hint provider), loaded with :meth:`load_extra`.
        requires: extra name -> the :class:`Requirement` of an extra that needs a package
            beyond the base install (LAMA Dice: ``"hints"`` needs numba from the ``solver``
            extra), so a caller can tell without importing it
            (:meth:`extra_unavailable`).

    Raises:
        ParameterError: a bad game id, a reference that is not ``"module:attr"``, or two
            play options with the same flag.
    """

    game_id: str
    title: str
    game: str | GameFactory
    bots: Mapping[str, str] = field(default_factory=dict)
    cli_view: str | None = None
    play_options: tuple[PlayOption, ...] = ()
    cli_commands: tuple[str, ...] = ()
    web_adapter: str | None = None
    stats: str | None = None
    events: str | None = None
    web_static: str | None = None
    extras: Mapping[str, str] = field(default_factory=dict)
    requires: Mapping[str, Requirement] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not _GAME_ID.match(self.game_id):
            raise ParameterError(
                f"bad game id {self.game_id!r}: lower-case letters, digits, '-' and '_'"
            )
        if isinstance(self.game, str):
            _check_ref(f"{self.game_id}: game", self.game)
        elif not callable(self.game):
            raise ParameterError(f"{self.game_id}: game must be 'module:Class' or a callable")
        for name in ("cli_view", "web_adapter", "stats", "events"):
            ref = getattr(self, name)
            if ref is not None:
                _check_ref(f"{self.game_id}: {name}", ref)
        for ref in self.cli_commands:
            _check_ref(f"{self.game_id}: cli_commands", ref)
        if self.web_static is not None and not _WEB_STATIC.match(str(self.web_static)):
            raise ParameterError(
                f"{self.game_id}: web_static must be a 'package:folder' string (a folder "
                f"inside an importable package, no '..'), got {self.web_static!r}"
            )
        object.__setattr__(self, "bots", _frozen(f"{self.game_id}: bots", self.bots))
        object.__setattr__(self, "extras", _frozen(f"{self.game_id}: extras", self.extras))
        for name, needs in self.requires.items():
            if name not in self.extras:
                raise ParameterError(f"{self.game_id}: requires[{name!r}] names no extra")
            if not isinstance(needs, Requirement):
                raise ParameterError(f"{self.game_id}: requires[{name!r}] must be a Requirement")
        object.__setattr__(self, "requires", MappingProxyType(dict(self.requires)))
        object.__setattr__(self, "play_options", tuple(self.play_options))
        object.__setattr__(self, "cli_commands", tuple(self.cli_commands))
        flags = [flag for option in self.play_options for flag in option.flags]
        if len(set(flags)) != len(flags):
            raise ParameterError(f"{self.game_id}: two play options share a flag")

    # ------------------------------------------------------------------ loading
    def game_factory(self) -> GameFactory:
        """The game factory (imported on first use).

        Raises:
            ImportError, AttributeError: the reference does not resolve.
        """
        if isinstance(self.game, str):
            factory: GameFactory = load_ref(self.game)
            return factory
        return self.game

    def bot_kinds(self) -> list[str]:
        """The generic kinds and the game's own, sorted."""
        return sorted(set(GENERIC_BOT_KINDS) | set(self.bots))

    def play_option(self, flag: str) -> PlayOption:
        """The play option with ``flag`` (or an alias of it).

        Raises:
            KeyError: the game contributes no such option.
        """
        for option in self.play_options:
            if flag in option.flags:
                return option
        raise KeyError(flag)

    def web_static_folder(self) -> tuple[str, str] | None:
        """The package and the folder inside it of :attr:`web_static`, or ``None``.

        >>> GameSpec("coin", "Coin", "m:C", web_static="mypackage.coin:static").web_static_folder()
        ('mypackage.coin', 'static')
        """
        if self.web_static is None:
            return None
        package, _, folder = self.web_static.partition(":")
        return package, folder

    def make_stats(self) -> Any:
        """A fresh statistics hook (:attr:`stats` called with no arguments), or ``None``."""
        return None if self.stats is None else load_ref(self.stats)()

    def events_function(self) -> EventsFunction | None:
        """The game's events function (:attr:`events`, imported on first use), or ``None``.

        Raises:
            ImportError, AttributeError: the reference does not resolve.
        """
        if self.events is None:
            return None
        function: EventsFunction = load_ref(self.events)
        return function

    def load_extra(self, name: str) -> Any:
        """The object the extra ``name`` names (imported on first use).

        Raises:
            ParameterError: the game has no such extra (the message lists its extras).
        """
        ref = self.extras.get(name)
        if ref is None:
            known = ", ".join(sorted(self.extras)) or "none"
            raise ParameterError(f"{self.title} has no extra {name!r}; extras: {known}")
        return load_ref(ref)

    def extra_unavailable(self, name: str) -> str | None:
        """Why the extra ``name`` cannot be used in this installation, else ``None``: a
        module of its :attr:`requires` entry is not installed (nothing is imported). The
        reason reads on from the extra: ``"needs numba: pip install 'lamagames[solver]'"``.

        Raises:
            ParameterError: the game has no such extra (the message lists its extras).
        """
        if name not in self.extras:
            known = ", ".join(sorted(self.extras)) or "none"
            raise ParameterError(f"{self.title} has no extra {name!r}; extras: {known}")
        needs = self.requires.get(name)
        return None if needs is None else needs.unavailable()


# ---------------------------------------------------------------------- loader

_REGISTERED: dict[str, GameSpec] = {}
_LOADED: dict[str, GameSpec] = {}


@cache
def _entry_points() -> Mapping[str, EntryPoint]:
    """Installed games (entry-point group :data:`ENTRY_POINT_GROUP`), by game id."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def register_spec(spec: GameSpec) -> None:
    """Register (or replace) the spec of ``spec.game_id``; it wins over a built-in or
    installed spec of the same id.

    Raises:
        ParameterError: ``spec`` is not a :class:`GameSpec`.
    """
    if not isinstance(spec, GameSpec):
        raise ParameterError(f"register_spec needs a GameSpec, got {type(spec).__name__}")
    _REGISTERED[spec.game_id] = spec


def unregister_spec(game_id: str) -> None:
    """Forget a spec given to :func:`register_spec` or loaded from an entry point (a
    built-in spec is loaded again when next asked for); no error if there is none."""
    _REGISTERED.pop(game_id, None)
    _LOADED.pop(game_id, None)


def spec_ids() -> list[str]:
    """The ids of every known game (registered, built-in and installed), sorted."""
    return sorted(set(_REGISTERED) | set(BUILTIN_SPECS) | set(_entry_points()))


def _unknown_game(game_id: str) -> str:
    """``unknown game 'dise'; known games: dice, express; did you mean 'dice'?`` (the
    suggestion when a known id comes close, issue 19)."""
    known = spec_ids()
    message = f"unknown game {game_id!r}; known games: {', '.join(known)}"
    return message + did_you_mean(str(game_id), known)


def get_spec(game_id: str) -> GameSpec:
    """The spec of a game.

    Raises:
        ParameterError: unknown game id (the message lists the known games), or the
            reference does not give a :class:`GameSpec` of that id.
    """
    spec = _REGISTERED.get(game_id) or _LOADED.get(game_id)
    if spec is not None:
        return spec
    target = BUILTIN_SPECS.get(game_id)
    try:
        if target is not None:
            loaded = load_ref(target)
        else:
            entry = _entry_points().get(game_id)
            if entry is None:
                raise ParameterError(_unknown_game(game_id))
            target = entry.value
            loaded = entry.load()
    except (ImportError, AttributeError) as exc:
        raise ParameterError(f"cannot load the game {game_id!r} ({target}): {exc}") from None
    if not isinstance(loaded, GameSpec) or loaded.game_id != game_id:
        raise ParameterError(f"{target} is not the GameSpec of {game_id!r}")
    _LOADED[game_id] = loaded
    return loaded


def all_specs() -> Iterator[GameSpec]:
    """Every known spec, in :func:`spec_ids` order (loading each).

    A spec that cannot be loaded (a broken installed game) is skipped with a
    :class:`RuntimeWarning` naming it, so one broken package does not stop the others.
    """
    for game_id in spec_ids():
        try:
            yield get_spec(game_id)
        except ParameterError as exc:
            warnings.warn(f"skipping a game: {exc}", RuntimeWarning, stacklevel=2)


def with_game(spec: GameSpec, factory: GameFactory, title: str | None = None) -> GameSpec:
    """A copy of ``spec`` with another game factory (and title)."""
    return dataclasses.replace(spec, game=factory, title=title or spec.title)
