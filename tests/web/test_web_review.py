"""The game review of a finished table over HTTP (issue 18 item 2): computed once in the
background, stored, the same for everyone; errors of the endpoint."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from web_helpers import TestClient, create, start, wait_status

from lamagames.web import create_app
from lamagames.web.live import Settings
from lamagames.web.review import ReviewService, ReviewSettings
from lamagames.web.store import ReviewRow

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot_kind": "heuristic"}
SHORT = {"end_score": 5}  # a short LAMA Dice game (D-11)
FAST = Settings(bot_delay=0.0, create_per_minute=0, seeded_humans=True)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, settings=FAST)) as running:
        yield running


def reviews(client: TestClient) -> ReviewService:
    found: ReviewService = client.app.state.review  # type: ignore[attr-defined]
    return found


def finished_table(client: TestClient, players: int = 3) -> str:
    """A finished bots-only LAMA Dice table (short game); its code."""
    table = create(client, [BOT] * players, params=SHORT, seed=11)
    start(client, table)
    wait_status(client, table["code"], "finished", timeout=60)
    return str(table["code"])


def wait_review(client: TestClient, code: str, timeout: float = 120.0) -> dict[str, Any]:
    """Poll the review until it is done (or failed); the last answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer: dict[str, Any] = client.get(f"/api/tables/{code}/review").json()
        assert answer["status"] in ("running", "done", "failed"), answer
        assert 0.0 <= answer["progress"] <= 1.0
        if answer["status"] != "running":
            return answer
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_a_review_is_done_only_once_it_is_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "done" used to come before the insert: a client (and a test) told "done" could find
    # no stored row, and a server stopping in between lost it (CI raced it on PostgreSQL).
    code = finished_table(client, players=2)
    service = reviews(client)
    saving = threading.Event()
    release = threading.Event()
    real_save = ReviewService._save

    def slow_save(self: ReviewService, *args: Any) -> None:
        saving.set()
        assert release.wait(30)
        real_save(self, *args)

    monkeypatch.setattr(ReviewService, "_save", slow_save)
    assert client.post(f"/api/tables/{code}/review", json={"rollouts": 2}).status_code == 200
    assert saving.wait(60), "the review never reached its insert"
    assert client.get(f"/api/tables/{code}/review").json()["status"] == "running"
    release.set()
    assert wait_review(client, code)["status"] == "done"
    with service.store.engine.connect() as connection:
        assert len(connection.execute(ReviewRow.__table__.select()).all()) == 1


def test_a_finished_table_is_reviewed_once_and_stored(client: TestClient) -> None:
    code = finished_table(client)
    service = reviews(client)
    assert client.get(f"/api/tables/{code}/review").json() == {
        "status": "none",
        "progress": 0.0,
        "result": None,
        "message": None,
    }
    first = client.post(f"/api/tables/{code}/review", json={"rollouts": 4})
    assert first.status_code == 200, first.text
    assert first.json()["status"] in ("running", "done")
    answer = wait_review(client, code)
    assert answer["status"] == "done", answer
    result = answer["result"]
    assert result["game"] == "dice" and result["finished"] is True
    assert result["rollouts"] == 4
    assert len(result["names"]) == 3 and len(result["seats"]) == 3
    assert result["decisions"], "a LAMA Dice game has decisions"
    for decision in result["decisions"]:
        assert decision["loss"] >= 0
        if decision["mark"] is not None:  # the position of "learn from your mistakes"
            assert decision["best"] in decision["legal"]
            assert decision["action"] in decision["legal"]
            assert isinstance(decision["view"], dict)
    assert service.computed == 1
    # Stored: asked again (any client, any body), it is answered without computing again.
    again = client.post(f"/api/tables/{code}/review", json={"rollouts": 99})
    assert again.status_code == 200
    assert again.json()["result"] == result
    assert client.get(f"/api/tables/{code}/review").json()["result"] == result
    assert service.computed == 1
    with service.store.engine.connect() as connection:
        rows = connection.execute(ReviewRow.__table__.select()).all()
    assert len(rows) == 1 and rows[0].rollouts == 4


def test_a_stored_review_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, settings=FAST)) as first:
        code = finished_table(first, players=2)
        assert first.post(f"/api/tables/{code}/review", json={"rollouts": 2}).status_code == 200
        done = wait_review(first, code)
        assert done["status"] == "done"
    with TestClient(create_app(db_url, settings=FAST)) as second:
        answer = second.post(f"/api/tables/{code}/review")
        assert answer.status_code == 200
        assert answer.json()["result"] == done["result"]
        assert reviews(second).computed == 0


def test_the_same_app_started_again_plays_and_reviews(db_url: str) -> None:
    """One app whose lifespan runs twice (a test client entered twice, as schemathesis
    does): the second run stores and reviews as the first did (its store was closed and
    its review threads shut down at the end of the first)."""
    app = create_app(db_url, settings=FAST)
    with TestClient(app) as first:
        first_code = finished_table(first, players=2)
    with TestClient(app) as again:
        code = finished_table(again, players=2)
        assert again.post(f"/api/tables/{code}/review", json={"rollouts": 2}).status_code == 200
        assert wait_review(again, code)["status"] == "done"
        assert again.get(f"/api/tables/{first_code}").json()["status"] == "finished"


