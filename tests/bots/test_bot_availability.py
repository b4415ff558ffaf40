"""Bot kinds this installation cannot use (a missing optional package) and the arguments of
the search bots.

numba is installed here, so its absence is simulated: ``importlib.util.find_spec`` answers
``None`` for it (as it does in the base install), or ``sys.modules["numba"] = None`` in a
fresh interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.missing_packages import hide

from lamagames import make
from lamagames.bots import (
    BotUnavailableError,
    RandomBot,
    available_bot_kinds,
    bot_kinds,
    bot_unavailable,
    make_bot,
    usable_bot_class,
)
from lamagames.bots.dice_search import DiceSearchBot
from lamagames.bots.express_search import ExpressSearchBot
from lamagames.bots.search import RolloutSearchBot
from lamagames.core.errors import ParameterError
from lamagames.core.extras import is_installed, missing, require
from lamagames.core.game import State
from lamagames.core.spec import GameSpec, get_spec, register_spec, unregister_spec

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture
def no_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba is not installed (as far as the availability checks can tell)."""
    hide(monkeypatch, "numba")


def test_everything_is_available_with_numba() -> None:
    for game_id in ("dice", "express"):
        assert available_bot_kinds(game_id) == bot_kinds(game_id)
        assert all(bot_unavailable(game_id, kind) is None for kind in bot_kinds(game_id))


@pytest.mark.usefixtures("no_numba")
def test_without_numba_the_dice_search_and_exact_bots_say_what_to_install() -> None:
    assert bot_unavailable("dice", "search") == "needs numba: pip install 'lamagames[sim]'"
    assert bot_unavailable("dice", "exact") == "needs numba: pip install 'lamagames[solver]'"
    assert available_bot_kinds("dice") == ["benchmark", "heuristic", "random"]
    # Lama Express's search is pure Python: every kind stays.
    assert available_bot_kinds("express") == bot_kinds("express")


@pytest.mark.usefixtures("no_numba")
@pytest.mark.parametrize(("kind", "extra"), [("search", "sim"), ("exact", "solver")])
def test_make_bot_refuses_an_unavailable_kind_with_a_parameter_error(kind: str, extra: str) -> None:
    with pytest.raises(BotUnavailableError) as info:
        make_bot(kind, make("dice", num_players=2), 0, 1)
    assert isinstance(info.value, ParameterError)
    assert info.value.kind == kind
    message = str(info.value)
    assert f"'{kind}'" in message and "numba" in message
    assert f"pip install 'lamagames[{extra}]'" in message
    with pytest.raises(BotUnavailableError):
        usable_bot_class("dice", kind)


def test_unknown_kinds_are_still_unknown() -> None:
    with pytest.raises(ParameterError, match="unknown bot kind 'nosuch'"):
        bot_unavailable("dice", "nosuch")


@pytest.fixture
def broken_game() -> Iterator[str]:
    """A game whose spec names a bot in a module that does not exist."""
    dice = get_spec("dice")
    spec = GameSpec(
        game_id="brokenbots",
        title="Broken bots",
        game=dice.game,
        bots={"ghost": "lamagames_no_such_module:GhostBot", "gone": "lamagames.bots.base:Gone"},
    )
    register_spec(spec)
    yield spec.game_id
    unregister_spec(spec.game_id)


def test_a_kind_whose_module_cannot_be_imported_is_unavailable(broken_game: str) -> None:
    ghost = bot_unavailable(broken_game, "ghost")
    assert ghost is not None and ghost.startswith("cannot be loaded")
    assert "lamagames_no_such_module" in ghost
    gone = bot_unavailable(broken_game, "gone")
    assert gone is not None and "Gone" in gone
    assert available_bot_kinds(broken_game) == ["random"]


def test_extras_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    assert is_installed("json") and not is_installed("lamagames_no_such_module")
    assert missing(("json",), "sim") is None
    assert missing(("json", "lamagames_no_such_module"), None) == "needs lamagames_no_such_module"
    monkeypatch.setitem(sys.modules, "openskill", None)  # import halted, like a missing one
    assert not is_installed("openskill")
    with pytest.raises(ParameterError) as info:
        require("x", ("openskill",), "ladder")
    assert str(info.value) == "x needs openskill: pip install 'lamagames[ladder]'"


