"""``lama review`` (issue 18): output, ``--json``, ``--plot``, Lama Express, bad input."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from lamagames.bots import make_bot
from lamagames.cli.main import app
from lamagames.coach.review import MARKS, Review, review_record
from lamagames.core.records import (
    GameRecord,
    RecordedAction,
    iter_replay,
    record_from_state,
    save_record,
)
from lamagames.core.registry import make
from lamagames.express.review import is_exit
from lamagames.sim.runner import play_game

DECISION_KEYS = {"index", "seat", "action", "best", "value", "best_value", "loss", "mark",
                 "exact", "stderr"}  # fmt: skip


def lama(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@cache
def dice_record() -> GameRecord:
    game = make("dice", num_players=2, end_score=12)
    bots = [make_bot("heuristic", game, 0, 2), make_bot("benchmark", game, 1, 2)]
    state = play_game(game, bots, 2).state
    return record_from_state(state, [("Ada", "heuristic"), ("Bob", "benchmark")], seed=2)


@cache
def express_record() -> GameRecord:
    game = make("express", num_players=2, llamas_to_win=3)
    bots = [make_bot("heuristic", game, 0, 4), make_bot("random", game, 1, 4)]
    state = play_game(game, bots, 4).state
    return record_from_state(state, [("Eve", "heuristic"), ("Rnd", "random")], seed=4)


def _save(record: GameRecord, tmp_path: Path, name: str = "game.json") -> str:
    path = tmp_path / name
    save_record(record, path)
    return str(path)


def test_lama_review_dice_prints_totals_and_writes_json_and_svg(tmp_path: Path) -> None:
    rec = _save(dice_record(), tmp_path)
    out_json, out_svg = tmp_path / "review.json", tmp_path / "chart.svg"
    result = lama("review", rec, "--json", str(out_json), "--plot", str(out_svg), "--details",
                  "--rollouts", "32")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "LAMA Dice review" in result.output and "Every decision" in result.output
    data = json.loads(out_json.read_text())
    assert data["decisions"] and data["unit"] == "points" and data["finished"]
    for d in data["decisions"]:
        assert set(d) >= DECISION_KEYS
        assert d["loss"] >= 0 and d["mark"] in (None, *MARKS)
        assert (d["stderr"] is None) == d["exact"]
    assert [s["seat"] for s in data["seats"]] == [0, 1]
    indices = [d["index"] for d in data["decisions"]]
    assert indices == sorted(indices)
    assert out_svg.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_lama_review_player_reviews_one_seat_and_writes_png(tmp_path: Path) -> None:
    rec = _save(dice_record(), tmp_path)
    out_json, out_png = tmp_path / "r.json", tmp_path / "c.png"
    result = lama("review", rec, "--player", "2", "--json", str(out_json), "--plot",
                  str(out_png), "--rollouts", "16")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out_json.read_text())
    assert {d["seat"] for d in data["decisions"]} == {1}
    assert [s["seat"] for s in data["seats"]] == [1]
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_review_numbers_seats_as_people_read_them_in_text_player_and_json_label(
    tmp_path: Path,
) -> None:
    # --player and the text count from 1; JSON keeps the 0-based "seat" of records and
    # engines and adds "seat_label" with the number the text shows (docs/cli.md).
    rec = _save(dice_record(), tmp_path)
    out_json = tmp_path / "r.json"
    result = lama("review", rec, "--player", "2", "--json", str(out_json), "--rollouts", "16")
    assert result.exit_code == 0, result.output
    data = json.loads(out_json.read_text())
    assert {(d["seat"], d["seat_label"]) for d in data["decisions"]} == {(1, "Seat 2")}
    assert [(s["seat"], s["seat_label"], s["name"]) for s in data["seats"]] == [
        (1, "Seat 2", "Bob")
    ]
    flat = " ".join(result.output.split())
    assert "2 Bob" in flat and "1 Ada" not in flat  # the totals table's seat column
    marked = [d for d in data["decisions"] if d["mark"]]
    assert marked  # the benchmark bot's seat has marked decisions in this game
    assert f"action {marked[0]['index']}, Bob (seat 2)" in flat


def test_express_review_runs_on_a_record(tmp_path: Path) -> None:
    record = express_record()
    review = review_record(record, seed=3, rollouts=2)
    assert review.unit == "win chance" and review.finished
    assert review.decisions and all(not d.exact and d.stderr is not None
                                    for d in review.decisions)  # fmt: skip
    assert all(0.0 <= d.value <= 1.0 and d.loss >= 0 for d in review.decisions)
    result = lama("review", _save(record, tmp_path), "--rollouts", "2", "--player", "2")
    assert result.exit_code == 0, result.output
    assert "Lama Express review" in result.output


def test_e7_a_pass_that_lets_an_exit_go_is_at_least_a_mistake() -> None:
    record = express_record()
    exit_at = next(i for i, a in enumerate(record.actions) if a.action.startswith("exit"))
    seat = record.actions[exit_at].player
    passed = record.model_copy(update={
        "actions": [*record.actions[:exit_at], RecordedAction(player=seat, action="pass")],
        "result": None,
    })  # fmt: skip
    states = list(iter_replay(passed))
    assert any(is_exit(a) for a in states[exit_at].legal_actions(seat))
    review = review_record(passed, player=seat, seed=1, rollouts=2)
    last = review.decisions[-1]
    assert last.index == exit_at and last.action == "pass"
    assert last.mark in ("mistake", "blunder") and last.best.startswith("exit")
    assert last.words.startswith("You let an exit go here (E-7)")
    assert not review.finished


def test_an_unfinished_record_is_reviewed_to_its_end_and_said_so(tmp_path: Path) -> None:
    full = dice_record()
    short = full.model_copy(update={"actions": full.actions[:30], "result": None})
    out_json = tmp_path / "r.json"
    result = lama("review", _save(short, tmp_path), "--json", str(out_json), "--rollouts", "8")
    assert result.exit_code == 2
    assert "the game is unfinished: reviewed its 30 actions" in result.output
    data = json.loads(out_json.read_text())
    assert data["finished"] is False and data["decisions"]
    assert max(d["index"] for d in data["decisions"]) < 30


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2]", "not a lamagames game record"),
        ('{"tracks": "ROYGBP"}', 'it has no "format" field'),
        ("{not json", "JSON"),
    ],
)
def test_not_a_record_is_one_line_and_exit_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    result = lama("review", str(path))
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_unknown_game_and_format_version_are_refused(tmp_path: Path) -> None:
    data = json.loads(dice_record().to_json())
    path = tmp_path / "x.json"
    path.write_text(json.dumps({**data, "game": "chess"}))
    result = lama("review", str(path))
    assert result.exit_code == 2 and "chess" in result.output
    assert len(result.output.strip().splitlines()) == 1
    path.write_text(json.dumps({**data, "format_version": 9}))
    result = lama("review", str(path))
    assert result.exit_code == 2 and "format_version: 9 is not supported" in result.output


@pytest.mark.parametrize("seat", ["0", "3", "-1"])
def test_player_out_of_range_is_refused(tmp_path: Path, seat: str) -> None:
    result = lama("review", _save(dice_record(), tmp_path), "--player", seat)
    assert result.exit_code == 2
    assert f"--player {seat}: the game has 2 seats; choose 1 to 2" in result.output


def test_a_bad_plot_name_is_refused_before_the_review(tmp_path: Path) -> None:
    result = lama("review", _save(dice_record(), tmp_path), "--plot", str(tmp_path / "c.gif"))
    assert result.exit_code == 2 and "must end in .png or .svg" in result.output


def test_review_record_refuses_a_bad_player_in_the_library() -> None:
    from lamagames.core.errors import RecordError

    with pytest.raises(RecordError, match="choose 1 to 2"):
        review_record(dice_record(), player=2)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("dice", ["--seats", "heuristic,benchmark", "--end-score", "12"]),
        ("express", ["--seats", "heuristic,benchmark", "--short"]),
    ],
)
def test_lama_review_reads_records_written_by_lama_play(
    tmp_path: Path, game: str, options: list[str]
) -> None:
    rec = tmp_path / "played.lamarec.json"
    played = lama("play", game, *options, "--seed", "6", "--quiet", "--record", str(rec))
    assert played.exit_code == 0, played.output
    out_json = tmp_path / "r.json"
    result = lama("review", str(rec), "--rollouts", "4", "--json", str(out_json))
    assert result.exit_code == 0, result.output
    data = json.loads(out_json.read_text())
    assert data["finished"] and data["decisions"] and len(data["seats"]) == 2


def test_ctrl_c_during_a_review_is_one_line_and_exit_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lamagames.cli.review as cli_review

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_review, "review_record", interrupted)
    out_json = tmp_path / "r.json"
    result = lama("review", _save(dice_record(), tmp_path), "--json", str(out_json))
    assert result.exit_code == 130 and "interrupted" in result.output
    assert not out_json.exists()


def test_without_numba_a_dice_review_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.missing_packages import hide

    hide(monkeypatch, "numba")
    result = lama("review", _save(dice_record(), tmp_path))
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    assert "LAMA Dice reviews need numba: pip install 'lamagames[solver]'" in flat


def test_without_numba_an_express_review_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lama Express reviews simulate on the compiled batch engine (issue 18)."""
    from tests.missing_packages import hide

    hide(monkeypatch, "numba")
    result = lama("review", _save(express_record(), tmp_path))
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    assert "Lama Express reviews need numba: pip install 'lamagames[solver]'" in flat


