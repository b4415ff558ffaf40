"""A new game is one package plus one spec: Toy Race (this package) is played, replayed,
simulated and served through ``lama``, ``sim`` and the web app with no edit to ``cli/``,
``web/`` or ``sim/`` (issue 7)."""

from __future__ import annotations

import dataclasses
import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from lamagames.core.registry import make
from lamagames.core.spec import (
    PlayOption,
    get_spec,
    register_spec,
    spec_ids,
    unregister_spec,
)
from lamagames.sim.headtohead import head_to_head
from lamagames.sim.stats import StatsCollector, play_batch, stats_hook
from tests.toygame.spec import SPEC


@pytest.fixture
def toy() -> Iterator[None]:
    """Toy Race registered for one test."""
    register_spec(SPEC)
    yield
    unregister_spec("toy")


def lama(*args: str, input: str | None = None) -> Result:
    """Run ``lama`` built for the games known now (Toy Race included)."""
    from lamagames.cli.main import build_app

    return CliRunner().invoke(build_app(), list(args), input=input)


def test_the_spec_makes_the_game_known(toy: None) -> None:
    assert "toy" in spec_ids()
    assert make("toy", target=3).params == {"num_players": 2, "target": 3, "max_turns": 30}
    assert get_spec("toy").bot_kinds() == ["random", "stepper"]
    assert get_spec("toy").load_extra("hints")(make("toy").new_initial_state()) == 1


def test_play_replay_and_rules_in_the_terminal(toy: None, tmp_path: Path) -> None:
    rec = tmp_path / "toy.lamarec.json"
    played = lama(
        "play", "toy", "--seats", "random,stepper", "--seed", "3", "--target", "3",
        "--record", str(rec),
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert "Toy Race: Bot 1 (Random), Bot 2 (stepper)" in played.stdout  # display names
    assert "Bot 2: step" in played.stdout  # the generic view tells each move by notation
    assert "Winner: " in played.stdout
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["game"] == "toy" and record["params"]["target"] == 3
    replayed = lama("replay", str(rec), "--final")
    assert replayed.exit_code == 0, replayed.output
    steps = len(record["actions"])
    assert f"Step {steps}/{steps}" in replayed.stdout and "Winner: " in replayed.stdout
    assert lama("rules", "toy").exit_code == 0


def test_a_person_plays_the_toy_at_the_terminal(toy: None, tmp_path: Path) -> None:
    rec = tmp_path / "toy.lamarec.json"
    result = lama(
        "play", "toy", "--seats", "human,stepper", "--delay", "0", "--record", str(rec),
        input="step\n" * 10,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Winner: Player 1" in result.stdout  # the human moves first and steps to 5


def test_options_of_other_games_are_refused_for_the_toy(toy: None) -> None:
    result = lama("play", "toy", "--seats", "random,random", "--end-score", "30")
    assert result.exit_code == 2
    assert "--end-score is a LAMA Dice option; Toy Race does not use it" in " ".join(
        result.output.replace("│", " ").split()
    )
    own = lama("play", "toy", "--seats", "random,random", "--param", "target=3")
    assert own.exit_code == 2 and "'target' has its own option: use --target" in own.output
    bad = lama("play", "toy", "--seats", "random,random", "--param", "max_turns=0")
    assert bad.exit_code == 2 and "max_turns must be a whole number >= 1" in bad.output


def test_a_flag_another_game_uses_otherwise_is_left_out_with_a_warning() -> None:
    """A new game cannot take over --end-score (LAMA Dice's) with another meaning."""
    clash = dataclasses.replace(
        SPEC, play_options=(PlayOption("--end-score", "target", "Toy: target.", int),)
    )
    register_spec(clash)
    try:
        with pytest.warns(RuntimeWarning, match="Toy Race: LAMA Dice gives --end-score another"):
            result = lama("play", "toy", "--seats", "random,random", "--end-score", "3")
    finally:
        unregister_spec("toy")
    assert result.exit_code == 2
    assert "--end-score is a LAMA Dice option" in " ".join(result.output.replace("│", " ").split())


def test_a_batch_sums_up_with_the_toy_statistics(toy: None, tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    result = lama(
        "play", "toy", "--seats", "stepper,random", "--games", "30", "--seed", "1",
        "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert data["games"] == 30 and data["turns_per_game"] > 0
    assert all("mean_final_score" in seat for seat in data["seats"])


def test_sim_plays_the_toy(toy: None) -> None:
    game = make("toy")
    collector = StatsCollector(game, ["stepper", "random"], stats_hook("toy"))
    play_batch(game, ["stepper", "random"], games=10, seed=4, collector=collector)
    summary = collector.summary(0.0, 4)
    assert summary.games == 10 and summary.extra["turns_per_game"] is not None
    match = head_to_head(game, "stepper", "random", games=10, seed=2)
    assert match.games == 10 and 0 <= match.wins <= 10


def test_the_web_app_serves_the_toy(toy: None, tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from lamagames.web import create_app
    from lamagames.web.live import Settings

    settings = Settings(bot_delay=0.0, rate_per_second=10_000, rate_burst=10_000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", settings=settings)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert games["toy"]["bot_kinds"] == ["random", "stepper"]
        bot: dict[str, Any] = {"kind": "bot", "bot_kind": "stepper"}
        body = {"game": "toy", "seats": [bot, {**bot, "bot_kind": "random"}], "seed": 5}
        table = client.post("/api/tables", json=body).json()
        code = table["code"]
        started = client.post(f"/api/tables/{code}/start", json={"host_token": table["host_token"]})
        assert started.status_code == 200, started.text
        deadline = time.monotonic() + 20
        while client.get(f"/api/tables/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the toy table never finished"
            time.sleep(0.02)
        record = json.loads(client.get(f"/api/tables/{code}/record").text)
    assert record["game"] == "toy" and record["actions"]


def test_the_web_app_serves_the_toy_browser_module_from_its_package(
    toy: None, tmp_path: Path
) -> None:
    """GameSpec.web_static: the toy's render.js and catalogs come from tests/toygame/static
    at the same URLs as the built-in games' (issue 17)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from lamagames.web import create_app

    folder = Path(__file__).parent / "static"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert games["toy"]["renderer"] == "games/toy/render.js"
        module = client.get("/static/games/toy/render.js")
        assert module.status_code == 200
        assert "javascript" in module.headers["content-type"]
        assert module.text == (folder / "render.js").read_text(encoding="utf-8")
        assert "export function render(" in module.text
        assert client.get("/static/games/toy/en.json").json()["toy.name"] == "Toy Race"
        assert client.get("/static/games/toy/de.json").status_code == 200
        assert client.get("/static/games/toy/missing.js").status_code == 404
        # the shared files and the built-in games are still served
        assert client.get("/static/dom.js").status_code == 200
        assert client.get("/static/games/dice/render.js").status_code == 200


def test_a_game_whose_browser_folder_is_missing_is_left_out(tmp_path: Path) -> None:
    """A spec naming a folder that does not exist does not stop the server."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from lamagames.web import create_app

    register_spec(dataclasses.replace(SPEC, web_static="tests.toygame:no_such_folder"))
    try:
        with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as client:
            assert client.get("/static/games/toy/render.js").status_code == 404
            assert client.get("/static/games/dice/render.js").status_code == 200
    finally:
        unregister_spec("toy")
