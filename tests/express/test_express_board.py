"""Board files, E-3 (standard board) and E-12 (custom boards and their validation)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from lamagames.core import BoardError, ParameterError, make
from lamagames.express import ExpressGame, load_board, parse_board, standard_board
from lamagames.express.material import ROLE_ARROW, ROLE_BOARDING, ROLE_EXIT, ROLE_REBOARD

from .conftest import TINY_BOARD


def standard_dict() -> dict[str, Any]:
    return copy.deepcopy(standard_board().to_dict())


def test_e3_standard_board_is_the_default_and_package_data() -> None:
    board = standard_board()
    assert ExpressGame().board == board
    assert ExpressGame(board="standard").params["board"] == "standard"
    assert board.role[0] == ROLE_BOARDING and board.role[45] == ROLE_EXIT
    assert board.role[6] == ROLE_ARROW and board.role[3] == ROLE_REBOARD
    assert board.exit_need[45] == 45 and board.exit_need[11] == 47  # pink: 12 -> 11


def test_e12_load_board_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(TINY_BOARD), encoding="utf-8")
    board = load_board(path)
    assert board.length == 20 and board.name == "tiny"
    assert parse_board(board.to_dict()) == board


def test_e12_track_as_list_or_spaced_string() -> None:
    data = standard_dict()
    spaced = "ROYGBP GPRBOY BYOPRG ORGYPB PGBRYO YBPOGR YRGPBO BORYGP"
    data["track"] = spaced
    assert parse_board(data) == standard_board()
    data["track"] = list(spaced.replace(" ", ""))
    assert parse_board(data) == standard_board()


def test_e12_custom_board_game_params_rebuild(tmp_path: Path) -> None:
    game = ExpressGame(2, board=TINY_BOARD)
    params = json.loads(json.dumps(game.params))  # JSON data
    assert isinstance(params["board"], dict)
    again = make("express", **params)
    assert isinstance(again, ExpressGame)
    assert again.board == game.board and again.params == game.params


def edit(path: str, value: Any) -> dict[str, Any]:
    data = standard_dict()
    parts = path.split(".")
    target: Any = data
    for part in parts[:-1]:
        target = target[int(part)] if part.isdigit() else target[part]
    last = parts[-1]
    if value is DELETE:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("colour_scheme", "x", r"^colour_scheme: Extra inputs"),
        ("track", "ROYGBX" * 8, r"^track: letter 5 is 'X', not a die colour"),
        ("track", ["R", "O", "Y", "G", "B", "P", "Q"] + ["R"] * 41, r"^track\.6: 'Q' is not"),
        ("track", "ROYGBR" * 8, r"^track: die colour P \(purple\) never occurs"),
        ("track", "ROYGBP" * 2, r"^track: 12 spaces; a track needs 16"),
        ("track", DELETE, r"^track: Field required"),
        ("stations.1.colour", "yellow", r"^stations\.1\.colour: 'yellow' already used"),
        ("stations.1.colour", "red", r"^stations\.1\.colour: Input should be 'yellow'"),
        ("stations.0.exits.2", 99, r"^stations\.0\.exits\.2: space 99 out of range 0\.\.47"),
        ("stations.0.exits", [45, 46], r"^stations\.0\.exits: List should have at least 3"),
        ("stations.2.boarding", "24", r"^stations\.2\.boarding: Input should be a valid integer"),
        ("stations.2.boarding", -1, r"^stations\.2\.boarding: space -1 out of range"),
        ("stations.0.exits.0", 46, r"^stations\.0\.exits\.1: space 46 already has a role"),
        (
            "arrows.0.reboard",
            0,
            r"^arrows\.0\.reboard: space 0 already has a role "
            r"\(stations\.0\.boarding\)",
        ),
        ("arrows.1.footpath", 0, r"^arrows\.1\.footpath: 0 footprints; a footpath needs 1"),
        ("arrows.1.footpath", 17, r"^arrows\.1\.footpath: 17 footprints"),
        ("arrows.3.space", 42.0, r"^arrows\.3\.space: Input should be a valid integer"),
    ],
)
def test_e12_bad_board_names_the_field(path: str, value: Any, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        parse_board(edit(path, value))


def test_e12_stations_list_needs_four() -> None:
    data = standard_dict()
    data["stations"] = data["stations"][:3]
    with pytest.raises(BoardError, match=r"^stations: List should have at least 4"):
        parse_board(data)


def test_e12_track_must_hold_both_trains_with_room_to_move() -> None:
    data = standard_dict()
    # green's boarding space 7 after yellow's: a train set up there would overlap (E-5)
    data["stations"][2] = {"colour": "green", "boarding": 7, "exits": [13, 14, 16]}
    data["stations"][1] = {"colour": "pink", "boarding": 5, "exits": [1, 2, 4]}
    with pytest.raises(BoardError, match=r"^stations: the boarding space of green \(7\) is only 7"):
        parse_board(data)
    # 16 spaces with stations 8 apart is the smallest accepted board
    small = {
        "track": "ROYGBPROYGBPROYG",
        "stations": [
            {"colour": "yellow", "boarding": 0, "exits": [13, 14, 15]},
            {"colour": "pink", "boarding": 4, "exits": [1, 2, 3]},
            {"colour": "green", "boarding": 8, "exits": [5, 6, 7]},
            {"colour": "blue", "boarding": 12, "exits": [9, 10, 11]},
        ],
    }
    assert parse_board(small).length == 16


def test_e12_file_errors(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match=r"missing\.json: cannot read the file: No such file"):
        load_board(tmp_path / "missing.json")
    with pytest.raises(BoardError, match=r": cannot read the file: it is a folder$"):
        load_board(tmp_path)
    binary = tmp_path / "board.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(BoardError, match=r"board\.bin: cannot read the file: it is not UTF-8"):
        load_board(binary)
    with_bom = tmp_path / "bom.json"
    with_bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(standard_dict()).encode())
    assert load_board(with_bom) == standard_board()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(BoardError, match="not JSON"):
        load_board(bad)
    arr = tmp_path / "arr.json"
    arr.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(BoardError, match="expected a JSON object"):
        load_board(arr)


def test_e12_bad_board_parameter_is_a_parameter_error_naming_the_field() -> None:
    with pytest.raises(ParameterError, match=r"board: arrows\.1\.footpath"):
        ExpressGame(board=edit("arrows.1.footpath", 0))


def test_e12_board_object_parameter_and_default_colours_on_custom_order() -> None:
    data = standard_dict()
    # same track, stations listed in another order and with other colours clockwise
    data["stations"][1]["colour"], data["stations"][2]["colour"] = "green", "pink"
    board = parse_board(data)
    assert [s.colour for s in board.stations] == ["yellow", "green", "pink", "blue"]
    game = ExpressGame(3, board=board)
    assert game.colours == ("yellow", "green", "pink")  # E-4 defaults, clockwise
    assert isinstance(game.params["board"], dict)
    again = make("express", **game.params)
    assert isinstance(again, ExpressGame)
    assert again.board == board
    with pytest.raises(ParameterError, match="clockwise"):
        ExpressGame(3, colours=["yellow", "pink", "green"], board=board)


def test_e3_packaged_file_loads_like_standard_board() -> None:
    import lamagames.express

    path = Path(lamagames.express.__file__).parent / "boards" / "standard.json"
    assert load_board(path) == standard_board()


@pytest.mark.parametrize("track", [12, ["R", 1], None, {"a": 1}, True])
def test_e12_track_of_the_wrong_type_says_what_a_track_is(track: Any) -> None:
    with pytest.raises(BoardError) as info:
        parse_board(edit("track", track))
    assert str(info.value) == "track: must be a string or a list of letters R O Y G B P"


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("stations", [1, 2, 3, 4], "stations.0: Input should be a JSON object"),
        ("arrows", [1], "arrows.0: Input should be a JSON object"),
        ("arrows", "x", "arrows: Input should be a valid list"),
    ],
)
def test_e12_nested_shapes_name_no_python_class(path: str, value: Any, message: str) -> None:
    with pytest.raises(BoardError) as info:
        parse_board(edit(path, value))
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("space", "reboard", "ahead"), [(6, 7, "1 space"), (6, 29, "23 spaces"), (42, 1, "7 spaces")]
)
def test_e12_a_footpath_leads_back(space: int, reboard: int, ahead: str) -> None:
    """E-3, E-7: the re-boarding space lies behind the arrow (walk back 1..N/2 spaces)."""
    data = standard_dict()
    data["arrows"] = [{"space": space, "footpath": 3, "reboard": reboard}]
    with pytest.raises(BoardError) as info:
        parse_board(data)
    assert str(info.value).startswith(
        f"arrows.0.reboard: space {reboard} is {ahead} ahead of the arrow (space {space}); "
        "a footpath leads back: the re-boarding space must be 1..24 spaces behind"
    )
    data["arrows"] = [{"space": 30, "footpath": 3, "reboard": 6}]  # 24 back: half the track
    assert parse_board(data).footpaths[0].walk_back == 24


def test_e12_track_type_is_reported_first() -> None:
    """The QA case: a track of the wrong type in an otherwise incomplete file."""
    with pytest.raises(BoardError, match=r"^track: must be a string or a list of letters"):
        parse_board({"track": ["R", 1], "stations": []})
