"""GameSpec and its loader: validation, precedence, entry points, lazy pieces (issue 7)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.toygame.spec import SPEC as TOY

from lamagames.bots.base import bot_kinds, make_bot
from lamagames.core.errors import ParameterError
from lamagames.core.registry import game_title, make
from lamagames.core.spec import (
    GameSpec,
    PlayOption,
    _entry_points,
    all_specs,
    get_spec,
    load_ref,
    register_spec,
    spec_ids,
    unregister_spec,
)


@pytest.fixture
def clean() -> Iterator[None]:
    """Forget specs registered or installed by a test."""
    yield
    unregister_spec("toy")
    unregister_spec("dice")
    _entry_points.cache_clear()


def test_builtin_specs_name_every_piece_lazily() -> None:
    dice, express = get_spec("dice"), get_spec("express")
    assert (dice.title, express.title) == ("LAMA Dice", "Lama Express")
    assert dice.game == "lamagames.dice.game:DiceGame"
    assert sorted(express.bots) == ["benchmark", "heuristic", "search"]
    assert [o.flag for o in dice.play_options] == ["--end-score"]
    assert [o.flag for o in express.play_options] == [
        "--short", "--board", "--colours", "--turn-limit",
    ]  # fmt: skip
    assert express.play_option("--colors").param == "colours"
    assert express.cli_commands == ("lamagames.cli.express_board:board_app",)
    assert spec_ids()[:2] == ["dice", "express"]


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(ParameterError, match="unknown game 'chess'; known games: dice, express"):
        get_spec("chess")
    assert game_title("chess") == "chess"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game_id": "Bad Id"}, "bad game id 'Bad Id'"),
        ({"game": "no_colon"}, "toy: game must be a 'module:attr' string"),
        ({"game": 5}, "game must be 'module:Class' or a callable"),
        ({"bots": {"x": "nocolon"}}, r"toy: bots\['x'\] must be"),
        ({"cli_view": "a:b:c"}, "toy: cli_view must be"),
        ({"extras": {"batch": ""}}, r"extras\['batch'\] must be"),
        ({"web_static": "pkg"}, "toy: web_static must be a 'package:folder' string"),
        ({"web_static": "pkg:../secrets"}, "web_static must be a 'package:folder'"),
        ({"web_static": "pkg:/etc"}, "web_static must be a 'package:folder'"),
        ({"web_static": "a b:static"}, "web_static must be a 'package:folder'"),
        (
            {"play_options": (PlayOption("--a", "a", "A"), PlayOption("--a", "b", "B"))},
            "two play options share a flag",
        ),
    ],
)
def test_bad_specs_are_refused_by_name(fields: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"game_id": "toy", "title": "Toy", "game": "m:C"}
    with pytest.raises(ParameterError, match=message):
        GameSpec(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"flag": "-x"}, "expected --lower-case-words"),
        ({"param": "not a name"}, "bad parameter name"),
        ({"value_type": list}, "value_type must be"),
        ({"convert": "nocolon"}, "convert must be"),
    ],
)
def test_bad_play_options_are_refused_by_name(fields: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"flag": "--x", "param": "x", "help": "X"}
    with pytest.raises(ParameterError, match=message):
        PlayOption(**{**base, **fields})  # type: ignore[arg-type]


def test_a_spec_is_frozen() -> None:
    spec = get_spec("dice")
    with pytest.raises(AttributeError):
        spec.title = "Other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        spec.bots["x"] = "m:C"  # type: ignore[index]


def test_play_option_values() -> None:
    short = get_spec("express").play_option("--short")
    assert short.is_flag and short.to_param(True) == 3
    colours = get_spec("express").play_option("--colours")
    assert colours.to_param(" Yellow, green") == ["yellow", "green"]
    with pytest.raises(ValueError, match="empty colour"):
        colours.to_param("yellow,,green")


def test_load_ref_and_extras() -> None:
    assert load_ref("lamagames.core.spec:GameSpec.load_extra") is GameSpec.load_extra
    with pytest.raises(ParameterError, match="expected 'module:attr'"):
        load_ref("lamagames.core.spec")
    missing = (
        "LAMA Dice has no extra 'nope'; extras: batch, hint_notes, hint_words, hints, review, rl, "
        "standing, text, tutorial, vector"
    )
    with pytest.raises(ParameterError, match=missing):
        get_spec("dice").load_extra("nope")
    missing = (
        "Lama Express has no extra 'hints'; extras: batch, chance_notation, review, rl, text, "
        "tutorial, vector"
    )
    with pytest.raises(ParameterError, match=missing):
        get_spec("express").load_extra("hints")


def test_a_registered_spec_wins_and_can_be_removed(clean: None) -> None:
    register_spec(TOY)
    assert get_spec("toy") is TOY and "toy" in spec_ids()
    assert bot_kinds("toy") == ["random", "stepper"]
    assert make_bot("stepper", make("toy"), 1).kind == "stepper"
    unregister_spec("toy")
    assert "toy" not in spec_ids() and bot_kinds("toy") == ["random"]
    with pytest.raises(ParameterError, match="register_spec needs a GameSpec"):
        register_spec("toy")  # type: ignore[arg-type]


def test_register_replaces_only_the_factory_of_a_builtin(clean: None) -> None:
    from lamagames.core.registry import register
    from lamagames.dice.game import DiceGame

    register("dice", DiceGame, "Dice again")
    assert get_spec("dice").title == "Dice again"
    assert get_spec("dice").bots["heuristic"] == "lamagames.bots.dice:DiceHeuristicBot"
    assert make("dice", end_score=30).params["end_score"] == 30
    unregister_spec("dice")
    assert get_spec("dice").title == "LAMA Dice"


def test_an_installed_package_adds_a_game_through_the_entry_point_group(
    clean: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "toyrace-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toyrace\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[lamagames.games]\ntoy = tests.toygame.spec:SPEC\nwrong = tests.toygame.spec:SPEC\n"
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    _entry_points.cache_clear()
    assert {"toy", "wrong"} <= set(spec_ids())
    assert get_spec("toy") is TOY
    assert make("toy", target=2).params["target"] == 2
    with pytest.raises(ParameterError, match="is not the GameSpec of 'wrong'"):
        get_spec("wrong")
    with pytest.warns(RuntimeWarning, match="skipping a game: .* is not the GameSpec of 'wrong'"):
        assert "toy" in [spec.game_id for spec in all_specs()]


def test_web_static_names_a_folder_of_a_package() -> None:
    """A game's browser files ship in its package (issue 17): the built-in folders exist
    and hold the module and both catalogs; nothing is left under web/static/games."""
    import importlib.util

    for game_id in ("dice", "express"):
        where = get_spec(game_id).web_static_folder()
        assert where == (f"lamagames.{game_id}", "static")
        found = importlib.util.find_spec(where[0])
        assert found is not None and found.origin is not None
        folder = Path(found.origin).parent / where[1]
        assert {"render.js", "en.json", "de.json"} <= {p.name for p in folder.iterdir()}
    web = importlib.util.find_spec("lamagames.web")
    assert web is not None and web.origin is not None
    assert not (Path(web.origin).parent / "static" / "games").exists()
    assert TOY.web_static_folder() == ("tests.toygame", "static")
    assert GameSpec("x", "X", "m:C").web_static_folder() is None
