"""``lama play`` game parameters: ``--param`` keys, options of the other game, clean errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from typer.testing import Result

from lamagames.cli.options import parse_names

Lama = Callable[..., Result]
BOTS = ["--seats", "benchmark,benchmark", "--quiet"]


def _clean_error(result: Result, *expected: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "TypeError" not in result.output
    assert "__init__" not in result.output and "keyword argument" not in result.output
    text = " ".join(result.output.replace("│", " ").split())  # the usage box wraps lines
    for part in expected:
        assert part in text, (part, result.output)


@pytest.mark.parametrize("game", ["dice", "express"])
def test_param_num_players_is_refused_cleanly(lama: Lama, game: str) -> None:
    result = lama("play", game, *BOTS, "--param", "num_players=2")
    _clean_error(result, "'num_players' is set by the number of seats (--seats)")


@pytest.mark.parametrize(
    ("game", "param", "option"),
    [
        ("dice", "end_score=10", "--end-score"),
        ("dice", "starting_seat=1", "--starting-seat"),
        ("express", "starting-seat=1", "--starting-seat"),
        ("express", "llamas_to_win=3", "--short"),
        ("express", 'colours=["yellow","green"]', "--colours"),
        ("express", "turn_limit=5", "--turn-limit"),
        ("express", 'board="standard"', "--board"),
    ],
)
def test_param_with_its_own_option_is_refused(
    lama: Lama, game: str, param: str, option: str
) -> None:
    key = param.partition("=")[0].replace("-", "_")
    result = lama("play", game, *BOTS, "--param", param)
    _clean_error(result, f"{key!r} has its own option: use {option}")


def test_param_and_option_together_do_not_override_silently(lama: Lama) -> None:
    result = lama("play", "dice", *BOTS, "--param", "end_score=10", "--end-score", "100")
    _clean_error(result, "use --end-score")


def test_unknown_param_lists_the_known_ones(lama: Lama) -> None:
    result = lama("play", "dice", *BOTS, "--param", "foo=1")
    _clean_error(
        result,
        "unknown parameter 'foo' for LAMA Dice; known: num_players, dice, end_score, starting_seat",
    )


@pytest.mark.parametrize(
    ("game", "args", "message"),
    [
        ("express", ["--end-score", "50"], "--end-score is a LAMA Dice option"),
        ("dice", ["--short"], "--short is a Lama Express option"),
        ("dice", ["--board", "missing.json"], "--board is a Lama Express option"),
        ("dice", ["--colours", "yellow,green"], "--colours is a Lama Express option"),
        ("dice", ["--turn-limit", "9"], "--turn-limit is a Lama Express option"),
    ],
)
def test_option_of_the_other_game_is_named(
    lama: Lama, tmp_path: Path, game: str, args: list[str], message: str
) -> None:
    result = lama("play", game, *BOTS, *args)
    _clean_error(result, message)
    assert "cannot read" not in result.output  # --board on dice does not read the file


def test_param_of_the_game_still_works(lama: Lama) -> None:
    result = lama("play", "dice", *BOTS, "--param", 'dice=["LL3456","12LL56","1234LL"]')
    assert result.exit_code == 0, result.output


def test_names_for_the_human_seats_only(lama: Lama, tmp_path: Path) -> None:
    """The hotseat example of docs/cli.md: two names for two humans beside a bot."""
    rec = tmp_path / "g.lamarec.json"
    result = lama(
        "play", "express", "--seats", "human,human,heuristic", "--names", "Ann,Bob",
        "--record", str(rec), "--delay", "0", input="1\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    seats = json.loads(rec.read_text(encoding="utf-8"))["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob", "Bot 3"]


def test_names_in_seat_order_between_bots() -> None:
    kinds = ["random", "human", "benchmark", "human"]
    assert parse_names("Ann,Bob", kinds) == ["Bot 1", "Ann", "Bot 3", "Bob"]
    assert parse_names("A,B,C,D", kinds) == ["A", "B", "C", "D"]
    with pytest.raises(typer.BadParameter, match=r"give 4 names \(one per seat\) or 2"):
        parse_names("Ann", kinds)
    with pytest.raises(typer.BadParameter, match="names must differ"):
        parse_names("Bot 1,Bob", kinds)
    with pytest.raises(typer.BadParameter, match=r"give 2 names \(one per seat\), got 1"):
        parse_names("Ann", ["random", "random"])
