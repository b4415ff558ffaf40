"""``lama replay`` of empty files and names, and record errors that count seats from 1."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

Lama = Callable[..., Result]


@pytest.fixture
def express_record(lama: Lama, tmp_path: Path) -> Path:
    path = tmp_path / "p.lamarec.json"
    result = lama(
        "play", "express", "--seats", "benchmark,benchmark", "--seed", "1", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return path


def _read_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_replay_of_an_empty_file_or_name(lama: Lama, tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("\n", encoding="utf-8")
    result = lama("replay", str(empty))
    assert result.exit_code == 2 and "the file is empty" in result.output
    result = lama("replay", "")
    assert result.exit_code == 2 and "no file name given" in result.output


def test_record_errors_count_seats_from_one(lama: Lama, express_record: Path) -> None:
    data = _read_json(express_record)
    index = next(i for i, entry in enumerate(data["actions"]) if entry["player"] == 1)
    data["actions"][index]["action"] = "fly away"
    express_record.write_text(json.dumps(data), encoding="utf-8")
    result = lama("replay", str(express_record))
    assert result.exit_code == 2
    assert f"actions[{index}] ('fly away' by seat 2, \"player\": 1)" in result.output
