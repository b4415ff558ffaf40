"""Defects found by the second fresh-user pass over the terminal program."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from lamagames.core import InvalidActionError, RecordError, make
from lamagames.core.records import load_record, parse_record

Lama = Callable[..., Result]


@pytest.mark.parametrize("digit", ["²", "①", "١"])
def test_unicode_digits_at_a_prompt_re_prompt(lama: Lama, tmp_path: Path, digit: str) -> None:
    rec = tmp_path / "u.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "human,random", "--seed", "2", "--delay", "0",
        "--record", str(rec), input=f"{digit}\nroll\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert load_record(rec).actions[2].action == "roll"  # after the two deals


def test_unicode_digits_in_express_notation_are_invalid_not_a_crash() -> None:
    state = make("express", num_players=2).new_initial_state()
    for text in ("board A²", "exit B١"):
        with pytest.raises(InvalidActionError):
            state.string_to_action(text, 0)


def test_replay_jump_with_a_unicode_digit(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "r.lamarec.json"
    played = lama("play", "dice", "--seats", "benchmark,random", "--seed", "1", "--quiet",
                  "--record", str(rec))  # fmt: skip
    assert played.exit_code == 0, played.output
    result = lama("replay", str(rec), input="j ²\nq\n")
    assert result.exit_code == 0, result.output
    assert "Jump to a step" in result.stdout


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


def test_an_unwritable_record_file_falls_back_to_the_temp_folder(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lamagames.cli.session as session

    target = tmp_path / "deny.lamarec.json"
    real_save = session.save_record

    def refuse_target(record: object, path: Path) -> None:
        if Path(path) == target:
            raise PermissionError(13, "Permission denied")
        real_save(record, path)  # type: ignore[arg-type]

    monkeypatch.setattr(session, "save_record", refuse_target)
    monkeypatch.setattr(session.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    result = lama(
        "play", "dice", "--seats", "human,random", "--seed", "2", "--delay", "0",
        "--record", str(target), input="q\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Permission denied" in result.stdout
    assert load_record(tmp_path / "tmp" / target.name).game == "dice"
