"""Hints the server cannot give: a game whose hint provider needs a missing package (LAMA
Dice without numba) says ``"hints": false`` in ``GET /api/games`` and on its tables, a
``hint`` message gets the error ``hints_unavailable`` naming the package and the extra, and
any failure while working a hint out is an ``error`` echoing ``ref`` (never a silent,
unretrieved task exception); the socket stays open.

numba is installed here; its absence is simulated by ``find_spec`` answering ``None``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Peer, create, hide_numba, start

from lamagames.core.errors import ParameterError
from lamagames.core.game import State
from lamagames.core.spec import GameSpec, Requirement, get_spec
from lamagames.web import adapters

STATIC = Path(__file__).parents[2] / "src" / "lamagames" / "web" / "static"
HUMAN = {"kind": "human"}


def games_hints(client: TestClient) -> dict[str, bool]:
    return {g["id"]: g["hints"] for g in client.get("/api/games").json()}


def ask_hint(client: TestClient, table: dict[str, Any], ref: str) -> tuple[dict[str, Any], Peer]:
    """Seat 0 (to act) asks for a hint; the first ``hints`` or ``error`` answer, and then a
    ping that must still be answered."""
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        peer.turn(0)
        peer.send({"type": "hint", "ref": ref})
        answer = peer.until(lambda m: m["type"] in ("hints", "error"))
        peer.send({"type": "ping"})
        assert peer.until(lambda m: m["type"] == "pong")
    return answer, peer


def test_the_dice_spec_says_its_hints_need_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_spec("dice")
    assert spec.requires["hints"] == Requirement(("numba",), "solver")
    assert spec.extra_unavailable("hints") is None
    assert spec.extra_unavailable("text") is None
    hide_numba(monkeypatch)
    assert spec.extra_unavailable("hints") == "needs numba: pip install 'lamagames[solver]'"
    assert spec.extra_unavailable("text") is None
    with pytest.raises(ParameterError, match="has no extra 'nosuch'"):
        spec.extra_unavailable("nosuch")


def test_a_spec_requirement_must_name_an_extra_and_modules() -> None:
    with pytest.raises(ParameterError, match=r"requires\['hints'\] names no extra"):
        GameSpec("coin", "Coin", "a:b", requires={"hints": Requirement(("numba",))})
    with pytest.raises(ParameterError, match="needs module names"):
        Requirement(())
    with pytest.raises(ParameterError, match="needs module names"):
        Requirement(("not a module",))


def test_without_numba_dice_advertises_no_hints(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = create(client, [HUMAN, HUMAN])
    assert games_hints(client)["dice"] is True
    assert client.get(f"/api/tables/{table['code']}").json()["hints"] is True
    hide_numba(monkeypatch)
    assert games_hints(client) == {"dice": False, "express": False}
    assert client.get(f"/api/tables/{table['code']}").json()["hints"] is False
    lobby = {t["code"]: t for t in client.get("/api/tables").json()}
    assert lobby[table["code"]]["hints"] is False


def test_without_numba_a_hint_is_refused_naming_the_package(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = create(client, [HUMAN, HUMAN], seed=5, params={"starting_seat": 0})
    start(client, table)
    hide_numba(monkeypatch)
    answer, _ = ask_hint(client, table, "h1")
    assert answer["type"] == "error" and answer["ref"] == "h1", answer
    assert answer["code"] == "hints_unavailable"
    assert answer["message"] == (
        "LAMA Dice hints are not available on this server "
        "(needs numba: pip install 'lamagames[solver]')"
    )


def test_a_hint_provider_that_cannot_be_loaded_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ImportError of the tester's log (the solver's own message), from loading."""

    def broken(game_id: str) -> Any:
        raise ImportError("the LAMA Dice solver needs numba: pip install 'lamagames[solver]'")

    monkeypatch.setattr(adapters, "_hint_provider", broken)
    table = create(client, [HUMAN, HUMAN], seed=5, params={"starting_seat": 0})
    start(client, table)
    answer, _ = ask_hint(client, table, "h2")
    assert answer["type"] == "error" and answer["ref"] == "h2", answer
    assert answer["code"] == "hints_unavailable"
    assert "cannot be loaded: the LAMA Dice solver needs numba" in answer["message"]


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (ImportError("the LAMA Dice solver needs numba"), "hints_unavailable"),
        (RuntimeError("boom"), "hint_failed"),
        (KeyError("x"), "hint_failed"),
    ],
)
def test_any_failure_of_a_hint_is_an_error_echoing_ref(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    error: Exception,
    code: str,
) -> None:
    def provider(state: State, player: int) -> list[Any]:
        raise error

    monkeypatch.setattr(adapters, "_hint_provider", lambda game_id: provider)
    table = create(client, [HUMAN, HUMAN], seed=5, params={"starting_seat": 0})
    start(client, table)
    answer, _ = ask_hint(client, table, "h3")
    assert answer["type"] == "error" and answer["ref"] == "h3", answer
    assert answer["code"] == code
    if code == "hint_failed":
        assert answer["message"] == (
            f"the hint could not be worked out ({type(error).__name__}); "
            "the server log has the details"
        )
        assert "a hint failed" in caplog.text


def test_hint_errors_have_words_in_both_catalogs() -> None:
    for lang in ("en", "de"):
        catalog = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
        assert catalog["err.hints_unavailable"] and catalog["err.hint_failed"]
