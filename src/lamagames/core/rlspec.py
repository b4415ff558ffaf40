"""What the research adapters (:mod:`lamagames.rl`) need to know about one game.

A game gives its :class:`RLSpec` as the ``"rl"`` extra of its
:class:`~lamagames.core.spec.GameSpec` (``extras={"rl": "mygame.rl:RL"}``); the OpenSpiel,
PettingZoo and Gymnasium adapters read every per-game detail from it and name no game
themselves. A game without the extra still gets all three adapters with the defaults of
:func:`default_rl_spec` (names derived from the game id, no truncation of its own).

Nothing here imports an RL library: a game package may define its spec with the base
install.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Protocol

from lamagames.core.errors import ParameterError
from lamagames.core.game import Game, State

#: Separator of list-valued parameters (dice faces, colours) in OpenSpiel game strings,
#: whose own separator is the comma: ``python_lama_dice(dice=LL3456/12LL56/1234LL)``.
LIST_SEPARATOR: Final = "/"


def split_list(text: str) -> list[str]:
    """The items of a :data:`LIST_SEPARATOR`-separated OpenSpiel parameter (blanks dropped).

    >>> split_list("LL3456/12LL56/ 1234LL")
    ['LL3456', '12LL56', '1234LL']
    """
    return [part.strip() for part in text.split(LIST_SEPARATOR) if part.strip()]


class ChanceSplit(Protocol):
    """Plays one large chance node as a sequence of small ones (OpenSpiel adapter).

    A LAMA Dice deal has up to 918 outcomes (the hands of six cards, D-5); dealt two cards
    at a time it is three chance nodes of at most 28 outcomes, whose probabilities summed
    over the sequences giving a hand are the hand's. The adapter keeps the steps drawn so
    far (``prefix``) and applies the engine's own outcome once :meth:`outcome` returns it,
    so the engine sees the same outcome ids and probabilities as without the split.
    """

    def applies(self, state: State) -> bool:
        """True if the chance node of ``state`` (a chance node) is played in steps."""
        ...

    def step_outcomes(self, state: State, prefix: Sequence[int]) -> list[tuple[int, float]]:
        """``(step id, probability)`` pairs of the next step after ``prefix``; step ids are
        in ``0 <= id < max_chance_outcomes``."""
        ...

    def outcome(self, state: State, prefix: Sequence[int]) -> int | None:
        """The engine's chance outcome once ``prefix`` is complete, else ``None``."""
        ...

    def step_to_string(self, step: int) -> str:
        """Notation of one step (``cards 3 L``)."""
        ...


@dataclass(frozen=True, slots=True)
class RLSpec:
    """Per-game details of the research adapters (the ``"rl"`` extra of a game spec).

    Attributes:
        openspiel_name: pyspiel short name (``"python_lama_dice"``).
        openspiel_long_name: pyspiel long name.
        openspiel_parameters: pyspiel parameter specification: name -> default value
            (``int``, ``float``, ``bool`` or ``str``); always holds ``"players"``.
        to_engine_params: OpenSpiel parameters (every name of
            ``openspiel_parameters``) -> the game factory's keywords; raises
            :class:`~lamagames.core.errors.LamaError` (or ``ValueError``) for bad values.
            ``None``: ``players`` becomes ``num_players``, other names pass unchanged.
        pettingzoo_name: PettingZoo ``metadata["name"]`` (``"lama_dice_v0"``).
        gymnasium_id: id registered with Gymnasium (``"lamagames/LamaDice-v0"``), or
            ``None`` (use ``LamaEnv(game_id)`` directly).
        default_params: game parameters every adapter adds unless the caller gives them
            (Lama Express: ``turn_limit``, E-11, so that episodes end).
        max_game_length: a proven upper bound on the player decisions of a game (all
            seats, chance excluded) given the engine game, or ``None`` when its parameters
            allow endless games; ``None`` here: never bounded.
        decision_cap: default of the OpenSpiel parameter ``max_game_length`` (a cap on
            decisions after which the game ends with no winner) for a game that is not
            bounded; ``None``: no such parameter (then the game must be bounded).
        chance_split: an optional :class:`ChanceSplit` for the OpenSpiel adapter.

    Raises:
        ParameterError: ``openspiel_parameters`` has no ``"players"``, or ``decision_cap``
            is not a positive integer.
    """

    openspiel_name: str
    openspiel_long_name: str
    openspiel_parameters: Mapping[str, Any]
    pettingzoo_name: str
    gymnasium_id: str | None = None
    to_engine_params: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    default_params: Mapping[str, Any] = field(default_factory=dict)
    max_game_length: Callable[[Game], int | None] | None = None
    decision_cap: int | None = None
    chance_split: ChanceSplit | None = None

    def __post_init__(self) -> None:
        if "players" not in self.openspiel_parameters:
            raise ParameterError(
                f"{self.openspiel_name}: openspiel_parameters must include 'players'"
            )
        cap = self.decision_cap
        if cap is not None and (type(cap) is not int or cap < 1):
            raise ParameterError(f"{self.openspiel_name}: decision_cap must be a positive int")
        object.__setattr__(
            self, "openspiel_parameters", MappingProxyType(dict(self.openspiel_parameters))
        )
        object.__setattr__(self, "default_params", MappingProxyType(dict(self.default_params)))

    def engine_params(self, openspiel_params: Mapping[str, Any]) -> dict[str, Any]:
        """The game factory's keywords for OpenSpiel parameters (see
        :attr:`to_engine_params`)."""
        chosen = dict(openspiel_params)
        chosen.pop("max_game_length", None)
        if self.to_engine_params is not None:
            return self.to_engine_params(chosen)
        chosen["num_players"] = chosen.pop("players")
        return chosen

    def bound(self, game: Game) -> int | None:
        """:attr:`max_game_length` of ``game`` (``None``: not bounded)."""
        return None if self.max_game_length is None else self.max_game_length(game)


def default_rl_spec(game_id: str, title: str, num_players: int) -> RLSpec:
    """The adapters' spec of a game without an ``"rl"`` extra: OpenSpiel ``python_<id>``
    (long name ``Python <title>``) with one parameter ``players`` (default
    ``num_players``) and a decision cap of 1000, PettingZoo ``<id>_v0``, no Gymnasium id,
    no bound."""
    return RLSpec(
        openspiel_name=f"python_{game_id}",
        openspiel_long_name=f"Python {title}",
        openspiel_parameters={"players": num_players},
        pettingzoo_name=f"{game_id}_v0",
        decision_cap=1000,
    )
