"""The WebSocket protocol of ``lama serve`` (``protocol.LamaWebSocketProtocol``, issue 16):
the frames one event-loop step sends on a connection leave in one socket write, in order,
before anything uvicorn writes itself; the server compresses with a 16 KB window; the
messages a client decodes are the ones the app sent."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import zlib
from pathlib import Path
from typing import Any

from browser_helpers import ServerThread
from uvicorn.server import ServerState
from websockets.asyncio.client import connect
from websockets.frames import Opcode

from lamagames.web.protocol import WS_WINDOW_BITS, GuardedConfig, LamaWebSocketProtocol


class FakeTransport(asyncio.Transport):
    """Records every ``write`` (one entry per call)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(
            name, default
        )

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def handshake(deflate: bool) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    extra = "Sec-WebSocket-Extensions: permessage-deflate\r\n" if deflate else ""
    return (
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"{extra}\r\n"
    ).encode()


def frames(data: bytes, deflate: bool) -> list[tuple[Opcode, bytes]]:
    """The frames of server bytes ``data`` (unmasked), payloads inflated."""
    out = []
    inflate = zlib.decompressobj(wbits=-15)
    pos = 0
    while pos < len(data):
        size = data[pos + 1] & 0x7F
        start = pos + 2
        if size == 126:
            size = int.from_bytes(data[start : start + 2], "big")
            start += 2
        elif size == 127:
            size = int.from_bytes(data[start : start + 8], "big")
            start += 8
        payload = data[start : start + size]
        opcode = Opcode(data[pos] & 0x0F)
        if deflate and data[pos] & 0x40:
            payload = inflate.decompress(payload + b"\x00\x00\xff\xff")
        out.append((opcode, payload))
        pos = start + size
    return out


async def run_protocol(deflate: bool) -> tuple[FakeTransport, list[bytes]]:
    """An app that sends three messages in one step, then one more in a later step, then
    closes; returns the transport and what was written after the handshake."""
    sent = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        for number in range(3):  # one step: one write
            await send({"type": "websocket.send", "text": json.dumps({"n": number})})
        await asyncio.sleep(0)  # the step ends: the collected frames leave
        await asyncio.sleep(0)
        await send({"type": "websocket.send", "bytes": b"\x01\x02"})
        await send({"type": "websocket.close", "code": 1000})  # flushes first
        sent.set()

    config = GuardedConfig(app, ws_per_message_deflate=deflate, log_level="warning")
    config.load()
    protocol = LamaWebSocketProtocol(config, ServerState(), {})
    transport = FakeTransport()
    protocol.connection_made(transport)
    protocol.data_received(handshake(deflate))
    await asyncio.wait_for(sent.wait(), 5)
    handshake_reply = transport.writes[0]
    assert handshake_reply.startswith(b"HTTP/1.1 101")
    return transport, transport.writes[1:]


def test_frames_of_one_step_leave_in_one_write_in_order() -> None:
    for deflate in (False, True):
        _transport, writes = asyncio.run(run_protocol(deflate))
        assert len(writes) == 3, writes  # three texts together, the binary, the close
        first = frames(writes[0], deflate)
        assert [(op, json.loads(p)) for op, p in first] == [
            (Opcode.TEXT, {"n": 0}),
            (Opcode.TEXT, {"n": 1}),
            (Opcode.TEXT, {"n": 2}),
        ]
        assert frames(writes[1], deflate) == [(Opcode.BINARY, b"\x01\x02")]
        assert frames(writes[2], deflate)[0][0] is Opcode.CLOSE


def test_server_compression_window_is_16_kb() -> None:
    transport, _writes = asyncio.run(run_protocol(True))
    reply = transport.writes[0].decode("latin-1").lower()
    assert f"server_max_window_bits={WS_WINDOW_BITS}" in reply
    assert WS_WINDOW_BITS == 14


def test_messages_arrive_whole_and_in_order_through_a_real_server(tmp_path: Path) -> None:
    """A person plays through ``lama serve``'s configuration (compression on and off):
    each action is answered by its ``ack`` and then the state of the new version; the
    compressed and plain connections decode to the same messages."""
    from lamagames.web.live import Settings

    def play(compression: bool) -> list[dict[str, Any]]:
        settings = Settings(bot_delay=0.0, seeded_humans=True)
        db = tmp_path / f"play-{compression}.sqlite3"
        with ServerThread(db, 0.0, settings=settings, ws_compression=compression) as server:
            return asyncio.run(_play(server.url))

    plain, compressed = play(False), play(True)
    assert plain == compressed
    versions = [m["version"] for m in plain if m["type"] == "state"]
    assert versions == sorted(versions) and len(versions) > 5
    acks = [i for i, m in enumerate(plain) if m["type"] == "ack"]
    assert acks
    for at in acks:  # the ack, then the state of the version it acknowledged
        after = plain[at + 1]
        assert after["type"] == "state" and after["version"] == plain[at]["version"]


async def _play(base: str) -> list[dict[str, Any]]:
    import urllib.request

    def http(path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    seats = [{"kind": "human", "name": "A"}, {"kind": "bot", "bot_kind": "heuristic"}]
    table = http("/api/tables", {"game": "dice", "seats": seats, "seed": 7})
    seen: list[dict[str, Any]] = []
    uri = base.replace("http", "ws") + f"/ws/{table['code']}"
    async with connect(uri) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["token"]}))
        seen.append(
            json.loads(await ws.recv()) | {"code": None}
        )  # waiting: then every version in order
        http(f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
        actions = 0
        async with asyncio.timeout(20):
            async for raw in ws:
                message = json.loads(raw)
                message.pop("code", None)  # each run has its own table
                if message["type"] == "state" and message.get("clock") is not None:
                    message["clock"]["remaining"] = None  # a time, not part of the order
                seen.append(message)
                mine = message["type"] == "state" and message["seat"] in message["acting"]
                if mine and message["legal"]:
                    if actions == 12:
                        break
                    actions += 1
                    act = {
                        "type": "action",
                        "version": message["version"],
                        "action": message["legal"][0]["action"],
                    }
                    await ws.send(json.dumps(act))
    return seen