def test_review_errors(client: TestClient) -> None:
    missing = client.get("/api/tables/NOPE42/review")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert client.post("/api/tables/NOPE42/review").status_code == 404
    table = create(client, [HUMAN, BOT], params=SHORT)
    code = table["code"]
    for answer in (
        client.get(f"/api/tables/{code}/review"),
        client.post(f"/api/tables/{code}/review", json={}),
    ):
        assert answer.status_code == 409
        assert answer.json() == {
            "error": "not_finished",
            "message": "the review opens when the game is over",
        }
    start(client, table)  # playing is not finished either
    assert client.post(f"/api/tables/{code}/review").json()["error"] == "not_finished"
    for body in ({"rollouts": 0}, {"rollouts": "8"}, {"rollout": 8}, {"rollouts": 10**6}):
        bad = client.post(f"/api/tables/{code}/review", json=body)
        assert bad.status_code == 422, body
        assert "rollout" in bad.json()["message"]
    assert reviews(client).computed == 0


def test_review_requests_are_rate_limited_and_rollouts_capped(db_url: str) -> None:
    app = create_app(db_url, settings=FAST)
    with TestClient(app) as client:
        service = reviews(client)
        service.settings = ReviewSettings(max_rollouts=3)
        service.limit.burst = 2.0
        service.limit.rate = 1 / 60
        code = finished_table(client, players=2)
        assert client.post(f"/api/tables/{code}/review", json={"rollouts": 500}).status_code == 200
        client.get(f"/api/tables/{code}/review")  # reading is not limited
        assert client.post(f"/api/tables/{code}/review").status_code == 200
        limited = client.post(f"/api/tables/{code}/review")
        assert limited.status_code == 429
        assert limited.json()["error"] == "rate_limited"
        assert int(limited.headers["Retry-After"]) >= 1
        assert wait_review(client, code)["result"]["rollouts"] == 3
        assert service.computed == 1


def test_a_game_the_server_cannot_review_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lamagames.core.errors import RecordError
    from lamagames.web import review as web_review

    code = finished_table(client, players=2)

    def no_reviews(game_id: str, **_kwargs: Any) -> Any:
        raise RecordError("LAMA Dice reviews need numba")

    monkeypatch.setattr(web_review, "load_reviewer", no_reviews)
    refused = client.post(f"/api/tables/{code}/review")
    assert refused.status_code == 400
    assert refused.json() == {"error": "no_review", "message": "LAMA Dice reviews need numba"}
    assert reviews(client).computed == 0


def test_a_lama_express_table_is_reviewed_in_win_chance(client: TestClient) -> None:
    """Lama Express reviews value decisions in win chance (E-7: passes in windows are
    decisions too); a short game (three llamas to win) with two rollouts per action."""
    table = create(client, [BOT, BOT], game="express", params={"llamas_to_win": 3}, seed=5)
    start(client, table)
    code = table["code"]
    wait_status(client, code, "finished", timeout=60)
    assert client.post(f"/api/tables/{code}/review", json={"rollouts": 2}).status_code == 200
    answer = wait_review(client, code)
    assert answer["status"] == "done", answer
    result = answer["result"]
    assert (result["game"], result["unit"], result["rollouts"]) == ("express", "win chance", 2)
    assert result["decisions"]
    for decision in result["decisions"]:
        assert decision["level"] is None or 0.0 <= decision["level"] <= 1.0
        if decision["mark"] is not None:
            assert decision["best"] in decision["legal"] and "view" in decision


def test_progress_is_shown_while_the_review_runs_in_the_background(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review runs in a worker thread: the server answers (progress 1/4) while it is
    still working, and the same job is not started twice."""
    import threading

    from lamagames.coach.review import review_record as real
    from lamagames.web import review as web_review

    code = finished_table(client, players=2)
    halfway = threading.Event()
    go_on = threading.Event()

    def slow_review(record: Any, **kwargs: Any) -> Any:
        kwargs["progress"](1, 4)
        halfway.set()
        assert go_on.wait(30), "the test never let the review go on"
        return real(record, **kwargs)

    monkeypatch.setattr(web_review, "review_record", slow_review)
    first = client.post(f"/api/tables/{code}/review", json={"rollouts": 2}).json()
    assert first["status"] == "running"
    assert halfway.wait(30)
    assert client.get(f"/api/tables/{code}/review").json() == {
        "status": "running",
        "progress": 0.25,
        "result": None,
        "message": None,
    }
    assert client.post(f"/api/tables/{code}/review").json()["status"] == "running"
    go_on.set()
    assert wait_review(client, code)["status"] == "done"
    assert reviews(client).computed == 1


def test_status_never_says_none_while_a_review_finishes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review that finishes between the two reads of a status request is ``done``, never
    ``none`` (the status read the store, then the jobs: a job that was stored and left in
    between was in neither; seen on a loaded CI machine)."""
    from lamagames.web.review import _Job

    code = finished_table(client, players=2)
    service = reviews(client)
    data = service.store.load(code)
    assert data is not None
    job = _Job(total=len(data.actions))
    service._jobs[data.id] = job
    read_store = service._stored

    def read_then_finish(table_id: int) -> dict[str, Any] | None:
        before = read_store(table_id)
        job.result = {"decisions": [], "seats": []}  # what the worker thread does
        service._save(table_id, 2, job.result)
        with service._lock:
            service._saved.add(table_id)
            service._jobs.pop(table_id, None)
        return before

    monkeypatch.setattr(service, "_stored", read_then_finish)
    answer = client.get(f"/api/tables/{code}/review").json()
    assert answer["status"] == "done", answer
