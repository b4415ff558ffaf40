"""Rulings E-1 .. E-8, E-10, E-11 of docs/rules.md (windows, E-9, are in test_windows.py)."""

from __future__ import annotations

import pytest

from lamagames.core import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    IllegalActionError,
    InvalidActionError,
    ParameterError,
    make,
)
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.actions import (
    MAX_CHANCE_OUTCOMES,
    MOVE_A,
    MOVE_B,
    NUM_DISTINCT_ACTIONS,
    PASS,
    string_to_player_action,
)
from lamagames.express.board import LLAMAS_PER_PLAYER
from lamagames.express.rules import Phase

from .conftest import TINY_BOARD, Runner


def act(text: str) -> int:
    return string_to_player_action(text)


# ----------------------------------------------------------------------------- E-1
def test_e1_four_llamas_each_and_a_six_colour_die(std4: ExpressGame) -> None:
    state = std4.new_initial_state()
    assert [state.waiting_llamas(s) for s in range(4)] == [LLAMAS_PER_PLAYER] * 4
    uniform: list[tuple[int, object]] = [(c, pytest.approx(1 / 6)) for c in range(6)]
    assert state.chance_outcomes() == uniform
    assert std4.info.max_chance_outcomes == MAX_CHANCE_OUTCOMES == 6
    assert std4.info.num_distinct_actions == NUM_DISTINCT_ACTIONS == 43
    assert [state.action_to_string(c) for c in range(6)] == [
        "roll R",
        "roll O",
        "roll Y",
        "roll G",
        "roll B",
        "roll P",
    ]


def test_e1_a_car_holds_one_llama_board_needs_an_empty_car(std2: ExpressGame, run: Runner) -> None:
    # Car A3 stands on yellow's boarding space 0 (tip 5) and already carries a green llama.
    state = std2.build_state(trains={"A": 5}, cars={"A3": 1})
    run(state, "roll O")
    assert act("board A3") not in state.available_actions(0)


# ----------------------------------------------------------------------------- E-2
def test_e2_train_geometry_from_its_tip(std2: ExpressGame) -> None:
    state = std2.new_initial_state()
    assert state.train_tip(0) == 0
    # locomotive t-1, coal t-2, cars 1..5 on t-3 .. t-7 (modulo 48)
    assert state.train_spaces(0) == [47, 46, 45, 44, 43, 42, 41]
    assert [state.car_space(0, c) for c in range(1, 6)] == [45, 44, 43, 42, 41]
    assert state.train_spaces(1) == [23, 22, 21, 20, 19, 18, 17]


# ----------------------------------------------------------------------------- E-3
def test_e3_standard_board_layout(std2: ExpressGame) -> None:
    board = std2.board
    assert board.length == 48
    assert board.track == "ROYGBPGPRBOYBYOPRGORGYPBPGBRYOYBPOGRYRGPBOBORYGP"
    assert [(s.colour, s.boarding, s.exits) for s in board.stations] == [
        ("yellow", 0, (45, 46, 47)),
        ("pink", 12, (9, 10, 11)),
        ("green", 24, (21, 22, 23)),
        ("blue", 36, (33, 34, 35)),
    ]
    assert [(f.arrow, f.length, f.reboard, f.walk_back) for f in board.footpaths] == [
        (6, 3, 3, 3),
        (18, 3, 15, 3),
        (30, 3, 27, 3),
        (42, 3, 39, 3),
    ]
    roles = [board.role[s] for s in range(48) if board.role[s]]
    assert len(roles) == 4 + 12 + 4 + 4  # every special space has exactly one role


# ----------------------------------------------------------------------------- E-4
def test_e4_default_colours_by_player_count() -> None:
    assert ExpressGame(2).colours == ("yellow", "green")
    assert ExpressGame(3).colours == ("yellow", "pink", "green")
    assert ExpressGame(4).colours == ("yellow", "pink", "green", "blue")


