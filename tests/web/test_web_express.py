"""Lama Express through the web app: tables, free-action windows over WebSockets (E-9).

The window tests follow one seeded opening of a two-player game (yellow seat 0, green seat 1):

* roll 0 is green, blue or purple: train A moves 3..5 spaces, so a car of A stops on yellow's
  boarding space; yellow lets that chance pass twice (after the move and after the next roll);
* roll 3 (green's turn) is red, yellow or orange: green moves train B so that one of its cars
  stops on green's boarding space. The window after that move is open for both seats at once.

Two more window tests start from positions that seeded games of random bots reach (two seats
after the same llama; a detour that gives its owner a new chance) and that are stored as a
table of four people before the app replays it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import (
    Peer,
    create,
    express_window,
    live_table,
    seed_with_rolls,
    start,
    stored_table,
)

from lamagames.core.game import State
from lamagames.core.records import parse_record, replay
from lamagames.express.actions import PASS
from lamagames.express.game import as_express_state

HUMAN = {"kind": "human"}


OPENING_SEED = seed_with_rolls({0: "GBP", 3: "RYO"})


def free_action(state: dict[str, Any]) -> str:
    """The one free action (not ``pass``) of the receiving seat."""
    actions: list[str] = [a["action"] for a in state["legal"] if a["action"] != "pass"]
    assert len(actions) == 1, actions
    return actions[0]


def reply(peer: Peer) -> dict[str, Any]:
    """The next ack or error."""
    return peer.until(lambda m: m["type"] in ("ack", "error"))


def version_of(client: TestClient, code: str) -> int:
    """The table's version as the HTTP API reports it."""
    version: int = client.get(f"/api/tables/{code}").json()["version"]
    return version


