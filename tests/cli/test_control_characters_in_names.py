"""Seat names with control characters (terminal escapes) are refused in records and in
``--names``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from lamagames.core import RecordError, make
from lamagames.core.records import parse_record

Lama = Callable[..., Result]


def test_record_names_with_terminal_escapes_are_refused(tmp_path: Path) -> None:
    game = make("dice", num_players=2)
    text = json.dumps({
        "format": "lamagames-record", "format_version": 1, "game": "dice",
        "params": game.params, "seed": None,
        "seats": [{"name": "Ev\u001b]0;pwned\u0007il", "kind": "human"},
                  {"name": "Bob", "kind": "random"}],
        "actions": [],
    })  # fmt: skip
    with pytest.raises(RecordError, match="control character 0x1b"):
        parse_record(text)


def test_names_option_refuses_control_characters(lama: Lama) -> None:
    result = lama("play", "dice", "--seats", "benchmark,random", "--names", "Ev\u001b[2Jil,Bob")
    assert result.exit_code == 2
    assert "control character 0x1b" in result.output
