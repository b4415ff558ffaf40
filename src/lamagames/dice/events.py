"""What happened in one LAMA Dice step: :func:`events` and its event dataclasses. Pure.

Every front end (terminal narration, web log) renders these events; none compares states
itself. Cards and dice are given as symbol text (``"1"``..``"6"``, ``"L"``, D-2); seats are
0-based. ``to_json()`` of each event gives ``{"kind": ..., <fields>}`` (see
:class:`lamagames.core.events.Event`).

Order of the events of one step: the action itself (:class:`Dealt`, :class:`Rolled`,
:class:`Quit`, :class:`Discarded`, :class:`Took`, :class:`ChipGiven`), then what the rules
did by themselves: :class:`RoundStarted` after the last deal, :class:`Bust` (D-8.4, D-8.5),
:class:`RoundEnded` with each seat's points (D-9, D-10), :class:`GameEnded` (D-11).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from lamagames.core.events import Event
from lamagames.core.game import CHANCE_PLAYER, State, Termination
from lamagames.dice.actions import (
    DISCARD_BASE,
    DISCARDS,
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    HANDS,
    NUM_ROLLS,
    NUM_SYMBOLS,
    QUIT,
    SYMBOLS,
    TAKE_BASE,
    roll_symbols,
)
from lamagames.dice.game import as_dice_state, round_end_reason
from lamagames.dice.primitives import can_take, chip_points, is_empty
from lamagames.dice.rules import ROLL_PHASES, Phase, RollResult, RoundEndReason


class DiceEventKind(StrEnum):
    """Kinds of LAMA Dice events (the ``kind`` of their JSON)."""

    DEAL = "deal"
    ROUND_START = "round_start"
    ROLL = "roll"
    QUIT = "quit"
    DISCARD = "discard"
    TAKE = "take"
    CHIP = "chip"
    BUST = "bust"
    ROUND_END = "round_end"
    GAME_END = "game_end"


class Chip(StrEnum):
    """The chip a seat gave back (D-4): ``black`` = 10 points, ``white`` = 1, ``none``."""

    BLACK = "black"
    WHITE = "white"
    NONE = "none"


class GiveReason(StrEnum):
    """Why a seat could give back a chip."""

    #: three llamas rolled (D-8.1)
    THREE_LLAMAS = "three_llamas"
    #: the seat's row was empty at the end of the round (D-10)
    EMPTY_ROW = "empty_row"


def _symbols(counts: tuple[int, ...] | list[int]) -> tuple[str, ...]:
    return tuple(SYMBOLS[s] for s in range(NUM_SYMBOLS) for _ in range(counts[s]))


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Six cards were dealt face up into a seat's row (D-5).

    Attributes:
        round: round number, from 1.
        seat: the seat dealt.
        cards: the six symbols, ascending.
    """

    kind: ClassVar[DiceEventKind] = DiceEventKind.DEAL
    round: int
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """Every seat has its six cards; ``starter`` takes the first turn (D-5)."""

    kind: ClassVar[DiceEventKind] = DiceEventKind.ROUND_START
    round: int
    starter: int


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A seat rolled the three dice (D-6) and what the roll means (D-8).

    Attributes:
        seat: the roller.
        dice: symbols of dice A, B, C.
        result: three llamas, match, take or bust (D-8, in this order).
        choice_follows: the roller chooses next (a discard, a llama-row card or a chip);
            false after a bust and after three llamas without chips.
    """

    kind: ClassVar[DiceEventKind] = DiceEventKind.ROLL
    seat: int
    dice: tuple[str, str, str]
    result: RollResult
    choice_follows: bool


@dataclass(frozen=True, slots=True)
class Quit(Event):
    """A seat quit the round (D-7); its row, ``row_points`` minus points now, still scores."""

    kind: ClassVar[DiceEventKind] = DiceEventKind.QUIT
    seat: int
    row_points: int


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """The roller discarded cards after a match (D-8.2).

    Attributes:
        seat: the roller.
        cards: the symbols discarded, ascending.
        dice: the roll that matched.
        row_empty: the row is empty now, which ends the round (D-9).
    """

    kind: ClassVar[DiceEventKind] = DiceEventKind.DISCARD
    seat: int
    cards: tuple[str, ...]
    dice: tuple[str, str, str]
    row_empty: bool


@dataclass(frozen=True, slots=True)
class Took(Event):
    """The roller took one llama-row card showing a rolled symbol (no match, D-8.3)."""

    kind: ClassVar[DiceEventKind] = DiceEventKind.TAKE
    seat: int
    card: str
    dice: tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class ChipGiven(Event):
    """A seat answered a chip give-back (D-8.1 after three llamas, D-10 after an emptied row).

    Attributes:
        seat: the seat.
        chip: ``black`` (10 points), ``white`` (1) or ``none`` (kept its chips).
        reason: three llamas or an empty row.
        points: the score change, 0, -1 or -10.
        scores: every seat's score afterwards.
    """

    kind: ClassVar[DiceEventKind] = DiceEventKind.CHIP
    seat: int
    chip: Chip
    reason: GiveReason
    points: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Bust(Event):
    """The roller took all remaining llama-row cards (D-8.4); the round ends.

    Attributes:
        seat: the roller.
        cards: the llama-row cards taken, ascending.
        last_standing: the llama row held a rolled symbol, but the roller was the last seat
            in the round and so went bust (D-8.5).
    """

    kind: ClassVar[DiceEventKind] = DiceEventKind.BUST
    seat: int
    cards: tuple[str, ...]
    last_standing: bool


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A round ended (D-9) and was scored (D-10).

    Attributes:
        round: the round number.
        reason: bust, emptied row, empty llama row or everyone quit.
        seat: the seat whose action ended it (the roller of a bust, the seat that emptied
            its row, took the last llama-row card or quit last).
        points: minus points of each seat's row this round (before chip give-backs).
        scores: every seat's score with these points (before give-backs).
    """

    kind: ClassVar[DiceEventKind] = DiceEventKind.ROUND_END
    round: int
    reason: RoundEndReason
    seat: int
    points: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """A score reached the end score (D-11); the lowest scores win (ties all win)."""

    kind: ClassVar[DiceEventKind] = DiceEventKind.GAME_END
    termination: Termination
    winners: tuple[int, ...]
    scores: tuple[int, ...]