def test_e10_an_express_review_marks_the_random_seats_mistakes_at_the_default_rollouts() -> None:
    """Issue 18: with 12 Python rollouts every difference was within noise and a review
    marked nothing, not even for a ``random`` seat; at the default rollouts (compiled
    simulations) the random seat's mistakes show and it loses win chance (E-10)."""
    record = express_record()  # heuristic (seat 0) against random (seat 1)
    review = review_record(record, seed=0)
    random_seat = review.seats[1]
    assert random_seat.mistakes + random_seat.blunders + random_seat.inaccuracies >= 2
    assert random_seat.total_loss > 0.1


def test_without_matplotlib_plot_is_refused_before_the_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.missing_packages import hide

    hide(monkeypatch, "matplotlib")
    result = lama("review", _save(dice_record(), tmp_path), "--plot", str(tmp_path / "c.svg"))
    assert result.exit_code == 2
    assert "--plot needs matplotlib" in " ".join(result.output.split())


def test_a_seat_name_is_shown_as_written_never_as_markup(tmp_path: Path) -> None:
    # 'Bob [/red]' crashed the seat table with a Rich MarkupError (fresh-clone trial);
    # lama play accepts such names.
    data = json.loads(Path(_save(dice_record(), tmp_path)).read_text())
    data["seats"][0]["name"] = "Bob [/red]"
    data["seats"][1]["name"] = "Ann [bold]x[/]"
    path = tmp_path / "names.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(
        app, ["review", str(path), "--rollouts", "8"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "1 Bob [/red]" in result.output and "2 Ann [bold]x[/]" in result.output


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_an_output_file_that_is_the_record_itself_is_refused(tmp_path: Path, option: str) -> None:
    # --json game.json used to replace the record with its review (fresh-clone trial).
    rec = _save(dice_record(), tmp_path, "game.svg" if option == "--plot" else "game.json")
    before = Path(rec).read_bytes()
    result = lama("review", rec, option, rec)
    assert result.exit_code == 2
    assert "that is the record itself" in result.output
    assert Path(rec).read_bytes() == before


def test_json_and_plot_naming_the_same_file_are_refused(tmp_path: Path) -> None:
    # --json y.svg --plot y.svg wrote the JSON, then the chart over it (fresh-clone trial).
    rec = _save(dice_record(), tmp_path)
    same = tmp_path / "y.svg"
    result = lama("review", rec, "--json", str(same), "--plot", str(same))
    assert result.exit_code == 2
    assert "--json and --plot name the same file" in result.output
    assert not same.exists()


@cache
def _every_seat_review() -> Review:
    """The dice record reviewed for every seat (Bob's, seat 2, has marked decisions)."""
    return review_record(dice_record(), seed=0, rollouts=16)


def test_review_of_every_seat_names_the_seat_not_you_issue_19(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``--player`` nobody is "you": the bots' (here Bob's) marked decisions name
    the seat's player, in every language (the family table's trial: "You lost ..." about a
    bot's move). The review itself is computed once (:func:`_every_seat_review`)."""
    from lamagames.cli import review as review_cli

    monkeypatch.setattr(review_cli, "review_record", lambda *a, **k: _every_seat_review())
    rec = _save(dice_record(), tmp_path)
    english = lama("review", rec)
    german = lama("review", rec, "--lang", "de")
    assert english.exit_code == german.exit_code == 0, english.output + german.output
    flat, flat_de = " ".join(english.output.split()), " ".join(german.output.split())
    assert "(seat 2): roll. Bob lost about " in flat and "You lost" not in flat, flat
    assert "Bob hat hier etwa " in flat_de and "Du hast" not in flat_de, flat_de


def test_you_is_only_the_reviewed_seat_issue_19() -> None:
    from lamagames.cli.i18n import use_language
    from lamagames.cli.review import marked_lines

    review = _every_seat_review()
    use_language("en")
    about_bob = " ".join(line.plain for line in marked_lines(review, you=0))
    to_bob = " ".join(line.plain for line in marked_lines(review, you=1))
    assert about_bob and "Bob lost about " in about_bob and "You lost" not in about_bob
    assert "You lost about " in to_bob and "Bob lost" not in to_bob
    marked = next(d for d in review.decisions if d.mark is not None)
    assert review.words_in(marked) == marked.words  # the JSON's English "you" words


def test_a_missed_exit_names_another_seat_issue_19() -> None:
    """Lama Express's E-7 floor about a named seat, in English and in German."""
    from lamagames.core.i18n import translator

    record = express_record()
    exit_at = next(i for i, a in enumerate(record.actions) if a.action.startswith("exit"))
    seat = record.actions[exit_at].player
    passed = record.model_copy(update={
        "actions": [*record.actions[:exit_at], RecordedAction(player=seat, action="pass")],
        "result": None,
    })  # fmt: skip
    review = review_record(passed, player=seat, seed=1, rollouts=2)
    last = review.decisions[-1]
    car = last.best.split()[1]
    name = record.seats[seat].name
    assert review.words_in(last, who=name) == (
        f"{name} let an exit go here (E-7): exiting from car {car} was better."
    )
    assert review.words_in(last, translator("de"), who=name) == (
        f"Hier hat {name} die Gelegenheit zum Aussteigen verpasst (E-7): Aussteigen aus "
        f"Waggon {car} wäre besser gewesen."
    )
    assert last.words == f"You let an exit go here (E-7): exiting from car {car} was better."
