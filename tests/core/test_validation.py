"""Messages of the JSON file checks: locations without pydantic internals."""

from __future__ import annotations

import json

import pytest

from lamagames.core.errors import RecordError
from lamagames.core.records import parse_record
from lamagames.core.validation import error_location

RECORD = {
    "format": "lamagames-record", "format_version": 1, "game": "dice",
    "params": {"num_players": 2}, "seats": [{"name": "A", "kind": "random"}] * 2,
    "actions": [],
}  # fmt: skip


def test_error_locations_drop_union_members() -> None:
    assert error_location(("track", "str")) == ("track",)
    assert error_location(("track", "list[str]", 1)) == ("track", 1)
    assert error_location(("seats", 0, "name")) == ("seats", 0, "name")
    assert error_location(("a", "function-after[check(), str]")) == ("a",)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("seats", [5, 5], "seats.0: Input should be a JSON object"),
        ("actions", ["roll"], "actions.0: Input should be a JSON object"),
        ("result", [1], "result: Input should be a JSON object"),
    ],
)
def test_record_nested_shapes_name_no_python_class(field: str, value: object, message: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(json.dumps({**RECORD, field: value}))
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("actions", [{"player": True, "action": "deal 11235L"}], "actions.0.player: Input should"),
        ("actions", [{"player": "0", "action": "roll"}], "actions.0.player: Input should"),
        ("actions", [{"player": 1.0, "action": "roll"}], "actions.0.player: Input should"),
        ("seed", "7", "seed: Input should be a valid integer"),
        ("seed", True, "seed: Input should be a valid integer"),
        ("game_index", False, "game_index: Input should be a valid integer"),
        ("result", {"terminal": 1, "returns": [1, 0]}, "result.terminal: Input should"),
        ("result", {"terminal": True, "returns": [True, 0]}, "result.returns.0: Input should"),
        ("seats", [{"name": 5, "kind": "random"}] * 2, "seats.0.name: Input should"),
    ],
)
def test_records_are_strict(field: str, value: object, message: str) -> None:
    """Records are as strict as board files: no bool for an int, no text for a number."""
    with pytest.raises(RecordError) as info:
        parse_record(json.dumps({**RECORD, field: value}))
    assert str(info.value).startswith(message)


def test_strict_records_still_take_integers_for_returns() -> None:
    data = {**RECORD, "result": {"terminal": True, "returns": [1, 0.5]}, "seed": 3}
    assert parse_record(json.dumps(data)).result is not None
