"""Bot kinds the server cannot run (the LAMA Dice ``search`` and ``exact`` bots without
numba): the lobby does not offer them, creating a table with one is a 400 naming the kind,
the package and the extra, and a table whose bot cannot be made tells its players instead of
waiting forever. Every bot kind has a label in both catalogs.

numba is installed here; its absence is simulated by ``find_spec`` answering ``None``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Peer, create, hide_numba, live_table, start

from lamagames.bots import bot_kinds
from lamagames.web.adapters import adapter_ids
from lamagames.web.store import Store

STATIC = Path(__file__).parents[2] / "src" / "lamagames" / "web" / "static"
HUMAN = {"kind": "human"}


def kinds_offered(client: TestClient) -> dict[str, list[str]]:
    return {g["id"]: g["bot_kinds"] for g in client.get("/api/games").json()}


def test_the_lobby_offers_only_kinds_the_server_can_run(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert kinds_offered(client)["dice"] == ["benchmark", "exact", "heuristic", "random", "search"]
    hide_numba(monkeypatch)
    offered = kinds_offered(client)
    assert offered["dice"] == ["benchmark", "heuristic", "random"]
    assert offered["express"] == ["benchmark", "heuristic", "random", "search"]


@pytest.mark.parametrize(("kind", "extra"), [("search", "sim"), ("exact", "solver")])
def test_creating_a_table_with_an_unavailable_bot_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, kind: str, extra: str
) -> None:
    hide_numba(monkeypatch)
    body = {"game": "dice", "seats": [HUMAN, {"kind": "bot", "bot_kind": kind}]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["error"] == "bot_unavailable"
    message = error["message"]
    assert message.startswith(f"seats.1: the '{kind}' bot is not available on this server")
    assert f"needs numba: pip install 'lamagames[{extra}]'" in message
    assert message.endswith("; use benchmark, heuristic, random"), message  # not a list repr
    assert client.get("/api/tables").json() == []  # nothing was created
    # An unknown kind is still an unknown kind.
    body = {"game": "dice", "seats": [HUMAN, {"kind": "bot", "bot_kind": "nosuch"}]}
    unknown = client.post("/api/tables", json=body)
    assert unknown.status_code == 400 and unknown.json()["error"] == "invalid"
    assert unknown.json()["message"] == (
        "seats.1: unknown bot kind 'nosuch'; use benchmark, heuristic, random"
    )


def wait_driver_stopped(live: Any) -> None:
    deadline = time.monotonic() + 20
    while not (live.driver._task is not None and live.driver._task.done()):
        assert time.monotonic() < deadline, "the driver never stopped"
        time.sleep(0.02)


def next_error_or_pong(peer: Peer) -> dict[str, Any]:
    """Ping, then the first ``error`` or ``pong``: an error sent before the ping comes
    first; a ``pong`` says none was sent (instead of waiting forever for one)."""
    peer.send({"type": "ping"})
    return peer.until(lambda m: m["type"] in ("error", "pong"))


def test_a_table_whose_bot_cannot_be_made_says_so_instead_of_freezing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table stored while numba was there (or any bot that fails to build later): the
    driver stops and every connection gets a ``bot_unavailable`` error naming the seat,
    players and spectators, and each new connection gets it again (once)."""
    table = create(
        client,
        [{"kind": "bot", "bot_kind": "search"}, HUMAN],
        params={"starting_seat": 0},
        seed=5,
    )
    hide_numba(monkeypatch)
    code = table["code"]
    token = table["seats"][1]["token"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        peer = Peer(ws)
        assert peer.hello(token)["seat"] == 1
        start(client, table)
        live = live_table(client, code)
        wait_driver_stopped(live)
        error = peer.error()
        assert error["code"] == "bot_unavailable"
        assert error["message"].startswith("seat 1: the 'search' bot is not available")
        assert "pip install 'lamagames[sim]'" in error["message"]
        assert "cannot go on" in error["message"]
        # A spectator (hello without a token) is told too, right after the state.
        with client.websocket_connect(f"/ws/{code}") as ws_watch:
            watcher = Peer(ws_watch)
            assert watcher.hello(None)["seat"] is None
            assert next_error_or_pong(watcher) == error
        # The player reconnecting (a second tab) is told on that connection; the first
        # connection is not told again.
        with client.websocket_connect(f"/ws/{code}") as ws_again:
            again = Peer(ws_again)
            assert again.hello(token)["seat"] == 1
            assert next_error_or_pong(again) == error
            wait_driver_stopped(live)
            assert next_error_or_pong(peer)["type"] == "pong"
    # The bot's turn is still open and nothing moves (the driver neither spins nor skips).
    version = live.version
    time.sleep(0.1)
    assert live.version == version and live.state.current_player() == 0
    assert client.get(f"/api/tables/{code}").json()["status"] == "playing"


def test_a_rematch_with_a_bot_the_server_cannot_run_is_refused(
    client: TestClient, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table finished with a ``search`` bot while numba was there, asked for a rematch
    after a restart without it: 400 ``bot_unavailable`` as ``POST /api/tables`` answers,
    and no table is created (before, the rematch started and froze at once)."""
    table = create(client, [{"kind": "bot", "bot_kind": "search"}, HUMAN])
    code = table["code"]
    store = Store(f"sqlite:///{db}")
    try:
        data = store.load(code)
        assert data is not None
        store.set_status(data.id, "finished")  # (finished while numba was there)
    finally:
        store.close()
    hide_numba(monkeypatch)
    answer = client.post(f"/api/tables/{code}/rematch", json={"token": table["host_token"]})
    assert answer.status_code == 400, answer.text
    assert answer.json() == {
        "error": "bot_unavailable",
        "message": "seats.0: the 'search' bot is not available on this server (needs numba: "
        "pip install 'lamagames[sim]'); use benchmark, heuristic, random",
    }
    info = client.get(f"/api/tables/{code}").json()
    assert info["status"] == "finished" and info["rematch"] is None
    assert client.get("/api/tables").json() == []  # nothing new was created
    # With the package back, the same rematch is made.
    monkeypatch.undo()
    answer = client.post(f"/api/tables/{code}/rematch", json={"token": table["host_token"]})
    assert answer.status_code == 200, answer.text


def test_every_bot_kind_has_a_label_in_both_catalogs() -> None:
    catalogs = {
        lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
        for lang in ("en", "de")
    }
    kinds = {kind for game_id in adapter_ids() for kind in bot_kinds(game_id)}
    assert {"random", "benchmark", "heuristic", "search", "exact"} <= kinds
    for lang, catalog in catalogs.items():
        missing = sorted(kind for kind in kinds if f"bot.{kind}" not in catalog)
        assert not missing, f"{lang}.json has no label for {missing}"
        assert catalog["err.bot_unavailable"]
    assert catalogs["en"]["bot.search"] != catalogs["de"]["bot.search"]
