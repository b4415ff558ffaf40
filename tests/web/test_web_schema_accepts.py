"""The OpenAPI schema says what the server accepts (issue 16: schemathesis found names
with control characters and ``game: "0"`` that the schema allowed and the server refused).

A schemathesis run of schema-conforming requests only (positive mode): none may be refused
as a bad body (422), nor as an unknown game, bot kind, seat count or parameter name; and
the schema's name pattern accepts exactly the names the server accepts."""

from __future__ import annotations

import re
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError
from web_helpers import FAST

from lamagames.web import create_app
from lamagames.web.schemas import Name, name_pattern

FOLDER = Path(tempfile.mkdtemp(prefix="lama-schema-accepts-"))
APP = create_app(f"sqlite:///{FOLDER / 'web.sqlite3'}", settings=replace(FAST, seeded_humans=False))
with TestClient(APP) as _client:  # one real table: requests with a code are sent there too
    _made = _client.post("/api/tables", json={"game": "dice", "seats": [{"kind": "human"}] * 6})
REAL_CODE: str = _made.json()["code"]

schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE], deterministic=True)

#: Refusals only a table's state or the game's own checks can give (the schema cannot
#: know them): no table with that code, a wrong token, a full or private table, a
#: parameter value the game refuses.
STATE_ERRORS = {"not_found", "forbidden", "seat_taken", "full", "finished", "not_finished"}


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_conforming_requests_are_not_refused_as_malformed(case: schemathesis.Case[Any]) -> None:
    _check(case)
    if case.path_parameters and "code" in case.path_parameters:
        case.path_parameters["code"] = REAL_CODE
        _check(case)


def _check(case: schemathesis.Case[Any]) -> None:
    response = case.call()
    assert response.status_code < 500, response.text[:300]
    assert response.status_code != 422, (case.body, response.text[:300])
    if response.status_code == 400:
        body = response.json()
        assert body["error"] == "invalid", body
        # what is left: a parameter value (the game's message names the parameter)
        sent = case.body if isinstance(case.body, dict) else {}
        params = sent.get("params")
        assert isinstance(params, dict) and params, (sent, body)
        assert any(name in body["message"] for name in params), (sent, body)


def server_accepts(name: str) -> bool:
    try:
        TypeAdapter(Name).validate_python(name, strict=True)
    except ValidationError:
        return False
    return True


TRICKY = st.sampled_from(
    [
        "a",
        "Z",
        "é",
        " ",
        "\u00a0",
        "\u3000",
        "\t",
        "\n",
        "\r",
        "\x13",
        "\x7f",
        "\x85",
        "\u200b",
        "\u200d",
        "\u202e",
        "\u2066",
        "\u2028",
        "\ufeff",
        "\U0001f468",
        "\U0001f3f4",
        "\U000e0067",
        "\U000e007f",
        "\U000e0001",
        "\u0600",
        "\u00ad",
    ]
)


@given(st.lists(st.one_of(TRICKY, TRICKY, st.characters()), min_size=1, max_size=32).map("".join))
@settings(max_examples=600, deadline=None)
def test_the_name_pattern_is_the_server_rule(name: str) -> None:
    assert (re.fullmatch(name_pattern(), name) is not None) == server_accepts(name), repr(name)


@pytest.mark.parametrize(
    ("name", "accepted"),
    [
        ("Ada", True),
        ("  Ada\n", True),  # stripped
        ("a\x13b", False),  # issue 16's example
        ("   ", False),
        ("\U0001f468\u200d\U0001f469", True),  # a family emoji keeps its joiner
        ("a\u200d", False),
        ("\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", True),
        ("x\u202ey", False),
        ("a\u200d\U0001f3f4\U000e0067", True),  # a joined flag keeps its tags (found by
        ("\U0001f3f4\U000e0067\u200da", False),  # hypothesis); no joiner after a tag
    ],
)
def test_name_examples(name: str, accepted: bool) -> None:
    assert server_accepts(name) is accepted
    assert (re.fullmatch(name_pattern(), name) is not None) is accepted


def test_the_schema_says_a_table_with_people_takes_no_seed(db: Path) -> None:
    human, bot = {"kind": "human"}, {"kind": "bot", "bot_kind": "random"}
    for seeded_humans in (False, True):
        app = create_app(f"sqlite:///{db}", settings=replace(FAST, seeded_humans=seeded_humans))
        with TestClient(app) as client:
            schema = client.get("/openapi.json").json()
            validator = Draft202012Validator(
                {**schema["components"]["schemas"]["CreateTableRequest"],
                 "components": schema["components"]}
            )
            with_people = {"game": "dice", "seats": [human, bot], "seed": 5}
            assert validator.is_valid(with_people) is seeded_humans
            answer = client.post("/api/tables", json=with_people)
            assert (answer.status_code == 201) is seeded_humans
            bots_only = {"game": "dice", "seats": [bot, bot], "seed": 5}
            assert validator.is_valid(bots_only)
            assert client.post("/api/tables", json=bots_only).status_code == 201


def test_the_schema_names_the_games_and_their_limits() -> None:
    with TestClient(APP) as client:
        create = client.get("/openapi.json").json()["components"]["schemas"]
        request = create["CreateTableRequest"]
        assert request["properties"]["game"]["enum"] == ["dice", "express"]
        seed = request["properties"]["seed"]["anyOf"][0]
        assert seed == {"type": "integer", "minimum": 0, "exclusiveMaximum": 2**63}
        bots = [{"kind": "bot", "bot_kind": "random"}] * 2
        for value, status in [(7.0, 201), (7.5, 422), ("7", 422), (-1, 422)]:
            made = client.post("/api/tables", json={"game": "dice", "seats": bots, "seed": value})
            assert made.status_code == status, (value, made.text)
        refused = client.post("/api/tables", json={"game": "0", "seats": [{"kind": "human"}]})
        assert refused.status_code == 400
        claim = create["ClaimRequest"]["properties"]["name"]
        join = create["JoinRequest"]["properties"]["name"]["anyOf"][0]
        assert claim["pattern"] == join["pattern"] == name_pattern()