def test_games_list_express_options(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    express = games["express"]
    assert express["windows"] is True and express["max_players"] == 4
    choices = express["extras"]["colour_choices"]
    assert ["yellow", "pink", "green"] in choices["3"]
    assert ["yellow", "green", "pink"] not in choices["3"]  # not clockwise (E-4)
    assert len(choices["4"]) == 4 and len(choices["2"]) == 12
    assert express["extras"]["llamas_to_win"] == [4, 3]
    assert express["extras"]["default_colours"]["2"] == ["yellow", "green"]


def test_create_express_validates(client: TestClient) -> None:
    bad: list[dict[str, Any]] = [
        {"seats": [HUMAN] * 5},
        {"seats": [HUMAN, HUMAN], "params": {"turn_limit": 50}},
        {"seats": [HUMAN, HUMAN], "params": {"llamas_to_win": 2}},
        {"seats": [HUMAN, HUMAN, HUMAN], "params": {"colours": ["yellow", "green", "pink"]}},
        {"seats": [HUMAN, HUMAN], "params": {"colours": ["yellow", "yellow"]}},
    ]
    for body in bad:
        response = client.post("/api/tables", json={"game": "express", **body})
        assert response.status_code == 400, body
        assert response.json()["message"], body
    table = create(
        client,
        [HUMAN, HUMAN, HUMAN],
        game="express",
        params={"colours": ["pink", "green", "yellow"], "llamas_to_win": 3},
        alertness=10,
    )
    info = client.get(f"/api/tables/{table['code']}").json()
    assert info["params"]["colours"] == ["pink", "green", "yellow"]
    assert info["params"]["llamas_to_win"] == 3
    assert info["alertness"] == 10
    assert info["renderer"] == "games/express/render.js"


def test_humans_and_bots_play_a_short_game_to_the_end(client: TestClient) -> None:
    seats = [
        HUMAN,
        {"kind": "bot", "bot_kind": "heuristic"},
        HUMAN,
        {"kind": "bot", "bot_kind": "benchmark"},
    ]
    colours = ["pink", "green", "blue", "yellow"]
    table = create(
        client, seats, game="express", params={"colours": colours, "llamas_to_win": 3}, seed=7
    )
    code = table["code"]
    tokens = [s["token"] for s in table["seats"]]
    start(client, table)
    with (
        client.websocket_connect(f"/ws/{code}") as ws0,
        client.websocket_connect(f"/ws/{code}") as ws2,
        client.websocket_connect(f"/ws/{code}") as spectator_ws,
    ):
        p0, p2, spectator = Peer(ws0), Peer(ws2), Peer(spectator_ws)
        first = p0.hello(tokens[0])
        p2.hello(tokens[2])
        watching = spectator.hello(None)
        assert first["view"]["board"]["length"] == 48
        assert len(first["view"]["board"]["track"]) == 48
        assert first["view"]["colours"] == colours
        assert "legal_actions" not in watching["view"]
        # Humans always take their last legal action: a free action rather than a pass.
        with ThreadPoolExecutor(2) as pool:
            finals = list(pool.map(Peer.play, (p0, p2), (0, 2), (-1, -1)))
    assert all(f["status"] == "finished" for f in finals)
    view = finals[0]["view"]
    winner = view["winner"]
    assert winner is not None and view["houses"][winner] == 3
    record = parse_record(client.get(f"/api/tables/{code}/record").text)
    assert record.seed == 7
    assert replay(record).is_terminal()
    events = client.get(f"/api/tables/{code}/replay").json()["events"]
    assert {"human", "bot", "chance"} <= {e["by"] for e in events}
    human_free = [
        e for e in events if e["by"] == "human" and e["action"].split()[0] in ("board", "exit")
    ]
    assert human_free, "the humans boarded or got off at least once"


@contextmanager
def double_window(client: TestClient) -> Iterator[tuple[str, Peer, Peer, int]]:
    """Play the seeded opening up to the window open for both seats (see the module doc).

    Yields the table code, both peers and the version at which the window is open for both.
    """
    table = create(client, [HUMAN, HUMAN], game="express", seed=OPENING_SEED)
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
        choose = p0.turn(0)
        assert [a["action"] for a in choose["legal"]] == ["move A", "move B"]
        # Somebody else's decision is refused and changes nothing.
        p1.send({"type": "action", "version": choose["version"], "action": "move A"})
        assert p1.error()["code"] == "not_your_turn"
        p0.act("move A")
        window = p0.turn(0)
        assert window["view"]["window"]["stage"] == "after_move"
        assert free_action(window).startswith("board A")
        p0.act("pass")  # the window closes, green rolls; yellow's chance is still there
        again = p0.turn(0)
        assert again["view"]["window"]["stage"] == "after_roll"
        p0.act("pass")
        p1.turn(1)
        p1.act("move B")
        both = p0.until(lambda m: m["type"] == "state" and sorted(m["acting"]) == [0, 1])
        p1.until(lambda m: m["type"] == "state" and m["version"] == both["version"])
        yield code, p0, p1, both["version"]


def test_window_actions_apply_in_arrival_order(client: TestClient) -> None:
    with double_window(client) as (code, p0, p1, version):
        assert p0.state is not None and p1.state is not None
        board0, board1 = free_action(p0.state), free_action(p1.state)
        # Seat 1 tries seat 0's chance: refused, nothing changes.
        p1.send({"type": "action", "version": version, "action": board0})
        assert p1.error()["code"] == "illegal"
        # Both act on the same version; both are applied, in arrival order.
        p0.send({"type": "action", "version": version, "action": board0, "ref": "y1"})
        assert reply(p0) == {"type": "ack", "version": version + 1, "ref": "y1", "duplicate": False}
        # The same choice again, under a new ref or none: seat 0 has acted since that version,
        # so it is refused as stale (one choice, one action).
        for ref in ("y2", None):
            p0.send({"type": "action", "version": version, "action": board0, "ref": ref})
            stale = reply(p0)
            assert stale["code"] == "stale" and "acted since" in stale["message"]
        p1.send({"type": "action", "version": version, "action": board1, "ref": "g1"})
        assert reply(p1) == {"type": "ack", "version": version + 2, "ref": "g1", "duplicate": False}
        record = parse_record(client.get(f"/api/tables/{code}/record").text)
        applied = [(a.player, a.action) for a in record.actions[version : version + 2]]
        assert applied == [(0, board0), (1, board1)]
        # The same ref again: acknowledged, applied once only.
        p1.send({"type": "action", "version": version, "action": board1, "ref": "g1"})
        assert reply(p1) == {"type": "ack", "version": version + 2, "ref": "g1", "duplicate": True}
        # Nobody has a chance left, so the window closed and the next roll was made: a pass
        # chosen in the closed window is stale and changes nothing.
        after = version_of(client, code)
        assert after > version + 2
        p0.send({"type": "action", "version": version, "action": "pass", "ref": "y3"})
        assert reply(p0)["code"] == "stale"
        assert version_of(client, code) == after
    record = parse_record(client.get(f"/api/tables/{code}/record").text)
    assert [a.action for a in record.actions].count(board1) == 1
    assert record.actions[after:] == []


def test_pass_in_arrival_order_and_strict_outside_windows(client: TestClient) -> None:
    with double_window(client) as (code, p0, p1, version):
        assert p1.state is not None
        # Seat 1 boards first; seat 0's pass chosen at the same version still counts (its
        # chances did not change) and comes second.
        p1.send({"type": "action", "version": version, "action": free_action(p1.state)})
        assert reply(p1)["version"] == version + 1
        p0.send({"type": "action", "version": version, "action": "pass", "ref": "y1"})
        assert reply(p0) == {"type": "ack", "version": version + 2, "ref": "y1", "duplicate": False}
        record = parse_record(client.get(f"/api/tables/{code}/record").text)
        assert record.actions[version + 1].action == "pass"
        # Outside windows versions stay strict: green's train choice was made at version - 1.
        p1.send({"type": "action", "version": version - 1, "action": "move B", "ref": "g2"})
        assert reply(p1)["code"] == "stale"


def test_alertness_timer_passes_for_the_sleepy(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN], game="express", seed=OPENING_SEED, alertness=1)
    code = table["code"]
    live = live_table(client, code)
    live.data.alertness = 0.05  # shorten for the test (the API minimum is 1 s)
    start(client, table)
    with client.websocket_connect(f"/ws/{code}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        peer.turn(0)
        peer.act("move A")
        clock = peer.until(lambda m: m["type"] == "state" and m["clock"] is not None)["clock"]
        assert clock["kind"] == "alertness" and clock["seats"] == [0]
        # Seat 0 does nothing: the timer lets its chance pass.
        timed = peer.until(
            lambda m: m["type"] == "state" and any(e["by"] == "timer" for e in m["events"])
        )
        event = next(e for e in timed["events"] if e["by"] == "timer")
        assert event == {**event, "player": 0, "action": "pass"}


def same_chance(state: State) -> tuple[int, int, str] | None:
    """Two seats that may both take the same free action (say, detour one llama)."""
    acting = state.acting_players()
    for a in acting:
        for b in acting:
            shared = set(state.legal_actions(a)) & set(state.legal_actions(b)) - {PASS}
            if a != b and shared:
                return a, b, state.action_to_string(min(shared), a)
    return None


def new_chance(state: State) -> tuple[int, str, int] | None:
    """A free action of seat ``a`` that gives seat ``b`` a new chance in the same window
    (for example a detour next to an empty car on the re-boarding space)."""
    before = as_express_state(state)
    acting = before.acting_players()
    for a in acting:
        for action in before.legal_actions(a):
            after = before.child(action, a)
            if action == PASS or (after.rolls(), after.window_stage()) != (
                before.rolls(),
                before.window_stage(),
            ):
                continue
            for b in after.acting_players():
                if b != a and set(after.legal_actions(b)) - set(before.legal_actions(b)):
                    return a, before.action_to_string(action, a), b
    return None


@contextmanager
def stored_window(
    client: TestClient, db: Path, predicate: Callable[[State], Any]
) -> Iterator[tuple[str, dict[int, Peer], int, Any]]:
    """A four-seat table of people stored at a window found by ``predicate``; yields the
    code, peers of all seats (connected), the window's version and the predicate's result."""
    actions, found = express_window(predicate)
    data = stored_table(db, actions, 4)
    with ExitStack() as stack:
        peers = {}
        for seat in data.seats:
            ws = stack.enter_context(client.websocket_connect(f"/ws/{data.code}"))
            peers[seat.seat] = Peer(ws)
            state = peers[seat.seat].hello(seat.token)
        assert state["version"] == len(actions)
        yield data.code, peers, len(actions), found


def test_somebody_was_quicker(client: TestClient, db: Path) -> None:
    with stored_window(client, db, same_chance) as (code, peers, version, found):
        a, b, action = found
        peers[a].send({"type": "action", "version": version, "action": action, "ref": "a"})
        assert reply(peers[a])["type"] == "ack"
        # b chose the same chance at the same version: too late, and it says so.
        peers[b].send({"type": "action", "version": version, "action": action, "ref": "b"})
        late = reply(peers[b])
        assert late["code"] == "stale" and "somebody was quicker" in late["message"]
        # b's pass chosen at that version still counts: no new chance came up for b.
        pass_b = {"type": "action", "version": version, "action": "pass", "ref": "c"}
        peers[b].send(pass_b)
        assert reply(peers[b]) == {
            "type": "ack",
            "version": version + 2,
            "ref": "c",
            "duplicate": False,
        }
        # The same pass repeated without its ref is not counted twice.
        peers[b].send({**pass_b, "ref": None})
        assert reply(peers[b])["code"] == "stale"
        assert version_of(client, code) == version + 2
    record = parse_record(client.get(f"/api/tables/{code}/record").text)
    assert [(x.player, x.action) for x in record.actions[version : version + 2]] == [
        (a, action),
        (b, "pass"),
    ]


def test_pass_refused_when_a_new_chance_came_up(client: TestClient, db: Path) -> None:
    with stored_window(client, db, new_chance) as (code, peers, version, found):
        a, action, b = found
        peers[a].send({"type": "action", "version": version, "action": action, "ref": "a"})
        assert reply(peers[a])["type"] == "ack"
        # b passed on what it saw; since then a new chance came up for b: look again.
        peers[b].send({"type": "action", "version": version, "action": "pass", "ref": "b"})
        refused = reply(peers[b])
        assert refused["code"] == "stale" and "new chance" in refused["message"]
        assert version_of(client, code) == version + 1
        # Passing again after seeing the new state counts.
        peers[b].send({"type": "action", "version": version + 1, "action": "pass", "ref": "c"})
        assert reply(peers[b])["type"] == "ack"


def test_express_static_files_and_catalogs(client: TestClient) -> None:
    render = client.get("/static/games/express/render.js")
    assert render.status_code == 200 and "export function render" in render.text
    assert client.get("/static/games/express/express.css").status_code == 200
    en = client.get("/static/games/express/en.json").json()
    de = client.get("/static/games/express/de.json").json()
    assert en.keys() == de.keys()
    used = set(re.findall(r'"(express\.[A-Za-z.]+)"', render.text))
    assert used <= en.keys(), used - en.keys()
    # The publisher's German words for the board.
    # (a plural message is an object of forms: every form counts)
    german = " ".join(v if isinstance(v, str) else " ".join(v.values()) for v in de.values())
    for word in ("Bahnhof", "Einstiegsfeld", "Ausstiegsfelder", "Lok", "Waggon", "Fußspuren"):
        assert word in german, word
    assert "Umweg" in de["express.act.detour"]
