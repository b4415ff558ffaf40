"""Help, messages and descriptions for people: no ruling ids, no ``<bool>`` beside flags."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from typer.testing import Result

from lamagames.core.errors import LamaError
from lamagames.core.registry import make

Lama = Callable[..., Result]
RULING_ID = re.compile(r"\b[DE]-\d+\b")
COMMANDS = [[], ["play"], ["replay"], ["rules"], ["board"], ["board", "show"],
            ["board", "validate"], ["serve"]]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_has_no_ruling_ids_and_no_bool_placeholder(lama: Lama, command: list[str]) -> None:
    result = lama(*command, "--help")
    assert result.exit_code == 0, result.output
    assert not RULING_ID.search(result.output), result.output
    assert "<bool>" not in result.output


def test_prompt_help_and_board_description_have_no_ruling_ids(lama: Lama) -> None:
    from lamagames.cli.views import get_view

    for game in ("dice", "express"):
        assert not RULING_ID.search(get_view(game).help_text())
    shown = lama("board", "show")
    assert shown.exit_code == 0 and not RULING_ID.search(shown.output)


@pytest.mark.parametrize(
    ("game", "params"),
    [
        ("dice", {"dice": ["LL3456"]}),
        ("dice", {"end_score": 0}),
        ("express", {"num_players": 5}),
        ("express", {"llamas_to_win": 2}),
        ("express", {"turn_limit": 0}),
        ("express", {"board": 5}),
        ("express", {"num_players": 3, "colours": ["yellow", "green", "pink"]}),
        ("express", {"board": {"track": "ROYGBP" * 8, "stations": []}}),
    ],
)
def test_parameter_errors_have_no_ruling_ids(game: str, params: dict[str, object]) -> None:
    with pytest.raises(LamaError) as info:
        make(game, **params)
    assert not RULING_ID.search(str(info.value)), str(info.value)


def test_serve_help_names_every_environment_variable(
    lama: Lama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rich read "[env LAMA_PORT; default: 8000]" as markup and dropped it: the help said
    "TCP port ." (found by a fresh-clone trial). Each option names its variable."""
    monkeypatch.setenv("COLUMNS", "200")  # wide enough that no name is folded
    result = lama("serve", "--help")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    for name in ("HOST", "PORT", "DB", "BOT_DELAY", "PROXY_HEADERS", "FORWARDED_ALLOW_IPS",
                 "ALLOWED_ORIGINS", "WORKERS", "WS_COMPRESSION"):  # fmt: skip
        assert f"LAMA_{name}" in text, name
    assert " ." not in text.replace("...", "")
