"""The Lama Express web view carries what the browser draws without rule logic of its own
(issue 17): each llama's spaces still to ride (``to_go``, E-8) and, when a train must be
chosen, where each train's tip and locomotive would land (E-6, E-2)."""

from __future__ import annotations

from lamagames.express import ExpressGame
from lamagames.web.express import ExpressWebAdapter


def test_move_preview_where_each_train_would_land_e6_e2() -> None:
    # Standard board (E-3), A tip 44, B tip 20: the next red spaces are 0 (4 ahead of A,
    # round the end of the track) and 27 (7 ahead of B); the locomotive stands one space
    # behind the tip (E-2).
    state = ExpressGame(num_players=2).build_state(trains={"A": 44, "B": 20})
    state.apply_action(state.string_to_action("roll R"))
    while state.phase().label == "window":
        state.apply_action(state.string_to_action("pass"))
    moves = ExpressWebAdapter().view(state, 0)["moves"]
    assert moves == [
        {"train": "A", "distance": 4, "tip": 0, "locomotive": 47},
        {"train": "B", "distance": 7, "tip": 27, "locomotive": 26},
    ]


def test_to_go_is_the_ride_left_to_the_first_exit_space_e8() -> None:
    # A tip 10: A1 on space 7, A2 on 6 (E-2). Yellow boards at 0 and first gets off at 45:
    # its llama in A1, with the first-lap progress 7, has 38 to go. Green boards at 24 and
    # first gets off at 21, 45 on: its llama in A2 has come 30 (24 -> 6) and has 15 to go.
    game = ExpressGame(num_players=2)
    state = game.build_state(trains={"A": 10, "B": 30}, cars={"A1": 0, "A2": 1})
    cars = ExpressWebAdapter().view(state, None)["trains"][0]["cars"]
    assert [cars[0]["llama"]["to_go"], cars[1]["llama"]["to_go"]] == [38, 15]
