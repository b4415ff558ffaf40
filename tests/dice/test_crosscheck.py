"""Cross-check the engine against a tiny independent reference of LAMA Dice.

The reference below is plain Python written from docs/rules.md (D-4 .. D-11) and the documented
benchmark policy, not from the engine: rows are lists of symbol characters, the llama row a
set. The engine plays a seeded game with the ``benchmark`` bots; the reference replays the
same dealt hands and dice (read from the engine's history in notation) with its own rules
and policy, and both must reach the same round scores, scores and round starters, using up
exactly the same chance events. Any rules difference desynchronises the two.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import pytest

from lamagames.bots.base import make_bot
from lamagames.dice import DiceGame
from lamagames.dice.state import DiceState
from lamagames.sim.runner import play_game

VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "L": 10}
QUIT_AT = 6  # the benchmark policy quits when its row scores at most this (D-10 points)


def score(row: list[str]) -> int:
    """D-10: each distinct number once, plus 10 if the row holds any llama."""
    return sum(VALUE[s] for s in set(row))


@dataclass
class Reference:
    """LAMA Dice for the benchmark policy, fed with dealt hands and rolls in play order."""

    num_players: int
    deals: deque[str]
    rolls: deque[tuple[str, str, str]]
    end_score: int = 40
    starting_seat: int = 0
    scores: list[int] = field(init=False)
    round_points: list[list[int]] = field(default_factory=list)
    starters: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.scores = [0] * self.num_players

    def give_back(self, seat: int) -> None:
        """D-4 / D-8.1: the policy gives a black chip if it has one, else a white one."""
        if self.scores[seat] >= 10:
            self.scores[seat] -= 10
        elif self.scores[seat] % 10 >= 1:
            self.scores[seat] -= 1

    def play(self) -> None:
        starter = self.starting_seat
        while True:
            last_actor, emptied = self.play_round(starter)
            if emptied is not None:  # D-10: an empty row may give back a chip
                self.give_back(emptied)
            if max(self.scores) >= self.end_score:  # D-11
                return
            starter = last_actor  # D-5

    def play_round(self, starter: int) -> tuple[int, int | None]:
        """One round from the deal to scoring; returns the last actor and the emptied seat."""
        n = self.num_players
        self.starters.append(starter)
        llama_row = set("123456L")  # D-5: one of each symbol, face up
        rows = [list(self.deals.popleft()) for _ in range(n)]  # seat 0 is dealt first
        quit = [False] * n
        seat = starter
        emptied = None
        while True:
            last_actor = seat
            if score(rows[seat]) <= QUIT_AT:  # D-7
                quit[seat] = True
                if all(quit):  # D-9
                    break
            else:
                dice = self.rolls.popleft()
                row = rows[seat]
                if dice == ("L", "L", "L"):  # D-8.1: no discard, maybe a chip back
                    self.give_back(seat)
                elif any(d in row for d in dice):  # D-8.2: discard as many as allowed
                    for symbol in set(dice):
                        for _ in range(min(dice.count(symbol), row.count(symbol))):
                            row.remove(symbol)
                    if not row:  # D-9
                        emptied = seat
                        break
                else:
                    alone = all(quit[i] for i in range(n) if i != seat)  # D-8.5
                    available = [d for d in dice if d in llama_row]
                    if available and not alone:  # D-8.3: the lowest-valued one
                        card = min(available, key=lambda symbol: VALUE[symbol])
                        llama_row.remove(card)
                        row.append(card)
                        if not llama_row:  # D-9
                            break
                    else:  # D-8.4 bust: the whole llama row, round over
                        row.extend(llama_row)
                        llama_row.clear()
                        break
            # D-6: next seat clockwise that has not quit (maybe the same one)
            seat = next((seat + k) % n for k in range(1, n + 1) if not quit[(seat + k) % n])
        points = [score(row) for row in rows]
        self.round_points.append(points)
        self.scores = [s + p for s, p in zip(self.scores, points, strict=True)]
        return last_actor, emptied


def engine_game(num_players: int, seed: int, starting_seat: int, end_score: int) -> DiceState:
    game = DiceGame(num_players=num_players, starting_seat=starting_seat, end_score=end_score)
    bots = [make_bot("benchmark", game, seat, seed) for seat in range(num_players)]
    state = play_game(game, bots, seed).state
    assert isinstance(state, DiceState)
    assert state.is_terminal()
    return state


def chance_feed(state: DiceState) -> tuple[deque[str], deque[tuple[str, str, str]]]:
    """The dealt hands and rolls of a game, read from its history in notation."""
    game = state.game
    replay = game.new_initial_state()
    deals: deque[str] = deque()
    rolls: deque[tuple[str, str, str]] = deque()
    for player, action in state.history():
        if player == -1:
            kind, _, symbols = replay.action_to_string(action).partition(" ")
            if kind == "deal":
                deals.append(symbols)
            else:
                a, b, c = symbols.split()
                rolls.append((a, b, c))
        replay.apply_action(action, None if player == -1 else player)
    return deals, rolls


def engine_starters(state: DiceState) -> list[int]:
    """The seat that acted first after each complete deal."""
    starters = []
    after_deal = False
    n = state.game.num_players
    deals_seen = 0
    replay = state.game.new_initial_state()
    for player, action in state.history():
        if player == -1 and replay.action_to_string(action).startswith("deal"):
            deals_seen += 1
            after_deal = deals_seen % n == 0
        elif player >= 0 and after_deal:
            starters.append(player)
            after_deal = False
        replay.apply_action(action, None if player == -1 else player)
    return starters


def crosscheck(num_players: int, seed: int, starting_seat: int = 0, end_score: int = 40) -> None:
    state = engine_game(num_players, seed, starting_seat, end_score)
    deals, rolls = chance_feed(state)
    reference = Reference(num_players, deals, rolls, end_score, starting_seat)
    reference.play()
    assert reference.round_points == state.round_points
    assert reference.scores == state.scores
    assert reference.starters == engine_starters(state)
    assert not deals and not rolls, "the engine drew chance events the reference never used"


CASES = [(n, seed) for n in range(2, 7) for seed in range(6)]


@pytest.mark.parametrize(("num_players", "seed"), CASES)
def test_engine_matches_the_reference(num_players: int, seed: int) -> None:
    crosscheck(num_players, seed, starting_seat=seed % num_players)


@pytest.mark.parametrize("end_score", [1, 15, 70])
def test_engine_matches_the_reference_other_end_scores(end_score: int) -> None:
    crosscheck(4, 99, starting_seat=3, end_score=end_score)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", range(2, 7))
def test_engine_matches_the_reference_thorough(num_players: int) -> None:
    for seed in range(100, 300):
        crosscheck(num_players, seed, starting_seat=seed % num_players, end_score=30 + seed % 40)


def test_reference_scores_the_rules_example() -> None:
    assert score(list("666LL2")) == 18
    assert score([]) == 0
