"""Several server processes on one PostgreSQL database (issue 16, items 2-4): real
``python -m lamagames serve`` processes; a person on B plays a table owned by A while a
spectator on B sees every version in order; the owner is killed with SIGKILL mid-game,
again and again, and another process takes over with no acknowledged action lost or
doubled; a rolling restart loses nothing. Skipped without ``LAMA_TEST_POSTGRES_URL``."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from db_helpers import postgres_base_url, postgres_schema
from web_helpers import FAST, Peer, TestClient, create, hide_numba, start
from websockets.sync.client import ClientConnection, connect

import lamagames
from lamagames.core.records import parse_record
from lamagames.web import cluster as cluster_module
from lamagames.web import create_app

#: PostgreSQL only (left out at collection without a server outside CI: conftest.py).
pytestmark = pytest.mark.postgres

SRC = str(Path(lamagames.__file__).resolve().parent.parent)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema (skipped without ``LAMA_TEST_POSTGRES_URL``)."""
    with postgres_schema(postgres_base_url()) as url:
        yield url


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _http(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class Server:
    """``python -m lamagames serve`` on a free port of 127.0.0.1."""

    def __init__(self, db_url: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
        command = [sys.executable, "-m", "lamagames", "serve", "--port", str(self.port)]
        command += ["--db", db_url, "--bot-delay", "0"]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=self.log
        )

    def wait_up(self) -> Server:
        deadline = time.monotonic() + 60
        while True:
            try:
                _http(self.base, "/api/games")
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.log.seek(0)
                    stderr = self.log.read().decode(errors="replace")[-3000:]
                    raise AssertionError(f"server {self.base} did not start: {stderr}") from None
                time.sleep(0.1)

    def ws(self, code: str) -> ClientConnection:
        return connect(self.base.replace("http", "ws") + f"/ws/{code}")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """Graceful stop (SIGTERM), as a rolling restart does."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(20)


@pytest.fixture
def servers(pg_url: str) -> Iterator[list[Server]]:
    """Started servers (tests append more); every one is killed at the end."""
    started: list[Server] = []
    try:
        yield started
    finally:
        for server in started:
            if server.process.poll() is None:
                server.process.kill()
                server.process.wait(10)
            # pytest shows this only when the test failed: the servers' own account of it
            server.log.seek(0)
            stderr = server.log.read().decode(errors="replace")[-4000:]
            print(f"--- server {server.base} (exit {server.process.returncode}) stderr:\n{stderr}")


def _two(servers: list[Server], db_url: str) -> tuple[Server, Server]:
    """Two servers on one database, the second started once the first made the schema
    (two first starts at once on an empty database race to create it)."""
    first = Server(db_url)
    servers.append(first)
    first.wait_up()
    second = Server(db_url)
    servers.append(second)
    return first, second.wait_up()


def _table(base: str, public: bool = False) -> tuple[str, str]:
    """A started table (a person and a random bot) made through ``base``: code, token. The
    game goes to 1,000 points (D-11), so it cannot end during a test."""
    table = _http(
        base,
        "/api/tables",
        {
            "game": "dice",
            "params": {"end_score": 1000},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}],
            "public": public,
            "away_timeout": 600,
        },
    )
    _http(base, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    return table["code"], table["seats"][0]["token"]


def _next_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which seat 0 may act (or the final state)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message["type"] == "state" and (
            message["status"] == "finished" or (0 in message["acting"] and message["legal"])
        ):
            return message


class Turns:
    """The person at seat 0 on one WebSocket: the state of its next turn is kept between
    calls (the table waits for it; no new state comes until it acts)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None

    def play(self, count: int, acked: dict[int, str], tag: str) -> bool:
        """Take ``count`` turns (see :func:`_play`); False if the game ended first."""
        self.state = _play(self.ws, count, acked, tag, self.state)
        return bool(self.state["status"] != "finished")


def _play(
    ws: ClientConnection,
    count: int,
    acked: dict[int, str],
    tag: str,
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Take ``count`` turns from ``state`` (``None``: the next turn state received), each
    acknowledged and recorded in ``acked`` (index -> action); returns the state of the
    next turn (or the final state)."""
    state = state or _next_turn(ws)
    for number in range(count):
        if state["status"] == "finished":
            return state
        action = state["legal"][0]["action"]
        ref = f"{tag}{number}"
        message = {"type": "action", "version": state["version"], "action": action, "ref": ref}
        ws.send(json.dumps(message))
        while (reply := json.loads(ws.recv(timeout=30)))["type"] not in ("ack", "error"):
            pass
        assert reply["type"] == "ack", reply
        assert reply["version"] - 1 not in acked
        acked[reply["version"] - 1] = action
        state = _next_turn(ws)
    return state


def _check_record(base: str, code: str, acked: dict[int, str]) -> int:
    """Every acknowledged action is stored at its place; returns the stored count."""
    record = parse_record(json.dumps(_http(base, f"/api/tables/{code}/record")))
    for index, action in acked.items():
        assert index < len(record.actions), f"acknowledged action {index} lost"
        assert (record.actions[index].player, record.actions[index].action) == (0, action)
    info = _http(base, f"/api/tables/{code}")
    assert info["version"] == len(record.actions)
    return len(record.actions)


def test_person_on_b_plays_a_table_owned_by_a_and_a_spectator_on_b_sees_every_version(
    servers: list[Server], pg_url: str
) -> None:
    a, b = _two(servers, pg_url)
    code, token = _table(a.base)  # started through A: A owns it
    acked: dict[int, str] = {}
    with b.ws(code) as spectator, b.ws(code) as player:
        spectator.send(json.dumps({"type": "hello"}))
        player.send(json.dumps({"type": "hello", "token": token}))
        _play(player, 8, acked, "b")
        final = _http(a.base, f"/api/tables/{code}")["version"]
        seen: list[int] = []
        while not seen or seen[-1] < final:
            message = json.loads(spectator.recv(timeout=30))
            if message["type"] == "state":
                seen.append(message["version"])
    assert len(acked) >= 4
    assert seen == sorted(seen), "versions out of order"
    assert set(range(seen[0], final + 1)) <= set(seen), "a version was skipped"
    assert _http(b.base, f"/api/tables/{code}")["version"] == final  # B's answer is current
    _check_record(a.base, code, acked)


def test_killing_the_owner_again_and_again_loses_and_doubles_nothing(
    servers: list[Server], pg_url: str
) -> None:
    """Round r: the person plays through the process that does not own the table, the
    owner is killed with SIGKILL, the person's process takes over (within 5 s: the bot
    answers the next turn), and a fresh process joins for the next round."""
    owner, other = _two(servers, pg_url)
    code, token = _table(owner.base)
    acked: dict[int, str] = {}
    for round_ in range(2):
        with other.ws(code) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            player = Turns(ws)
            assert player.play(3, acked, f"r{round_}-")
            killed_at = max(acked)
            owner.kill()
            started = time.monotonic()
            assert player.play(2, acked, f"r{round_}x")  # served by the new owner
            assert time.monotonic() - started < 5 + 5  # takeover within 5 s (plus turns)
            for extra in range(20):  # the bot goes on under the new owner
                if _bot_acted_after(other.base, code, killed_at):
                    break
                assert player.play(1, acked, f"r{round_}y{extra}")
            else:
                raise AssertionError("the bot never acted after the takeover")
        fresh = Server(pg_url)
        servers.append(fresh)
        owner, other = other, fresh.wait_up()
    assert len(acked) >= 10
    stored = _check_record(owner.base, code, acked)
    assert stored > max(acked)


def _bot_acted_after(base: str, code: str, index: int) -> bool:
    record = parse_record(json.dumps(_http(base, f"/api/tables/{code}/record")))
    return any(a.player == 1 for a in record.actions[index + 1 :])


def test_rolling_restart_loses_no_table_and_no_acknowledged_action(
    servers: list[Server], pg_url: str
) -> None:
    """Two processes, a table owned by each; each process in turn is stopped (SIGTERM)
    and started again while people keep playing through whichever is up."""
    first, second = _two(servers, pg_url)
    tables = [_table(first.base), _table(second.base)]
    acked: list[dict[int, str]] = [{}, {}]
    live = [first, second]
    for turn in range(2):
        going, staying = live[turn], live[1 - turn]
        for number, (code, token) in enumerate(tables):
            with going.ws(code) as player:
                player.send(json.dumps({"type": "hello", "token": token}))
                assert Turns(player).play(2, acked[number], f"t{turn}-")
        going.stop()
        for number, (code, token) in enumerate(tables):
            with staying.ws(code) as player:  # the client reconnects to the other one
                player.send(json.dumps({"type": "hello", "token": token}))
                assert Turns(player).play(2, acked[number], f"t{turn}x")
        fresh = Server(pg_url)
        servers.append(fresh)
        live[turn] = fresh.wait_up()
    for number, (code, _token) in enumerate(tables):
        assert len(acked[number]) == 8
        _check_record(live[0].base, code, acked[number])


# ---------------------------------------------------------------------------- in process
# Two apps on one database in this process (each TestClient runs its own event loop, as two
# processes would): quicker checks of forwarding and of updates sent by reference.


def _apps(db_url: str) -> tuple[TestClient, TestClient]:
    return TestClient(create_app(db_url, settings=FAST)), TestClient(
        create_app(db_url, settings=FAST)
    )


def _states_until(peer: Peer, version: int) -> list[int]:
    seen: list[int] = []
    while not seen or seen[-1] < version:
        message = peer.recv()
        if message["type"] == "state":
            seen.append(message["version"])
    return seen


def test_updates_by_reference_reach_every_version_in_order(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every update goes by reference (as one over 7,900 bytes would): the follower reads
    the actions from the database and its spectator still sees every version in order."""
    monkeypatch.setattr(cluster_module, "MAX_PAYLOAD", 0)
    first, second = _apps(pg_url)
    with first as a, second as b:
        table = create(a, [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}])
        start(a, table)
        with (
            b.websocket_connect(f"/ws/{table['code']}") as ws_spectator,
            a.websocket_connect(f"/ws/{table['code']}") as ws_player,
        ):
            spectator, player = Peer(ws_spectator), Peer(ws_player)
            spectator.hello(None)
            player.hello(table["seats"][0]["token"])
            for _ in range(4):
                if player.turn(0)["status"] == "finished":
                    break
                player.act()
                player.until(lambda m: m["type"] == "ack")
            final = a.get(f"/api/tables/{table['code']}").json()["version"]
            seen = _states_until(spectator, final)
    assert seen == sorted(seen)
    assert set(range(seen[0], final + 1)) <= set(seen)


