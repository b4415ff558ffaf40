"""The first-game walkthrough in the browser (issue 18 item 5) and the rules pages it links.

- ``POST /api/tutorial/{game}``: a private walkthrough table of the game's ``tutorial``
  extra (:mod:`lamagames.cli.tutorial`: its parameters and fixed seed, "Player" against the
  ``heuristic`` bot), started at once; answers the room code, the person's seat and token.
- ``POST /api/tables/{code}/tutorial``: for a seat token, the walkthrough's lessons and
  advice at the current position: the kinds of decision there (each with its ruling ids
  and the English lesson, which is the catalogs' ``<game>.tut.<kind>``: one text for the
  terminal walkthrough and this one), the suggested move in notation with its kind,
  the library's reason in English, and (for games with hints, LAMA Dice with numba) the
  value of every move (the web hint provider's). The browser shows the lessons in the
  reader's language (catalog keys ``<game>.tut.<kind>``) beside the board.
- ``GET /rules/{game}``: the rules text ``lama rules`` prints (``lamagames/<game>/rules.md``,
  or its translation ``rules.<lang>.md``) as an HTML page whose rulings carry their ids as
  anchors (``/rules/dice#D-8.2``), in the reader's language: ``?lang=`` (the walkthrough's
  links carry the language the page shows), else ``Accept-Language``, else English.

The per-game content is the library's tutor (:mod:`lamagames.dice.tutorial`,
:mod:`lamagames.express.tutorial`); nothing here knows a game's rules.
"""

from __future__ import annotations

import html
import importlib
import json
import logging
import re
from collections import OrderedDict
from functools import cache
from typing import Annotated, Final

import anyio
import anyio.to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from pydantic import BaseModel, ConfigDict, Field

from lamagames.cli.tutorial import PERSON_NAME, load_tutor_factory
from lamagames.core.errors import LamaError
from lamagames.core.game import State
from lamagames.core.registry import make
from lamagames.web.adapters import get_adapter
from lamagames.web.engine import TableError
from lamagames.web.limits import enforce
from lamagames.web.routes.common import errors, hub_of, store_of
from lamagames.web.routes.pages import LANGS, STATIC_DIR, AcceptLanguage, page_language
from lamagames.web.schemas import Name, Token

log = logging.getLogger("lamagames.web")

router = APIRouter()

#: A ruling id inside a lesson text: ``D-8.2``, ``E-10`` (docs/rules.md).
RULING: Final = re.compile(r"\b([A-Z]-\d+(?:\.\d+)?)\b")
#: Advice worked out at once on the whole server (the LAMA Dice solver keeps a core busy).
MAX_ADVICE_THREADS: Final = 2
#: The bot of a walkthrough table.
BOT_KIND: Final = "heuristic"

#: The last advice given per (table code, seat), at most this many kept: asking again at
#: the same version (a reload, a second tab) costs nothing.
ADVICE_CACHE_SIZE: Final = 256

_limiter: anyio.CapacityLimiter | None = None
_given: OrderedDict[tuple[str, int], AdviceOut] = OrderedDict()


def _thread_limiter() -> anyio.CapacityLimiter:
    global _limiter
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(MAX_ADVICE_THREADS)
    return _limiter


class TutorialStartRequest(BaseModel):
    """Start a walkthrough; ``name``: the person's seat name (default
    :data:`~lamagames.cli.tutorial.PERSON_NAME`, "Player")."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name | None = None


class TutorialStartOut(BaseModel):
    """The walkthrough table: its room code, the person's seat and seat token."""

    code: str
    seat: int
    token: str


class AdviceRequest(BaseModel):
    """The seat token of the person asking."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token


class LessonOut(BaseModel):
    """One kind of decision: its key, its ruling ids (``["D-6", "D-7"]``) and the library's
    English explanation."""

    kind: str
    rulings: list[str]
    text: str


class MoveValueOut(BaseModel):
    """A legal move and its value from the game's hint provider (LAMA Dice: expected
    points this round, fewer is better; ``margin``: with two players solved exactly, the
    expected lead over the opponent, which decides the best move; ``best`` marks the
    provider's best move)."""

    action: str
    expected_points: float | None
    margin: float | None
    best: bool
    exact: bool


class AdviceOut(BaseModel):
    """The walkthrough at table version ``version``: ``mine`` is false when the seat has no
    decision now (then nothing else is filled). ``lessons``: every kind of decision here;
    ``suggested``: the move the walkthrough suggests (notation; null with a single legal
    move), ``move_kind`` its kind, ``why`` the library's reason (English), ``values`` each
    move's value when the game has hints this server can give, else null."""

    version: int
    mine: bool
    lessons: list[LessonOut] = Field(default_factory=list)
    suggested: str | None = None
    move_kind: str | None = None
    why: str | None = None
    values: list[MoveValueOut] | None = None