def test_without_numba_in_a_fresh_interpreter() -> None:
    """The real thing: numba's import halted before anything is imported."""
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from lamagames import make\n"
        "from lamagames.bots import available_bot_kinds, make_bot\n"
        "from lamagames.core.errors import ParameterError\n"
        "print(available_bot_kinds('dice'))\n"
        "for kind in ('search', 'exact'):\n"
        "    try:\n"
        "        make_bot(kind, make('dice'), 0, 1)\n"
        "    except ParameterError as exc:\n"
        "        print(exc)\n"
        "from lamagames.bots.dice_exact import DiceExactBot\n"
        "try:\n"
        "    DiceExactBot(make('dice'), 0)\n"
        "except ParameterError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, check=True, timeout=120,
        env={**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
    ).stdout.splitlines()  # fmt: skip
    assert out[0] == "['benchmark', 'heuristic', 'random']"
    assert "'search'" in out[1] and "lamagames[sim]" in out[1]
    assert "'exact'" in out[2] and "lamagames[solver]" in out[2]
    # The exact bot's module imports without numba; making one says what to install.
    assert "'exact'" in out[3] and "needs numba" in out[3]


# ---------------------------------------------------------------------- constructor arguments
BAD_SEARCH_ARGUMENTS = [
    ("rollouts", "x"),
    ("rollouts", 0),
    ("rollouts", 2.5),
    ("rollouts", True),
    ("z", "x"),
    ("z", -1.0),
    ("z", float("nan")),
    ("z", float("inf")),
    ("z", True),
]


@pytest.mark.parametrize(("name", "value"), [*BAD_SEARCH_ARGUMENTS, ("rounds", "x"), ("rounds", 0)])
def test_dice_search_arguments_raise_parameter_errors_naming_them(name: str, value: object) -> None:
    with pytest.raises(ParameterError, match=rf"^{name} must be"):
        arguments: dict[str, Any] = {name: value}
        DiceSearchBot(make("dice"), 0, 1, **arguments)


@pytest.mark.parametrize(
    ("name", "value"), [*BAD_SEARCH_ARGUMENTS, ("horizon", "x"), ("horizon", 0), ("horizon", 1.0)]
)
def test_express_search_arguments_raise_parameter_errors_naming_them(
    name: str, value: object
) -> None:
    with pytest.raises(ParameterError, match=rf"^{name} must be"):
        arguments: dict[str, Any] = {name: value}
        ExpressSearchBot(make("express"), 0, 1, **arguments)


class _ToySearch(RolloutSearchBot):
    """The smallest rollout search (for the generic class's checks)."""

    kind = "toysearch"

    def base_policy(self, seat: int) -> RandomBot:
        return RandomBot(self.game, seat, 0)

    def stop(self, state: State, root: Any) -> bool:
        return True

    def evaluate(self, state: State, root: Any) -> float:
        return 0.0


@pytest.mark.parametrize(("name", "value"), BAD_SEARCH_ARGUMENTS)
def test_rollout_search_arguments_raise_parameter_errors(name: str, value: object) -> None:
    with pytest.raises(ParameterError, match=rf"^{name} must be"):
        _ToySearch(make("dice"), 0, 1, **{name: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(("seat", "seed"), [("x", 1), (0.0, 1), (True, 1), (0, "1"), (0, 1.5)])
def test_seat_and_seed_must_be_integers(seat: object, seed: object) -> None:
    word = "seat" if seed == 1 else "seed"
    for make_one in (
        lambda: DiceSearchBot(make("dice"), seat, seed),  # type: ignore[arg-type]
        lambda: ExpressSearchBot(make("express"), seat, seed),  # type: ignore[arg-type]
        lambda: RandomBot(make("dice"), seat, seed),  # type: ignore[arg-type]
    ):
        with pytest.raises(ParameterError, match=rf"^{word} must be an integer"):
            make_one()


def test_good_arguments_are_normalised() -> None:
    import numpy as np

    one, seven, three = (np.int64(n) for n in (1, 7, 3))
    bot = _ToySearch(make("dice"), one, seven, rollouts=three, z=0)  # type: ignore[arg-type]
    assert (bot.seat, bot.rollouts, bot.z) == (1, 3, 0.0)
    assert type(bot.seat) is int and type(bot.rollouts) is int and type(bot.z) is float


@pytest.mark.parametrize("game", [None, "dice", 3])
def test_make_bot_refuses_a_game_that_is_not_a_game(game: object) -> None:
    for kind in ("heuristic", "random"):
        with pytest.raises(ParameterError, match=r"^game must be a Game .* got "):
            make_bot(kind, game, 0)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"^game must be a Game"):
        RandomBot(game, 0)  # type: ignore[arg-type]
