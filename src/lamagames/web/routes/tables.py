"""The lobby and table HTTP API: games, lobby, create, describe, join, claim, start, rematch."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request

from lamagames.web.adapters import adapter_ids, get_adapter
from lamagames.web.engine import TableError, check_bot_seat
from lamagames.web.limits import enforce
from lamagames.web.live import LiveTable
from lamagames.web.routes.common import SEAT_TAKEN, errors, hub_of, store_of, table_info
from lamagames.web.schemas import (
    ChatSwitchRequest,
    ClaimRequest,
    CreateTableRequest,
    CreateTableResponse,
    GameOut,
    JoinRequest,
    JoinResponse,
    RematchRequest,
    RematchResponse,
    SeatInvite,
    StartRequest,
    TableInfo,
)

router = APIRouter()


@router.get("/api/games", response_model=list[GameOut])
async def games() -> list[GameOut]:
    """Games that can be played in the browser."""
    return [GameOut(**get_adapter(gid).describe()) for gid in adapter_ids()]


@router.get("/api/tables", response_model=list[TableInfo], responses=errors())
async def lobby(request: Request) -> list[TableInfo]:
    """Public tables that are waiting for players or being played, newest first."""
    hub = hub_of(request)
    store = store_of(request)
    out = []
    for code in await store.call(store.lobby):
        table = await hub.get(code)
        if table is not None:
            out.append(table_info(table))
    return out


@router.post(
    "/api/tables",
    response_model=CreateTableResponse,
    status_code=201,
    responses=errors(400, 413, 422, 429),
)
async def create_table(body: CreateTableRequest, request: Request) -> CreateTableResponse:
    """Create a waiting table. Human seats get invite tokens; start it with the host token.

    Errors: 400 for an unknown game, bad parameters, an unknown bot kind, a bot kind this
    server cannot run (``bot_unavailable``: a package is missing; the message names it and
    the extra that installs it) or a ``seed`` on a table with a human seat (such tables
    get a secret random seed); 429 ``rate_limited`` when this client address created too
    many tables lately (``Retry-After`` says when to try again).
    """
    settings = request.app.state.settings
    enforce(request.app.state.create_limit, request, "new tables")
    if (
        body.seed is not None
        and any(s.kind == "human" for s in body.seats)
        and not settings.seeded_humans
    ):
        raise TableError(
            "invalid",
            "seed: only tables of bots take a chosen seed; a table with people gets a "
            "secret random one (a chosen seed would let its chooser foresee every roll)",
        )
    adapter = get_adapter(body.game)
    game = adapter.make_game(body.params, len(body.seats))  # validates (ParameterError)
    if body.alertness is not None and not adapter.has_windows:
        raise TableError(
            "invalid",
            f"alertness: {game.info.long_name} has no free-action windows "
            "(see 'windows' in GET /api/games)",
        )
    seats: list[tuple[str, str, str | None]] = []
    for index, spec in enumerate(body.seats):
        if spec.kind == "bot":
            kind = spec.bot_kind or adapter.substitute_bot()  # (the model requires one)
            check_bot_seat(adapter, game, index, kind)
            seats.append(("bot", spec.name or "", kind))
        else:
            seats.append(("human", spec.name or "", None))
    params = {k: v for k, v in game.params.items() if k != "num_players"}
    store = store_of(request)
    data = await store.call(
        store.create_table,
        game=body.game,
        params=params,
        seed=body.seed if body.seed is not None else secrets.randbits(63),
        seats=seats,
        public=body.public,
        turn_clock=body.turn_clock,
        away_timeout=body.away_timeout,
        alertness=body.alertness,
        bot_pace=body.bot_pace,
        hints=body.hints,
        chat=body.chat,
    )
    return CreateTableResponse(
        code=data.code,
        host_token=data.host_token,
        seats=[
            SeatInvite(
                seat=s.seat,
                kind="bot" if s.kind == "bot" else "human",
                name=s.name,
                token=s.token,
                invite=f"/t/{data.code}#seat={s.token}" if s.token else None,
            )
            for s in data.seats
        ],
    )


@router.get("/api/tables/{code}", response_model=TableInfo, responses=errors(404, 422))
async def get_table(code: str, request: Request) -> TableInfo:
    """Public description of a table (no tokens)."""
    return table_info(await hub_of(request).require(code))


@router.post(
    "/api/tables/{code}/join",
    response_model=JoinResponse,
    responses=errors(403, 404, 409, 413, 422, 429),
)
async def join(code: str, body: JoinRequest, request: Request) -> JoinResponse:
    """Take the seat of an invite token (again, after a reload: idempotent).

    Errors: 429 ``rate_limited`` when this client address joined too often lately.
    """
    enforce(request.app.state.join_limit, request, "joins")
    table = await hub_of(request).require(code)
    seat = table.seat_for_token(body.token)
    if seat is None:
        store = store_of(request)
        if await store.call(store.retired_seat, table.data.id, body.token) is not None:
            raise TableError("seat_taken", SEAT_TAKEN, 409)
        raise TableError("forbidden", "this invite token is not valid for this table", 403)
    return await _join(request, table, seat, body.name)


async def _join(request: Request, table: LiveTable, seat: int, name: str | None) -> JoinResponse:
    await table.join(seat, name)
    live = table.seats[seat]
    if live.token is None:  # pragma: no cover - human seats always have tokens
        raise TableError("forbidden", "not a human seat", 403)
    return JoinResponse(code=table.code, seat=seat, token=live.token)


@router.post(
    "/api/tables/{code}/claim",
    response_model=JoinResponse,
    responses=errors(403, 404, 409, 413, 422, 429),
)
async def claim(code: str, body: ClaimRequest, request: Request) -> JoinResponse:
    """Take the first free human seat of a public table (from the lobby).

    A human seat the host named when creating the table (their own, or a friend's) is kept
    for its invite link and is never claimed; only unnamed free seats are. Errors: 403 for
    a private table, 409 ``finished`` or ``full`` (no unnamed free seat), 429
    ``rate_limited`` when this client address claimed too many seats lately (one script
    must not take every free seat of every public table).
    """
    enforce(request.app.state.claim_limit, request, "seat claims")
    table = await hub_of(request).require(code)
    if not table.data.public:
        raise TableError("forbidden", "this table is private; ask for an invite link", 403)
    if table.status == "finished":
        raise TableError("finished", "this game is over", 409)
    seat, token = await table.claim(body.name)
    return JoinResponse(code=table.code, seat=seat, token=token)


@router.post(
    "/api/tables/{code}/start",
    response_model=TableInfo,
    responses=errors(403, 404, 409, 413, 422),
)
async def start(code: str, body: StartRequest, request: Request) -> TableInfo:
    """Start the game (host only). Humans who have not joined get the away timeout."""
    table = await hub_of(request).require(code)
    if not table.is_host(body.host_token):
        raise TableError("forbidden", "only the host can start the table", 403)
    await table.start()
    return table_info(table)


@router.post(
    "/api/tables/{code}/rematch",
    response_model=RematchResponse,
    responses=errors(400, 403, 404, 409, 413, 422),
)
async def rematch(code: str, body: RematchRequest, request: Request) -> RematchResponse:
    """Play again with the same seats; connected players are sent their new tokens.

    Errors: 400 ``bot_unavailable`` (or ``invalid``) when a bot of the table cannot play on
    this server any more, checked as ``POST /api/tables`` checks it (for example a LAMA Dice
    ``search`` bot after a restart without numba); nothing is created then. 403 for a token
    that is neither the host's nor a seat's, 409 ``not_finished``.
    """
    hub = hub_of(request)
    table = await hub.require(code)
    new, token, seat = await hub.rematch(table, body.token)
    return RematchResponse(code=new.code, token=token, seat=seat)


@router.post(
    "/api/tables/{code}/chat",
    response_model=TableInfo,
    responses=errors(403, 404, 413, 422),
)
async def chat_switch(code: str, body: ChatSwitchRequest, request: Request) -> TableInfo:
    """The host turns the table's chat on or off (issue 19; off when the table was
    created without ``chat: true``). Stored with the table; every connected client (on
    every process of a cluster) is sent the state again, which says ``chat``.

    Errors: 403 ``forbidden`` for any token but the host's.
    """
    hub = hub_of(request)
    table = await hub.require(code)
    if not table.is_host(body.host_token):
        raise TableError("forbidden", "only the host can turn the chat on or off", 403)
    store = store_of(request)
    await store.call(store.set_chat, table.data.id, body.chat)
    table.switch_chat(body.chat)
    return table_info(table)
