"""LAMA Dice game records: exact replay, and malformed or tampered records refused with a
:class:`RecordError` that names the bad entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lamagames.bots.base import make_bot
from lamagames.core.errors import RecordError
from lamagames.core.records import (
    load_record,
    parse_record,
    record_from_state,
    replay,
    save_record,
)
from lamagames.dice import DiceGame
from lamagames.dice.state import DiceState
from lamagames.sim.runner import play_game

SEED = 2024


def played(num_players: int = 3, kind: str = "benchmark", seed: int = SEED) -> DiceState:
    game = DiceGame(num_players=num_players)
    bots = [make_bot(kind, game, seat, seed) for seat in range(num_players)]
    state = play_game(game, bots, seed).state
    assert isinstance(state, DiceState)
    return state


@pytest.fixture(scope="module")
def final_state() -> DiceState:
    return played()


@pytest.fixture
def data(final_state: DiceState) -> dict[str, Any]:
    seats = [(f"bot{i}", "benchmark") for i in range(final_state.game.num_players)]
    record = record_from_state(final_state, seats, seed=SEED)
    result: dict[str, Any] = json.loads(record.to_json())
    return result


def first_index(data: dict[str, Any], *, chance: bool, prefix: str = "") -> int:
    return next(
        i
        for i, entry in enumerate(data["actions"])
        if (entry["player"] == -1) == chance and entry["action"].startswith(prefix)
    )


def replay_text(text: str) -> DiceState:
    state = replay(parse_record(text))
    assert isinstance(state, DiceState)
    return state


# ------------------------------------------------------------------------------ good records


@pytest.mark.parametrize(("num_players", "kind"), [(2, "random"), (4, "benchmark"), (6, "random")])
def test_record_replays_exactly(num_players: int, kind: str) -> None:
    state = played(num_players, kind)
    assert state.is_terminal()
    seats = [("a", kind)] * num_players
    record = record_from_state(state, seats, seed=SEED)
    again = replay_text(record.to_json())
    assert again == state
    assert again.to_dict() == state.to_dict()
    assert again.returns() == state.returns()


def test_record_of_an_unfinished_game_replays(final_state: DiceState) -> None:
    game = final_state.game
    state = game.new_initial_state()
    for _, action in final_state.history()[:40]:
        state.apply_action(action)
    record = record_from_state(state, [("a", "human")] * 3)
    assert record.result is not None and record.result.terminal is False
    assert replay_text(record.to_json()) == state


def test_record_file_round_trip(final_state: DiceState, tmp_path: Path) -> None:
    record = record_from_state(final_state, [("a", "benchmark")] * 3, seed=SEED)
    path = tmp_path / "game.lamarec.json"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded.actions == record.actions
    assert replay(loaded) == final_state


def test_record_needs_one_seat_per_player(final_state: DiceState) -> None:
    with pytest.raises(RecordError, match="2 seats"):
        record_from_state(final_state, [("a", "human")] * 2)


# ------------------------------------------------------------------------------ malformed


@pytest.mark.parametrize("text", ["", "{", "not json", '{"format": '])
def test_bad_json(text: str) -> None:
    with pytest.raises(RecordError, match="not JSON") as info:
        parse_record(text)
    assert info.value.index is None


@pytest.mark.parametrize(
    "text", ["[]", "3", "null", '"record"', "{}", '{"game": "dice", "seats": [1]}', '{"format": 1}']
)
def test_json_that_is_not_a_record(text: str) -> None:
    with pytest.raises(RecordError, match=r"^not a lamagames game record: ") as info:
        parse_record(text)
    assert info.value.index is None


def test_the_format_field_is_checked_first(data: dict[str, Any]) -> None:
    del data["format"]
    data["seats"] = "broken too"
    with pytest.raises(RecordError, match='it has no "format" field'):
        parse_record(json.dumps(data))
    data["format"] = "lamagames-summary"
    with pytest.raises(RecordError, match='"format" is "lamagames-summary", expected'):
        parse_record(json.dumps(data))


@pytest.mark.parametrize(
    ("field", "value"),
    [("format_version", 2), ("format_version", "1"), ("format", "lamagames-rec")],
)
def test_wrong_format(data: dict[str, Any], field: str, value: Any) -> None:
    data[field] = value
    with pytest.raises(RecordError, match=field) as info:
        parse_record(json.dumps(data))
    assert info.value.index is None


def test_unknown_top_level_field(data: dict[str, Any]) -> None:
    data["comment"] = "hand edited"
    with pytest.raises(RecordError, match="comment") as info:
        parse_record(json.dumps(data))
    assert info.value.index is None


@pytest.mark.parametrize("missing", ["game", "params", "seats", "actions"])
def test_missing_field(data: dict[str, Any], missing: str) -> None:
    del data[missing]
    with pytest.raises(RecordError, match=missing):
        parse_record(json.dumps(data))


@pytest.mark.parametrize(
    ("entry", "fragment"),
    [
        ({"player": 0, "action": "roll", "note": "x"}, "note"),
        ({"player": 0}, "action"),
        ({"player": "zero", "action": "roll"}, "player"),
        ({"player": -2, "action": "roll"}, "player"),
        ({"player": 0, "action": ""}, "action"),
        ({"player": 0, "action": 5}, "action"),
    ],
)
def test_malformed_action_entry_names_its_index(
    data: dict[str, Any], entry: dict[str, Any], fragment: str
) -> None:
    k = 7
    data["actions"][k] = entry
    with pytest.raises(RecordError, match=fragment) as info:
        parse_record(json.dumps(data))
    assert info.value.index == k
    assert f"actions.{k}" in str(info.value)


# ------------------------------------------------------------------------------ tampered play


def assert_replay_fails_at(data: dict[str, Any], k: int, fragment: str = "") -> RecordError:
    record = parse_record(json.dumps(data))  # the shape is fine
    with pytest.raises(RecordError) as info:
        replay(record)
    error = info.value
    assert error.index == k
    assert f"actions[{k}]" in str(error)
    assert fragment in str(error)
    return error


def test_illegal_action_at_index_k(data: dict[str, Any]) -> None:
    k = first_index(data, chance=False, prefix="roll")
    data["actions"][k]["action"] = "give black"
    assert_replay_fails_at(data, k, "'give black' is not legal")


def test_unparsable_action_at_index_k(data: dict[str, Any]) -> None:
    k = first_index(data, chance=False, prefix="discard")
    data["actions"][k]["action"] = "discard everything"
    assert_replay_fails_at(data, k, "discard everything")


def test_action_by_the_wrong_seat_at_index_k(data: dict[str, Any]) -> None:
    k = first_index(data, chance=False, prefix="roll")
    data["actions"][k]["player"] = (data["actions"][k]["player"] + 1) % 3
    assert_replay_fails_at(data, k, "roll")


def test_action_by_no_such_seat_at_index_k(data: dict[str, Any]) -> None:
    k = first_index(data, chance=False)
    data["actions"][k]["player"] = 3
    assert_replay_fails_at(data, k, "no such seat")


def test_impossible_dice_at_index_k(data: dict[str, Any]) -> None:
    k = first_index(data, chance=True, prefix="dice")
    data["actions"][k]["action"] = "dice 1 1 1"  # die A has no 1 (D-1)
    assert_replay_fails_at(data, k, "dice 1 1 1")


def test_impossible_deal_at_index_k(data: dict[str, Any]) -> None:
    data["actions"][0]["action"] = "deal 111111"  # only five 1s in the deck (D-3)
    assert_replay_fails_at(data, 0, "deal 111111")


def test_chance_entry_where_a_seat_acts(data: dict[str, Any]) -> None:
    k = first_index(data, chance=False)
    data["actions"][k]["player"] = -1
    assert_replay_fails_at(data, k, "not chance")


def test_seat_entry_where_chance_acts(data: dict[str, Any]) -> None:
    k = first_index(data, chance=True, prefix="dice")
    data["actions"][k]["player"] = 0
    assert_replay_fails_at(data, k, "chance outcome")


def test_action_after_the_end(data: dict[str, Any]) -> None:
    k = len(data["actions"])
    data["actions"].append({"player": 0, "action": "roll"})
    assert_replay_fails_at(data, k, "already over")


def test_dropped_action_changes_play(data: dict[str, Any]) -> None:
    k = first_index(data, chance=False, prefix="roll")
    del data["actions"][k]  # the dice that followed the roll now come at a seat's turn
    assert_replay_fails_at(data, k, "not chance")


# ------------------------------------------------------------------------------ header, result


def test_result_returns_not_matching(data: dict[str, Any]) -> None:
    data["result"]["returns"] = [1.0 - r for r in data["result"]["returns"]]
    record = parse_record(json.dumps(data))
    with pytest.raises(RecordError, match="returns") as info:
        replay(record)
    assert info.value.index is None


def test_result_terminal_not_matching(data: dict[str, Any]) -> None:
    del data["actions"][-1]
    record = parse_record(json.dumps(data))
    with pytest.raises(RecordError, match="terminal"):
        replay(record)


@pytest.mark.parametrize(
    ("params", "fragment"),
    [({"num_players": 9}, "num_players"), ({"dice": ["LL3456"]}, "dice"), ({"bogus": 1}, "bogus")],
)
def test_bad_header_parameters(data: dict[str, Any], params: dict[str, Any], fragment: str) -> None:
    data["params"].update(params)
    record = parse_record(json.dumps(data))
    with pytest.raises(RecordError, match=fragment) as info:
        replay(record)
    assert info.value.index is None
    assert "header" in str(info.value)


def test_unknown_game(data: dict[str, Any]) -> None:
    data["game"] = "chess"
    with pytest.raises(RecordError, match="chess"):
        replay(parse_record(json.dumps(data)))


def test_seat_count_not_matching(data: dict[str, Any]) -> None:
    data["seats"].append({"name": "extra", "kind": "human"})
    with pytest.raises(RecordError, match="4 seats"):
        replay(parse_record(json.dumps(data)))


def test_load_record_replays_and_reports_the_index(data: dict[str, Any], tmp_path: Path) -> None:
    k = first_index(data, chance=False, prefix="roll")
    data["actions"][k]["action"] = "take 4"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert info.value.index == k
    assert str(info.value).startswith(f"{path}: actions[{k}]")
    with pytest.raises(RecordError, match=r"missing\.json: cannot read the file: No such file"):
        load_record(tmp_path / "missing.json")
    with pytest.raises(RecordError, match=r": cannot read the file: it is a folder$"):
        load_record(tmp_path)


def test_record_with_a_byte_order_mark_is_read(data: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "bom.lamarec.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode("utf-8"))
    assert load_record(path).actions == parse_record(json.dumps(data)).actions
    assert parse_record("\ufeff" + json.dumps(data)).seed == data["seed"]


def test_unknown_parameter_in_the_header_is_named(data: dict[str, Any]) -> None:
    data["params"]["bogus"] = 1
    with pytest.raises(RecordError) as info:
        replay(parse_record(json.dumps(data)))
    assert str(info.value) == (
        "record header: unknown parameter 'bogus' for LAMA Dice; "
        "known: num_players, dice, end_score, starting_seat"
    )
