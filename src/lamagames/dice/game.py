"""LAMA Dice rules engine (Reiner Knizia, AMIGO 2021): rulings D-1 .. D-11 of RULES.md.

The engine is pure: no I/O, no global randomness. Cards are tracked as count vectors over the
seven symbols (see :mod:`lamagames.dice.actions`), because only symbols matter to the rules.
Every card is always in exactly one place: the llama row, a seat's row, the discard pile
(cards discarded on a match, D-8.2) or the set-aside deck (cards not dealt this round, D-5);
the 43 cards of D-3 are conserved.

A game runs in rounds. Each round starts with one chance node per seat (the deal of its six
cards, seat 0 first), then turns (D-6): the current seat rolls or quits; a roll is a chance
node; its outcome may ask the same seat to discard (D-8.2), take a llama-row card (D-8.3) or
give back a chip (D-8.1). A round that ends (D-9) is scored (D-10); a seat with an empty row
and chips is asked whether to give one back; then the game ends (D-11) or the next round is
dealt, started by the seat that took the last roll or quit (D-5).
"""

from __future__ import annotations

import math
import random
from itertools import product
from typing import Any, Final, Self

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import (
    IllegalActionError,
    InvalidActionError,
    ParameterError,
    RecordError,
)
from lamagames.core.game import CHANCE_PLAYER, TERMINAL_PLAYER, Game, GameInfo, State
from lamagames.dice.actions import (
    DISCARD_BASE,
    DISCARD_ID,
    DISCARDS,
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    HAND_ID,
    HAND_SIZE,
    HANDS,
    LLAMA,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    NUM_ROLLS,
    NUM_SYMBOLS,
    QUIT,
    ROLL,
    SYMBOLS,
    TAKE_BASE,
    VALUES,
    chance_to_string,
    check_action_id,
    player_action_to_string,
    roll_id,
    roll_symbols,
    string_to_chance,
    string_to_player_action,
)

#: Standard dice faces of D-1, dice A, B, C.
STANDARD_DICE: Final = ("LL3456", "12LL56", "1234LL")
#: Llama-row cards (D-3): one of each symbol.
LLAMA_ROW_CARDS: Final = (1, 1, 1, 1, 1, 1, 1)
#: Deck cards (D-3): five of each number, six llamas.
DECK_CARDS: Final = (5, 5, 5, 5, 5, 5, 6)
TOTAL_CARDS: Final = sum(LLAMA_ROW_CARDS) + sum(DECK_CARDS)  # 43
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
DEFAULT_END_SCORE: Final = 40

# Phases (what the next action is).
PHASE_DEAL: Final = 0  # chance: deal six cards to seat `_deal_seat`
PHASE_TURN: Final = 1  # seat: roll or quit
PHASE_DICE: Final = 2  # chance: the three dice
PHASE_DISCARD: Final = 3  # seat: discard after a match
PHASE_TAKE: Final = 4  # seat: take one llama-row card
PHASE_GIVE_LLAMAS: Final = 5  # seat: give back a chip after three llamas
PHASE_GIVE_EMPTY: Final = 6  # seat: give back a chip after emptying the row
PHASE_OVER: Final = 7
PHASE_NAMES: Final = ("deal", "turn", "dice", "discard", "take", "give", "give", "over")
NUM_PHASES: Final = 8
#: Internal result of a roll (not a phase): a bust (D-8.4, D-8.5).
_BUST: Final = -1
#: Phases in which the current roll is shown (the dice stay visible until the turn passes).
ROLL_PHASES: Final = (PHASE_DISCARD, PHASE_TAKE, PHASE_GIVE_LLAMAS)


