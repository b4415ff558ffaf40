"""``--summary-json``: complete and interrupted batches, and a game with a person."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from lamagames.sim.runner import play_game

Lama = Callable[..., Result]


def _read_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_summary_json_of_an_interrupted_batch_says_so(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []

    def interrupted_after_two(*args: Any, **kwargs: Any) -> Any:
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(1)
        return play_game(*args, **kwargs)

    monkeypatch.setattr("lamagames.sim.stats.play_game", interrupted_after_two)
    summary = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "random,random", "--games", "50", "--seed", "1",
        "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (2, 50, True)
    assert list(data)[3:6] == ["games", "games_requested", "interrupted"]


def test_summary_json_of_a_complete_batch_says_it_is_complete(lama: Lama, tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "random,random", "--games", "4", "--seed", "1",
        "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (4, 4, False)


def test_summary_json_with_a_human_seat_sums_up_the_one_game(lama: Lama, tmp_path: Path) -> None:
    summary, rec = tmp_path / "s.json", tmp_path / "g.lamarec.json"
    left = lama(
        "play", "dice", "--seats", "human,random", "--seed", "1", "--record", str(rec),
        "--summary-json", str(summary), input="q\n",
    )  # fmt: skip
    assert left.exit_code == 0, left.output
    assert f"Summary written to {summary}" in " ".join(left.stdout.split())
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (0, 1, True)
    finished = lama(
        "play", "dice", "--seats", "human,random", "--seed", "1", "--record", str(rec),
        "--summary-json", str(summary), "--delay", "0", input="1\n" * 3000,
    )  # fmt: skip
    assert finished.exit_code == 0, finished.output
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (1, 1, False)
    assert sum(seat["wins"] for seat in data["seats"]) >= 1
