"""``lama board show`` and ``lama board validate`` (E-3, E-12)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from lamagames.cli.main import app
from lamagames.express import standard_board

Lama = Callable[..., Result]


def standard_dict() -> dict[str, Any]:
    """The standard board in file form."""
    return standard_board().to_dict()


def write(path: Path, data: Any) -> Path:
    """Write JSON (or raw text) to ``path``."""
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_show_draws_the_standard_board(lama: Lama) -> None:
    result = lama("board", "show")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("R@  0 O   1 Y   2 G<  3")  # colours, roles, indices
    out = result.stdout
    assert "Board 'standard': 48 spaces" in out
    for row in ("yellow   @0        x 45 46 47", "^6      3 footprints   <3 (3 back)"):
        assert row in out
    assert "->3" in out and "<-6" in out  # the arrow and its re-boarding space on the ring
    assert "yel" in lines[1] and "pin" in lines[1]
    assert max(len(line) for line in lines) <= 80


def test_show_a_board_file_and_a_narrow_terminal(lama: Lama, tmp_path: Path) -> None:
    data = standard_dict()
    data["name"] = "mine"
    data["track"] = data["track"] * 2  # 96 spaces: a ring too wide for 60 columns
    file = write(tmp_path / "mine.json", data)
    wide = lama("board", "show", str(file))
    assert wide.exit_code == 0, wide.output
    assert "Board 'mine': 96 spaces" in wide.stdout
    narrow = CliRunner().invoke(app, ["board", "show", str(file)], env={"COLUMNS": "60"})
    assert narrow.exit_code == 0, narrow.output
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60
    assert "R@  0" in narrow.stdout and "P  95" in narrow.stdout


def test_validate_accepts_a_good_file(lama: Lama, tmp_path: Path) -> None:
    file = write(tmp_path / "good.json", standard_dict())
    result = lama("board", "validate", str(file))
    assert result.exit_code == 0, result.output
    assert "Valid board" in result.stdout
    assert "48 spaces, 4 stations, 4 white arrows" in result.stdout


def _broken(**changes: Any) -> dict[str, Any]:
    data = standard_dict()
    for key, value in changes.items():
        data[key] = value
    return data


def _with_arrow_footpath(footpath: Any) -> dict[str, Any]:
    data = standard_dict()
    data["arrows"][0]["footpath"] = footpath
    return data


def _with_boarding(value: Any) -> dict[str, Any]:
    data = standard_dict()
    data["stations"][1]["boarding"] = value
    return data


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "expected a JSON object"),
        (_with_arrow_footpath(0), "arrows.0.footpath: 0 footprints"),
        (_with_arrow_footpath("three"), "arrows.0.footpath"),
        (_with_boarding("twelve"), "stations.1.boarding"),
        (_with_boarding(45), "stations.1.boarding: space 45 already has a role"),
        (_with_boarding(99), "stations.1.boarding: space 99 out of range"),
        (_broken(track="ROYGB" * 10), "track: die colour P (purple) never occurs"),
        (_broken(track="ROYGBX" * 8), "track: letter 5 is 'X'"),
        (_broken(colour="red"), "colour"),
        ({"track": "ROYGBP" * 8}, "stations"),
    ],
)
def test_validate_names_the_field_and_exits_2(
    lama: Lama, tmp_path: Path, content: Any, expected: str
) -> None:
    file = write(tmp_path / "bad.json", content)
    result = lama("board", "validate", str(file))
    assert result.exit_code == 2, result.output
    assert expected in result.output
    assert "Traceback" not in result.output
    shown = lama("board", "show", str(file))
    assert shown.exit_code == 2 and expected in shown.output


def test_unreadable_board_files_match_the_record_messages(lama: Lama, tmp_path: Path) -> None:
    """Board and record files that cannot be read give the same ``Error: FILE: reason``."""
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x00\xff\xfe\x80 not text")
    cases = [
        (tmp_path / "nothing.json", "cannot read the file: No such file or directory"),
        (tmp_path, "cannot read the file: it is a folder"),
        (binary, "cannot read the file: it is not UTF-8 text"),
    ]
    for target, reason in cases:
        for args in (
            ["board", "validate", str(target)],
            ["board", "show", str(target)],
            ["play", "express", "--seats", "random,random", "--quiet", "--board", str(target)],
            ["replay", str(target)],
        ):
            result = lama(*args)
            assert result.exit_code == 2, (args, result.output)
            assert f"Error: {target}: {reason}" in " ".join(result.output.split()), (
                args,
                result.output,
            )
            assert "Traceback" not in result.output and "Invalid value" not in result.output


def test_board_file_with_a_byte_order_mark_is_read(lama: Lama, tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(standard_dict()).encode())
    result = lama("board", "validate", str(path))
    assert result.exit_code == 0, result.output


def test_board_help(lama: Lama) -> None:
    result = lama("board")
    assert "show" in result.output and "validate" in result.output


def test_show_json_writes_a_board_file_to_start_from(lama: Lama, tmp_path: Path) -> None:
    """The README's first step: lama board show --json > my.json gives a valid board file."""
    result = lama("board", "show", "--json")
    assert result.exit_code == 0, result.output
    path = tmp_path / "my.json"
    path.write_text(result.stdout, encoding="utf-8")
    assert json.loads(result.stdout) == standard_board().to_dict()
    assert lama("board", "validate", str(path)).exit_code == 0
    again = lama("board", "show", "--json", str(path))
    assert again.exit_code == 0 and again.stdout == result.stdout


def test_summary_counts_are_in_number(lama: Lama, tmp_path: Path) -> None:
    data = standard_dict()
    data["arrows"] = [{"space": 6, "footpath": 1, "reboard": 3}]
    file = write(tmp_path / "one.json", data)
    result = lama("board", "validate", str(file))
    assert result.exit_code == 0, result.output
    assert "48 spaces, 4 stations, 1 white arrow." in result.stdout
    assert "^6 -> <3 (1 footprint)" in result.stdout
