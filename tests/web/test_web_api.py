"""HTTP and WebSocket play of LAMA Dice through the web app (TestClient, no browser)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import Peer, create, live_table, make_client, start, wait_status

from lamagames.core.records import parse_record, replay
from lamagames.web.live import Settings

HUMAN = {"kind": "human"}


def test_games_and_openapi(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["id"] for g in games] == ["dice", "express"]
    assert "heuristic" in games[0]["bot_kinds"]
    assert [g["windows"] for g in games] == [False, True]
    schema = client.get("/openapi.json").json()
    assert "/api/tables" in schema["paths"]
    assert "CreateTableRequest" in schema["components"]["schemas"]


def test_create_validates(client: TestClient) -> None:
    bad = [
        {"game": "chess", "seats": [HUMAN, HUMAN]},
        {"game": "dice", "seats": [HUMAN]},  # 1 player: engine refuses
        {"game": "dice", "seats": [HUMAN, {"kind": "bot", "bot_kind": "nope"}]},
        {"game": "dice", "seats": [HUMAN, HUMAN], "params": {"end_score": -1}},
        {"game": "dice", "seats": [HUMAN, HUMAN], "colour": "red"},  # unknown field
    ]
    for body in bad:
        response = client.post("/api/tables", json=body)
        assert response.status_code in (400, 422), body
        assert response.json()["message"], body
    response = client.post(
        "/api/tables", content=b"x" * 70_000, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_full_game_humans_and_bots_and_record(client: TestClient) -> None:
    table = create(
        client,
        [
            HUMAN,
            {"kind": "bot", "bot_kind": "heuristic"},
            HUMAN,
            {"kind": "bot", "bot_kind": "heuristic"},
        ],
        seed=11,
    )
    code = table["code"]
    tokens = [s["token"] for s in table["seats"]]
    assert tokens[1] is None and tokens[0] and tokens[2]
    joined = client.post(f"/api/tables/{code}/join", json={"token": tokens[0], "name": "Ada"})
    assert joined.json()["seat"] == 0
    assert client.get("/api/tables").json()[0]["code"] == code
    start(client, table)
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws2,
    ):
        p0, p2 = Peer(ws0), Peer(ws2)
        assert p0.hello(tokens[0])["seat"] == 0
        assert p2.hello(tokens[2])["seat"] == 2
        # Each human plays in its own thread (first legal action) until the game ends.
        with ThreadPoolExecutor(2) as pool:
            finals = list(pool.map(Peer.play, (p0, p2), (0, 2)))
        assert all(f["status"] == "finished" for f in finals)
        assert finals[0]["view"] == finals[1]["view"]
    record = parse_record(client.get(f"/api/tables/{code}/record").text)
    assert record.seed == 11
    assert [s.kind for s in record.seats] == ["human", "heuristic", "human", "heuristic"]
    assert record.seats[0].name == "Ada"
    assert replay(record).is_terminal()
    kinds = {e["by"] for e in client.get(f"/api/tables/{code}/replay").json()["events"]}
    assert {"human", "bot", "chance"} <= kinds


def test_one_human_plays_to_the_end(client: TestClient) -> None:
    table = create(
        client,
        [HUMAN, {"kind": "bot", "bot_kind": "benchmark"}, {"kind": "bot", "bot_kind": "heuristic"}],
    )
    start(client, table)
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        final = peer.play(0)
    assert final["view"]["winners"]
    assert final["legal"] == []
    record = parse_record(client.get(f"/api/tables/{table['code']}/record").text)
    assert replay(record).is_terminal()
    frames = client.get(f"/api/tables/{table['code']}/replay").json()["frames"]
    assert len(frames) == len(record.actions) + 1
    assert "legal_actions" not in frames[0]


def test_stale_duplicate_and_foreign_seat_refused(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    start(client, table)
    code = table["code"]
    t0, t1 = (s["token"] for s in table["seats"])
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
    ):
        p0, p1 = Peer(ws0), Peer(ws1)
        p0.hello(t0)
        p1.hello(t1)
        version = p0.turn(0)["version"]
        # Seat 1 tries to act in seat 0's turn.
        p1.send({"type": "action", "version": version, "action": "roll"})
        assert p1.error()["code"] == "not_your_turn"
        # Seat 0 quits; the same message again (same ref) is acknowledged as a duplicate and
        # not applied again; without a ref the old version makes it stale.
        sent = p0.act("quit", ref="a1")
        ack = p0.until(lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "version": version + 1, "ref": "a1", "duplicate": False}
        p0.send(sent)
        again = p0.until(lambda m: m["type"] in ("ack", "error"))
        assert again == {"type": "ack", "version": version + 1, "ref": "a1", "duplicate": True}
        p0.send({**sent, "ref": "a2"})
        error = p0.error()
        assert error["code"] == "stale" and error["ref"] == "a2" and error["message"]
        # An old version from seat 1 is stale too.
        p1.send({"type": "action", "version": version, "action": "roll"})
        assert p1.error()["code"] == "stale"
        # Illegal and unparsable actions.
        p1.turn(1)
        p1.act("take 3")
        assert p1.error()["code"] == "illegal"
        p1.act("fly away")
        assert p1.error()["code"] == "invalid"
    info = client.get(f"/api/tables/{code}").json()
    assert info["version"] == version + 1
    record = parse_record(client.get(f"/api/tables/{code}/record").text)
    assert [a.action for a in record.actions].count("quit") == 1
    assert record.seed is None  # not revealed before the game is over


def test_spectator_cannot_act_and_bad_token(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    start(client, table)
    code = table["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        peer = Peer(ws)
        state = peer.hello(None)
        if not state["acting"]:  # the opening deals may still be being stored
            state = peer.until(lambda m: m["type"] == "state" and bool(m["acting"]))
        assert state["seat"] is None and state["legal"] == []
        assert "legal_actions" not in state["view"]
        peer.send({"type": "action", "version": state["version"], "action": "roll"})
        assert peer.error()["code"] == "spectator"
        peer.send({"type": "leave"})
        assert peer.error()["code"] == "spectator"
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-real-token-123"})
        assert ws.receive_json()["code"] == "bad_token"
    with client.websocket_connect("/ws/NOPE42") as ws:
        assert ws.receive_json()["code"] == "not_found"
    assert client.get(f"/api/tables/{code}").json()["version"] == state["version"]
    response = client.post(f"/api/tables/{code}/join", json={"token": "x" * 22})
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("{not json", "invalid"),
        ("[1, 2]", "invalid"),
        ('{"type": "action", "version": 0, "action": "roll", "evil": 1}', "invalid"),
        ('{"type": "teleport"}', "invalid"),
        ('{"type": "action", "version": -1, "action": "roll"}', "invalid"),
        ('{"type": "action", "version": 0, "action": 7}', "invalid"),
        (
            json.dumps({"type": "action", "version": 0, "action": "roll", "ref": "x" * 5000}),
            "too_large",
        ),
    ],
)
def test_malformed_messages(client: TestClient, payload: str, code: str) -> None:
    table = create(client, [HUMAN, HUMAN])
    start(client, table)
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        state = peer.turn(0)
        ws.send_text(payload.replace('"version": 0', f'"version": {state["version"]}'))
        error = peer.error()
        assert error["code"] == code
        assert error["message"]
        ws.send_bytes(b"\x00\x01")
        assert peer.error()["code"] == "invalid"
        # The connection still works and nothing changed.
        peer.send({"type": "ping"})
        peer.until(lambda m: m["type"] == "pong")
    assert client.get(f"/api/tables/{table['code']}").json()["version"] == state["version"]


def test_hello_first(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.send({"type": "ping"})
        assert peer.error()["code"] == "hello_first"
        assert peer.hello(None)["status"] == "waiting"


def test_rate_limit(db: Path) -> None:
    settings = Settings(bot_delay=0, rate_per_second=1, rate_burst=3)
    with make_client(db, settings) as client:
        table = create(client, [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{table['code']}") as ws:
            peer = Peer(ws)
            peer.hello(None)
            for _ in range(4):
                peer.send({"type": "ping"})
            codes = [peer.recv().get("code") for _ in range(3)]
            assert "rate_limited" in codes


def test_restart_resumes_mid_game(db: Path) -> None:
    with make_client(db) as client:
        table = create(client, [HUMAN, {"kind": "bot", "bot_kind": "heuristic"}], seed=5)
        start(client, table)
        code, token = table["code"], table["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            peer = Peer(ws)
            peer.hello(token)
            for _ in range(3):
                peer.turn(0)
                peer.act()
            before = peer.turn(0)
        history = parse_record(client.get(f"/api/tables/{code}/record").text).actions
    with make_client(db) as client:  # a new app instance on the same file
        with client.websocket_connect(f"/ws/{code}") as ws:
            peer = Peer(ws)
            after = peer.hello(token)
            assert after["version"] == before["version"]
            assert after["view"] == before["view"]
            assert after["legal"] == before["legal"]
            final = peer.play(0)
        record = parse_record(client.get(f"/api/tables/{code}/record").text)
        assert record.actions[: len(history)] == history
        assert replay(record).is_terminal()
        assert final["status"] == "finished"


def test_restart_draws_the_same_chance_outcomes(db: Path, tmp_path: Path) -> None:
    """Chance outcomes depend only on the seed and the action index (resumable)."""
    records = []
    for path in (db, tmp_path / "other.sqlite3"):
        with make_client(path) as client:
            table = create(
                client,
                [
                    {"kind": "bot", "bot_kind": "heuristic"},
                    {"kind": "bot", "bot_kind": "heuristic"},
                ],
                seed=99,
            )
            start(client, table)
            wait_status(client, table["code"], "finished")
            records.append(parse_record(client.get(f"/api/tables/{table['code']}/record").text))
    assert records[0].actions == records[1].actions


def test_away_player_replaced_by_bot(client: TestClient) -> None:
    table = create(client, [HUMAN, {"kind": "bot", "bot_kind": "heuristic"}], away_timeout=0)
    code = table["code"]
    start(client, table)
    # Nobody connects: after the away timeout (0 s) a stand-in bot plays seat 0.
    wait_status(client, code, "finished")
    events = client.get(f"/api/tables/{code}/replay").json()["events"]
    assert any(e["by"] == "stand-in" and e["player"] == 0 for e in events)


def test_leave_and_back(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN], away_timeout=600)
    start(client, table)
    code = table["code"]
    t0, t1 = (s["token"] for s in table["seats"])
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws1,
    ):
        p0, p1 = Peer(ws0), Peer(ws1)
        p0.hello(t0)
        p1.hello(t1)
        p0.send({"type": "leave"})
        # Seat 0's turns are now played by a stand-in; seat 1 gets its turn.
        state = p1.turn(1)
        assert state["seats"][0]["replaced"] is True
        assert any(e["by"] == "stand-in" for e in state["events"])
        p0.send({"type": "back"})
        state = p0.until(lambda m: m["type"] == "state" and not m["seats"][0]["replaced"])
        assert state["seats"][0]["connected"]


def test_turn_clock_lets_a_bot_play(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN], turn_clock=5)
    code = table["code"]
    live = live_table(client, code)
    live.data.turn_clock = 0.05  # shorten for the test (the API minimum is 5 s)
    start(client, table)
    with client.websocket_connect(f"/ws/{code}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        clock = peer.until(lambda m: m["type"] == "state" and m["clock"] is not None)["clock"]
        assert clock["kind"] == "turn" and 0 <= clock["remaining"] <= 5
        peer.until(lambda m: m["type"] == "state" and any(e["by"] == "clock" for e in m["events"]))


def test_rematch(client: TestClient) -> None:
    table = create(client, [HUMAN, {"kind": "bot", "bot_kind": "heuristic"}], away_timeout=0)
    code = table["code"]
    token = table["seats"][0]["token"]
    assert client.post(f"/api/tables/{code}/rematch", json={"token": token}).status_code == 409
    start(client, table)
    wait_status(client, code, "finished")
    with client.websocket_connect(f"/ws/{code}") as ws:
        peer = Peer(ws)
        peer.hello(token)
        response = client.post(f"/api/tables/{code}/rematch", json={"token": token})
        assert response.status_code == 200, response.text
        body = response.json()
        message = peer.until(lambda m: m["type"] == "rematch")
        assert message == {"type": "rematch", "code": body["code"], "token": body["token"]}
    again = client.post(f"/api/tables/{code}/rematch", json={"token": table["host_token"]})
    assert again.json()["code"] == body["code"]  # only one rematch table
    info = client.get(f"/api/tables/{body['code']}").json()
    assert info["status"] in ("playing", "finished")
    assert client.get(f"/api/tables/{code}").json()["rematch"] == body["code"]
    bad = client.post(f"/api/tables/{code}/rematch", json={"token": "y" * 22})
    assert bad.status_code == 403


def test_claim_from_lobby(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    code = table["code"]
    first = client.post(f"/api/tables/{code}/claim", json={"name": "Bea"}).json()
    second = client.post(f"/api/tables/{code}/claim", json={"name": "Cem"}).json()
    assert {first["seat"], second["seat"]} == {0, 1}
    full = client.post(f"/api/tables/{code}/claim", json={"name": "Dan"})
    assert full.status_code == 409
    names = [s["name"] for s in client.get(f"/api/tables/{code}").json()["seats"]]
    assert names == ["Bea", "Cem"]
    private = create(client, [HUMAN, HUMAN], public=False)
    claim = client.post(f"/api/tables/{private['code']}/claim", json={"name": "X"})
    assert claim.status_code == 403
    assert private["code"] not in [t["code"] for t in client.get("/api/tables").json()]


def test_claim_never_takes_a_seat_named_by_the_host(client: TestClient) -> None:
    """A public table created through the API with the host's named seat: a stranger's
    claim from the lobby gets the unnamed seat, never the host's (nor a named friend's)."""
    table = create(
        client, [{"kind": "human", "name": "Ada"}, HUMAN, {"kind": "human", "name": "Bo"}]
    )
    code = table["code"]
    claimed = client.post(f"/api/tables/{code}/claim", json={"name": "Eve"}).json()
    assert claimed["seat"] == 1
    full = client.post(f"/api/tables/{code}/claim", json={"name": "Mallory"})
    assert full.status_code == 409 and full.json()["error"] == "full"
    host = client.post(f"/api/tables/{code}/join", json={"token": table["seats"][0]["token"]})
    assert host.status_code == 200 and host.json()["seat"] == 0
    names = [s["name"] for s in client.get(f"/api/tables/{code}").json()["seats"]]
    assert names == ["Ada", "Eve", "Bo"]


def test_start_needs_host(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    code = table["code"]
    seat_token = table["seats"][0]["token"]
    wrong = client.post(f"/api/tables/{code}/start", json={"host_token": seat_token})
    assert wrong.status_code == 403
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"


def test_pages_and_static(client: TestClient) -> None:
    assert "<html" in client.get("/").text
    assert client.get("/t/ABCDEF").status_code == 200
    assert client.get("/static/i18n/de.json").json()["lang.name"] == "Deutsch"


def test_default_database_in_user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lamagames.web.store import Store

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    store = Store(None)
    try:
        assert store.url == f"sqlite:///{tmp_path / 'lamagames' / 'web.sqlite3'}"
        data = store.create_table(
            game="dice",
            params={},
            seed=1,
            seats=[("human", "A", None), ("bot", "B", "random")],
            public=True,
            turn_clock=None,
            away_timeout=60,
            alertness=None,
        )
        assert store.load(data.code) == data
    finally:
        store.close()


def test_claim_gets_its_own_token_and_the_invite_says_taken(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    code = table["code"]
    invite = table["seats"][1]["token"]
    client.post(f"/api/tables/{code}/join", json={"token": table["seats"][0]["token"]})
    claimed = client.post(f"/api/tables/{code}/claim", json={"name": "Bea"}).json()
    assert claimed["seat"] == 1 and claimed["token"] != invite
    late = client.post(f"/api/tables/{code}/join", json={"token": invite, "name": "Eve"})
    assert late.status_code == 409 and late.json()["error"] == "seat_taken"
    assert client.get(f"/api/tables/{code}").json()["seats"][1]["name"] == "Bea"
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": invite})
        assert ws.receive_json()["code"] == "seat_taken"
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert Peer(ws).hello(claimed["token"])["seat"] == 1


def test_seats_without_a_chosen_name_store_none(client: TestClient) -> None:
    table = create(
        client, [{"kind": "human", "name": "Ada"}, HUMAN, {"kind": "bot", "bot_kind": "heuristic"}]
    )
    assert [s["name"] for s in table["seats"]] == ["Ada", "", ""]
    seats = client.get(f"/api/tables/{table['code']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ada", "", ""]  # clients show "Seat 2" / the bot


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/nothing", 404, "not_found"),
        ("POST", "/api/games", 405, "not_allowed"),
        ("PUT", "/api/tables", 405, "not_allowed"),
    ],
)
def test_unknown_routes_answer_the_error_shape(
    client: TestClient, method: str, path: str, status: int, code: str
) -> None:
    response = client.request(method, path, json={})
    assert response.status_code == status
    assert set(response.json()) == {"error", "message"} and response.json()["error"] == code


def test_bad_bodies_and_unknown_parameters_are_explained(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    broken = client.post("/api/tables", content=b"{nope", headers=headers)
    assert broken.status_code == 422 and broken.json()["message"] == "body is not valid JSON"
    body = {"game": "dice", "seats": [HUMAN, HUMAN], "params": {"foo": 1}}
    unknown = client.post("/api/tables", json=body)
    assert unknown.status_code == 400
    assert unknown.json()["message"].startswith("unknown parameter 'foo' for LAMA Dice; known:")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"seats": [{"kind": "human", "name": "   "}, HUMAN]}, "more than spaces"),
        ({"seats": [{"kind": "human", "name": "a\u202eb"}, HUMAN]}, "text-direction"),
        ({"seats": [{"kind": "human", "name": "a\x07b"}, HUMAN]}, "control"),
        ({"seats": [HUMAN, {"kind": "bot"}]}, "needs a bot_kind"),
        ({"alertness": 10}, "no free-action windows"),
        ({"away_timeout": "60"}, "away_timeout"),
        ({"public": "yes"}, "public"),
    ],
)
def test_create_refuses_bad_names_and_loose_types(
    client: TestClient, change: dict[str, object], says: str
) -> None:
    body = {"game": "dice", "seats": [HUMAN, HUMAN], **change}
    response = client.post("/api/tables", json=body)
    assert response.status_code in (400, 422)
    assert says in response.json()["message"]


def test_names_are_stripped(client: TestClient) -> None:
    table = create(client, [{"kind": "human", "name": "  Ada "}, HUMAN])
    assert table["seats"][0]["name"] == "Ada"


def test_ws_version_must_be_a_number(client: TestClient) -> None:
    table = create(client, [HUMAN, {"kind": "bot", "bot_kind": "random"}])
    start(client, table)
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        peer.send({"type": "action", "version": "54", "action": "roll"})
        error = peer.error()
        assert (
            error["code"] == "invalid"
            and "version: Input should be a valid integer" in error["message"]
        )