def validate_dice(dice: list[str] | tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Check a dice face set against D-1 and return it as symbol indices.

    Args:
        dice: three strings of six faces each, ``"1"``..``"6"`` or ``"L"``.

    Returns:
        Three tuples of six symbol indices.

    Raises:
        ParameterError: naming the constraint that failed.
    """
    if not isinstance(dice, list | tuple) or len(dice) != 3:
        raise ParameterError(f"dice: need exactly three dice, got {dice!r}")
    faces: list[tuple[int, ...]] = []
    for i, die in enumerate(dice):
        name = "ABC"[i]
        if not isinstance(die, str) or len(die) != 6:
            raise ParameterError(f"dice: die {name} must have six faces, got {die!r}")
        indices = []
        for char in die.upper():
            index = SYMBOLS.find(char)
            if index < 0:
                raise ParameterError(f"dice: die {name} has face {char!r}; faces are 1-6 or L")
            indices.append(index)
        if indices.count(LLAMA) != 2:
            raise ParameterError(f"dice: die {name} must have exactly two llama faces")
        numbers = [s for s in indices if s != LLAMA]
        if len(set(numbers)) != 4:
            raise ParameterError(f"dice: die {name} repeats a number; its four numbers differ")
        faces.append(tuple(sorted(indices)))
    for number in range(6):
        on = sum(1 for f in faces if number in f)
        if on != 2:
            raise ParameterError(
                f"dice: number {number + 1} is on {on} dice; every number must be on exactly two"
            )
    return tuple(faces)


class DiceGame(Game):
    """LAMA Dice with fixed parameters.

    Args:
        num_players: 2..6 seats.
        dice: three face strings (D-1); default :data:`STANDARD_DICE`.
        end_score: the game ends after a round in which a score reaches this (D-11), points.
        starting_seat: seat that starts the first round (D-5).

    Raises:
        ParameterError: a parameter is out of range or the dice break D-1.
    """

    def __init__(
        self,
        num_players: int = 3,
        dice: list[str] | tuple[str, ...] = STANDARD_DICE,
        end_score: int = DEFAULT_END_SCORE,
        starting_seat: int = 0,
    ) -> None:
        if type(num_players) is not int or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ParameterError(f"num_players must be 2..6, got {num_players!r}")
        if type(end_score) is not int or not 1 <= end_score <= 10_000:
            raise ParameterError(f"end_score must be an integer 1..10000, got {end_score!r}")
        if type(starting_seat) is not int or not 0 <= starting_seat < num_players:
            raise ParameterError(
                f"starting_seat must be 0..{num_players - 1}, got {starting_seat!r}"
            )
        self.dice_faces = validate_dice(dice)
        self.dice = tuple(die.upper() for die in dice)
        self.end_score = end_score
        self.starting_seat = starting_seat
        self.info = GameInfo(
            game_id="dice",
            long_name="LAMA Dice",
            num_players=num_players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            observation_shape=(observation_size(num_players),),
        )
        # Chance tables: per-die symbol probabilities and the roll distribution.
        per_die = [[f.count(s) / 6 for s in range(NUM_SYMBOLS)] for f in self.dice_faces]
        outcomes: list[tuple[int, float]] = []
        for a, b, c in product(range(NUM_SYMBOLS), repeat=3):
            p = per_die[0][a] * per_die[1][b] * per_die[2][c]
            if p > 0:
                outcomes.append((roll_id(a, b, c), p))
        #: Every possible roll ``(outcome id, probability)`` of these dice (D-1).
        self.roll_outcomes: tuple[tuple[int, float], ...] = tuple(outcomes)
        self._roll_ids: frozenset[int] = frozenset(a for a, _ in outcomes)

    @property
    def params(self) -> dict[str, Any]:
        """JSON parameters: ``num_players``, ``dice``, ``end_score``, ``starting_seat``."""
        return {
            "num_players": self.num_players,
            "dice": list(self.dice),
            "end_score": self.end_score,
            "starting_seat": self.starting_seat,
        }

    def new_initial_state(self) -> DiceState:
        """The state before the first deal (a chance node)."""
        return DiceState(self)

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """Rebuild a state from :meth:`DiceState.to_dict` output (validated).

        Raises:
            RecordError: malformed data or cards not conserved.
        """
        return DiceState.from_dict(self, data)


def observation_size(num_players: int) -> int:
    """Length of the flat observation tensor: ``10 * num_players + 36``."""
    return 10 * num_players + 7 + 3 * NUM_SYMBOLS + NUM_PHASES


def row_score(counts: list[int] | tuple[int, ...]) -> int:
    """Minus points of a row (D-10): distinct numbers once each, plus 10 for any llama."""
    return sum(VALUES[s] for s in range(NUM_SYMBOLS) if counts[s])


class DiceState(State):
    """A LAMA Dice position. Create with :meth:`DiceGame.new_initial_state`."""

    __slots__ = (
        "_deal_seat",
        "_dice",
        "_give_queue",
        "_history",
        "_last_actor",
        "_legal",
        "_player",
        "_round",
        "_round_points",
        "_starter",
        "discards",
        "game",
        "llama_row",
        "phase",
        "quit",
        "rows",
        "scores",
        "setaside",
    )

    game: DiceGame

    def __init__(self, game: DiceGame) -> None:
        n = game.num_players
        self.game = game
        self.scores: list[int] = [0] * n
        self.rows: list[list[int]] = [[0] * NUM_SYMBOLS for _ in range(n)]
        self.quit: list[bool] = [False] * n
        self.llama_row: list[int] = list(LLAMA_ROW_CARDS)
        self.setaside: list[int] = list(DECK_CARDS)
        self.discards: list[int] = [0] * NUM_SYMBOLS
        self.phase: int = PHASE_DEAL
        self._player: int = game.starting_seat
        self._starter: int = game.starting_seat
        self._last_actor: int = game.starting_seat
        self._deal_seat: int = 0
        self._dice: tuple[int, int, int] | None = None
        self._give_queue: list[int] = []
        self._round: int = 1
        self._round_points: list[list[int]] = []
        self._history: list[tuple[int, int]] = []
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------ read-only views
    @property
    def round(self) -> int:
        """Round number, from 1."""
        return self._round

    @property
    def starter(self) -> int:
        """Seat that started the current round (D-5)."""
        return self._starter

    @property
    def dice(self) -> tuple[int, int, int] | None:
        """Symbols shown by dice A, B, C after the current roll, or ``None``."""
        return self._dice

    @property
    def round_points(self) -> list[list[int]]:
        """Minus points scored by each seat in each finished round, before give-backs (D-10)."""
        return [list(r) for r in self._round_points]

    def row_score(self, seat: int) -> int:
        """Minus points the seat's row would score now (D-10)."""
        return row_score(self.rows[seat])

    def chips(self, seat: int) -> tuple[int, int]:
        """``(black, white)`` chips of a seat (D-4): ``score // 10`` and ``score % 10``."""
        score = self.scores[seat]
        return score // 10, score % 10

    def winners(self) -> list[int]:
        """Seats with the lowest score once the game is over (D-11); ``[]`` before."""
        if self.phase != PHASE_OVER:
            return []
        low = min(self.scores)
        return [i for i, s in enumerate(self.scores) if s == low]

    def matches(self) -> bool:
        """True if a die of the current roll shows a symbol in the current seat's row."""
        if self._dice is None:
            return False
        row = self.rows[self._player]
        return any(row[s] for s in self._dice)

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """Seat to act, :data:`CHANCE_PLAYER` (deal, dice) or :data:`TERMINAL_PLAYER`."""
        phase = self.phase
        if phase in (PHASE_DEAL, PHASE_DICE):
            return CHANCE_PLAYER
        if phase == PHASE_OVER:
            return TERMINAL_PLAYER
        return self._player

    def is_chance_node(self) -> bool:
        """True at a deal or a dice roll."""
        return self.phase == PHASE_DEAL or self.phase == PHASE_DICE

    def is_terminal(self) -> bool:
        """True once the game is over (D-11)."""
        return self.phase == PHASE_OVER

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal action ids, ascending (chance outcomes at a chance node).

        Args:
            player: seat asking; a seat other than the current one gets ``[]``.
        """
        if player is not None and (player != self.current_player() or player < 0):
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        if phase == PHASE_TURN:
            return [ROLL, QUIT]
        if phase == PHASE_DISCARD:
            return self._legal_discards()
        if phase == PHASE_TAKE:
            dice = self._dice or ()
            return sorted({TAKE_BASE + s for s in dice if self.llama_row[s]})
        if phase in (PHASE_GIVE_LLAMAS, PHASE_GIVE_EMPTY):
            black, white = self.chips(self._player)
            out = [GIVE_BLACK] if black else []
            if white:
                out.append(GIVE_WHITE)
            out.append(GIVE_NONE)
            return out
        if phase in (PHASE_DICE, PHASE_DEAL):
            return [a for a, _ in self.chance_outcomes()]
        return []

    def _legal_discards(self) -> list[int]:
        """D-8.2: per symbol up to min(dice showing it, cards in row); at least one card."""
        row = self.rows[self._player]
        limits: dict[int, int] = {}
        for s in self._dice or ():
            if row[s]:
                limits[s] = min(limits.get(s, 0) + 1, row[s])
        symbols = list(limits)
        out = []
        for combo in product(*(range(limits[s] + 1) for s in symbols)):
            if any(combo):
                counts = [0] * NUM_SYMBOLS
                for s, k in zip(symbols, combo, strict=True):
                    counts[s] = k
                out.append(DISCARD_ID[tuple(counts)])
        out.sort()
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Outcomes with probabilities: 125 rolls of the dice (D-1), or the possible hands
        of six cards for the seat being dealt (multivariate hypergeometric, D-5).

        Raises:
            IllegalActionError: not a chance node.
        """
        if self.phase == PHASE_DICE:
            return list(self.game.roll_outcomes)
        if self.phase != PHASE_DEAL:
            raise IllegalActionError("not a chance node")
        deck = self.setaside
        total = math.comb(sum(deck), HAND_SIZE)
        out = []
        for hand in HANDS:
            ways = 1
            for s in range(NUM_SYMBOLS):
                if hand[s]:
                    ways *= math.comb(deck[s], hand[s])
                    if not ways:
                        break
            if ways:
                out.append((HAND_ID[hand], ways / total))
        return out

    def sample_chance_outcome(self, rng: random.Random) -> int:
        """Draw a roll (one face per die) or a deal (six cards without replacement).

        Raises:
            IllegalActionError: not a chance node.
        """
        if self.phase == PHASE_DICE:
            a, b, c = self.game.dice_faces
            rand = rng.random
            return roll_id(a[int(rand() * 6)], b[int(rand() * 6)], c[int(rand() * 6)])
        if self.phase != PHASE_DEAL:
            raise IllegalActionError("not a chance node")
        cards = [s for s in range(NUM_SYMBOLS) for _ in range(self.setaside[s])]
        counts = [0] * NUM_SYMBOLS
        for s in rng.sample(cards, HAND_SIZE):
            counts[s] += 1
        return HAND_ID[tuple(counts)]

    def apply_action(self, action: int, player: int | None = None) -> None:
        """Apply a player action or chance outcome (D-5 .. D-11).

        Raises:
            InvalidActionError: not an id of the action (or chance outcome) space.
            IllegalActionError: not legal now or not this seat's turn; state unchanged.
        """
        phase = self.phase
        if phase in (PHASE_DEAL, PHASE_DICE) and (player is None or player == CHANCE_PLAYER):
            self._apply_chance(action)
            return
        # A seat's action: well formed first (InvalidActionError; ``True`` or ``1.0`` would
        # otherwise compare equal to QUIT), then the seat, then legality.
        check_action_id(action)
        if phase in (PHASE_DEAL, PHASE_DICE):
            raise IllegalActionError(
                f"{player_action_to_string(action)!r} by seat {player!r}: "
                "a chance event is next, no seat may act"
            )
        if phase == PHASE_OVER:
            raise IllegalActionError(
                f"{player_action_to_string(action)!r} is not legal: the game is over"
            )
        if player is not None and (type(player) is not int or player != self._player):
            raise IllegalActionError(
                f"{player_action_to_string(action)!r} by seat {player!r}: "
                f"it is seat {self._player}'s turn"
            )
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalActionError(
                f"{player_action_to_string(action)!r} is not legal now; legal: "
                + ", ".join(player_action_to_string(a) for a in legal)
            )
        seat = self._player
        self._history.append((seat, action))
        self._legal = None
        if phase == PHASE_TURN:
            self._last_actor = seat
            if action == ROLL:
                self.phase = PHASE_DICE
            else:  # D-7
                self.quit[seat] = True
                if all(self.quit):  # D-9
                    self._end_round()
                else:
                    self._next_turn()
        elif phase == PHASE_DISCARD:  # D-8.2
            counts = DISCARDS[action - DISCARD_BASE]
            row = self.rows[seat]
            for s in range(NUM_SYMBOLS):
                if counts[s]:
                    row[s] -= counts[s]
                    self.discards[s] += counts[s]
            if not any(row):  # D-9: row emptied
                self._end_round()
            else:
                self._next_turn()
        elif phase == PHASE_TAKE:  # D-8.3
            s = action - TAKE_BASE
            self.llama_row[s] = 0
            self.rows[seat][s] += 1
            if not any(self.llama_row):  # D-9: llama row emptied
                self._end_round()
            else:
                self._next_turn()
        else:  # give back a chip (D-8.1 after three llamas, D-10 after emptying the row)
            if action == GIVE_BLACK:
                self.scores[seat] -= 10
            elif action == GIVE_WHITE:
                self.scores[seat] -= 1
            if phase == PHASE_GIVE_LLAMAS:
                self._next_turn()
            else:
                self._after_give_backs()

    def _apply_chance(self, outcome: int) -> None:
        if type(outcome) is not int or not 0 <= outcome < MAX_CHANCE_OUTCOMES:
            raise InvalidActionError(f"{outcome!r} is not a LAMA Dice chance outcome id")
        if self.phase == PHASE_DICE:
            if outcome not in self.game._roll_ids:
                raise IllegalActionError(
                    f"{chance_to_string(outcome)!r} cannot be rolled with dice "
                    + "/".join(self.game.dice)
                )
            self._history.append((CHANCE_PLAYER, outcome))
            self._legal = None
            self._resolve_roll(roll_symbols(outcome))
            return
        if outcome < NUM_ROLLS:
            raise IllegalActionError(f"{chance_to_string(outcome)!r}: a deal is next, not dice")
        hand = HANDS[outcome - NUM_ROLLS]
        deck = self.setaside
        if any(hand[s] > deck[s] for s in range(NUM_SYMBOLS)):
            raise IllegalActionError(
                f"{chance_to_string(outcome)!r} cannot be dealt from the remaining deck"
            )
        self._history.append((CHANCE_PLAYER, outcome))
        self._legal = None
        row = self.rows[self._deal_seat]
        for s in range(NUM_SYMBOLS):
            if hand[s]:
                deck[s] -= hand[s]
                row[s] += hand[s]
        self._deal_seat += 1
        if self._deal_seat == self.game.num_players:
            self.phase = PHASE_TURN
            self._player = self._starter

    def _resolve_roll(self, dice: tuple[int, int, int]) -> None:
        """D-8: apply what the roll ``dice`` of the current seat leads to."""
        self._dice = dice
        result = self._roll_result(dice)
        if result == PHASE_TURN:  # three llamas and no chip to give back (D-8.1)
            self._next_turn()
        elif result == _BUST:  # D-8.4 / D-8.5: take the whole llama row, round over
            row = self.rows[self._player]
            llama_row = self.llama_row
            for s in range(NUM_SYMBOLS):
                row[s] += llama_row[s]
                llama_row[s] = 0
            self._end_round()
        else:
            self.phase = result

    def _roll_result(self, dice: tuple[int, int, int]) -> int:
        """D-8, checked in order: what a roll of ``dice`` by the current seat leads to.

        Returns:
            :data:`PHASE_GIVE_LLAMAS` or :data:`PHASE_TURN` (three llamas with or without
            chips, D-8.1), :data:`PHASE_DISCARD` (match, D-8.2), :data:`PHASE_TAKE` (D-8.3)
            or :data:`_BUST` (D-8.4, D-8.5).
        """
        seat = self._player
        if dice[0] == LLAMA and dice[1] == LLAMA and dice[2] == LLAMA:  # D-8.1
            return PHASE_GIVE_LLAMAS if self.scores[seat] else PHASE_TURN
        row = self.rows[seat]
        if row[dice[0]] or row[dice[1]] or row[dice[2]]:  # D-8.2
            return PHASE_DISCARD
        quit_ = self.quit
        last_standing = all(quit_[i] for i in range(len(quit_)) if i != seat)  # D-8.5
        llama_row = self.llama_row
        if not last_standing and (llama_row[dice[0]] or llama_row[dice[1]] or llama_row[dice[2]]):
            return PHASE_TAKE  # D-8.3
        return _BUST  # D-8.4

    def _next_turn(self) -> None:
        """D-6: the next seat clockwise that has not quit (possibly the same seat)."""
        n = self.game.num_players
        seat = self._player
        for _ in range(n):
            seat = (seat + 1) % n
            if not self.quit[seat]:
                break
        self._player = seat
        self._dice = None
        self.phase = PHASE_TURN

    def _end_round(self) -> None:
        """D-9 / D-10: score every row; seats with an empty row may give back a chip."""
        points = [row_score(row) for row in self.rows]
        self._round_points.append(points)
        for seat, p in enumerate(points):
            self.scores[seat] += p
        self._dice = None
        self._give_queue = [
            seat for seat, row in enumerate(self.rows) if not any(row) and self.scores[seat]
        ]
        self._after_give_backs()

    def _after_give_backs(self) -> None:
        if self._give_queue:
            self._player = self._give_queue.pop(0)
            self.phase = PHASE_GIVE_EMPTY
            return
        if max(self.scores) >= self.game.end_score:  # D-11
            self.phase = PHASE_OVER
            return
        # D-5: new round, started by the seat that took the last roll or quit.
        n = self.game.num_players
        self.rows = [[0] * NUM_SYMBOLS for _ in range(n)]
        self.llama_row = list(LLAMA_ROW_CARDS)
        self.setaside = list(DECK_CARDS)
        self.discards = [0] * NUM_SYMBOLS
        self.quit = [False] * n
        self._starter = self._last_actor
        self._player = self._starter
        self._deal_seat = 0
        self._round += 1
        self.phase = PHASE_DEAL

    def clone(self) -> Self:
        """An independent copy (history included)."""
        new = object.__new__(type(self))
        new.game = self.game
        new.scores = list(self.scores)
        new.rows = [list(r) for r in self.rows]
        new.quit = list(self.quit)
        new.llama_row = list(self.llama_row)
        new.setaside = list(self.setaside)
        new.discards = list(self.discards)
        new.phase = self.phase
        new._player = self._player
        new._starter = self._starter
        new._last_actor = self._last_actor
        new._deal_seat = self._deal_seat
        new._dice = self._dice
        new._give_queue = list(self._give_queue)
        new._round = self._round
        new._round_points = [list(r) for r in self._round_points]
        new._history = list(self._history)
        new._legal = self._legal
        return new

    def history(self) -> list[tuple[int, int]]:
        """Every ``(player, action)`` so far; chance outcomes have player -1."""
        return list(self._history)

    def returns(self) -> list[float]:
        """1.0 for each winner (lowest score, ties all win, D-11), 0.0 for the others."""
        winners = set(self.winners())
        return [1.0 if seat in winners else 0.0 for seat in range(self.game.num_players)]

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Notation of a chance outcome (``dice 3 5 L``, ``deal 11235L``) when ``player`` is
        :data:`CHANCE_PLAYER`, or is ``None`` at a chance node; of a player action
        (``roll``, ``discard 3 3``...) otherwise.

        Raises:
            InvalidActionError: not an id of the relevant space.
        """
        if self._is_chance_context(player):
            return chance_to_string(action)
        return player_action_to_string(action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation in this state's context (see :meth:`action_to_string`).

        Raises:
            InvalidActionError: not valid notation here.
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"notation must be text, got {type(text).__name__}")
        if self._is_chance_context(player):
            return string_to_chance(text)
        return string_to_player_action(text)

    def _is_chance_context(self, player: int | None) -> bool:
        """True when ``player`` names chance: the chance player id, or ``None`` at a chance
        node (as in :meth:`apply_action`)."""
        if player is None:
            return self.is_chance_node()
        return player == CHANCE_PLAYER

    # ------------------------------------------------------------------ views
    def observation(self, player: int) -> dict[str, Any]:
        """Everything public, as JSON data (LAMA Dice has no hidden information that
        matters: rows are face up, a quit row was seen before it was turned).

        Keys: ``round``, ``phase``, ``current_player``, ``starter``, ``dice`` (symbols of
        dice A, B, C or null), ``llama_row`` (symbols), ``rows`` (per seat, sorted symbols),
        ``row_scores``, ``quit``, ``scores``, ``chips`` (``[black, white]`` per seat),
        ``setaside_count``, ``discard_count``, ``legal_actions`` (notation, for ``player``),
        ``winners``.

        Raises:
            IllegalActionError: ``player`` is not a seat.
        """
        self._check_seat(player)
        dice = None if self._dice is None else [SYMBOLS[s] for s in self._dice]
        return {
            "round": self._round,
            "phase": PHASE_NAMES[self.phase],
            "current_player": self.current_player(),
            "starter": self._starter,
            "dice": dice,
            "llama_row": [SYMBOLS[s] for s in range(NUM_SYMBOLS) if self.llama_row[s]],
            "rows": [
                [SYMBOLS[s] for s in range(NUM_SYMBOLS) for _ in range(r[s])] for r in self.rows
            ],
            "row_scores": [row_score(r) for r in self.rows],
            "quit": list(self.quit),
            "scores": list(self.scores),
            "chips": [list(self.chips(i)) for i in range(self.game.num_players)],
            "setaside_count": sum(self.setaside),
            "discard_count": sum(self.discards),
            "legal_actions": [player_action_to_string(a) for a in self.legal_actions(player)],
            "winners": self.winners(),
        }

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """Flat float32 array of shape ``(10 * n + 36,)``; seats rotated so ``player`` is 0.

        Layout: for each seat ``k = 0..n-1`` (seat ``(player + k) % n``) ten entries: row
        counts of symbols 1..6, L (7), quit flag, score in points / 10, is-current-player;
        then the llama row (7 flags); then dice A, B, C as three one-hots over 7 symbols
        (zeros without a roll); then a one-hot of the 8 phases (deal, turn, dice, discard,
        take, give after llamas, give after empty row, over).

        Raises:
            IllegalActionError: ``player`` is not a seat.
        """
        self._check_seat(player)
        n = self.game.num_players
        out = np.zeros(observation_size(n), dtype=np.float32)
        current = self.current_player()
        for k in range(n):
            seat = (player + k) % n
            base = 10 * k
            out[base : base + NUM_SYMBOLS] = self.rows[seat]
            out[base + 7] = float(self.quit[seat])
            out[base + 8] = self.scores[seat] / 10.0
            out[base + 9] = float(seat == current)
        base = 10 * n
        out[base : base + NUM_SYMBOLS] = self.llama_row
        base += NUM_SYMBOLS
        if self._dice is not None:
            for d, s in enumerate(self._dice):
                out[base + NUM_SYMBOLS * d + s] = 1.0
        base += 3 * NUM_SYMBOLS
        out[base + self.phase] = 1.0
        return out

    def _check_seat(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self.game.num_players:
            raise IllegalActionError(f"{player!r} is not a seat of this game")

    # ------------------------------------------------------------------ data
    def _repr_svg_(self) -> str:
        """The position as SVG for Jupyter (:func:`lamagames.dice.svg.state_svg`)."""
        from lamagames.dice.svg import state_svg  # lazy: svg imports this module

        return state_svg(self)

    def to_dict(self) -> dict[str, Any]:
        """Full state as JSON data (history as ``[player, action]`` pairs)."""
        return {
            "phase": self.phase,
            "player": self._player,
            "starter": self._starter,
            "last_actor": self._last_actor,
            "deal_seat": self._deal_seat,
            "round": self._round,
            "dice": None if self._dice is None else list(self._dice),
            "scores": list(self.scores),
            "rows": [list(r) for r in self.rows],
            "quit": list(self.quit),
            "llama_row": list(self.llama_row),
            "setaside": list(self.setaside),
            "discards": list(self.discards),
            "give_queue": list(self._give_queue),
            "round_points": [list(r) for r in self._round_points],
            "history": [[p, a] for p, a in self._history],
        }

    @classmethod
    def from_dict(cls, game: DiceGame, data: dict[str, Any]) -> DiceState:
        """Rebuild and validate a state from :meth:`to_dict` output.

        Raises:
            RecordError: not a JSON object; a field is missing, unknown or of the wrong
                shape; the 43 cards (D-3) are not all accounted for; or the phase, dice,
                seat to act and deal progress are inconsistent (a position play cannot
                reach, such as a discard phase whose dice match nothing, D-8).
        """
        n = game.num_players
        state = cls(game)
        if not isinstance(data, dict):
            raise RecordError(f"a LAMA Dice state is a JSON object, got {type(data).__name__}")
        unknown = sorted(set(data) - set(state.to_dict()))
        if unknown:
            raise RecordError(f"unknown field(s) in a LAMA Dice state: {', '.join(unknown)}")
        try:
            state.phase = _int(data["phase"], 0, NUM_PHASES - 1, "phase")
            state._player = _int(data["player"], 0, n - 1, "player")
            state._starter = _int(data["starter"], 0, n - 1, "starter")
            state._last_actor = _int(data["last_actor"], 0, n - 1, "last_actor")
            state._deal_seat = _int(data["deal_seat"], 0, n, "deal_seat")
            state._round = _int(data["round"], 1, 10**6, "round")
            dice = data["dice"]
            if dice is not None:
                a, b, c = _ints(dice, 3, 0, NUM_SYMBOLS - 1, "dice")
                state._dice = (a, b, c)
            state.scores = _ints(data["scores"], n, 0, 10**6, "scores")
            state.rows = [
                _ints(r, NUM_SYMBOLS, 0, 43, "rows") for r in _list(data["rows"], n, "rows")
            ]
            state.quit = [_bool(x, "quit") for x in _list(data["quit"], n, "quit")]
            state.llama_row = _ints(data["llama_row"], NUM_SYMBOLS, 0, 1, "llama_row")
            state.setaside = _ints(data["setaside"], NUM_SYMBOLS, 0, 6, "setaside")
            state.discards = _ints(data["discards"], NUM_SYMBOLS, 0, 43, "discards")
            state._give_queue = [_int(x, 0, n - 1, "give_queue") for x in data["give_queue"]]
            state._round_points = [
                _ints(r, n, 0, 100, "round_points") for r in data["round_points"]
            ]
            state._history = [_history_entry(entry, n) for entry in data["history"]]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"malformed LAMA Dice state: {exc!r}") from None
        total = [
            state.llama_row[s]
            + state.setaside[s]
            + state.discards[s]
            + sum(r[s] for r in state.rows)
            for s in range(NUM_SYMBOLS)
        ]
        expected = [LLAMA_ROW_CARDS[s] + DECK_CARDS[s] for s in range(NUM_SYMBOLS)]
        if total != expected:
            raise RecordError(f"cards not conserved: counts {total}, expected {expected}")
        state._check_consistent()
        return state

    def _check_consistent(self) -> None:
        """Refuse phase, dice, seat and deal combinations that play can never reach.

        Raises:
            RecordError: naming the inconsistent field.
        """
        n = self.game.num_players
        phase = self.phase
        if (phase == PHASE_DEAL) != (self._deal_seat < n):
            raise RecordError(
                f"deal_seat {self._deal_seat}: the deal is unfinished exactly in the deal phase"
            )
        if (self._dice is not None) != (phase in ROLL_PHASES):
            raise RecordError(
                f"dice {self._dice}: a roll is shown exactly in the discard, take and "
                f"give-after-llamas phases, not in phase {PHASE_NAMES[phase]}"
            )
        if phase in (PHASE_TURN, PHASE_DICE, *ROLL_PHASES) and self.quit[self._player]:
            raise RecordError(f"quit: seat {self._player} has quit but is to act")
        if self._dice is not None and self._roll_result(self._dice) != phase:
            shown = " ".join(SYMBOLS[s] for s in self._dice)
            raise RecordError(
                f"phase {PHASE_NAMES[phase]} does not follow from dice {shown} for seat "
                f"{self._player}"
            )


def _int(value: object, low: int, high: int, field: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise RecordError(f"{field}: {value!r} is not an integer in {low}..{high}")
    return value


def _list(value: object, length: int, field: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != length:
        raise RecordError(f"{field}: expected a list of {length} entries, got {value!r}")
    return value


def _bool(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise RecordError(f"{field}: {value!r} is not true or false")
    return value


def _history_entry(entry: object, num_players: int) -> tuple[int, int]:
    player, action = _list(entry, 2, "history")
    player = _int(player, -1, num_players - 1, "history")
    size = MAX_CHANCE_OUTCOMES if player == CHANCE_PLAYER else NUM_DISTINCT_ACTIONS
    return player, _int(action, 0, size - 1, "history")


def _ints(value: object, length: int, low: int, high: int, field: str) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise RecordError(f"{field}: expected a list of {length} integers, got {value!r}")
    return [_int(x, low, high, field) for x in value]


def as_dice_state(state: State) -> DiceState:
    """Return ``state`` typed as a :class:`DiceState`.

    Raises:
        IllegalActionError: ``state`` is not a LAMA Dice state.
    """
    if not isinstance(state, DiceState):
        raise IllegalActionError(f"a LAMA Dice state is needed, got {type(state).__name__}")
    return state


#: Why a round ended (D-9, D-8.4, D-8.5), as returned by :func:`round_end_reason`.
ROUND_END_REASONS: Final = ("bust", "emptied", "llama_row", "all_quit")


def round_end_reason(
    before: DiceState, player: int | None, action: int, after: DiceState
) -> str | None:
    """Why the round ended with this action, or ``None`` if it did not end.

    Args:
        before: the state before the action; ``after``: the state after it.
        player: the seat that acted, or ``None`` / -1 for a chance outcome.
        action: the action (or chance outcome) id.

    Returns:
        ``"bust"`` (a roll that took the whole llama row, D-8.4 / D-8.5; the only way a
        chance outcome ends a round), ``"emptied"`` (a discard emptied the row, D-9),
        ``"llama_row"`` (a take emptied the llama row, D-9), ``"all_quit"`` (the last seat
        quit, D-9), or ``None``.
    """
    if len(after.round_points) <= len(before.round_points):
        return None
    if player is None or player < 0:
        return "bust"
    if action == QUIT:
        return "all_quit"
    if action >= DISCARD_BASE:
        return "emptied"
    return "llama_row"
