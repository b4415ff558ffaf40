"""Per-game web adapters: everything the web layer needs to know about one game.

The web layer is game-agnostic. Each game plugs in with a :class:`WebAdapter` registered
under its game id; the adapter builds the game from the request parameters, turns a state
into the JSON view a client receives, labels actions for humans, names the bot that stands
in for an absent human and, for games with free-action windows (Lama Express, E-9), names the
open window (actions sent in it are honoured in arrival order) and the ``pass`` action that
the optional alertness timer applies. The browser side of a game is
one ES module (``renderer``) plus its message catalogs (``<lang>.json``), shipped in the
game's own package (the folder ``GameSpec.web_static`` names) and served at
``/static/games/<id>/``.

No rule logic lives here: legality is always decided by the engine.

Adding a game (for example Lama Express) takes three steps:

1. subclass :class:`WebAdapter` (usually only ``game_id``, ``renderer``, ``action_label``
   and, for windows, ``has_windows``, ``window_id`` and ``window_pass``),
2. name it in the game's spec, ``GameSpec(web_adapter="module:Class")`` (or call
   :func:`register_adapter`),
3. ship ``render.js`` and ``{en,de}.json`` in a folder of the game's package and name it in
   the spec, ``GameSpec(web_static="package:folder")``; the app serves it at
   ``/static/games/<id>/`` (``renderer`` is then ``"games/<id>/render.js"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, ClassVar

from lamagames.bots import available_bot_kinds, bot_kinds, bot_unavailable
from lamagames.core.errors import ParameterError
from lamagames.core.events import EventsFunction
from lamagames.core.game import Game, State
from lamagames.core.registry import make
from lamagames.core.spec import all_specs, get_spec, load_ref

#: A game's hint provider: ``hints(state, player)`` -> one hint per legal action, each with
#: ``to_json()`` (see :class:`~lamagames.web.schemas.HintOut` for the fields).
HintProvider = Callable[[State, int], Sequence[Any]]

#: Name of the hint provider among a game's spec extras (``GameSpec.extras``).
HINTS = "hints"


class WebAdapter:
    """Default, protocol-only behaviour; games override what they need.

    Class attributes:
        game_id: registry id of the game (``lamagames.core.make``).
        renderer: path under ``/static/`` of the game's ES module
            (``"games/<id>/render.js"``, served from the spec's ``web_static`` folder).
        spectator_seat: whose observation spectators see (public parts only).
        private_keys: observation keys removed from the spectators' view.
        preferred_substitute: bot kind that plays for an absent human, if the game has it.
        has_windows: the game has free-action windows in which several seats act at once
            (the lobby then offers the alertness timer).
    """

    game_id: ClassVar[str]
    renderer: ClassVar[str]
    spectator_seat: ClassVar[int] = 0
    private_keys: ClassVar[tuple[str, ...]] = ("legal_actions",)
    preferred_substitute: ClassVar[str] = "heuristic"
    has_windows: ClassVar[bool] = False

    # ------------------------------------------------------------------ setup
    def make_game(self, params: dict[str, Any], num_players: int) -> Game:
        """Build the game for a table of ``num_players`` seats.

        Raises:
            ParameterError: bad or conflicting parameters (the engine's message).
        """
        if "num_players" in params and params["num_players"] != num_players:
            raise ParameterError("params.num_players must match the number of seats")
        return make(self.game_id, **{**params, "num_players": num_players})

    def bot_kinds(self) -> list[str]:
        """Bot kinds a seat of this game can be given: those this installation can use
        (:func:`~lamagames.bots.available_bot_kinds`; the LAMA Dice ``search`` and
        ``exact`` bots need numba)."""
        return available_bot_kinds(self.game_id)

    def bot_unavailable(self, kind: str) -> str | None:
        """Why a bot kind of this game cannot play on this server, else ``None`` (also for
        a kind the game does not have): the missing package and the extra that installs it
        (:func:`~lamagames.bots.bot_unavailable`)."""
        if kind not in bot_kinds(self.game_id):
            return None
        return bot_unavailable(self.game_id, kind)

    def substitute_bot(self) -> str:
        """Bot kind that plays for a human who is away or out of time."""
        kinds = self.bot_kinds()
        return self.preferred_substitute if self.preferred_substitute in kinds else "random"

    def describe(self) -> dict[str, Any]:
        """Static facts for ``GET /api/games``: limits, bot kinds, renderer, defaults,
        whether the game has windows, and ``extras`` the game's own browser module reads."""
        game = make(self.game_id)
        info = game.info
        return {
            "id": self.game_id,
            "name": info.long_name,
            "min_players": info.min_players,
            "max_players": info.max_players,
            "bot_kinds": self.bot_kinds(),
            "renderer": self.renderer,
            "default_params": {k: v for k, v in game.params.items() if k != "num_players"},
            "windows": self.has_windows,
            "hints": self.has_hints(),
            "extras": {},
        }

    # ------------------------------------------------------------------ views
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The JSON view of ``state`` for ``seat``; ``None`` is a spectator.

        Spectators get the observation of :attr:`spectator_seat` without
        :attr:`private_keys`.
        """
        if seat is not None:
            return state.observation(seat)
        view = state.observation(self.spectator_seat)
        for key in self.private_keys:
            view.pop(key, None)
        return view

    def acting_players(self, state: State) -> list[int]:
        """Seats that may act now (the engine's answer)."""
        return state.acting_players()

    def action_label(self, state: State, seat: int, action: int) -> str:
        """English label of a legal action; clients localise from the notation."""
        return state.action_to_string(action, seat)

    def events(
        self, before: State, player: int | None, action: int, after: State
    ) -> list[dict[str, Any]]:
        """What one applied action led to, for the move log: the game's events
        (``events(before, action, player, after)`` named by the game's spec, see
        :mod:`lamagames.core.events`) as JSON (``Event.to_json``: ``{"kind": ..., ...}``),
        in order. The game's browser module words them (``eventLines``); nothing here
        compares states. Empty for a game without an events function.

        Args:
            before: the state before the action.
            player: the acting seat, ``None`` for a chance outcome.
            action: the applied action (or chance outcome).
            after: the state after it.
        """
        function = _events_function(self.game_id)
        if function is None:
            return []
        return [event.to_json() for event in function(before, action, player, after)]

    def names_hints(self) -> bool:
        """Whether the game's spec names a ``hints`` extra, whether or not this server can
        give them (nothing is imported)."""
        try:
            return HINTS in get_spec(self.game_id).extras
        except ParameterError:
            return False

    def hints_unavailable(self) -> str | None:
        """Why this server cannot give the game's hints, else ``None`` (also for a game
        without hints): a package the spec's ``hints`` extra needs
        (``GameSpec.requires``) is not installed, ``"needs numba: pip install
        'lamagames[solver]'"`` for LAMA Dice without numba. Nothing is imported."""
        if not self.names_hints():
            return None
        return get_spec(self.game_id).extra_unavailable(HINTS)

    def has_hints(self) -> bool:
        """Whether seated players can ask for hints on this server: the game's spec names a
        ``hints`` extra and this installation can run it (:meth:`hints_unavailable`);
        ``GET /api/games`` and every table say so (nothing is imported)."""
        return self.names_hints() and self.hints_unavailable() is None

    def hint_provider(self) -> HintProvider | None:
        """The game's hint provider, ``hints(state, player) -> list[hint]`` (each hint with
        ``to_json()``), named by the spec's ``hints`` extra; ``None`` if the game has none.

        Raises:
            ImportError, AttributeError: the provider cannot be loaded here (callers check
                :meth:`hints_unavailable` first, which names the missing package).
        """
        return _hint_provider(self.game_id)

    def warm_bots(self) -> None:
        """Prepare the game's bots to run fast in this process (slow: compiling, loading
        tables). The server calls it once at start in a background thread, never on the
        event loop; bots must play the same moves before and after. Default: nothing."""

    def warm_params(self) -> dict[str, Any]:
        """The game parameters of the position on which the server's warm-up of the
        compiled bot kinds decides (:mod:`lamagames.web.warmup`, issue 19): choose those
        whose decisions run every compiled kernel a table can need. Default: the game's
        defaults (``{}``)."""
        return {}

    def window_id(self, state: State) -> str | None:
        """Identity of the free-action window open in ``state`` (E-9), else ``None``.

        While the same window stays open, an action a client chose at an earlier version of
        it is still honoured if the engine accepts it now (arrival order); outside windows
        every action must name the table's current version. Turn-based games have none.
        """
        return None

    def window_pass(self, state: State, seat: int) -> int | None:
        """The ``pass`` action of ``seat`` in a free-action window, else ``None``.

        Used by the optional alertness timer (E-9): when it runs out, every human seat
        that may still act passes. Turn-based games have no windows.
        """
        return None


@cache
def _events_function(game_id: str) -> EventsFunction | None:
    """The events function the game's spec names (``GameSpec.events``), or ``None``."""
    return get_spec(game_id).events_function()


@cache
def _hint_provider(game_id: str) -> HintProvider | None:
    try:
        spec = get_spec(game_id)
    except ParameterError:
        return None
    if HINTS not in spec.extras:
        return None
    provider: HintProvider = spec.load_extra(HINTS)
    return provider


# Adapters are named in each game's spec (``GameSpec.web_adapter``) and imported on first use,
# so the web layer imports no game eagerly; ``register_adapter`` adds one at run time.
_REGISTERED: dict[str, WebAdapter] = {}
_LOADED: dict[tuple[str, str], WebAdapter] = {}


def register_adapter(adapter: WebAdapter) -> None:
    """Register (or replace) the web adapter of ``adapter.game_id``."""
    _REGISTERED[adapter.game_id] = adapter


def _spec_adapter(game_id: str) -> str | None:
    try:
        return get_spec(game_id).web_adapter
    except ParameterError:
        return None


def adapter_ids() -> list[str]:
    """Game ids that can be played in the browser, sorted."""
    ids = {spec.game_id for spec in all_specs() if spec.web_adapter is not None}
    return sorted(ids | set(_REGISTERED))


def get_adapter(game_id: str) -> WebAdapter:
    """The web adapter of a game (one instance per game id and adapter class).

    Raises:
        ParameterError: no web adapter for that game (the message lists the known ones).
    """
    adapter = _REGISTERED.get(game_id)
    if adapter is not None:
        return adapter
    target = _spec_adapter(game_id)
    if target is None:
        known = ", ".join(adapter_ids())
        raise ParameterError(f"game {game_id!r} cannot be played in the browser; known: {known}")
    adapter = _LOADED.get((game_id, target))
    if adapter is None:
        cls: type[WebAdapter] = load_ref(target)
        adapter = _LOADED[(game_id, target)] = cls()
    return adapter
