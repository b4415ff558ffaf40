"""A bounded schemathesis run against the app's own OpenAPI schema (issue 8): valid and
invalid requests to every operation, in process (ASGI); no answer may be a server error,
and every error answer has the documented ``{"error", "message"}`` shape.

Generated room codes name no table (404), so every request with a code is sent a second
time with the code of a real table, to reach the table's own checks (403, 409, 422, 200).
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from web_helpers import FAST

from lamagames.web import create_app

FOLDER = Path(tempfile.mkdtemp(prefix="lama-schemathesis-"))
APP = create_app(f"sqlite:///{FOLDER / 'web.sqlite3'}", settings=replace(FAST, seeded_humans=False))
with TestClient(APP) as _client:  # one real table (and the schema) before the run
    _made = _client.post(
        "/api/tables",
        json={"game": "dice", "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}]},
    ).json()
REAL_CODE: str = _made["code"]

schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    deterministic=True,
)


@schema.parametrize()
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_no_server_errors(case: schemathesis.Case[Any]) -> None:
    _check(case)
    if case.path_parameters and "code" in case.path_parameters:
        case.path_parameters["code"] = REAL_CODE  # the same request to a real table
        _check(case)


def _check(case: schemathesis.Case[Any]) -> None:
    response = case.call()
    assert response.status_code < 500, (response.status_code, response.text[:500])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error", "message"}, body
        assert body["error"] and body["message"]
