"""Game records and replays: ``/api/tables/{code}/record`` and ``/replay``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from lamagames.core.records import iter_replay
from lamagames.web.engine import TableError
from lamagames.web.routes.common import errors, hub_of

router = APIRouter()


@router.get("/api/tables/{code}/record", responses=errors(404, 422))
async def record(code: str, request: Request) -> Response:
    """The game record as a JSON download (the CLI's format); seed only once finished."""
    table = await hub_of(request).require(code)
    text = table.record().to_json()
    name = f"lamagames-{table.data.game}-{table.code}.lamarec.json"
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/api/tables/{code}/replay", responses=errors(404, 409, 422))
async def replay(code: str, request: Request) -> dict[str, Any]:
    """A finished game for the replay viewer: events and the public view after each."""
    table = await hub_of(request).require(code)
    if table.status != "finished":
        raise TableError("not_finished", "the replay opens when the game is over", 409)
    game_record = table.record()
    frames = [table.adapter.view(state, None) for state in iter_replay(game_record)]
    return {
        "code": table.code,
        "game": table.data.game,
        "renderer": table.adapter.renderer,
        "seats": [s.out().model_dump() for s in table.seats],
        "events": [e.model_dump() for e in table.events],
        "frames": frames,
    }
