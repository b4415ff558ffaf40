"""The HTTP API's contract (issue 8): ``OPTIONS`` and ``Allow`` list every method of a
path, the OpenAPI schema says what the server enforces (a bot seat's ``bot_kind``, 404s),
table creation is rate-limited per client, and a client seed is refused on tables with
people."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator
from web_helpers import FAST, create, make_client, start, wait_status

from lamagames.core.records import parse_record
from lamagames.web.limits import KeyedRateLimit
from lamagames.web.store import Store


@pytest.mark.parametrize(
    ("path", "methods"),
    [
        ("/api/tables", "GET, OPTIONS, POST"),
        ("/api/tables/ABCDEF", "GET, OPTIONS"),
        ("/api/tables/ABCDEF/join", "OPTIONS, POST"),
        ("/api/games", "GET, OPTIONS"),
    ],
)
def test_options_and_405_list_every_method(client: TestClient, path: str, methods: str) -> None:
    response = client.options(path)
    assert response.status_code == 204
    assert response.headers["allow"] == methods
    refused = client.delete(path)
    assert refused.status_code == 405
    assert refused.headers["allow"] == methods
    assert refused.json()["error"] == "not_allowed"


def test_options_on_an_unknown_path_is_404(client: TestClient) -> None:
    response = client.options("/api/nothing")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot_kind": "random"}
SECURE = replace(FAST, seeded_humans=False)  # the server default


@pytest.mark.parametrize("seats", [[HUMAN, BOT], [BOT, HUMAN, BOT], [HUMAN, HUMAN]])
def test_a_seed_is_refused_on_tables_with_people(db: Path, seats: list[dict[str, Any]]) -> None:
    with make_client(db, SECURE) as client:
        response = client.post("/api/tables", json={"game": "dice", "seats": seats, "seed": 3})
        assert response.status_code == 400
        body = response.json()
        assert body["error"] == "invalid" and body["message"].startswith("seed:")
        assert client.get("/api/tables").json() == []  # nothing was created


def test_tables_with_people_get_a_secret_random_seed(db: Path) -> None:
    with make_client(db, SECURE) as client:
        tables = [create(client, [HUMAN, BOT]) for _ in range(2)]
        for table in tables:  # the seed is not told before the game is over
            record = client.get(f"/api/tables/{table['code']}/record").text
            assert parse_record(record).seed is None
    store = Store(f"sqlite:///{db}")
    stored = [store.load(t["code"]) for t in tables]
    store.close()
    assert stored[0] is not None and stored[1] is not None
    assert stored[0].seed != stored[1].seed


def test_a_bots_only_table_takes_a_seed(db: Path) -> None:
    with make_client(db, SECURE) as client:
        table = create(client, [BOT, BOT], seed=12345)
        start(client, table)
        wait_status(client, table["code"], "finished")
        record = parse_record(client.get(f"/api/tables/{table['code']}/record").text)
        assert record.seed == 12345


def test_table_creation_is_rate_limited_per_client(db: Path) -> None:
    settings = replace(FAST, create_per_minute=6, create_burst=3)  # one more every 10 s
    with make_client(db, settings) as client:
        for _ in range(3):
            create(client, [HUMAN, BOT])
        refused = client.post("/api/tables", json={"game": "dice", "seats": [HUMAN, BOT]})
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 10
        assert len(client.get("/api/tables").json()) == 3  # the refused one was not made


def test_seat_claims_are_rate_limited_per_client(db: Path) -> None:
    """Issue 16: one script took every free seat of every public table."""
    settings = replace(FAST, claim_per_minute=6, claim_burst=2)  # one more every 10 s
    with make_client(db, settings) as client:
        codes = [create(client, [HUMAN, HUMAN])["code"] for _ in range(3)]
        for code in codes[:2]:
            assert client.post(f"/api/tables/{code}/claim", json={"name": "Bo"}).status_code == 200
        refused = client.post(f"/api/tables/{codes[2]}/claim", json={"name": "Bo"})
        assert refused.status_code == 429
        assert refused.json() == {
            "error": "rate_limited",
            "message": f"too many seat claims from your address; try again in "
            f"{refused.headers['retry-after']} s",
        }
        assert 1 <= int(refused.headers["retry-after"]) <= 10
        assert client.get(f"/api/tables/{codes[2]}").json()["free_seats"] == 2  # untouched


def test_invite_joins_are_rate_limited_per_client(db: Path) -> None:
    settings = replace(FAST, join_per_minute=6, join_burst=3)
    with make_client(db, settings) as client:
        table = create(client, [HUMAN, HUMAN])
        token = table["seats"][0]["token"]
        url = f"/api/tables/{table['code']}/join"
        for _ in range(3):  # reloads join again
            assert client.post(url, json={"token": token}).status_code == 200
        refused = client.post(url, json={"token": token})
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert "429" in client.get("/openapi.json").json()["paths"][
            "/api/tables/{code}/join"
        ]["post"]["responses"]


def test_the_creation_limit_refills_and_keeps_clients_apart() -> None:
    limit = KeyedRateLimit(per_minute=60, burst=2, max_keys=2)
    assert [limit.take("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 1.0]
    assert limit.take("b", now=0.0) == 0.0  # another address has its own bucket
    assert limit.take("a", now=1.0) == 0.0  # one a second refills
    assert limit.take("a", now=1.0) == pytest.approx(1.0)
    limit.take("c", now=1.0)  # three keys: the least recently seen ("b") is forgotten
    assert "b" not in limit._buckets and len(limit._buckets) == 2
    assert KeyedRateLimit(per_minute=0, burst=1).take("a") == 0.0  # 0: no limit


def test_the_schema_says_a_bot_seat_needs_its_bot_kind(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["SeatSpec"]
    validator = Draft202012Validator(schema)
    assert not validator.is_valid({"kind": "bot"})
    assert not validator.is_valid({"kind": "human", "bot_kind": "random"})
    assert validator.is_valid({"kind": "bot", "bot_kind": "random"})
    assert validator.is_valid({"kind": "human", "name": "Ada"})
    # ... as the server does
    for seat, status in [({"kind": "bot"}, 422), ({"kind": "bot", "bot_kind": "random"}, 201)]:
        body = {"game": "dice", "seats": [HUMAN, seat]}
        assert client.post("/api/tables", json=body).status_code == status


def test_the_schema_lists_every_error_of_every_operation(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            listed = set(operation["responses"])
            if path.startswith("/api/tables"):  # these use the database
                assert "503" in listed, (method, path)
            if "{code}" in path:
                assert "404" in listed, (method, path)
            if method == "post":
                assert {"413", "422"} <= listed, (method, path)
            for status in listed - {"200", "201"}:
                content = operation["responses"][status]["content"]["application/json"]
                assert content["schema"] == {"$ref": "#/components/schemas/ErrorOut"}
    for path in ("/api/tables", "/api/tables/{code}/claim", "/api/tables/{code}/join"):
        assert "429" in paths[path]["post"]["responses"], path