_CHIPS = {  # D-4: the points from the one primitive
    a: (chip, -chip_points(a))
    for a, chip in ((GIVE_BLACK, Chip.BLACK), (GIVE_WHITE, Chip.WHITE), (GIVE_NONE, Chip.NONE))
}


def events(before: State, action: int, player: int | None, after: State) -> list[Event]:
    """Everything applying ``action`` to ``before`` led to, in order (see the module doc).

    Args:
        before: the LAMA Dice state before the action (unchanged).
        action: the player action or chance outcome id that was applied.
        player: the seat that acted; ``None`` for the current player (chance at a chance
            node), -1 for a chance outcome.
        after: the state after the action.

    Returns:
        A new list of events; empty for a ``roll`` decision (the dice come with the chance
        outcome that follows).

    Raises:
        IllegalActionError: ``before`` or ``after`` is not a LAMA Dice state.
    """
    b = as_dice_state(before)
    a = as_dice_state(after)
    out: list[Event] = []
    chance = b.is_chance_node() and (player is None or player == CHANCE_PLAYER)
    seat = b.turn_seat
    if chance and b.phase == Phase.DEAL:
        hand = HANDS[action - NUM_ROLLS]
        out.append(Dealt(b.round, b.deal_seat, _symbols(hand)))
        if a.phase != Phase.DEAL:
            out.append(RoundStarted(a.round, a.starter))
    elif chance and b.phase == Phase.DICE:
        dice = roll_symbols(action)
        shown = (SYMBOLS[dice[0]], SYMBOLS[dice[1]], SYMBOLS[dice[2]])
        result = b.roll_result(dice)
        assert result is not None  # dice given
        out.append(Rolled(seat, shown, result, a.phase in ROLL_PHASES))
        if result == RollResult.BUST:
            llama_row = b.llama_row
            out.append(
                Bust(seat, _symbols(llama_row), any(can_take(llama_row, *dice, s) for s in dice)),
            )
    elif not chance:
        seat = b.current_player() if player is None else player
        dice_text = tuple(SYMBOLS[s] for s in b.dice) if b.dice is not None else ()
        if action == QUIT:
            out.append(Quit(seat, b.row_score(seat)))
        elif action >= DISCARD_BASE:
            gone = DISCARDS[action - DISCARD_BASE]
            out.append(Discarded(seat, _symbols(gone), _three(dice_text), is_empty(a.rows[seat])))
        elif TAKE_BASE <= action < GIVE_BLACK:
            out.append(Took(seat, SYMBOLS[action - TAKE_BASE], _three(dice_text)))
        elif action in _CHIPS and b.phase in (Phase.GIVE_LLAMAS, Phase.GIVE_EMPTY):
            chip, change = _CHIPS[action]
            why = GiveReason.THREE_LLAMAS if b.phase == Phase.GIVE_LLAMAS else GiveReason.EMPTY_ROW
            out.append(ChipGiven(seat, chip, why, change, tuple(a.scores)))
    reason = round_end_reason(b, player, action, a)
    if reason is not None:
        points = tuple(a.round_points[-1])
        out.append(RoundEnded(len(a.round_points), reason, seat, points, tuple(a.scores)))
    if a.is_terminal() and not b.is_terminal():
        outcome = a.outcome()
        assert outcome is not None  # terminal
        out.append(GameEnded(outcome.termination, outcome.winners, tuple(a.scores)))
    return out


def _three(symbols: tuple[str, ...]) -> tuple[str, str, str]:
    """The roll as a 3-tuple (positions built without a roll show ``("", "", "")``)."""
    if len(symbols) == 3:
        return (symbols[0], symbols[1], symbols[2])
    return ("", "", "")
