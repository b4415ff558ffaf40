"""LAMA Dice positions: :class:`DiceState`, rulings D-5 .. D-11 of docs/rules.md. Pure.

Cards are tracked as count vectors over the seven symbols (see :mod:`lamagames.dice.actions`),
because only symbols matter to the rules. Every card is always in exactly one place: the
llama row, a seat's row, the discard pile (cards discarded on a match, D-8.2) or the
set-aside deck (cards not dealt this round, D-5); the 43 cards of D-3 are conserved.

A game runs in rounds. Each round starts with one chance node per seat (the deal of its six
cards, seat 0 first), then turns (D-6): the current seat rolls or quits; a roll is a chance
node; its outcome may ask the same seat to discard (D-8.2), take a llama-row card (D-8.3) or
give back a chip (D-8.1). A round that ends (D-9) is scored (D-10); a seat with an empty row
and chips is asked whether to give one back; then the game ends (D-11) or the next round is
dealt, started by the seat that took the last roll or quit (D-5).

The state's lists are private; read them through the properties (copies) and accessors.
"""

from __future__ import annotations

import random
from array import array
from typing import TYPE_CHECKING, Any, Final, Self

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import IllegalActionError, InvalidActionError, RecordError
from lamagames.core.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Outcome,
    State,
    Termination,
)
from lamagames.dice import views
from lamagames.dice.actions import (
    DISCARD_ACTION_CODES,
    DISCARD_BASE,
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    HAND_ID,
    HAND_SIZE,
    HANDS,
    MAX_CHANCE_OUTCOMES,
    NUM_ROLLS,
    NUM_SYMBOLS,
    QUIT,
    ROLL,
    TAKE_BASE,
    chance_to_string,
    check_action_id,
    player_action_to_string,
    roll_id,
    roll_symbols,
    string_to_chance,
    string_to_player_action,
)
from lamagames.dice.primitives import (
    bust,
    can_take,
    chip_choices,
    chip_points,
    discard,
    everyone_quit,
    game_over,
    gives_back_after_round,
    is_empty,
    next_seat,
    next_starter,
    row_score,
    take,
)
from lamagames.dice.reader import DiceStateReader
from lamagames.dice.rules import (
    DECK_CARDS,
    LLAMA_ROW_CARDS,
    Phase,
    deal_outcomes,
    legal_discards,
    phase_after_roll,
)
from lamagames.dice.state_data import parse_state_data

# The phases as module globals for the hot paths of play: an Enum class attribute lookup
# (``Phase.OVER``) costs about 0.2 us on Python 3.11, measured at 15-20% of this engine's
# time. They are the Phase members themselves, not new names for the phases.
_DEAL, _TURN, _DICE, _DISCARD, _TAKE, _GIVE_LLAMAS, _GIVE_EMPTY, _OVER = tuple(Phase)

_NONE: Final = (0,) * NUM_SYMBOLS
#: What each discard action does to the row (D-8.2), as ``(symbol, cards)`` pairs of the
#: symbols it lowers: a table of :func:`~lamagames.dice.primitives.discard` (applied to an
#: empty row; a discard lowers each symbol by its own count), so the engine's hot path
#: touches only those symbols.
_DISCARD_STEPS: Final = tuple(
    tuple((sym, -k) for sym, k in enumerate(discard(_NONE, code)) if k)
    for code in DISCARD_ACTION_CODES
)
#: What taking each llama-row card does (D-8.3): the ``(symbol, cards)`` the row gains and
#: the llama-row symbols cleared, a table of :func:`~lamagames.dice.primitives.take`
#: (applied to an empty row and a llama row holding every symbol).
_TAKE_STEPS: Final = tuple(
    (
        tuple((sym, k) for sym, k in enumerate(row) if k),
        tuple(sym for sym, k in enumerate(llama) if not k),
    )
    for row, llama in (take(_NONE, (1,) * NUM_SYMBOLS, s) for s in range(NUM_SYMBOLS))
)

if TYPE_CHECKING:
    from lamagames.dice.game import DiceGame


