"""``lama play`` with bots only: the summary, its JSON, determinism, watching one game."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from lamagames.bots.base import make_bot
from lamagames.core.records import load_record, replay
from lamagames.core.registry import make
from lamagames.core.rng import game_seed
from lamagames.sim.runner import play_game

Lama = Callable[..., Result]
SEATS = "benchmark,random,benchmark"


def read_json(path: Path) -> Any:
    """Load a JSON file."""
    return json.loads(path.read_text(encoding="utf-8"))


def test_batch_summary_json_has_fields_and_sane_values(lama: Lama, tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", SEATS, "--games", "40", "--seed", "1",
        "--summary-json", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Win share" in result.stdout and "benchmark" in result.stdout
    data = read_json(out)
    assert data["game"] == "dice" and data["games"] == 40 and data["seed"] == 1
    assert data["params"]["num_players"] == 3
    assert data["seconds"] >= 0
    # a LAMA Dice game lasts several rounds and many decisions (D-9, D-11)
    assert 1 <= data["rounds_per_game"] <= 40
    assert data["decisions"] > 40 * 10
    assert data["decisions_per_game"] == data["decisions"] / 40
    seats = data["seats"]
    assert [s["kind"] for s in seats] == ["benchmark", "random", "benchmark"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    for seat in seats:
        assert 0.0 <= seat["win_share"] <= 1.0
        assert seat["win_share"] == seat["wins"] / 40
        # a round costs 0 (empty row) up to 1+2+...+6+10 = 31 points (D-10)
        assert 0.0 <= seat["mean_round_points"] <= 31.0
        assert seat["mean_final_score"] >= 0
    # every game has at least one winner; ties give every tied winner a win (D-11)
    assert sum(s["wins"] for s in seats) >= 40
    assert sum(s["win_share"] for s in seats) >= 1.0
    # the random seat (which may quit with a big row) does worse than benchmark on points
    assert seats[1]["mean_round_points"] > seats[0]["mean_round_points"]


def test_batch_is_reproducible_from_the_seed(lama: Lama, tmp_path: Path) -> None:
    figures = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        result = lama(
            "play", "dice", "--seats", "random,random", "--games", "15", "--seed", "9",
            "--summary-json", str(out),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        data = read_json(out)
        data.pop("seconds")
        figures.append(data)
    assert figures[0] == figures[1]


def test_batch_mean_round_points_is_per_round(lama: Lama, tmp_path: Path) -> None:
    """mean_round_points = all round points of a seat / all rounds (D-10, before give-backs)."""
    out = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "benchmark,random", "--games", "5", "--seed", "4",
        "--summary-json", str(out), "--end-score", "30",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = read_json(out)
    game = make("dice", num_players=2, end_score=30)
    totals, rounds, wins = [0, 0], 0, [0.0, 0.0]
    for i in range(5):
        seed = game_seed(4, i)
        bots = [make_bot(k, game, s, seed) for s, k in enumerate(["benchmark", "random"])]
        state = play_game(game, bots, seed).state
        points = state.round_points  # type: ignore[attr-defined]
        rounds += len(points)
        for seat in (0, 1):
            totals[seat] += sum(r[seat] for r in points)
            wins[seat] += state.returns()[seat]
    assert data["rounds_per_game"] == rounds / 5
    for seat in (0, 1):
        assert data["seats"][seat]["mean_round_points"] == totals[seat] / rounds
        assert data["seats"][seat]["wins"] == wins[seat]


def test_the_record_keeps_the_seed_that_was_shown(lama: Lama, tmp_path: Path) -> None:
    """Without --seed the printed seed is the one in the record and in the replay; the
    record's play_seed replays the game with the same bots."""
    rec = tmp_path / "g.lamarec.json"
    result = lama("play", "dice", "--seats", SEATS, "--record", str(rec))
    assert result.exit_code == 0, result.output
    found = re.search(r"seed\s+(\d+)", result.stdout)
    assert found, result.stdout
    shown = int(found.group(1))
    record = load_record(rec)
    assert record.seed == shown and record.game_index == 0
    replayed = lama("replay", str(rec), "--to", "0")
    assert f"seed {shown}" in replayed.stdout and "game 1" not in replayed.stdout
    game = make("dice", **record.params)
    bots = [make_bot(k, game, s, record.play_seed or 0) for s, k in enumerate(SEATS.split(","))]
    assert play_game(game, bots, record.play_seed or 0).state == replay(record)


