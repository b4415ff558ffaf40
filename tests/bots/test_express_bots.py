"""The Lama Express bots against the rules text (docs/rules.md E-6 .. E-10): in hand-built
positions a bot is offered, and takes, exactly what the ruling gives; and seeded bot games
have golden outcomes and traces.

Each rule primitive the bots' games go through has a test here that fails when it is broken
(``movable``, ``lap_need`` / ``lap_to_go``, ``detour_progress``, ``next_asked``,
``has_won``): the values below come from the rules text and the board files, not from the
primitives.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from lamagames.bots.base import make_bot
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.actions import MOVE_A, MOVE_B, PASS, string_to_player_action
from lamagames.express.board import parse_board
from lamagames.express.rules import Phase
from lamagames.sim.runner import play_game

#: A 20-space test board (E-12): yellow boards at 0 and gets off at 17..19; arrow 1 sends a
#: llama back to re-boarding space 16, behind yellow's exits, so the walk back (E-8) decides
#: whether a detoured llama may get off; arrow 11 re-boards at 6.
TINY_BOARD: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "tiny_board.json").read_text("utf-8")
)


def act(text: str) -> int:
    return string_to_player_action(text)


def run(state: ExpressState, *steps: str) -> None:
    """Apply steps in notation (``"roll R"``, ``"move A"``, ``"pass"``) for the seat asked."""
    for step in steps:
        state.apply_action(state.string_to_action(step))


def pass_window(state: ExpressState) -> None:
    """Every seat asked lets the open window pass (E-9), if one is open."""
    while state.phase() == Phase.WINDOW:
        state.apply_action(PASS, state.current_player())


def bot_window(state: ExpressState, kinds: dict[int, str], game: ExpressGame) -> list[str]:
    """Let the bots of ``kinds`` (seat: kind) answer the open window until it closes;
    returns ``"seat: action"`` for each answer, in order."""
    bots = {seat: make_bot(kind, game, seat, 1) for seat, kind in kinds.items()}
    answers = []
    while state.phase() == Phase.WINDOW:
        seat = state.current_player()
        action = bots[seat].step(state)
        answers.append(f"{seat}: {state.action_to_string(action, seat)}")
        state.apply_action(action, seat)
    return answers


# ------------------------------------------------------------------------------ E-6
@pytest.mark.parametrize("kind", ["benchmark", "heuristic"])
def test_e6_a_train_may_close_up_exactly_so_the_bot_chooses(kind: str) -> None:
    # E-2: B with tip 7 covers 0..6; A with tip 44 has the 4 spaces 44..47 free. Red is on 0,
    # 4 ahead of A: exactly its room, so A may move (E-6, no pushing) and B too (red on 8):
    # the active player chooses.
    game = ExpressGame(num_players=2)
    state = game.build_state(trains={"A": 44, "B": 7})
    run(state, "roll R")
    pass_window(state)  # B5 stands on yellow's boarding space 0
    assert state.phase() == Phase.CHOOSE
    bot = make_bot(kind, game, 0, 3)
    assert state.legal_actions(0) == [MOVE_A, MOVE_B]
    assert bot.step(state) in (MOVE_A, MOVE_B)


def test_e6_one_space_too_far_and_the_bot_is_not_asked() -> None:
    # B with tip 6 covers 47, 0..5: A with tip 44 has 3 free spaces and red is 4 ahead, so
    # only B can move and it must (E-6): no bot is asked, B goes on to red 8.
    game = ExpressGame(num_players=2)
    state = game.build_state(trains={"A": 44, "B": 6})
    run(state, "roll R")
    pass_window(state)  # B4 stands on yellow's boarding space 0
    assert state.phase() != Phase.CHOOSE
    assert (state.train_tip(0), state.train_tip(1)) == (44, 8)


# ------------------------------------------------------------------------------ E-8
def test_e8_heuristic_rides_its_llama_onto_its_exit_and_gets_off() -> None:
    # Yellow boards at 0, exits 45..47: its llama in A1 (tip 44: A1 on 41) has ridden 41
    # spaces; red moves A 4 spaces (its exact room, B covers 0..6), A1 stops on exit 45
    # with progress 45, the distance from 0 to 45: once round (E-8), so it may get off.
    game = ExpressGame(num_players=2)
    state = game.build_state(trains={"A": 44, "B": 7}, cars={"A1": (0, 41)})
    run(state, "roll R")
    pass_window(state)  # B5 stands on yellow's boarding space 0
    bot = make_bot("heuristic", game, 0)
    assert bot.step(state) == MOVE_A
    state.apply_action(MOVE_A)
    assert state.car_space(0, 1) == 45
    assert act("exit A1") in state.legal_actions(0)
    assert bot.step(state) == act("exit A1")


@pytest.mark.parametrize("kind", ["benchmark", "heuristic"])
def test_e8_the_exit_needs_the_distance_from_home_to_the_exit_space(kind: str) -> None:
    # A tip 1: A1 on 46 (E-2), yellow's middle exit, 46 spaces on from its boarding space 0.
    # With progress 46 the llama has been once round (E-8) and its bot gets it off; with -2
    # (the same place, a lap less: walked back behind home) it has not, and is not offered
    # the exit.
    game = ExpressGame(num_players=2)
    for progress, offered in ((46, True), (-2, False)):
        state = game.build_state(trains={"A": 1, "B": 20}, cars={"A1": (0, progress)})
        run(state, "roll O")
        legal = state.legal_actions(0) if state.phase() == Phase.WINDOW else []
        assert (act("exit A1") in legal) is offered
        assert state.spaces_to_go(0, progress) == (0 if offered else 47)
        if offered:
            assert make_bot(kind, game, 0).step(state) == act("exit A1")


def test_e8_a_llama_detoured_after_leaving_home_is_not_let_off_on_the_next_pass() -> None:
    # TINY board (E-8's own example): yellow boards A1 at 0, A moves one space onto arrow 1,
    # and green's heuristic bot detours it (walk back 1 -> 16: 5 spaces): progress
    # 1 - 5 = -4. (Yellow's other three llamas are home, so it has nothing else to do.) It
    # re-boards A5 at 16 and A moves on to 17, yellow's first exit, which needs 17: its
    # progress is -3, so no exit is offered.
    game = ExpressGame(num_players=2, board=parse_board(TINY_BOARD))
    state = game.build_state(trains={"A": 3, "B": 13}, houses=[3, 0])
    run(state, "roll B", "board A1", "pass", "move A")  # A 3 -> 4: A1 on arrow 1
    # green detours (first), then boards B1 on its boarding space 10 (E-7, E-9)
    assert bot_window(state, {0: "benchmark", 1: "heuristic"}, game) == [
        "1: detour A1",
        "1: board B1",
    ]
    assert state.footpath_llamas(0) == [(0, -4)]
    later = game.build_state(
        trains={"A": 3, "B": 13}, footpaths={0: state.footpath_llamas(0)}, houses=[3, 0]
    )
    run(later, "roll B")
    assert bot_window(later, {0: "benchmark", 1: "benchmark"}, game) == [
        "0: reboard A5",
        "1: board B1",
    ]
    run(later, "move A")
    assert later.car_space(0, 5) == 17 and later.car_llama(0, 5) == (0, -3)
    assert act("exit A5") not in later.available_actions(0)
    assert later.spaces_to_go(0, -3) == 20
    # with the lap done (progress 16 on the footpath) the same ride ends with an exit
    done = game.build_state(trains={"A": 3, "B": 13}, footpaths={0: [(0, 16)]}, houses=[3, 0])
    run(done, "roll B", "reboard A5", "pass", "move A")
    assert make_bot("heuristic", game, 0).step(done) == act("exit A5")


# ------------------------------------------------------------------------------ E-9
def test_e9_the_window_asks_in_turn_order_from_the_active_player() -> None:
    # Four seats, blue (3) active. After its orange roll (train B 9 -> 10 would come next)
    # A1 (green llama, seat 2) and B1 (pink llama, seat 1) stand on arrows 42 and 6: every
    # seat but the owner may detour them. Asked in turn order from the active seat: 3, 0,
    # 1, 2; after each action the asking goes on with the next seat (E-9).
    game = ExpressGame(num_players=4)
    state = game.build_state(trains={"A": 45, "B": 9}, cars={"A1": 2, "B1": 1}, active=3)
    run(state, "roll O")
    answers = bot_window(state, dict.fromkeys(range(4), "benchmark"), game)
    # 3 detours B1 (footpath 0 comes first: pink's llama to re-boarding space 3, where B4
    # stands empty), 0 detours A1 (green's llama to 39, where A4 stands empty), then pink
    # (1) and green (2) re-board, each the front llama of its footpath; nobody has anything
    # left and the window closes.
    assert answers == ["3: detour B1", "0: detour A1", "1: reboard B4", "2: reboard A4"]


# ----------------------------------------------------------------------------- E-10
@pytest.mark.parametrize("kind", ["benchmark", "heuristic"])
def test_e10_the_bot_that_gets_its_last_llama_off_wins_at_once(kind: str) -> None:
    # Yellow has three llamas home; its fourth in A1 on exit 47 with its lap done: getting
    # off wins the game at once (E-10), nobody is asked any more.
    game = ExpressGame(num_players=2)
    state = game.build_state(trains={"A": 2, "B": 20}, cars={"A1": 0}, houses=[3, 0])
    run(state, "roll G")
    bot = make_bot(kind, game, 0)
    assert bot.step(state) == act("exit A1")
    state.apply_action(act("exit A1"))
    assert state.is_terminal() and state.winner() == 0 and state.house_llamas(0) == 4


def test_e10_the_short_game_ends_with_three_llamas_home() -> None:
    game = ExpressGame(num_players=2, llamas_to_win=3)
    state = game.build_state(trains={"A": 2, "B": 20}, cars={"A1": 0}, houses=[2, 0])
    run(state, "roll G")
    state.apply_action(make_bot("heuristic", game, 0).step(state))
    assert state.is_terminal() and state.winner() == 0
    not_yet = ExpressGame(num_players=2).build_state(
        trains={"A": 2, "B": 20}, cars={"A1": 0}, houses=[2, 0]
    )
    run(not_yet, "roll G")
    not_yet.apply_action(make_bot("heuristic", not_yet.game, 0).step(not_yet))
    assert not not_yet.is_terminal() and not_yet.house_llamas(0) == 3


# ----------------------------------------------------------------- golden bot games
def _trace(state: ExpressState) -> str:
    text = ",".join(f"{p}:{a}" for p, a in state.history())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


GOLDEN = [
    # (board, seats, seed, llamas_to_win, winner, rolls, houses, trace)
    ("standard", ("heuristic", "benchmark"), 5, 4, 0, 66, [4, 2], "e9ff9c9c9b5cef2a"),
    ("standard", ("benchmark", "heuristic", "random"), 8, 4, 1, 79, [0, 4, 1], "5430df87ac9c2d4e"),
    ("tiny", ("heuristic", "heuristic"), 2, 3, 0, 41, [3, 2], "2e36d58bed5bae02"),
]


@pytest.mark.parametrize(
    ("board", "seats", "seed", "to_win", "winner", "rolls", "houses", "trace"), GOLDEN
)
def test_golden_bot_games(
    board: str,
    seats: tuple[str, ...],
    seed: int,
    to_win: int,
    winner: int,
    rolls: int,
    houses: list[int],
    trace: str,
) -> None:
    """Seeded bot games end as they always did: winner, die rolls, houses and a hash of
    every action. Any change of a ruling's primitive changes one of them."""
    options: dict[str, Any] = {"turn_limit": 2000, "llamas_to_win": to_win}
    if board == "tiny":
        options["board"] = parse_board(TINY_BOARD)
    game = ExpressGame(num_players=len(seats), **options)
    bots = [make_bot(kind, game, s, seed) for s, kind in enumerate(seats)]
    state = play_game(game, bots, seed).state
    assert isinstance(state, ExpressState)
    got = (
        state.winner(),
        state.rolls(),
        [state.house_llamas(s) for s in range(len(seats))],
        _trace(state),
    )
    assert got == (winner, rolls, houses, trace)