class DiceState(DiceStateReader, State):
    """A LAMA Dice position. Create with :meth:`DiceGame.new_initial_state`."""

    __slots__ = (
        "_deal_seat",
        "_dice",
        "_discards",
        "_give_queue",
        "_history",
        "_last_actor",
        "_legal",
        "_llama_row",
        "_phase",
        "_player",
        "_quit",
        "_round",
        "_round_points",
        "_rows",
        "_scores",
        "_setaside",
        "_starter",
        "game",
    )

    game: DiceGame

    def __init__(self, game: DiceGame) -> None:
        n = game.num_players
        self.game = game
        self._scores: list[int] = [0] * n
        self._rows: list[list[int]] = [[0] * NUM_SYMBOLS for _ in range(n)]
        self._quit: list[bool] = [False] * n
        self._llama_row: list[int] = list(LLAMA_ROW_CARDS)
        self._setaside: list[int] = list(DECK_CARDS)
        self._discards: list[int] = [0] * NUM_SYMBOLS
        self._phase: Phase = _DEAL
        self._player: int = game.starting_seat
        self._starter: int = game.starting_seat
        self._last_actor: int = game.starting_seat
        self._deal_seat: int = 0
        self._dice: tuple[int, int, int] | None = None
        self._give_queue: list[int] = []
        self._round: int = 1
        self._round_points: list[list[int]] = []
        #: ``player, action, player, action, ...`` as C ints: a clone copies it in one
        #: memory copy, and the garbage collector has nothing to traverse in it (a list of
        #: tuples, copied by every ``child``, grew the young generations with the game).
        self._history: array[int] = array("i")
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """Seat to act, :data:`CHANCE_PLAYER` (deal, dice) or :data:`TERMINAL_PLAYER`."""
        phase = self._phase
        if phase in (_DEAL, _DICE):
            return CHANCE_PLAYER
        if phase == _OVER:
            return TERMINAL_PLAYER
        return self._player

    def is_chance_node(self) -> bool:
        """True at a deal or a dice roll."""
        return self._phase == _DEAL or self._phase == _DICE

    def is_terminal(self) -> bool:
        """True once the game is over (D-11)."""
        return self._phase == _OVER

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal action ids, ascending (chance outcomes at a chance node).

        Args:
            player: seat asking, or :data:`CHANCE_PLAYER` (the outcomes at a chance node);
                a seat other than the current one, or chance elsewhere, gets ``[]``.
        """
        if player is not None and player != self.current_player():
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[int]:
        phase = self._phase
        if phase == _TURN:
            return [ROLL, QUIT]
        if phase == _DISCARD:
            return legal_discards(self._rows[self._player], self._dice or ())
        if phase == _TAKE:
            a, b, c = self._dice or (0, 0, 0)
            llama = self._llama_row
            return sorted({TAKE_BASE + s for s in (a, b, c) if can_take(llama, a, b, c, s)})
        if phase in (_GIVE_LLAMAS, _GIVE_EMPTY):
            choices = chip_choices(self._scores[self._player])
            out = [GIVE_BLACK] if choices & 1 else []
            if choices & 2:
                out.append(GIVE_WHITE)
            out.append(GIVE_NONE)
            return out
        if phase in (_DICE, _DEAL):
            return [a for a, _ in self.chance_outcomes()]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Outcomes with probabilities: 125 rolls of the dice (D-1), or the possible hands
        of six cards for the seat being dealt (multivariate hypergeometric, D-5).

        Raises:
            IllegalActionError: not a chance node.
        """
        if self._phase == _DICE:
            return list(self.game.roll_outcomes)
        if self._phase != _DEAL:
            raise IllegalActionError("not a chance node")
        return deal_outcomes(self._setaside)

    def sample_chance_outcome(self, rng: random.Random) -> int:
        """Draw a roll (one face per die) or a deal (six cards without replacement).

        Raises:
            IllegalActionError: not a chance node.
        """
        if self._phase == _DICE:
            a, b, c = self.game.dice_faces
            rand = rng.random
            return roll_id(a[int(rand() * 6)], b[int(rand() * 6)], c[int(rand() * 6)])
        if self._phase != _DEAL:
            raise IllegalActionError("not a chance node")
        cards = [s for s in range(NUM_SYMBOLS) for _ in range(self._setaside[s])]
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
        phase = self._phase
        if phase in (_DEAL, _DICE) and (player is None or player == CHANCE_PLAYER):
            self._apply_chance(action)
            return
        # A seat's action: well formed first (InvalidActionError; ``True`` or ``1.0`` would
        # otherwise compare equal to QUIT), then the seat, then legality.
        check_action_id(action)
        if phase in (_DEAL, _DICE):
            raise IllegalActionError(
                f"{player_action_to_string(action)!r} by seat {player!r}: "
                "a chance event is next, no seat may act"
            )
        if phase == _OVER:
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
        self._history.extend((seat, action))
        self._legal = None
        if phase == _TURN:
            self._last_actor = seat
            if action == ROLL:
                self._phase = _DICE
            else:  # D-7
                self._quit[seat] = True
                if everyone_quit(self._quit):  # D-9
                    self._end_round()
                else:
                    self._next_turn()
        elif phase == _DISCARD:  # D-8.2
            row = self._rows[seat]
            for s, k in _DISCARD_STEPS[action - DISCARD_BASE]:  # discard (D-8.2)
                row[s] -= k
                self._discards[s] += k  # the cards put down go to the discard pile
            if is_empty(row):  # D-9: row emptied
                self._end_round()
            else:
                self._next_turn()
        elif phase == _TAKE:  # D-8.3
            gained, cleared = _TAKE_STEPS[action - TAKE_BASE]  # take (D-8.3)
            row = self._rows[seat]
            for s, k in gained:
                row[s] += k
            for s in cleared:
                self._llama_row[s] = 0
            if is_empty(self._llama_row):  # D-9: llama row emptied
                self._end_round()
            else:
                self._next_turn()
        else:  # give back a chip (D-8.1 after three llamas, D-10 after emptying the row)
            self._scores[seat] -= chip_points(action)
            if phase == _GIVE_LLAMAS:
                self._next_turn()
            else:
                self._after_give_backs()

    def _apply_chance(self, outcome: int) -> None:
        if type(outcome) is not int or not 0 <= outcome < MAX_CHANCE_OUTCOMES:
            raise InvalidActionError(f"{outcome!r} is not a LAMA Dice chance outcome id")
        if self._phase == _DICE:
            if outcome not in self.game._roll_ids:
                raise IllegalActionError(
                    f"{chance_to_string(outcome)!r} cannot be rolled with dice "
                    + "/".join(self.game.dice)
                )
            self._history.extend((CHANCE_PLAYER, outcome))
            self._legal = None
            self._resolve_roll(roll_symbols(outcome))
            return
        if outcome < NUM_ROLLS:
            raise IllegalActionError(f"{chance_to_string(outcome)!r}: a deal is next, not dice")
        hand = HANDS[outcome - NUM_ROLLS]
        deck = self._setaside
        if any(hand[s] > deck[s] for s in range(NUM_SYMBOLS)):
            raise IllegalActionError(
                f"{chance_to_string(outcome)!r} cannot be dealt from the remaining deck"
            )
        self._history.extend((CHANCE_PLAYER, outcome))
        self._legal = None
        row = self._rows[self._deal_seat]
        for s in range(NUM_SYMBOLS):
            if hand[s]:
                deck[s] -= hand[s]
                row[s] += hand[s]
        self._deal_seat += 1
        if self._deal_seat == self.game.num_players:
            self._phase = _TURN
            self._player = self._starter

    def _resolve_roll(self, dice: tuple[int, int, int]) -> None:
        """D-8: apply what the roll ``dice`` of the current seat leads to."""
        self._dice = dice
        result = self._roll_phase(dice)
        if result == _TURN:  # three llamas and no chip to give back (D-8.1)
            self._next_turn()
        elif result == _OVER:  # D-8.4 / D-8.5: take the whole llama row, round over
            bust(self._rows[self._player], self._llama_row)
            self._end_round()
        else:
            self._phase = result

    def _roll_phase(self, dice: tuple[int, int, int]) -> Phase:
        """The phase a roll of ``dice`` by the current seat leads to (``OVER``: a bust)."""
        result = self.roll_result(dice)
        assert result is not None  # dice given
        return phase_after_roll(result, self._scores[self._player])

    def _next_turn(self) -> None:
        """D-6: the next seat clockwise that has not quit (possibly the same seat)."""
        self._player = next_seat(self._quit, self._player)
        self._dice = None
        self._phase = _TURN

    def _end_round(self) -> None:
        """D-9 / D-10: score every row; seats with an empty row may give back a chip."""
        points = [row_score(row) for row in self._rows]
        self._round_points.append(points)
        for seat, p in enumerate(points):
            self._scores[seat] += p
        self._dice = None
        self._give_queue = [
            seat for seat, p in enumerate(points) if gives_back_after_round(p, self._scores[seat])
        ]
        self._after_give_backs()

    def _after_give_backs(self) -> None:
        if self._give_queue:
            self._player = self._give_queue.pop(0)
            self._phase = _GIVE_EMPTY
            return
        if game_over(self._scores, self.game.end_score):  # D-11
            self._phase = _OVER
            return
        # D-5: new round, started by the seat that took the last roll or quit.
        n = self.game.num_players
        self._rows = [[0] * NUM_SYMBOLS for _ in range(n)]
        self._llama_row = list(LLAMA_ROW_CARDS)
        self._setaside = list(DECK_CARDS)
        self._discards = [0] * NUM_SYMBOLS
        self._quit = [False] * n
        self._starter = next_starter(self._last_actor)
        self._player = self._starter
        self._deal_seat = 0
        self._round += 1
        self._phase = _DEAL

    def clone(self) -> Self:
        """An independent copy (history included)."""
        new = object.__new__(type(self))
        new.game = self.game
        new._scores = list(self._scores)
        new._rows = [list(r) for r in self._rows]
        new._quit = list(self._quit)
        new._llama_row = list(self._llama_row)
        new._setaside = list(self._setaside)
        new._discards = list(self._discards)
        new._phase = self._phase
        new._player = self._player
        new._starter = self._starter
        new._last_actor = self._last_actor
        new._deal_seat = self._deal_seat
        new._dice = self._dice
        new._give_queue = list(self._give_queue)
        new._round = self._round
        new._round_points = [list(r) for r in self._round_points]
        new._history = self._history[:]
        new._legal = self._legal
        return new

    def history(self) -> list[tuple[int, int]]:
        """Every ``(player, action)`` so far; chance outcomes have player -1."""
        pairs = iter(self._history)
        return list(zip(pairs, pairs, strict=True))

    def outcome(self) -> Outcome | None:
        """``Outcome(END_SCORE, winners)`` once the game is over (D-11), else ``None``."""
        if self._phase != _OVER:
            return None
        return Outcome(Termination.END_SCORE, tuple(self.winners()))

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
    def _repr_svg_(self) -> str:
        """The position as SVG for Jupyter (:func:`lamagames.dice.svg.state_svg`)."""
        from lamagames.dice.svg import state_svg  # lazy: svg imports this module

        return state_svg(self)

    def observation(self, player: int) -> dict[str, Any]:
        """Everything public, as JSON data; keys in :func:`lamagames.dice.views.observation`.

        Raises:
            IllegalActionError: ``player`` is not a seat.
        """
        self._check_seat(player)
        return views.observation(self, player)

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """Flat float32 array of shape ``(10 * n + 36,)``; layout in
        :func:`lamagames.dice.views.observation_tensor`.

        Raises:
            IllegalActionError: ``player`` is not a seat.
        """
        self._check_seat(player)
        return views.observation_tensor(self, player)

    def _check_seat(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self.game.num_players:
            raise IllegalActionError(f"{player!r} is not a seat of this game")

    # ------------------------------------------------------------------ data
    def to_dict(self) -> dict[str, Any]:
        """Full state as JSON data (history as ``[player, action]`` pairs)."""
        return {
            "phase": int(self._phase),
            "player": self._player,
            "starter": self._starter,
            "last_actor": self._last_actor,
            "deal_seat": self._deal_seat,
            "round": self._round,
            "dice": None if self._dice is None else list(self._dice),
            "scores": list(self._scores),
            "rows": [list(r) for r in self._rows],
            "quit": list(self._quit),
            "llama_row": list(self._llama_row),
            "setaside": list(self._setaside),
            "discards": list(self._discards),
            "give_queue": list(self._give_queue),
            "round_points": [list(r) for r in self._round_points],
            "history": [[p, a] for p, a in self.history()],
        }

    @classmethod
    def from_dict(cls, game: DiceGame, data: dict[str, Any]) -> DiceState:
        """Rebuild and validate a state from :meth:`to_dict` output (format in
        :mod:`lamagames.dice.state_data`).

        Raises:
            RecordError: not a JSON object; a field is missing, unknown or of the wrong
                shape (the message names it); the 43 cards (D-3) are not all accounted for;
                or the phase, dice, seat to act and deal progress are inconsistent (a
                position play cannot reach, such as a discard phase whose dice match
                nothing, D-8); or a round in progress while a score is at or above the
                end score (the game ended when that round was scored, D-11).
        """
        parsed = parse_state_data(data, game.num_players)
        if Phase(parsed.phase) not in (_GIVE_EMPTY, _OVER):  # D-11
            for seat, score in enumerate(parsed.scores):
                if game_over([score], game.end_score):
                    raise RecordError(
                        f"state.scores.{seat}: {score} points reach the end score "
                        f"{game.end_score}, so the game is over: no round can be in progress "
                        "(D-11)"
                    )
        state = cls(game)
        state._phase = Phase(parsed.phase)
        state._player = parsed.player
        state._starter = parsed.starter
        state._last_actor = parsed.last_actor
        state._deal_seat = parsed.deal_seat
        state._round = parsed.round
        if parsed.dice is not None:
            a, b, c = parsed.dice
            state._dice = (a, b, c)
        state._scores = list(parsed.scores)
        state._rows = [list(r) for r in parsed.rows]
        state._quit = list(parsed.quit)
        state._llama_row = list(parsed.llama_row)
        state._setaside = list(parsed.setaside)
        state._discards = list(parsed.discards)
        state._give_queue = list(parsed.give_queue)
        state._round_points = [list(r) for r in parsed.round_points]
        state._history = array("i", [x for pair in parsed.history for x in pair])
        return state