def test_e4_seats_must_follow_clockwise_station_order() -> None:
    assert ExpressGame(3, colours=["pink", "green", "blue"]).colours == ("pink", "green", "blue")
    assert ExpressGame(3, colours=["green", "blue", "yellow"]).num_players == 3  # rotation
    with pytest.raises(ParameterError, match="clockwise"):
        ExpressGame(3, colours=["yellow", "green", "pink"])
    with pytest.raises(ParameterError, match="once"):
        ExpressGame(2, colours=["pink", "pink"])
    with pytest.raises(ParameterError, match="not a player colour"):
        ExpressGame(2, colours=["yellow", "red"])


def test_e4_turn_order_is_seat_order(std4: ExpressGame) -> None:
    state = std4.new_initial_state()
    actives = []
    for colour in [0, 1, 2, 3, 4, 5, 0, 1]:
        actives.append(state.active_player())
        state.apply_action(colour)
        while not state.is_chance_node():
            state.apply_action(state.legal_actions()[0])  # pass / move A
    assert actives == [0, 1, 2, 3, 0, 1, 2, 3]


def test_e4_inert_station_gives_no_boarding(std2: ExpressGame, run: Runner) -> None:
    # Car A1 on pink's boarding space 12 (tip 15): pink is not seated in a 2-player game.
    state = std2.build_state(trains={"A": 15, "B": 40})
    assert state.available_actions(0) == [] and state.available_actions(1) == []


# ----------------------------------------------------------------------------- E-5
def test_e5_setup_all_llamas_home_trains_at_opposite_boarding_spaces(std4: ExpressGame) -> None:
    state = std4.new_initial_state()
    assert state.is_chance_node() and state.current_player() == CHANCE_PLAYER
    assert (state.train_tip(0), state.train_tip(1)) == (0, 24)
    assert state.active_player() == 0
    later = ExpressGame(4, starting_seat=1).new_initial_state()
    assert (later.train_tip(0), later.train_tip(1)) == (12, 36)
    assert later.active_player() == 1
    three = ExpressGame(3, starting_seat=1).new_initial_state()  # opposite of pink: blue (inert)
    assert (three.train_tip(0), three.train_tip(1)) == (12, 36)


def test_e5_bad_parameters_raise_parameter_error() -> None:
    for bad in (
        {"num_players": 1},
        {"num_players": 5},
        {"starting_seat": 2},
        {"llamas_to_win": 2},
        {"turn_limit": 0},
        {"board": "nope"},
        {"board": {"track": "ROYGBP"}},
    ):
        with pytest.raises(ParameterError):
            make("express", **bad)