def test_watching_one_game_tells_it_and_saves_the_record(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "g.lamarec.json"
    summary = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", SEATS, "--seed", "3", "--record", str(rec),
        "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Round 1: six cards each are dealt" in result.stdout
    assert "Round 1 ends" in result.stdout
    assert "Winner" in result.stdout
    assert f"Record saved to {rec}" in result.stdout.replace("\n", "")
    record = load_record(rec)
    assert record.seed == 3 and record.game_index == 0  # the seed shown: --seed 3
    assert record.play_seed == game_seed(3, 0)  # the game is game 0 of seed 3
    assert [s.kind for s in record.seats] == SEATS.split(",")
    final = replay(record)
    assert final.is_terminal()
    # the watched game is the batch's game 0: same seed, same bots, same result
    quiet = tmp_path / "q.json"
    result = lama(
        "play", "dice", "--seats", SEATS, "--seed", "3", "--quiet",
        "--summary-json", str(quiet),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    watched, batch = read_json(summary), read_json(quiet)
    watched.pop("seconds")
    batch.pop("seconds")
    assert watched == batch


def test_quiet_single_game_record(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "one.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "random,random", "--seed", "2", "--quiet",
        "--record", str(rec),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert replay(load_record(rec)).is_terminal()


def test_options_reach_the_game(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "g.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "benchmark,benchmark", "--seed", "5",
        "--end-score", "12", "--starting-seat", "2", "--record", str(rec), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = load_record(rec)
    assert record.params["end_score"] == 12
    assert record.params["starting_seat"] == 1  # --starting-seat is 1-based
    assert max(replay(record).scores) >= 12  # type: ignore[attr-defined]


def test_ctrl_c_in_a_batch_prints_the_finished_games_and_exits_130(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during game 4 of 3000: the 3 finished games are summed up (table and JSON)."""
    played: list[int] = []

    def interrupted_after_three(*args: Any, **kwargs: Any) -> Any:
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(1)
        return play_game(*args, **kwargs)

    monkeypatch.setattr("lamagames.sim.stats.play_game", interrupted_after_three)
    summary = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "heuristic,heuristic,heuristic", "--games", "3000",
        "--seed", "1", "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    text = " ".join(result.output.split())
    assert "Interrupted (Ctrl-C) after 3 of 3000 games" in text
    assert "3 games" in result.stdout and f"Summary written to {summary}" in text
    assert read_json(summary)["games"] == 3


def test_ctrl_c_at_a_prompt_saves_the_record_and_exits_130(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["1"])  # a first move (roll, D-6), then Ctrl-C; before any move
    # nothing is saved (tests/cli/test_play_human.py)

    def ctrl_c(console: Any) -> Any:
        def read_line(prompt: Any) -> str:
            answer = next(answers, None)
            if answer is None:
                raise KeyboardInterrupt
            return answer

        return read_line

    monkeypatch.setattr("lamagames.cli.play.read_line_from", ctrl_c)
    monkeypatch.setattr("lamagames.cli.replay.read_line_from", ctrl_c)
    rec = tmp_path / "g.lamarec.json"
    result = lama("play", "dice", "--seats", "human,random", "--record", str(rec))
    assert result.exit_code == 130, result.output
    assert "Player 1 left the game." in result.stdout and rec.exists()
    replay_result = lama("replay", str(rec))  # Ctrl-C in the replay browser: 130 too
    assert replay_result.exit_code == 130, replay_result.output
