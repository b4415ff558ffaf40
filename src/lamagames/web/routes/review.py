"""Game reviews of finished tables: ``GET`` / ``POST /api/tables/{code}/review``
(:mod:`lamagames.web.review`)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from lamagames.web.review import ReviewService
from lamagames.web.routes.common import errors

router = APIRouter()

#: The most rollouts a request may name (the server cuts it further to its own cap).
MAX_REQUEST_ROLLOUTS = 100_000


class ReviewRequest(BaseModel):
    """Start a review; ``rollouts``: simulations per action where values are estimated
    (default: the server's; cut to the server's cap)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rollouts: int | None = Field(default=None, ge=1, le=MAX_REQUEST_ROLLOUTS)


class ReviewOut(BaseModel):
    """A table's review: ``status`` (``none`` not asked for yet, ``running``, ``done``,
    ``failed``), ``progress`` (0..1 of the record's actions), ``result`` once done (the
    decisions, marks and per-seat totals, see :mod:`lamagames.web.review`), ``message``
    when failed."""

    status: Literal["none", "running", "done", "failed"]
    progress: float
    result: dict[str, Any] | None = None
    message: str | None = None


def service(request: Request) -> ReviewService:
    """The app's review service."""
    found: ReviewService = request.app.state.review
    return found


@router.get("/api/tables/{code}/review", response_model=ReviewOut, responses=errors(404, 409, 422))
async def review_status(code: str, request: Request) -> dict[str, Any]:
    """The review of a finished game: its status, progress and, once done, its result.
    Every seat and spectator reads the same stored review."""
    return await service(request).status(code)


@router.post(
    "/api/tables/{code}/review",
    response_model=ReviewOut,
    responses=errors(400, 404, 409, 413, 422, 429),
)
async def review_start(
    code: str, request: Request, body: ReviewRequest | None = None
) -> dict[str, Any]:
    """Start reviewing a finished game in the background (``status`` ``running``), or
    answer the stored review (``done``): a game is reviewed once. 409 ``not_finished``
    before the game is over; 400 ``no_review`` when this server cannot review the game;
    429 ``rate_limited``."""
    client = request.client.host if request.client is not None else "unknown"
    rollouts = body.rollouts if body is not None else None
    return await service(request).start(code, client, rollouts)
