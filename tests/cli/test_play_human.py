"""``lama play`` with human seats fed through standard input."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import Result

from lamagames.cli.session import Terminal, run_table
from lamagames.cli.views import get_view
from lamagames.core.records import SeatInfo, load_record, replay
from lamagames.core.registry import make

Lama = Callable[..., Result]


def test_scripted_human_then_end_of_input_saves_the_record(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "h.lamarec.json"
    # Bad lines first: unknown notation, a menu number out of range, Enter with two choices,
    # a legal-looking but impossible action, help; then roll and first choices until EOF.
    script = ["foo", "9", "", "take 3", "?", "t", "roll"] + ["1"] * 12
    result = lama(
        "play", "dice", "--seats", "human,benchmark,random", "--seed", "3", "--delay", "0",
        "--record", str(rec), input="\n".join(script) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Traceback" not in result.output
    assert "'foo' is not a LAMA Dice action" in out
    assert "There is no choice 9" in out
    assert "There is more than one choice" in out
    assert "'take 3' is not possible now. You can: roll, quit." in out
    assert "Answering a prompt" in out  # the help
    assert "Player 1's turn" in out and "Bot 2" in out
    assert re.search(r"Bot 2 rolls [1-6L] [1-6L] [1-6L]", out)
    assert "Player 1 left the game." in out
    assert f"Record saved to {rec}" in out.replace("\n", "")
    record = load_record(rec)
    assert [s.kind for s in record.seats] == ["human", "benchmark", "random"]
    assert not replay(record).is_terminal()
    human_moves = [a.action for a in record.actions if a.player == 0]
    assert human_moves[0] == "roll"  # the bad lines changed nothing


def test_human_plays_to_the_end(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "full.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "human,random", "--seed", "8", "--delay", "0",
        "--end-score", "10", "--names", "Ann,Robo", "--record", str(rec),
        input="1\n" * 3000,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Ann's turn" in result.stdout
    assert re.search(r"Winners?: (Ann|Robo)", result.stdout)
    final = replay(load_record(rec))
    assert final.is_terminal() and max(final.scores) >= 10  # type: ignore[attr-defined]


def test_q_leaves_and_default_record_name(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = lama("play", "dice", "--seats", "random,human", "--seed", "1", input="q\n")
    assert result.exit_code == 0, result.output
    assert "Player 2 left the game." in result.stdout
    saved = list(tmp_path.glob("lama-dice-*.lamarec.json"))
    assert len(saved) == 1
    assert saved[0].name in result.stdout.replace("\n", "")
    load_record(saved[0])


def test_hotseat_names_each_player(lama: Lama, tmp_path: Path) -> None:
    result = lama(
        "play", "dice", "--seats", "human,human", "--names", "Ann,Bob", "--seed", "5",
        "--record", str(tmp_path / "r.json"), input="roll\n\n1\n1\n1\n1\n1\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Ann's turn" in result.stdout and "Bob's turn" in result.stdout
    assert "Ann > " in result.stdout and "Bob > " in result.stdout


def test_forced_choice_is_confirmed_with_enter(lama: Lama, tmp_path: Path) -> None:
    """After a roll with a single legal discard, Enter takes it."""
    rec = tmp_path / "r.json"
    # seed 3: Player 1 rolls 6 L 1 holding 2 3 5 5 6 6, so 'discard 6' is the only choice.
    result = lama(
        "play", "dice", "--seats", "human,benchmark,random", "--seed", "3", "--delay", "0",
        "--record", str(rec), input="roll\n\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    moves = [a.action for a in load_record(rec).actions if a.player == 0]
    assert moves[:2] == ["roll", "discard 6"]


def test_ctrl_c_at_a_prompt_saves_the_record(tmp_path: Path) -> None:
    """run_table directly: Ctrl-C (KeyboardInterrupt from input) leaves and saves."""
    answers = iter(["roll", "1"])

    def read_line(prompt: Text) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    seats = [SeatInfo(name="Ann", kind="human"), SeatInfo(name="Bot", kind="benchmark")]
    rec = tmp_path / "c.lamarec.json"
    outcome = run_table(
        get_view("dice"),
        make("dice", num_players=2),
        seats,
        seed=1,
        terminal=Terminal(Console(file=io.StringIO()), read_line),
        record_path=rec,
    )
    assert outcome.result is None and outcome.stopped == "Ann left the game."
    assert outcome.interrupted
    record = load_record(rec)
    assert next(a.action for a in record.actions if a.player == 0) == "roll"
    assert replay(record) == outcome.state


def _interrupt_at_once(prompt: Text) -> str:
    raise KeyboardInterrupt


def test_ctrl_c_before_any_move_writes_no_record(tmp_path: Path) -> None:
    """run_table directly: Ctrl-C at the first prompt, before anyone moved, saves nothing
    and says so (issue 19: an empty record was written)."""
    seats = [SeatInfo(name="Ann", kind="human"), SeatInfo(name="Bot", kind="benchmark")]
    rec = tmp_path / "c.lamarec.json"
    outcome = run_table(
        get_view("dice"),
        make("dice", num_players=2),
        seats,
        seed=1,
        terminal=Terminal(Console(file=io.StringIO()), _interrupt_at_once),
        record_path=rec,
    )
    assert outcome.interrupted and outcome.result is None
    assert outcome.record_path is None and not rec.exists()
    assert outcome.stopped == "Ann left the game. No move was played: no record was written."


def test_lama_play_ctrl_c_before_any_move_exits_130_without_a_file(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lama play`` with a person, Ctrl-C at once: exit 130, neither the default record
    (lama-dice-<time>.lamarec.json here) nor --record is written."""
    from lamagames.cli import play as play_module

    monkeypatch.setattr(play_module, "read_line_from", lambda console: _interrupt_at_once)
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--record", "r.lamarec.json"]):
        result = lama("play", "dice", "--seats", "human,benchmark", "--seed", "1", *extra)
        assert result.exit_code == 130, result.output
        assert "No move was played: no record was written." in result.output
        assert "Record saved" not in result.output
        assert list(tmp_path.iterdir()) == [], extra


def test_ctrl_c_after_a_bots_move_still_saves(tmp_path: Path) -> None:
    """A bot's move before the person's first prompt is a game worth keeping."""
    seats = [SeatInfo(name="Bot", kind="benchmark"), SeatInfo(name="Ann", kind="human")]
    rec = tmp_path / "c.lamarec.json"
    outcome = run_table(
        get_view("dice"),
        make("dice", num_players=2, starting_seat=0),
        seats,
        seed=1,
        terminal=Terminal(Console(file=io.StringIO()), _interrupt_at_once),
        record_path=rec,
    )
    assert outcome.interrupted and outcome.record_path == rec
    assert any(a.player == 0 for a in load_record(rec).actions)
