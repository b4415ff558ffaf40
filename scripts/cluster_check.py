"""Check a deployment of several server processes (docs/deploy.md): play one table through
a URL (a reverse proxy), reconnecting whenever the connection drops, for a while; then check
that every acknowledged action is in the table's record at its place, once.

Kill or restart server processes behind the proxy while it runs (it prints each
acknowledged version). Traffic goes only to the given URL; it stops by itself.

    python scripts/cluster_check.py http://127.0.0.1:8100 --turns 40
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect


def http(base: str, path: str, body: dict[str, Any] | None = None, tries: int = 20) -> Any:
    """JSON over HTTP; retried (0.5 s apart) while the servers behind the proxy change."""
    data = None if body is None else json.dumps(body).encode()
    for attempt in range(tries):
        request = urllib.request.Request(
            base + path, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except (urllib.error.HTTPError, OSError) as exc:
            status = getattr(exc, "code", None)
            if (status is not None and status < 500) or attempt == tries - 1:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which seat 0 may act (or the final one)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message["type"] == "state" and (
            message["status"] == "finished" or (0 in message["acting"] and message["legal"])
        ):
            return message


def new_table(base: str) -> tuple[str, str]:
    """A started table of a person and a random bot: its code and the person's token."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}]
    table = http(base, "/api/tables", {"game": "dice", "seats": seats, "away_timeout": 600})
    http(base, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    return table["code"], table["seats"][0]["token"]


def main() -> None:
    """Play, reconnecting as needed (a new table when a game ends); print the figures; exit
    1 if an acknowledged action is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="base URL, e.g. http://127.0.0.1:8100")
    parser.add_argument("--turns", type=int, default=40, help="acknowledged actions wanted")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between turns")
    parser.add_argument("--seconds", type=float, default=120.0, help="give up after this")
    args = parser.parse_args()
    base = args.url.rstrip("/")
    acked: dict[str, dict[int, str]] = {}
    code, token = new_table(base)
    acked[code] = {}
    total = 0
    reconnects = 0
    stop = time.monotonic() + args.seconds
    while total < args.turns and time.monotonic() < stop:
        try:
            with connect(base.replace("http", "ws", 1) + f"/ws/{code}") as ws:
                ws.send(json.dumps({"type": "hello", "token": token}))
                state = turn(ws)
                while total < args.turns:
                    if state["status"] == "finished":
                        break
                    time.sleep(args.pause)
                    action = state["legal"][0]["action"]
                    ref = f"c{total}-{reconnects}"
                    message = {"type": "action", "version": state["version"], "action": action}
                    ws.send(json.dumps({**message, "ref": ref}))
                    while (reply := json.loads(ws.recv(timeout=30)))["type"] not in (
                        "ack",
                        "error",
                    ):
                        pass
                    if reply["type"] == "ack":
                        acked[code][reply["version"] - 1] = action
                        total += 1
                        print(f"{code} ack {reply['version']}", flush=True)
                    else:
                        print(f"{code} refused: {reply['code']}", flush=True)
                    state = turn(ws)
            if total < args.turns:  # the game is over: another one
                code, token = new_table(base)
                acked[code] = {}
        except (WebSocketException, OSError, TimeoutError) as exc:
            reconnects += 1
            print(f"connection lost ({type(exc).__name__}); reconnecting", flush=True)
            time.sleep(0.5)
    lost = []
    stored_total = 0
    for played, actions in acked.items():
        record = http(base, f"/api/tables/{played}/record")
        stored = [(a["player"], a["action"]) for a in record["actions"]]
        stored_total += len(stored)
        lost += [
            f"{played}:{i}" for i, a in actions.items() if i >= len(stored) or stored[i] != (0, a)
        ]
    figures = {
        "tables": len(acked),
        "acknowledged": total,
        "stored_actions": stored_total,
        "reconnects": reconnects,
        "lost_or_misplaced": lost,
    }
    print(json.dumps(figures))
    if lost or total < args.turns:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
