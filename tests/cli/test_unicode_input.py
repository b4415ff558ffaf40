"""Unicode digits typed at a prompt, in notation and in the replay browser re-prompt
instead of crashing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from lamagames.core import InvalidActionError, make
from lamagames.core.records import load_record

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