def test_claim_join_and_start_through_a_process_that_does_not_own_the_table(
    pg_url: str,
) -> None:
    first, second = _apps(pg_url)
    with first as a, second as b:
        seats = [
            {"kind": "human", "name": "Ada"},
            {"kind": "human"},
            {"kind": "bot", "bot_kind": "random"},
        ]
        table = create(a, seats, public=True)
        code = table["code"]
        assert a.get(f"/api/tables/{code}").status_code == 200  # A loads it first: A owns it
        claimed = b.post(f"/api/tables/{code}/claim", json={"name": "Bob"})
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["seat"] == 1
        assert b.post(f"/api/tables/{code}/claim", json={"name": "Cy"}).json()["error"] == "full"
        joined = b.post(f"/api/tables/{code}/join", json={"token": table["seats"][0]["token"]})
        assert joined.status_code == 200, joined.text
        wrong = b.post(f"/api/tables/{code}/start", json={"host_token": "x" * 20})
        assert wrong.status_code == 403
        started = b.post(f"/api/tables/{code}/start", json={"host_token": table["host_token"]})
        assert started.status_code == 200, started.text
        info = a.get(f"/api/tables/{code}").json()  # the owner's view
        assert info["status"] == "playing"
        assert [s["name"] for s in info["seats"][:2]] == ["Ada", "Bob"]
        assert all(s["joined"] for s in info["seats"])
        with b.websocket_connect(f"/ws/{code}") as ws:  # the claimed token works on B
            peer = Peer(ws)
            peer.hello(claimed.json()["token"])
            state = peer.until(lambda m: m["type"] == "state")
            assert state["seat"] == 1
            assert state["seats"][1]["connected"]
        # the owner saw B's player connected (presence), then gone again
        deadline = time.monotonic() + 10
        while a.get(f"/api/tables/{code}").json()["seats"][1]["connected"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_a_whole_game_and_its_rematch_through_a_process_that_does_not_own_the_table(
    pg_url: str,
) -> None:
    first, second = _apps(pg_url)
    with first as a, second as b:
        table = create(a, [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}])
        start(a, table)  # A owns it
        code, token = table["code"], table["seats"][0]["token"]
        with b.websocket_connect(f"/ws/{code}") as ws:
            peer = Peer(ws)
            peer.hello(token)
            final = peer.play(0)  # every action forwarded to A
            assert final["status"] == "finished"
            answer = b.post(f"/api/tables/{code}/rematch", json={"token": token})
            assert answer.status_code == 200, answer.text
            rematch = answer.json()
            told = peer.until(lambda m: m["type"] == "rematch")  # B's player is told
            assert (told["code"], told["token"]) == (rematch["code"], rematch["token"])
        again = b.post(f"/api/tables/{code}/rematch", json={"token": token}).json()
        assert again["code"] == rematch["code"]  # created once
        record = a.get(f"/api/tables/{code}/record").json()
        assert len(record["actions"]) == final["version"]
        info = a.get(f"/api/tables/{rematch['code']}").json()
        assert info["status"] == "playing"


