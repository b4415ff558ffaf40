"""The HTTP API's contract (issue 8): ``OPTIONS`` and ``Allow`` list every method of a
path, the OpenAPI schema says what the server enforces (a bot seat's ``bot_kind``, 404s),
table creation is rate-limited per client, and a client seed is refused on tables with
people."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


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