# ----------------------------------------------------------------------------- E-6
def test_e6_train_goes_to_next_space_of_rolled_colour(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    run(state, "roll G")  # A: 0 -> 3 (G), B: 24 -> 25 (G); both can move
    assert state.legal_actions() == [MOVE_A, MOVE_B]
    run(state, "move A")
    assert state.train_tip(0) == 3 and state.train_tip(1) == 24


def test_e6_tip_already_on_the_colour_goes_to_the_next_one(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    run(state, "roll R")  # the tip touches red space 0; the next red strictly ahead is 8
    assert state.move_distance(0) == 8
    run(state, "move A")
    assert state.train_tip(0) == 8


def test_e6_move_tip_is_where_the_tip_lands_round_the_track(
    std2: ExpressGame, run: Runner
) -> None:
    state = std2.new_initial_state()
    run(state, "roll G")  # A: 0 -> 3 (G), B: 24 -> 25 (G)
    assert [state.move_tip(t) for t in (0, 1)] == [3, 25]
    state = std2.build_state(trains={"A": 44, "B": 20})
    run(state, "roll R")  # A: red is on 0, four spaces on round the end of the track
    assert state.move_distance(0) == 4 and state.move_tip(0) == 0


def test_e6_train_blocked_by_other_train(std2: ExpressGame, run: Runner) -> None:
    # A tip 0, B tip 10 (B covers 3..9): A has 3 free spaces, the next blue (4) is too far.
    state = std2.build_state(trains={"A": 0, "B": 10})
    run(state, "roll B")
    # the only movable train moves at once: no decision, the next player rolls
    assert state.train_tip(0) == 0 and state.train_tip(1) == 12
    assert state.is_chance_node() and state.active_player() == 1
    assert state.history() == [(CHANCE_PLAYER, 4)]


def test_e6_no_push_even_when_the_target_lies_beyond(std2: ExpressGame, run: Runner) -> None:
    # A tip 0, B tip 8 (covers 1..7): one free space; green (3) lies inside B: A cannot move.
    state = std2.build_state(trains={"A": 0, "B": 8})
    run(state, "roll G")
    assert state.train_tip(0) == 0 and state.train_tip(1) == 17


# E-6 at its boundary: a train may close up to the other train's last car, never one space
# further (its locomotive would enter that car's space). A train with tip t covers the
# spaces t-7 .. t-1 (E-2), so the move of A fits when it is at most B's tip - 7 - A's tip.
def _to_the_move_choice(state: ExpressState) -> None:
    """Pass the free-action window before the move (E-9) while the roller has no choice."""
    for _ in range(10):
        if MOVE_A in state.legal_actions() or state.is_chance_node():
            return
        state.apply_action(PASS)


def test_e6_boundary_train_may_stop_right_behind_the_other_train(
    std2: ExpressGame, run: Runner
) -> None:
    # A tip 0, B tip 12 (B covers 5..11): purple is 5 spaces ahead of A, exactly its room.
    state = std2.build_state(trains={"A": 0, "B": 12})
    run(state, "roll P")
    assert state.legal_actions() == [MOVE_A, MOVE_B]
    run(state, "move A")
    assert state.train_tip(0) == 5 and state.train_tip(1) == 12
    assert state.train_spaces(0)[0] + 1 == state.train_spaces(1)[-1] == 5  # touching


def test_e6_boundary_one_space_further_would_enter_the_other_train(
    std2: ExpressGame, run: Runner
) -> None:
    # A tip 0, B tip 11 (B covers 4..10): purple 5 ahead, one more than A's 4 free spaces.
    state = std2.build_state(trains={"A": 0, "B": 11})
    run(state, "roll P")
    # A cannot move, so B must (no decision): it goes to its next purple, 11 -> 15.
    assert state.train_tip(0) == 0 and state.train_tip(1) == 15
    assert state.history() == [(CHANCE_PLAYER, 5)]


def test_e6_boundary_the_train_behind_may_close_up_too(std2: ExpressGame, run: Runner) -> None:
    # B behind A: B tip 0, A tip 12; purple is 5 ahead of B, exactly its room.
    state = std2.build_state(trains={"A": 12, "B": 0})
    run(state, "roll P")
    assert state.legal_actions() == [MOVE_A, MOVE_B]
    run(state, "move B")
    assert state.train_tip(1) == 5 and state.train_tip(0) == 12


def test_e6_boundary_exact_fit_across_the_end_of_the_track(std2: ExpressGame, run: Runner) -> None:
    # A tip 45, B tip 7 (B covers 0..6, past the end of the 48-space track): red is 3
    # ahead of A, exactly its room; A wraps round to tip 0.
    state = std2.build_state(trains={"A": 45, "B": 7})
    run(state, "roll R")
    _to_the_move_choice(state)
    assert state.legal_actions() == [MOVE_A, MOVE_B]
    run(state, "move A")
    assert state.train_tip(0) == 0 and state.train_tip(1) == 7


def test_e6_boundary_one_too_far_across_the_end_of_the_track(
    std2: ExpressGame, run: Runner
) -> None:
    # A tip 45, B tip 6 (B covers 47, 0..5): red 3 ahead of A, which has 2 free spaces.
    state = std2.build_state(trains={"A": 45, "B": 6})
    run(state, "roll R")
    _to_the_move_choice(state)
    assert state.train_tip(0) == 45 and state.train_tip(1) != 6  # B was made to move


def test_e6_both_blocked_nothing_moves(tiny2: ExpressGame, run: Runner) -> None:
    # TINY board: purple only at 7 and 17; A tip 0 and B tip 10 each have 3 free spaces.
    state = tiny2.new_initial_state()
    run(state, "roll P")
    assert state.movable_trains() == []
    assert (state.train_tip(0), state.train_tip(1)) == (0, 10)
    assert state.is_chance_node() and state.active_player() == 1


def test_e6_choice_only_for_the_active_player(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    run(state, "roll G")
    assert state.current_player() == 0 and state.acting_players() == [0]
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalActionError):
        state.apply_action(MOVE_B, 1)
    with pytest.raises(IllegalActionError):
        state.apply_action(PASS)


# ----------------------------------------------------------------------------- E-7
def test_e7_board_into_empty_car_on_own_boarding_space(std2: ExpressGame, run: Runner) -> None:
    # tip 5: car A3 on yellow's boarding space 0
    state = std2.build_state(trains={"A": 5})
    run(state, "roll O")  # pre-move window for yellow
    assert state.current_player() == 0
    assert state.legal_actions() == [PASS, act("board A3")]
    run(state, "board A3")
    assert state.car_llama(0, 3) == (0, 0)
    assert state.waiting_llamas(0) == LLAMAS_PER_PLAYER - 1


def test_e7_exit_needs_own_exit_space_and_completed_lap(std2: ExpressGame, run: Runner) -> None:
    # tip 2: cars A1, A2, A3 on 47, 46, 45 (yellow's exits); green llama in A2 cannot exit
    state = std2.build_state(trains={"A": 2}, cars={"A1": 0, "A2": 1})
    run(state, "roll O")
    assert state.available_actions(0) == [act("exit A1")]
    assert state.available_actions(1) == []  # green's llama is not on a green exit
    run(state, "exit A1")
    assert state.house_llamas(0) == 1 and state.car_llama(0, 1) is None


def test_e7_detour_only_by_opponents_to_the_front_footprint(std4: ExpressGame, run: Runner) -> None:
    # tip 9: car A1 on arrow 6 carries a green (seat 2) llama; footpath 0 holds a pink llama
    state = std4.build_state(trains={"A": 9, "B": 33}, cars={"A1": 2}, footpaths={0: [1]})
    run(state, "roll O")
    detour = act("detour A1")
    assert detour in state.available_actions(0)
    assert detour in state.available_actions(1)
    assert detour in state.available_actions(3)
    assert detour not in state.available_actions(2)  # the owner may not
    run(state, "0: detour A1")
    assert state.footpath_llamas(0) == [(1, 39), (2, 27)]  # behind the pink llama
    assert state.car_llama(0, 1) is None


def test_e7_footpath_full_no_detour(std2: ExpressGame, run: Runner) -> None:
    # footpath 0 (arrow 6) is full of green llamas; car A1 on the arrow carries green's 4th
    state = std2.build_state(trains={"A": 9, "B": 33}, cars={"A1": 1}, footpaths={0: [1, 1, 1]})
    run(state, "roll O")
    assert act("detour A1") not in state.available_actions(0)
    # green's front llama re-boards the empty car A4 on re-boarding space 3: a footprint frees
    assert state.available_actions(1) == [act("reboard A4")]
    run(state, "1: reboard A4")
    assert state.available_actions(0) == [act("detour A1")]


def test_e7_reboard_at_once_into_empty_car_of_same_train(std2: ExpressGame, run: Runner) -> None:
    # tip 9: A1 on arrow 6 with a green llama, A4 empty on re-boarding space 3
    state = std2.build_state(trains={"A": 9, "B": 33}, cars={"A1": 1})
    run(state, "roll O")
    run(state, "detour A1")
    assert state.footpath_llamas(0) == [(1, 27)]
    assert state.current_player() == 1
    assert state.legal_actions() == [PASS, act("reboard A4")]
    run(state, "reboard A4")
    assert state.car_llama(0, 4) == (1, 27)
    assert state.footpath_llamas(0) == []


def test_e7_reboard_either_train_and_the_others_move_up(std4: ExpressGame, run: Runner) -> None:
    # B car 2 empty on re-boarding space 15 (tip 19); footpath 1 holds pink then green llamas
    # (B car 5 stands on pink's boarding space 12)
    state = std4.build_state(trains={"A": 0, "B": 19}, footpaths={1: [1, 2]})
    run(state, "roll O")
    assert state.available_actions(1) == [act("board B5"), act("reboard B2")]
    assert state.available_actions(2) == []  # green is not at the front
    run(state, "1: reboard B2")
    assert state.footpath_llamas(1) == [(2, (15 - 24) % 48)]
    assert state.car_llama(1, 2) == (1, 3)


def test_e7_a_chance_missed_is_gone_once_the_train_moves(std2: ExpressGame, run: Runner) -> None:
    state = std2.build_state(trains={"A": 2, "B": 24}, cars={"A1": 0})  # A1 on exit 47
    run(state, "roll G", "pass", "move A")  # yellow lets the exit pass; A goes 2 -> 3
    assert state.car_space(0, 1) == 0
    assert act("exit A1") not in state.available_actions(0)


# ----------------------------------------------------------------------------- E-8
def test_e8_progress_counts_rides_minus_walks(std2: ExpressGame, run: Runner) -> None:
    state = std2.build_state(trains={"A": 9, "B": 33}, cars={"A1": 0})  # yellow on arrow 6
    assert state.car_llama(0, 1) == (0, 6)
    run(state, "roll O", "1: detour A1")  # green detours: walk back 6 -> 3
    assert state.footpath_llamas(0) == [(0, 3)]
    run(state, "0: reboard A4")  # A4 stands on 3
    run(state, "move A")  # orange: A 9 -> 10 (one space)
    assert state.car_llama(0, 4) == (0, 4)


def test_e8_spaces_to_go_to_the_first_exit_space_of_the_station(std4: ExpressGame) -> None:
    # Standard board: yellow (seat 0) boards at 0, exits 45..47; pink (seat 1) boards at 12,
    # exits 9..11, which it reaches with progress 45 (E-8).
    state = std4.new_initial_state()
    assert [state.spaces_to_go(0, p) for p in (0, 10, 44, 45, 47, 60)] == [45, 35, 1, 0, 0, 0]
    assert state.spaces_to_go(0, -3) == 48  # walked back right after boarding
    assert state.spaces_to_go(1, 40) == 5
    assert not state.lap_done(0, 44) and state.lap_done(0, 45) and state.lap_done(1, 46)


def test_e8_exit_refused_before_a_full_lap(tiny2: ExpressGame, run: Runner) -> None:
    # TINY board: yellow llama on footpath 0 with progress -4 re-boards at 16 (behind the
    # exits 17..19) and reaches exit 17 with progress -3 < 17: it must ride on.
    state = tiny2.build_state(trains={"A": 3, "B": 13}, footpaths={0: [(0, -4)]})
    run(state, "roll B", "reboard A5", "pass", "pass", "move A")
    assert state.car_space(0, 5) == 17
    assert state.car_llama(0, 5) == (0, -3)
    assert act("exit A5") not in state.available_actions(0)
    # control: with a completed lap the same position offers the exit
    done = tiny2.build_state(trains={"A": 3, "B": 13}, footpaths={0: [(0, 16)]})
    run(done, "roll B", "reboard A5", "pass", "pass", "move A")
    assert done.car_llama(0, 5) == (0, 17)
    assert act("exit A5") in done.available_actions(0)


def test_e8_detoured_just_after_leaving_home_cannot_exit_next_pass(
    tiny2: ExpressGame, run: Runner
) -> None:
    # Yellow boards at 0, the train moves one space onto arrow 1 and green detours the llama:
    # progress 1 - 5 = -4. (On the standard board re-boarding spaces are never behind a home,
    # so this needs the TINY board, where arrow 1 re-boards at 16.)
    state = tiny2.build_state(trains={"A": 3, "B": 13})
    run(state, "roll B", "board A1", "pass", "move A")  # green passes on B1, A 3 -> 4
    assert state.car_llama(0, 1) == (0, 1) and state.car_space(0, 1) == 1
    run(state, "pass", "detour A1", "pass", "pass")
    assert state.footpath_llamas(0) == [(0, -4)]
    # ... it re-boards at 16 and its car stops on exit 17: no exit (see the test above)
    later = tiny2.build_state(
        trains={"A": 3, "B": 13}, footpaths={0: state.footpath_llamas(0)}, houses=[0, 0]
    )
    run(later, "roll B", "reboard A5", "pass", "pass", "move A")
    assert later.car_space(0, 5) in TINY_BOARD["stations"][0]["exits"]
    assert later.car_llama(0, 5) == (0, -3)
    assert act("exit A5") not in later.available_actions(0)


# ----------------------------------------------------------------------------- E-10
def test_e10_several_exits_in_one_window_and_win_inside_it(std2: ExpressGame, run: Runner) -> None:
    # cars A1..A3 on exits 47, 46, 45 with yellow llamas; one yellow llama already home
    state = std2.build_state(trains={"A": 2}, cars={"A1": 0, "A2": 0, "A3": 0}, houses=[1, 0])
    run(state, "roll G", "exit A1", "exit A2")
    assert state.current_player() == 0 and state.house_llamas(0) == 3
    run(state, "exit A3")
    assert state.is_terminal() and state.current_player() == TERMINAL_PLAYER
    assert state.winner() == 0 and state.returns() == [1.0, 0.0]
    assert state.train_tip(0) == 2  # won inside the window before the move
    assert not state.is_truncated()
    with pytest.raises(IllegalActionError):
        state.apply_action(PASS)


def test_e10_short_game_needs_three(run: Runner) -> None:
    game = ExpressGame(2, llamas_to_win=3)
    state = game.build_state(trains={"A": 2}, cars={"A1": 0, "A2": 0}, houses=[1, 0])
    run(state, "roll G", "exit A1")
    assert not state.is_terminal()
    run(state, "exit A2")
    assert state.winner() == 0


# ----------------------------------------------------------------------------- E-11
def test_e11_turn_limit_counts_rolls_and_truncates(run: Runner) -> None:
    game = ExpressGame(2, turn_limit=2)
    state = game.new_initial_state()
    for _ in range(2):
        assert state.is_chance_node()
        run(state, "roll G")
        while not (state.is_chance_node() or state.is_terminal()):
            run(state, "move A" if state.phase() == Phase.CHOOSE else "pass")
    assert state.is_terminal() and state.is_truncated()
    assert state.winner() is None and state.returns() == [0.0, 0.0]
    assert state.rolls() == 2
    assert game.params["turn_limit"] == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("board A9", "train A has no car 9; cars are 1-5, e.g. 'board A2'"),
        ("EXIT b0", "train B has no car 0; cars are 1-5, e.g. 'exit B2'"),
        ("detour C1", "there is no train C; trains are A and B"),
        ("reboard A" + "7" * 99, "train A has no such car; cars are 1-5"),
    ],
)
def test_free_action_with_a_bad_car_says_cars_are_1_to_5(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        string_to_player_action(text)
    assert message in str(info.value)
