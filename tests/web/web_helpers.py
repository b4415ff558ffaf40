"""Helpers of the web tests: an app on a temporary SQLite file and a scripted client."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient as TestClient  # re-exported for conftest

from tests.missing_packages import hide

from lamagames import make
from lamagames.bots import make_bot
from lamagames.core.game import State
from lamagames.core.rng import make_rng
from lamagames.express.material import DIE_COLOURS
from lamagames.web import create_app
from lamagames.web.live import Settings
from lamagames.web.store import ActionData, Store, TableData

#: Tests: no bot pause, no rate limits, chosen seeds on tables with people.
FAST = Settings(
    bot_delay=0.0,
    rate_per_second=10_000,
    rate_burst=10_000,
    create_per_minute=0,
    claim_per_minute=0,
    join_per_minute=0,
    seeded_humans=True,
)


def hide_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make numba look missing, as in ``pip install .`` without extras (numba is installed
    here; every availability check asks ``find_spec``)."""
    hide(monkeypatch, "numba")


def make_client(db: Path, settings: Settings = FAST) -> TestClient:
    """A TestClient (use as a context manager) on the SQLite file ``db``."""
    return TestClient(create_app(f"sqlite:///{db}", settings=settings))


def live_table(client: TestClient, code: str) -> Any:
    """The app's :class:`~lamagames.web.live.LiveTable` of ``code`` (loaded on the app's
    event loop, as a request would load it)."""
    assert client.portal is not None, "use the TestClient as a context manager"
    hub = client.app.state.hub()  # type: ignore[attr-defined]
    return client.portal.call(hub.get, code)


def create(
    client: TestClient, seats: list[dict[str, Any]], game: str = "dice", **extra: Any
) -> dict[str, Any]:
    """Create a table (LAMA Dice unless ``game`` says otherwise); the creator's answer."""
    body = {"game": game, "seats": seats, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def start(client: TestClient, table: dict[str, Any]) -> None:
    """Start a table with its host token."""
    response = client.post(
        f"/api/tables/{table['code']}/start", json={"host_token": table["host_token"]}
    )
    assert response.status_code == 200, response.text


class Peer:
    """A WebSocket test client that remembers the newest state it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.fresh = False  # the newest state has not been acted on yet
        self.sent_version = -1  # version of the last action sent

    def send(self, message: dict[str, Any]) -> None:
        """Send a JSON message."""
        self.ws.send_json(message)

    def recv(self) -> dict[str, Any]:
        """Receive one message (remembering states)."""
        message: dict[str, Any] = self.ws.receive_json()
        if message["type"] == "state":
            self.state, self.fresh = message, True
        return message

    def until(self, predicate: Any, limit: int = 5000) -> dict[str, Any]:
        """Receive until a message satisfies ``predicate``; return it."""
        for _ in range(limit):
            message = self.recv()
            if predicate(message):
                return message
        raise AssertionError("expected message never came")

    def error(self) -> dict[str, Any]:
        """The next error message."""
        return self.until(lambda m: m["type"] == "error")

    def hello(self, token: str | None) -> dict[str, Any]:
        """Say hello and return the first state."""
        self.send({"type": "hello", "token": token})
        return self.until(lambda m: m["type"] == "state")

    def turn(self, seat: int) -> dict[str, Any]:
        """The newest state in which ``seat`` must act (newer than the last action sent),
        or the final state."""

        def ready(m: dict[str, Any]) -> bool:
            return m["type"] == "state" and (
                m["status"] == "finished"
                or (seat in m["acting"] and bool(m["legal"]) and m["version"] > self.sent_version)
            )

        if not (self.fresh and self.state is not None and ready(self.state)):
            self.until(ready)
        assert self.state is not None
        return self.state

    def act(self, action: str | None = None, ref: str | None = None) -> dict[str, Any]:
        """Send an action (default: the first legal one) at the newest version."""
        assert self.state is not None
        chosen = action or self.state["legal"][0]["action"]
        message = {"type": "action", "version": self.state["version"], "action": chosen}
        if ref is not None:
            message["ref"] = ref
        self.fresh = False
        self.sent_version = self.state["version"]
        self.send(message)
        return message

    def play(self, seat: int, pick: int = 0) -> dict[str, Any]:
        """Play ``seat`` until the game ends, always taking legal action number ``pick``
        (``-1``: the last one); return the final state."""
        while True:
            state = self.turn(seat)
            if state["status"] == "finished":
                return state
            self.act(state["legal"][pick]["action"])


def wait_status(client: TestClient, code: str, status: str, timeout: float = 20.0) -> None:
    """Poll ``GET /api/tables/{code}`` until it reports ``status``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.get(f"/api/tables/{code}").json()["status"] == status:
            return
        time.sleep(0.02)
    raise AssertionError(f"table {code} never reached {status}")


def seed_with_rolls(wanted: dict[int, str]) -> int:
    """The first table seed whose die rolls at the given action indices have the wanted
    colours (the server draws roll ``i`` from ``make_rng(seed, "chance", i)``)."""
    state = make("express").new_initial_state()
    for seed in range(10_000):
        if all(
            DIE_COLOURS[state.sample_chance_outcome(make_rng(seed, "chance", index))] in colours
            for index, colours in wanted.items()
        ):
            return seed
    raise AssertionError("no seed found")


Found = tuple[list[tuple[int, str]], Any]


def express_window(
    predicate: Callable[[State], Any], num_players: int = 4, games: int = 200
) -> Found:
    """Play seeded games of ``random`` bots until an open window (E-9) where ``predicate``
    returns something truthy; return the actions so far as ``(player, notation)`` (-1:
    chance) and that result. Deterministic: the same predicate finds the same position."""
    for seed in range(games):
        game = make("express", num_players=num_players)
        state = game.new_initial_state()
        bots = [make_bot("random", game, seat, seed * 10 + seat) for seat in range(num_players)]
        actions: list[tuple[int, str]] = []
        while not state.is_terminal() and len(actions) < 2000:
            if state.is_chance_node():
                action = state.sample_chance_outcome(make_rng(seed, "search", len(actions)))
                actions.append((-1, state.action_to_string(action)))
                state.apply_action(action)
                continue
            if len(state.acting_players()) > 1:
                found = predicate(state)
                if found:
                    return actions, found
            player = state.acting_players()[0]
            action = bots[player].step(state)
            actions.append((player, state.action_to_string(action, player)))
            state.apply_action(action, player)
    raise AssertionError("no such window found")


def stored_table(db: Path, actions: list[tuple[int, str]], num_players: int) -> TableData:
    """A started Express table of human seats whose stored history is ``actions`` (the app
    replays it when the table is first used)."""
    store = Store(f"sqlite:///{db}")
    try:
        game = make("express", num_players=num_players)
        data = store.create_table(
            game="express",
            params={k: v for k, v in game.params.items() if k != "num_players"},
            seed=1,
            seats=[("human", f"P{seat}", None) for seat in range(num_players)],
            public=False,
            turn_clock=None,
            away_timeout=600,
            alertness=None,
        )
        for index, (player, notation) in enumerate(actions):
            by = "chance" if player < 0 else "human"
            store.append_action(data.id, ActionData(index, player, notation, by))
        store.set_status(data.id, "playing")
        return data
    finally:
        store.close()
