"""The HTTP API's interactive documentation (issue 20): Swagger UI at /docs, ReDoc at /redoc."""

from __future__ import annotations

from fastapi.testclient import TestClient

from lamagames import __version__


def test_swagger_ui_and_redoc_are_served(client: TestClient) -> None:
    for path, marker in (("/docs", "swagger-ui"), ("/redoc", "redoc")):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html"), path
        assert marker in response.text.lower(), path
        assert "/openapi.json" in response.text, path  # both read the app's own schema
    schema = client.get("/openapi.json").json()
    assert schema["info"]["version"] == __version__
    assert "/api/tables" in schema["paths"]
    assert "/docs" not in schema["paths"]  # the documentation pages are not API operations
