"""Lama Express action space, chance outcome space and notation.

Player actions (``NUM_DISTINCT_ACTIONS = 43``):

=========  ================  ================================================================
id         notation          meaning
=========  ================  ================================================================
0          ``pass``          let the window's chance pass (E-7, E-9)
1, 2       ``move A/B``      the active player chooses train A or B (E-6); only a decision
                             when both trains can move
3..12      ``board A1``..    board a llama into that car, standing on your boarding space
13..22     ``exit A1``..     a llama of yours leaves that car for your house
23..32     ``detour A1``..   take an opponent's llama out of that car (on a white arrow) to
                             the footpath
33..42     ``reboard A1``..  your llama at the front of a footpath gets into that empty car
                             (on the footpath's re-boarding space)
=========  ================  ================================================================

A free action (E-7) has id ``3 + 10 * kind + 5 * train + (car - 1)`` with kind 0 board,
1 exit, 2 detour, 3 re-board; train 0 = A, 1 = B; car 1..5. The car identifies the space, so
it identifies the station or footpath concerned.

Chance outcomes (``MAX_CHANCE_OUTCOMES = 6``): the colour die (E-1), id = index in
``"ROYGBP"``, notation ``roll R`` .. ``roll P``, each with probability 1/6.

Parsing is lenient about case and repeated blanks (``"Board a3"`` parses) but
:func:`player_action_to_string` always produces the canonical form above.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from lamagames.core.errors import InvalidActionError, quoted
from lamagames.express.material import DIE_COLOURS, NUM_DIE_COLOURS, NUM_TRAINS, PASSENGER_CARS

PASS: Final = 0
MOVE_A: Final = 1
MOVE_B: Final = 2
#: First free-action id.
FREE_BASE: Final = 3

KIND_BOARD: Final = 0
KIND_EXIT: Final = 1
KIND_DETOUR: Final = 2
KIND_REBOARD: Final = 3
NUM_FREE_KINDS: Final = 4
KIND_NAMES: Final = ("board", "exit", "detour", "reboard")

#: Cars of both trains: slot ``5 * train + (car - 1)``.
NUM_CAR_SLOTS: Final = NUM_TRAINS * PASSENGER_CARS
BOARD_BASE: Final = FREE_BASE + KIND_BOARD * NUM_CAR_SLOTS
EXIT_BASE: Final = FREE_BASE + KIND_EXIT * NUM_CAR_SLOTS
DETOUR_BASE: Final = FREE_BASE + KIND_DETOUR * NUM_CAR_SLOTS
REBOARD_BASE: Final = FREE_BASE + KIND_REBOARD * NUM_CAR_SLOTS
NUM_DISTINCT_ACTIONS: Final = FREE_BASE + NUM_FREE_KINDS * NUM_CAR_SLOTS  # 43
MAX_CHANCE_OUTCOMES: Final = NUM_DIE_COLOURS  # 6

TRAIN_NAMES: Final = "AB"
TRAIN_A: Final = 0
TRAIN_B: Final = 1


class FreeAction(NamedTuple):
    """A decoded free action (E-7): kind (``KIND_*``), train (0 = A, 1 = B), car (1..5)."""

    kind: int
    train: int
    car: int


def free_action_id(kind: int, train: int, car: int) -> int:
    """Action id of a free action.

    Raises:
        InvalidActionError: kind, train or car out of range.
    """
    if not (0 <= kind < NUM_FREE_KINDS and 0 <= train < NUM_TRAINS and 1 <= car <= PASSENGER_CARS):
        raise InvalidActionError(f"no free action ({kind}, {train}, {car})")
    return FREE_BASE + kind * NUM_CAR_SLOTS + train * PASSENGER_CARS + car - 1


def is_free_action(action: int) -> bool:
    """True for the ids of board, exit, detour and re-board actions."""
    return FREE_BASE <= action < NUM_DISTINCT_ACTIONS


def decode_free_action(action: int) -> FreeAction:
    """Split a free-action id into kind, train and car.

    Raises:
        InvalidActionError: not a free-action id.
    """
    if not is_free_action(action):
        raise InvalidActionError(f"{action!r} is not a free action id")
    kind, slot = divmod(action - FREE_BASE, NUM_CAR_SLOTS)
    train, car_index = divmod(slot, PASSENGER_CARS)
    return FreeAction(kind, train, car_index + 1)


def _check_id(action: object, size: int, what: str) -> int:
    if type(action) is not int or not 0 <= action < size:
        raise InvalidActionError(f"{action!r} is not a {what} id (0..{size - 1})")
    return action


def player_action_to_string(action: int) -> str:
    """Canonical notation of a player action.

    Raises:
        InvalidActionError: not an id of the player action space.
    """
    _check_id(action, NUM_DISTINCT_ACTIONS, "player action")
    if action == PASS:
        return "pass"
    if action < FREE_BASE:
        return f"move {TRAIN_NAMES[action - MOVE_A]}"
    kind, train, car = decode_free_action(action)
    return f"{KIND_NAMES[kind]} {TRAIN_NAMES[train]}{car}"


def _check_car(text: str, target: str) -> None:
    """Explain a free action's bad ``target`` (``A9``, ``C1``): trains are A and B, cars
    1 to 5.

    Raises:
        InvalidActionError: always, when ``target`` is a train letter and a number.
    """
    train, car = target[:1], target[1:]
    if not (car.isascii() and car.isdigit()):
        return
    if train not in TRAIN_NAMES:
        raise InvalidActionError(
            f"cannot parse {quoted(text)}: there is no train {train}; trains are A and B"
        )
    which = f"car {car}" if len(car) <= 3 else "such car"
    raise InvalidActionError(
        f"cannot parse {quoted(text)}: train {train} has no {which}; "
        f"cars are 1-{PASSENGER_CARS}, e.g. '{text.split()[0].lower()} {train}2'"
    )


def string_to_player_action(text: str) -> int:
    """Parse player notation (``pass``, ``move A``, ``exit B2`` ...).

    Raises:
        InvalidActionError: the text is not player notation.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"notation must be text, got {type(text).__name__}")
    tokens = text.split()
    if len(tokens) == 1 and tokens[0].lower() == "pass":
        return PASS
    if len(tokens) == 2:
        word, target = tokens[0].lower(), tokens[1].upper()
        if word == "move" and len(target) == 1 and target in TRAIN_NAMES:
            return MOVE_A + TRAIN_NAMES.index(target)
        if (
            word in KIND_NAMES
            and len(target) == 2
            and target[0] in TRAIN_NAMES
            and target[1] in "12345"
        ):
            return free_action_id(
                KIND_NAMES.index(word), TRAIN_NAMES.index(target[0]), int(target[1])
            )
        if word in KIND_NAMES:  # a free action with a bad train or car: say which
            _check_car(text, target)
    raise InvalidActionError(
        f"cannot parse {quoted(text)}; expected 'pass', 'move A|B' or "
        "'board|exit|detour|reboard' + train and car, e.g. 'exit B2'"
    )


def chance_to_string(outcome: int) -> str:
    """Notation of a die roll outcome, ``roll R`` .. ``roll P``.

    Raises:
        InvalidActionError: not a chance outcome id.
    """
    _check_id(outcome, MAX_CHANCE_OUTCOMES, "chance outcome")
    return f"roll {DIE_COLOURS[outcome]}"


def string_to_chance(text: str) -> int:
    """Parse ``roll X`` (X one of R O Y G B P) to a chance outcome id.

    Raises:
        InvalidActionError: not roll notation.
    """
    if isinstance(text, str):
        tokens = text.split()
        if (
            len(tokens) == 2
            and tokens[0].lower() == "roll"
            and len(tokens[1]) == 1
            and tokens[1].upper() in DIE_COLOURS
        ):
            return DIE_COLOURS.index(tokens[1].upper())
    raise InvalidActionError(f"cannot parse {quoted(text)}; expected 'roll' and one of R O Y G B P")
