"""LAMA Dice action space, chance outcome space and notation.

Symbols (D-2) are indexed ``0..6``: index ``i < 6`` is the number ``i + 1``, index 6 is the
llama ``L``. A *count vector* is a tuple of 7 non-negative ints, one per symbol.

Player actions (``NUM_DISTINCT_ACTIONS = 131``):

=========  ===================  ============================================================
id         notation             meaning
=========  ===================  ============================================================
0          ``roll``             roll all three dice (D-6)
1          ``quit``             quit the round (D-7)
2..8       ``take 1`` .. L      take that llama-row card after a roll with no match (D-8.3)
9          ``give black``       give back a black chip (10 points) (D-8.1, D-10)
10         ``give white``       give back a white chip (1 point)
11         ``give none``        decline to give back a chip
12..130    ``discard 3 3 L``    discard this multiset of 1..3 cards on a match (D-8.2)
=========  ===================  ============================================================

Discard ids enumerate the multisets of 1, 2 and 3 symbols in :data:`DISCARDS` order.

Chance outcomes (``MAX_CHANCE_OUTCOMES = 1267``):

* ``0..342``: a roll, ``a * 49 + b * 7 + c`` for the symbols shown by dice A, B and C,
  notation ``dice 3 5 L`` (dice in order A, B, C).
* ``343..1266``: the deal of one seat's six cards (D-5), ``343 + i`` for the i-th
  multiset of :data:`HANDS`, notation ``deal 11235L`` (sorted symbols).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

from lamagames.core.errors import InvalidActionError, quoted

SYMBOLS: Final = "123456L"
LLAMA: Final = 6
NUM_SYMBOLS: Final = 7
#: Minus points of each symbol (D-2).
VALUES: Final = (1, 2, 3, 4, 5, 6, 10)

ROLL: Final = 0
QUIT: Final = 1
TAKE_BASE: Final = 2
GIVE_BLACK: Final = 9
GIVE_WHITE: Final = 10
GIVE_NONE: Final = 11
DISCARD_BASE: Final = 12

CountVector = tuple[int, ...]


def _multisets(size: int) -> list[CountVector]:
    out: list[CountVector] = []
    for combo in combinations_with_replacement(range(NUM_SYMBOLS), size):
        counts = [0] * NUM_SYMBOLS
        for s in combo:
            counts[s] += 1
        out.append(tuple(counts))
    return out


#: Discard multisets (count vectors) in action order: sizes 1, 2, 3.
DISCARDS: Final[tuple[CountVector, ...]] = tuple(_multisets(1) + _multisets(2) + _multisets(3))
DISCARD_ID: Final[dict[CountVector, int]] = {c: DISCARD_BASE + i for i, c in enumerate(DISCARDS)}
#: Discard codes (``sum k_s * 4**s``, :mod:`lamagames.dice.primitives`) of :data:`DISCARDS`,
#: in the same order (index ``action - DISCARD_BASE``).
DISCARD_ACTION_CODES: Final[tuple[int, ...]] = tuple(
    sum(k << (2 * s) for s, k in enumerate(counts)) for counts in DISCARDS
)
NUM_DISTINCT_ACTIONS: Final = DISCARD_BASE + len(DISCARDS)

NUM_ROLLS: Final = NUM_SYMBOLS**3
HAND_SIZE: Final = 6
#: All six-card hands as count vectors, in chance-outcome order.
HANDS: Final[tuple[CountVector, ...]] = tuple(_multisets(HAND_SIZE))
HAND_ID: Final[dict[CountVector, int]] = {c: NUM_ROLLS + i for i, c in enumerate(HANDS)}
MAX_CHANCE_OUTCOMES: Final = NUM_ROLLS + len(HANDS)


def symbol_index(char: str) -> int:
    """Index of a symbol character (``"1"``..``"6"``, ``"L"``/``"l"``).

    Raises:
        InvalidActionError: not a symbol.
    """
    index = SYMBOLS.find(char.upper()) if len(char) == 1 else -1
    if index < 0:
        raise InvalidActionError(f"{char!r} is not a symbol (1-6 or L)")
    return index


def counts_to_text(counts: CountVector | list[int], sep: str = "") -> str:
    """Sorted symbols of a count vector, e.g. ``(0,0,2,0,0,0,1) -> "33L"`` (``sep`` between)."""
    return sep.join(SYMBOLS[s] for s, n in enumerate(counts) for _ in range(n))


def text_to_counts(text: str) -> list[int]:
    """Parse symbols (spaces and commas ignored) to a count vector.

    Raises:
        InvalidActionError: a character is not a symbol.
    """
    counts = [0] * NUM_SYMBOLS
    for char in text.replace(",", " ").split():
        for c in char:
            counts[symbol_index(c)] += 1
    return counts


def roll_id(a: int, b: int, c: int) -> int:
    """Chance outcome id of dice A, B, C showing symbols ``a``, ``b``, ``c``."""
    return a * 49 + b * 7 + c


def roll_symbols(outcome: int) -> tuple[int, int, int]:
    """Inverse of :func:`roll_id`."""
    return outcome // 49, (outcome // 7) % 7, outcome % 7


def check_action_id(action: object) -> int:
    """Return ``action`` if it is a player action id: an ``int`` (not a ``bool``) in
    ``0 .. NUM_DISTINCT_ACTIONS - 1``.

    Raises:
        InvalidActionError: anything else (naming the value).
    """
    if type(action) is not int or not 0 <= action < NUM_DISTINCT_ACTIONS:
        raise InvalidActionError(f"{action!r} is not a LAMA Dice action id")
    return action


def player_action_to_string(action: int) -> str:
    """Notation of a player action id (context free).

    Raises:
        InvalidActionError: not an id in ``0 .. NUM_DISTINCT_ACTIONS - 1``.
    """
    check_action_id(action)
    if action == ROLL:
        return "roll"
    if action == QUIT:
        return "quit"
    if action < GIVE_BLACK:
        return f"take {SYMBOLS[action - TAKE_BASE]}"
    if action == GIVE_BLACK:
        return "give black"
    if action == GIVE_WHITE:
        return "give white"
    if action == GIVE_NONE:
        return "give none"
    counts = DISCARDS[action - DISCARD_BASE]
    return "discard " + counts_to_text(counts, " ")


def string_to_player_action(text: str) -> int:
    """Parse player-action notation (case and spacing are forgiving).

    Accepts ``roll``, ``quit``, ``take 3``, ``give black|white|none``, ``discard 3 3 L``
    (also ``discard 33L``).

    Raises:
        InvalidActionError: the text is not a LAMA Dice action (the message quotes it).
    """
    try:
        return _parse_player_action(text)
    except InvalidActionError as exc:
        raise InvalidActionError(f"{quoted(text)} is not a LAMA Dice action: {exc}") from None


def _parse_player_action(text: str) -> int:
    words = text.strip().lower().split(maxsplit=1)
    if not words:
        raise InvalidActionError("empty action")
    verb, rest = words[0], (words[1].strip() if len(words) > 1 else "")
    if verb in ("roll", "quit") and not rest:
        return ROLL if verb == "roll" else QUIT
    if verb == "take" and rest:
        if len(rest) != 1:
            raise InvalidActionError(f"'take' needs one symbol (1-6 or L), got {quoted(rest)}")
        return TAKE_BASE + symbol_index(rest)
    if verb == "give":
        choice = {"black": GIVE_BLACK, "white": GIVE_WHITE, "none": GIVE_NONE}.get(rest)
        if choice is None:
            raise InvalidActionError("'give' takes black, white or none")
        return choice
    if verb == "discard" and rest:
        counts = tuple(text_to_counts(rest))
        action = DISCARD_ID.get(counts)
        if action is None:
            raise InvalidActionError(f"a discard is 1 to 3 cards, got {quoted(rest)}")
        return int(action)
    raise InvalidActionError("expected roll, quit, take S, give black|white|none or discard S S S")


def chance_to_string(outcome: int) -> str:
    """Notation of a chance outcome id.

    Raises:
        InvalidActionError: not an id in ``0 .. MAX_CHANCE_OUTCOMES - 1``.
    """
    if type(outcome) is not int or not 0 <= outcome < MAX_CHANCE_OUTCOMES:
        raise InvalidActionError(f"{outcome!r} is not a LAMA Dice chance outcome id")
    if outcome < NUM_ROLLS:
        return "dice " + " ".join(SYMBOLS[s] for s in roll_symbols(outcome))
    return "deal " + counts_to_text(HANDS[outcome - NUM_ROLLS])


def string_to_chance(text: str) -> int:
    """Parse chance notation: ``dice 3 5 L`` (also ``dice 35L``) or ``deal 11235L``.

    Raises:
        InvalidActionError: the text is not a chance outcome (the message quotes it).
    """
    try:
        return _parse_chance(text)
    except InvalidActionError as exc:
        raise InvalidActionError(f"{quoted(text)} is not a chance outcome: {exc}") from None


def _parse_chance(text: str) -> int:
    words = text.strip().split(maxsplit=1)
    if not words:
        raise InvalidActionError("empty outcome")
    if len(words) == 2 and words[0].lower() == "dice":
        symbols = [symbol_index(c) for c in words[1].replace(" ", "")]
        if len(symbols) != 3:
            raise InvalidActionError(f"'dice' needs three symbols, got {quoted(words[1])}")
        return roll_id(*symbols)
    if len(words) == 2 and words[0].lower() == "deal":
        counts = tuple(text_to_counts(words[1]))
        if sum(counts) != HAND_SIZE:
            raise InvalidActionError(f"'deal' needs six symbols, got {quoted(words[1])}")
        return HAND_ID[counts]
    raise InvalidActionError("expected 'dice A B C' or 'deal SSSSSS'")
