"""The JSON form of a LAMA Dice state (``DiceState.to_dict``) and its shape validation.

Shape (seats 0-based; card vectors count the seven symbols ``1``..``6``, ``L``)::

    {
      "phase": 1,                 # Phase value: 0 deal, 1 turn, 2 dice, 3 discard, 4 take,
                                  # 5 give after three llamas, 6 give after an empty row, 7 over
      "player": 0,                # seat to act (the roller at the dice chance node)
      "starter": 0,               # seat that started this round (D-5)
      "last_actor": 0,            # seat that took the last roll or quit (starts the next round)
      "deal_seat": 2,             # next seat to deal; the number of seats once all are dealt
      "round": 1,                 # round number, from 1
      "dice": null | [2, 4, 6],   # symbols of dice A, B, C while a roll is shown
      "scores": [0, 12],          # points per seat (D-4: chips follow from them)
      "rows": [[1, 1, 0, 0, 0, 0, 1], ...],   # each seat's row
      "quit": [false, true],      # seats that quit this round (D-7)
      "llama_row": [1, 1, 1, 1, 1, 1, 1],
      "setaside": [4, 4, 5, 5, 5, 5, 5],      # deck cards not dealt this round (D-5)
      "discards": [0, 0, 0, 0, 0, 0, 0],      # cards discarded this round (D-8.2)
      "give_queue": [],           # seats still to be asked for a give-back (D-10)
      "round_points": [[3, 16]],  # points of each finished round, per seat
      "history": [[-1, 1130], [0, 0], ...]    # (player, action id); -1 = chance
    }

The format is unchanged since version 1 of the records (the phase stays an integer, the
value of :class:`~lamagames.dice.rules.Phase`). :func:`parse_state_data` checks the shape
with strict pydantic models (no type coercion, unknown fields refused) and the per-game
sizes (one entry per seat, seats in range); :class:`~lamagames.dice.state.DiceState` then
checks that the 43 cards are conserved and that phase, dice and seats are consistent.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from lamagames.core.errors import RecordError
from lamagames.core.validation import first_error
from lamagames.dice.actions import MAX_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS, NUM_SYMBOLS, SYMBOLS
from lamagames.dice.primitives import is_last_standing
from lamagames.dice.rules import (
    DECK_CARDS,
    LLAMA_ROW_CARDS,
    ROLL_PHASES,
    Phase,
    phase_after_roll,
    roll_result,
)

Symbol = Annotated[StrictInt, Field(ge=0, le=NUM_SYMBOLS - 1)]
Count = Annotated[StrictInt, Field(ge=0, le=43)]
Vector = Annotated[list[Count], Field(min_length=NUM_SYMBOLS, max_length=NUM_SYMBOLS)]
Seat = Annotated[StrictInt, Field(ge=0)]


class DiceStateData(BaseModel):
    """The whole state dict (shape only; sizes per game in :func:`parse_state_data`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    phase: Annotated[StrictInt, Field(ge=0, le=len(Phase) - 1)]
    player: Seat
    starter: Seat
    last_actor: Seat
    deal_seat: Seat
    round: Annotated[StrictInt, Field(ge=1, le=10**6)]
    dice: Annotated[list[Symbol], Field(min_length=3, max_length=3)] | None
    scores: list[Annotated[StrictInt, Field(ge=0, le=10**6)]]
    rows: list[Vector]
    quit: list[StrictBool]
    llama_row: Annotated[
        list[Annotated[StrictInt, Field(ge=0, le=1)]],
        Field(min_length=NUM_SYMBOLS, max_length=NUM_SYMBOLS),
    ]
    setaside: Annotated[
        list[Annotated[StrictInt, Field(ge=0, le=6)]],
        Field(min_length=NUM_SYMBOLS, max_length=NUM_SYMBOLS),
    ]
    discards: Vector
    give_queue: list[Seat]
    round_points: list[list[Annotated[StrictInt, Field(ge=0, le=100)]]]
    history: list[Annotated[list[StrictInt], Field(min_length=2, max_length=2)]]


def parse_state_data(data: Any, num_players: int) -> DiceStateData:
    """Validate the shape of a state dict for a game of ``num_players`` seats.

    Raises:
        RecordError: naming the first bad field (``state.rows.1.6: ...``).
    """
    if not isinstance(data, dict):
        raise RecordError(f"a LAMA Dice state is a JSON object, got {type(data).__name__}")
    try:
        parsed = DiceStateData.model_validate(data)
    except ValidationError as exc:
        raise RecordError(f"state.{first_error(exc, 'state')[1]}") from None
    n = num_players

    def fail(where: str, reason: str) -> RecordError:
        return RecordError(f"state.{where}: {reason}")

    for name in ("scores", "rows", "quit"):
        got = len(getattr(parsed, name))
        if got != n:
            raise fail(name, f"need one entry per seat ({n}), got {got}")
    for name in ("player", "starter", "last_actor"):
        if getattr(parsed, name) >= n:
            raise fail(name, f"no seat {getattr(parsed, name)} in a {n}-player game")
    if parsed.deal_seat > n:
        raise fail("deal_seat", f"{parsed.deal_seat} is beyond the {n} seats")
    for i, seat in enumerate(parsed.give_queue):
        if seat >= n:
            raise fail(f"give_queue.{i}", f"no seat {seat} in a {n}-player game")
    for i, points in enumerate(parsed.round_points):
        if len(points) != n:
            raise fail(f"round_points.{i}", f"need one entry per seat ({n}), got {len(points)}")
    _check_position(parsed, n)
    for i, (player, action) in enumerate(parsed.history):
        size = MAX_CHANCE_OUTCOMES if player == -1 else NUM_DISTINCT_ACTIONS
        if not -1 <= player < n:
            raise fail(f"history.{i}", f"no player {player} (-1 for chance, or a seat)")
        if not 0 <= action < size:
            raise fail(f"history.{i}", f"action {action} is not in 0..{size - 1}")
    return parsed


def _check_position(data: DiceStateData, n: int) -> None:
    """Refuse data that play can never reach: cards not conserved (D-3); a deal, roll or
    seat to act that does not fit the phase; a phase that does not follow from the dice (D-8).

    Raises:
        RecordError: naming the inconsistent field.
    """
    total = [
        data.llama_row[s] + data.setaside[s] + data.discards[s] + sum(r[s] for r in data.rows)
        for s in range(NUM_SYMBOLS)
    ]
    expected = [LLAMA_ROW_CARDS[s] + DECK_CARDS[s] for s in range(NUM_SYMBOLS)]
    if total != expected:
        raise RecordError(
            f"cards not conserved: counts per symbol 1..6, L are {total}, expected {expected} (D-3)"
        )
    phase = Phase(data.phase)
    if (phase == Phase.DEAL) != (data.deal_seat < n):
        raise RecordError(
            f"deal_seat {data.deal_seat}: the deal is unfinished exactly in the deal phase"
        )
    if (data.dice is not None) != (phase in ROLL_PHASES):
        raise RecordError(
            f"dice {data.dice}: a roll is shown exactly in the discard, take and "
            f"give-after-llamas phases, not in phase {phase.label}"
        )
    seat = data.player
    if phase in (Phase.TURN, Phase.DICE, *ROLL_PHASES) and data.quit[seat]:
        raise RecordError(f"quit: seat {seat} has quit but is to act")
    if data.dice is not None:
        result = roll_result(
            data.rows[seat],
            data.llama_row,
            data.dice,
            last_standing=is_last_standing(data.quit, seat),
        )
        if phase_after_roll(result, data.scores[seat]) != phase:
            shown = " ".join(SYMBOLS[s] for s in data.dice)
            raise RecordError(
                f"phase {phase.label} does not follow from dice {shown} for seat {seat}"
            )
