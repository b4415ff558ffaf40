"""``lama play express``: bot batches and their JSON, scripted human games, options."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text
from typer.testing import Result

from lamagames.cli.session import Terminal, run_table
from lamagames.cli.views import get_view
from lamagames.core.records import SeatInfo, load_record, replay
from lamagames.core.registry import make
from lamagames.express.game import as_express_state

Lama = Callable[..., Result]
#: A valid 20-space board (E-12), the test board of tests/express.
TINY_BOARD: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "tiny_board.json").read_text("utf-8")
)


def read_json(path: Path) -> Any:
    """Load a JSON file."""
    return json.loads(path.read_text(encoding="utf-8"))


def test_summary_json_of_a_bot_batch(lama: Lama, tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = lama(
        "play", "express", "--seats", "benchmark,benchmark,heuristic,benchmark",
        "--games", "30", "--seed", "1", "--summary-json", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Win share" in result.stdout and "Colour" in result.stdout
    data = read_json(out)
    assert data["game"] == "express" and data["games"] == 30 and data["seed"] == 1
    assert data["params"]["turn_limit"] == 2000  # E-11: bots only get the default limit
    assert data["truncated"] == 0 and isinstance(data["truncated"], int)
    assert 20 < data["turns_per_game"] < 2000
    assert data["seconds"] >= 0
    seats = data["seats"]
    assert [s["kind"] for s in seats] == ["benchmark", "benchmark", "heuristic", "benchmark"]
    assert [s["colour"] for s in seats] == ["yellow", "pink", "green", "blue"]
    for seat in seats:
        assert seat["win_share"] == seat["wins"] / 30
        assert 0 <= seat["mean_llamas_home"] <= 4
    # E-10: exactly one winner per finished game
    assert sum(s["wins"] for s in seats) == 30
    assert seats[2]["win_share"] > max(s["win_share"] for s in seats if s["kind"] != "heuristic")


def test_turn_limit_truncates_bot_games(lama: Lama, tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = lama(
        "play", "express", "--seats", "benchmark,benchmark", "--games", "3", "--seed", "4",
        "--turn-limit", "5", "--summary-json", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = read_json(out)
    assert data["truncated"] == 3
    assert data["turns_per_game"] is None  # no game finished with a winner
    assert all(s["win_share"] == 0 for s in data["seats"])


def test_watching_one_bot_game_narrates_and_ends(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "w.json"
    result = lama(
        "play", "express", "--seats", "heuristic,benchmark", "--seed", "3",
        "--record", str(rec),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(
        r"Bot 1 \(yellow\) rolls (red|orange|yellow|green|blue|purple) \([ROYGBP]\)", out
    )
    assert re.search(r"Bot 2 \(green\) moves train [AB]: tip \d+ -> \d+", out)
    assert "Bot 1 (yellow) has all 4 llamas home and wins!" in out
    assert "Winner: Bot 1" in out
    assert replay(load_record(rec)).is_terminal()


def test_scripted_human_game_then_end_of_input(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "h.lamarec.json"
    # Bad lines first (unknown notation, Enter with two choices, a number out of range, an
    # impossible action), help and the table; then always the second choice: 'move B' on a
    # train choice, the first chance in a window (so this human boards); then end of input.
    script = ["foo", "", "9", "exit A1", "?", "t"] + ["2"] * 25
    result = lama(
        "play", "express", "--seats", "human,heuristic,heuristic", "--seed", "2",
        "--delay", "0", "--names", "Anna,Bert,Cleo", "--record", str(rec),
        input="\n".join(script) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Traceback" not in result.output
    assert "cannot parse 'foo'" in out
    assert "There is more than one choice" in out
    assert "There is no choice 9" in out
    assert "'exit A1' is not possible now. You can: move A, move B." in out
    assert "Answering a prompt" in out  # the help
    assert "Anna (yellow): your turn, choose a train" in out
    assert re.search(r"1\s+move A\s+tip 0 -> 1, 1 space", out)  # the train menu
    assert "Anna (yellow): a chance after" in out
    assert "your llama gets into car" in out  # a boarding chance, said to Anna
    assert "Anna (yellow): board " in out  # ... and narrated after she took it
    assert "Anna left the game." in out
    assert f"Record saved to {rec}" in out.replace("\n", "")
    record = load_record(rec)
    assert [s.kind for s in record.seats] == ["human", "heuristic", "heuristic"]
    moves = [a.action for a in record.actions if a.player == 0]
    assert moves[0] == "move B"  # the bad lines changed nothing
    assert any(m.startswith("board") for m in moves)
    assert not replay(record).is_terminal()
    replayed = lama("replay", str(rec), "--final")
    assert replayed.exit_code == 0, replayed.output
    assert "Anna (you)" not in replayed.stdout and "Anna" in replayed.stdout


def test_human_plays_a_short_game_to_the_end(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "full.json"
    result = lama(
        "play", "express", "--seats", "human,benchmark", "--seed", "8", "--delay", "0",
        "--short", "--names", "Ann,Robo", "--record", str(rec), input="2\n" * 2000,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert re.search(r"Winner: (Ann|Robo)", result.stdout)
    record = load_record(rec)
    assert record.params["llamas_to_win"] == 3 and record.params["turn_limit"] is None
    final = replay(record)
    assert final.is_terminal() and max(final.house_llamas(s) for s in (0, 1)) == 3  # type: ignore[attr-defined]


def test_hotseat_asks_each_human_by_name(lama: Lama, tmp_path: Path) -> None:
    result = lama(
        "play", "express", "--seats", "human,human", "--names", "Ann,Bob", "--seed", "5",
        "--delay", "0", "--record", str(tmp_path / "r.json"), input="2\n" * 40,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Ann (yellow): " in out and "Bob (green): " in out
    assert "Ann > " in out and "Bob > " in out


def test_q_leaves_and_saves_under_the_default_name(
    lama: Lama, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    result = lama(
        "play", "express", "--seats", "human,benchmark", "--seed", "1", "--delay", "0",
        input="1\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Player 1 left the game." in result.stdout
    saved = list(tmp_path.glob("lama-express-*.lamarec.json"))
    assert len(saved) == 1
    assert any(entry.player == 0 for entry in load_record(saved[0]).actions)


def test_q_before_any_move_saves_nothing_as_ctrl_c_issue_19(
    lama: Lama, tmp_path: Path, monkeypatch: Any
) -> None:
    """A trial found ``q`` at the first prompt saved a record of the deal alone while Ctrl-C
    there saved nothing; now neither does."""
    monkeypatch.chdir(tmp_path)
    result = lama(
        "play", "express", "--seats", "human,benchmark", "--seed", "1", "--delay", "0",
        input="q\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "No move was played: no record was written." in result.stdout
    assert list(tmp_path.glob("lama-express-*.lamarec.json")) == []


def test_board_colours_starting_seat_and_short_go_into_the_game(lama: Lama, tmp_path: Path) -> None:
    board = tmp_path / "tiny.json"
    board.write_text(json.dumps(TINY_BOARD), encoding="utf-8")
    rec = tmp_path / "r.json"
    result = lama(
        "play", "express", "--seats", "benchmark,benchmark", "--seed", "6", "--quiet",
        "--board", str(board), "--colours", "pink,blue", "--starting-seat", "2", "--short",
        "--record", str(rec),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    params = load_record(rec).params
    assert params["board"]["name"] == "tiny" and params["colours"] == ["pink", "blue"]
    assert params["starting_seat"] == 1 and params["llamas_to_win"] == 3
    game = make("express", **params)
    assert game.num_players == 2


def test_bad_options_are_clean_errors(lama: Lama, tmp_path: Path) -> None:
    cases = [
        (["--seats", "human,benchmark", "--turn-limit", "10"], "no turn limit"),
        (["--seats", "benchmark,benchmark", "--colours", "red,blue"], "not a player colour"),
        (["--seats", "benchmark,benchmark", "--colours", "yellow,"], "empty colour"),
        (["--seats", "benchmark", "--games", "2"], "2 to 4 seats"),
        (["--seats", "benchmark,benchmark", "--board", str(tmp_path / "no.json")], "no.json"),
    ]
    for args, message in cases:
        result = lama("play", "express", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_live_screen_redraws_the_table_after_every_event(tmp_path: Path) -> None:
    """At a 100x40 terminal the table is drawn again after each event and each screen fits."""
    answers = iter(["2"] * 6)

    def read_line(prompt: Text) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100, height=40, color_system=None)
    seats = [
        SeatInfo(name="Anna", kind="human"),
        SeatInfo(name="Bert", kind="heuristic"),
        SeatInfo(name="Cleo", kind="benchmark"),
    ]
    rec = tmp_path / "live.json"
    outcome = run_table(
        get_view("express"),
        make("express", num_players=3),
        seats,
        seed=2,
        terminal=Terminal(console, read_line, live=True, intro=["Lama Express: a test"]),
        record_path=rec,
    )
    assert outcome.stopped == "Anna left the game."
    screens = buffer.getvalue().split("\x1b[2J")[1:]
    assert len(screens) > 10
    for screen in screens:
        lines = screen.rstrip("\n").split("\n")
        assert len(lines) <= 39  # and one line for the prompt
        assert max(len(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line)) for line in lines) <= 100
    prompts = [s for s in screens if "your turn, choose a train" in s]
    assert prompts and "1  move A" in prompts[0] and "Lama Express: a test" in screens[0]
    assert replay(load_record(rec)) == outcome.state


def test_short_terminal_prints_the_table_first_and_the_essentials_last() -> None:
    """On a terminal too short for the live screen the moves are printed as they come, and
    before each prompt the table, the headline with the die and the menu, so what the
    player needs stands in the 23 lines above the prompt; each move is printed once
    (issue 19: they were printed again under the table)."""
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100, height=24, color_system=None)
    seen: list[list[str]] = []
    answers = iter(["2"] * 5)

    def read_line(prompt: Text) -> str:
        plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())
        seen.append(plain.rstrip("\n").split("\n")[-23:])
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    seats = [
        SeatInfo(name="Anna", kind="human"),
        SeatInfo(name="Bert", kind="heuristic"),
        SeatInfo(name="Cleo", kind="benchmark"),
    ]
    outcome = run_table(
        get_view("express"),
        make("express", num_players=3, llamas_to_win=3),
        seats,
        seed=2,
        terminal=Terminal(console, read_line, scrolling=True),
    )
    assert len(seen) == 6
    for screen in seen:
        headline = [i for i, line in enumerate(screen) if "Anna (yellow): " in line]
        assert headline and "· die " in screen[headline[-1]]
        assert any(line.startswith("1  ") for line in screen[headline[-1] :])  # the menu
    # After Anna's first move the bots played: their moves were printed once, above the
    # table (the compact one at this height: its "Turn:" line is its last part).
    later = "\n".join(seen[1])
    assert "Bert (pink) rolls" in later and "Cleo (green) rolls" in later
    assert later.index("Cleo (green) rolls") < later.index("Turn: ")
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())
    rolls = [line for line in plain.split("\n") if re.match(r"\w+ \(\w+\) rolls ", line)]
    assert len(rolls) == as_express_state(outcome.state).rolls() > 5


def test_ctrl_c_at_a_prompt_saves_the_record(tmp_path: Path) -> None:
    answers = iter(["1"])  # Ann's first move, then Ctrl-C at her next prompt (before any
    # move, nothing is saved: tests/cli/test_play_interrupt*.py)

    def read_line(prompt: Text) -> str:
        answer = next(answers, None)
        if answer is None:
            raise KeyboardInterrupt
        return answer

    seats = [SeatInfo(name="Ann", kind="human"), SeatInfo(name="Bot", kind="benchmark")]
    rec = tmp_path / "c.lamarec.json"
    outcome = run_table(
        get_view("express"),
        make("express", num_players=2),
        seats,
        seed=3,
        terminal=Terminal(Console(file=io.StringIO()), read_line),
        record_path=rec,
    )
    assert outcome.result is None and outcome.stopped == "Ann left the game."
    assert any(a.player == 0 for a in load_record(rec).actions)
    assert replay(load_record(rec)) == outcome.state