def _error_soon(peer: Peer) -> dict[str, Any]:
    """The next ``error`` within 10 s (pinging meanwhile, so a missing one fails instead
    of waiting forever)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        peer.send({"type": "ping"})
        message = peer.until(lambda m: m["type"] in ("error", "pong"))
        if message["type"] == "error":
            return message
        time.sleep(0.05)
    raise AssertionError("no error came")


def test_a_bot_that_cannot_be_made_is_reported_on_every_process(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner cannot make a table's bot (numba missing): players and spectators on the
    other process get the ``bot_unavailable`` error too, also when they come later."""
    first, second = _apps(pg_url)
    with first as a, second as b:
        seats = [{"kind": "bot", "bot_kind": "search"}, {"kind": "human"}]
        table = create(a, seats, params={"starting_seat": 0}, seed=5)
        hide_numba(monkeypatch)
        code = table["code"]
        assert a.get(f"/api/tables/{code}").status_code == 200  # A loads it first: A owns it
        with b.websocket_connect(f"/ws/{code}") as ws:
            early = Peer(ws)
            early.hello(None)
            start(a, table)  # A owns it; its driver cannot make the bot
            error = _error_soon(early)
            assert error["code"] == "bot_unavailable"
            assert error["message"].startswith("seat 1: the 'search' bot is not available")
        first_app: Any = a.app
        assert first_app.state.hub().tables[code].owned
        third = TestClient(create_app(pg_url, settings=FAST))
        with third as c, c.websocket_connect(f"/ws/{code}") as ws:
            late = Peer(ws)  # a process that loads the table after the failure
            late.hello(None)
            assert _error_soon(late) == error