def rulings_of(text: str) -> list[str]:
    """The ruling ids cited in ``text`` (in order, once each): ``"[D-6, D-7]"`` ->
    ``["D-6", "D-7"]``."""
    return list(dict.fromkeys(RULING.findall(text)))


def move_kind(game_id: str, state: State, seat: int, action: int) -> str:
    """The kind of a move: by the tutor module's ``kind_of`` if it has one (Lama Express:
    ``move``, ``board``, ``exit``, ...), else the first word of the move's notation (LAMA
    Dice: ``roll``, ``quit``, ``discard``, ``take``, ``give``)."""
    module = importlib.import_module(load_tutor_factory(game_id).__module__)
    kind_of = getattr(module, "kind_of", None)
    if kind_of is not None:
        return str(kind_of(action))
    return state.action_to_string(action, seat).split(" ")[0]


def work_out_advice(game_id: str, state: State, seat: int, version: int) -> AdviceOut:
    """The walkthrough's lessons and advice for ``seat`` at ``state`` (runs in a worker
    thread: the LAMA Dice solver can take a second or two).

    Raises:
        ParameterError: the game has no walkthrough.
    """
    factory = load_tutor_factory(game_id)
    tutor = factory(state.game, seat)
    lessons = []
    for kind in tutor.lessons(state, seat):
        text = tutor.lesson(kind)
        lessons.append(LessonOut(kind=kind, rulings=rulings_of(text), text=text))
    out = AdviceOut(version=version, mine=True, lessons=lessons)
    legal = state.legal_actions(seat)
    if len(legal) > 1:
        action, why = tutor.advice(state, seat)
        out.suggested = state.action_to_string(action, seat)
        out.move_kind = move_kind(game_id, state, seat, action)
        out.why = why
        out.values = move_values(game_id, state, seat)
    elif legal:
        out.suggested = state.action_to_string(legal[0], seat)
        out.move_kind = move_kind(game_id, state, seat, legal[0])
    return out


def move_values(game_id: str, state: State, seat: int) -> list[MoveValueOut] | None:
    """Each legal move's value from the game's hint provider, or None when the game has
    none this server can run (LAMA Dice without numba) or it does not cover the position."""
    adapter = get_adapter(game_id)
    if not adapter.names_hints() or adapter.hints_unavailable() is not None:
        return None
    try:
        provider = adapter.hint_provider()
        if provider is None:
            return None
        found = [h.to_json() for h in provider(state, seat)]
    except (ImportError, ValueError, LamaError) as exc:
        log.info("walkthrough: no move values (%s)", exc)
        return None
    return [
        MoveValueOut(
            action=state.action_to_string(h["action"], seat),
            expected_points=h.get("expected_points"),
            margin=h.get("margin"),
            best=bool(h.get("best")),
            exact=bool(h.get("exact")),
        )
        for h in found
    ]


@router.post(
    "/api/tutorial/{game}",
    response_model=TutorialStartOut,
    status_code=201,
    responses=errors(404, 413, 422, 429),
)
async def start_tutorial(
    game: str, request: Request, body: TutorialStartRequest | None = None
) -> TutorialStartOut:
    """Start the walkthrough of ``game``: a private table of the game's walkthrough
    parameters and fixed seed (the same dice every time), you against the ``heuristic``
    bot, started at once. Errors: 404 ``not_found`` for an unknown game or one without a
    walkthrough;
    429 ``rate_limited`` (counted with the tables created)."""
    enforce(request.app.state.create_limit, request, "new tables")
    try:
        factory = load_tutor_factory(game)
        adapter = get_adapter(game)
        probe = factory(make(game), 0)
    except LamaError as exc:  # the game is the path's resource: 404
        raise TableError("not_found", f"no walkthrough: {exc}", 404) from None
    params = {k: v for k, v in probe.params.items() if k != "num_players"}
    num_players = int(probe.params.get("num_players", 2))
    adapter.make_game(params, num_players)  # validates
    name = body.name if body is not None and body.name else PERSON_NAME
    seats: list[tuple[str, str, str | None]] = [("human", name, None)]
    seats += [
        ("bot", "Bot" if num_players == 2 else f"Bot {i}", BOT_KIND) for i in range(1, num_players)
    ]
    store = store_of(request)
    data = await store.call(
        store.create_table,
        game=game,
        params=params,
        seed=int(probe.seed),
        seats=seats,
        public=False,
        turn_clock=None,
        away_timeout=600.0,
        alertness=None,
        hints=True,
    )
    table = await hub_of(request).require(data.code)
    token = data.seats[0].token
    if token is None:  # pragma: no cover - human seats always have tokens
        raise TableError("invalid", "the walkthrough seat has no token")
    await table.join(0, name)
    await table.start()
    return TutorialStartOut(code=data.code, seat=0, token=token)


@router.post(
    "/api/tables/{code}/tutorial",
    response_model=AdviceOut,
    responses=errors(400, 403, 404, 409, 413, 422),
)
async def advice(code: str, body: AdviceRequest, request: Request) -> AdviceOut:
    """The walkthrough's lessons and suggested move for the seat of ``token`` now.

    Errors: 403 for a token of no seat of this table; 409 ``hints_off`` at a table created
    without hints (the advice is a hint), ``not_playing`` before the start or after the
    end; 400 ``invalid`` for a game without a walkthrough."""
    table = await hub_of(request).require(code)
    seat = table.seat_for_token(body.token)
    if seat is None:
        raise TableError("forbidden", "this seat token is not valid for this table", 403)
    if not table.data.hints:
        raise TableError("hints_off", "hints are switched off at this table", 409)
    if table.status != "playing" or table.state.is_terminal():
        raise TableError("not_playing", "the walkthrough advises while the game is played", 409)
    version = table.version
    if seat not in table.adapter.acting_players(table.state):
        return AdviceOut(version=version, mine=False)
    key = (table.code, seat)
    known = _given.get(key)
    if known is not None and known.version == version:
        return known
    state = table.state.clone()
    try:
        out = await anyio.to_thread.run_sync(
            work_out_advice, table.data.game, state, seat, version, limiter=_thread_limiter()
        )
    except LamaError as exc:
        raise TableError("invalid", str(exc)) from None
    _given[key] = out
    _given.move_to_end(key)
    while len(_given) > ADVICE_CACHE_SIZE:
        _given.popitem(last=False)
    return out


# ---------------------------------------------------------------------- rules pages
_ANCHOR_HEAD: Final = re.compile(r"<h([1-6])>([A-Z]-\d+(?:\.\d+)?) ")
_ANCHOR_ITEM: Final = re.compile(r"<strong>([A-Z]-\d+(?:\.\d+)?) ")


@cache
def rules_page(game_id: str, lang: str = "en") -> str:
    """The rules of ``game_id`` as a whole HTML page in ``lang`` (one of
    :data:`~lamagames.web.routes.pages.LANGS`; the package's rules text, English where it
    has no translation), each ruling's heading or bold lead with ``id="D-8.2"``.

    Raises:
        ParameterError: unknown game.
        ValueError: unknown language.
    """
    from lamagames.cli.views import get_view

    view = get_view(game_id)
    body = MarkdownIt("commonmark").render(view.rules_text(lang))
    body = _ANCHOR_HEAD.sub(lambda m: f'<h{m.group(1)} id="{m.group(2)}">{m.group(2)} ', body)
    body = _ANCHOR_ITEM.sub(lambda m: f'<strong id="{m.group(1)}">{m.group(1)} ', body)
    words = json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text("utf-8"))
    title = html.escape(words["rules.title"].format(game=make(game_id).info.long_name))
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/style.css">\n</head>\n'
        f'<body>\n<main class="rules-page" id="rules">\n{body}</main>\n</body>\n</html>\n'
    )


def rules_language(lang: str | None, accept_language: str | None) -> str:
    """The language of a rules page: the ``lang`` query parameter when it names one of
    :data:`~lamagames.web.routes.pages.LANGS` (the walkthrough's links carry the reader's
    chosen language, as the walkthrough page shows it), else the ``Accept-Language``
    header's (:func:`~lamagames.web.routes.pages.page_language`), else English. Never
    raises: an unknown or malformed ``lang`` is ignored."""
    if lang is not None:
        code = lang.strip().split("-")[0].lower()[:8]
        if code in LANGS:
            return code
    return page_language(accept_language)


@router.get("/rules/{game}", include_in_schema=False)
async def rules(
    game: str,
    lang: Annotated[str | None, Query()] = None,
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    """The rules of a game in the reader's language (:func:`rules_language`), each ruling
    with its id as anchor (404 for an unknown game)."""
    language = rules_language(lang, accept_language)
    try:
        page = rules_page(game, language)
    except LamaError:
        raise TableError("not_found", f"no rules for {game!r}", 404) from None
    return HTMLResponse(page, headers={"Vary": "Accept-Language"})