def test_lama_lease_names_the_owning_process_and_follows_a_failover(
    servers: list[Server], pg_url: str
) -> None:
    """``lama lease CODE --db URL`` names the worker holding the table's lease (its pid and
    host, from PostgreSQL itself); after the owner is killed it names the one that took over;
    an unknown code or a SQLite URL is a one-line error."""
    from typer.testing import CliRunner

    from lamagames.cli.main import app

    runner = CliRunner()
    a, b = _two(servers, pg_url)
    code, token = _table(a.base)  # started through A: A owns it
    result = runner.invoke(app, ["lease", code, "--db", pg_url])
    assert result.exit_code == 0, result.output
    host = socket.gethostname()
    assert f"lease held by worker pid {a.process.pid} on host {host}" in result.output
    assert "lama:lama" not in result.output and token not in result.output
    a.kill()
    with b.ws(code) as ws:  # B follows the table: it takes the lease within seconds
        ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + 15
        while True:
            result = runner.invoke(app, ["lease", code, "--db", pg_url])
            if result.exit_code == 0:
                break
            assert result.exit_code == 1 and "no lease held" in result.output, result.output
            assert time.monotonic() < deadline, "B never took the lease"
            time.sleep(0.2)
    assert f"lease held by worker pid {b.process.pid} on host {host}" in result.output
    unknown = runner.invoke(app, ["lease", "NOSUCH", "--db", pg_url])
    assert unknown.exit_code == 2 and "no table 'NOSUCH'" in unknown.output
    assert len(unknown.output.strip().splitlines()) == 1
    sqlite = runner.invoke(app, ["lease", code, "--db", "sqlite://"])
    assert sqlite.exit_code == 2 and "leases exist only on PostgreSQL" in sqlite.output
