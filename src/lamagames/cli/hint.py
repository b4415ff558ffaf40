"""``lama hint``: the solver's value of every legal action in a position (LAMA Dice).

The position is given as a game record (``.lamarec.json``, with ``--at N`` for the position
after N actions; default the last one) or as a position file: the JSON of
``DiceState.to_dict()``, either bare (standard dice, as many seats as rows) or wrapped as
``{"game": "dice", "params": {...}, "state": {...}}``. The same table answers ``hint`` at
the prompt of terminal play.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NamedTuple, NoReturn, Protocol

import typer
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from lamagames import __version__
from lamagames.cli.i18n import LANG_HELP, _, ngettext, translator_now, use_language
from lamagames.cli.views import get_view
from lamagames.core.errors import LamaError, ParameterError, RecordError
from lamagames.core.files import read_json_file
from lamagames.core.game import State
from lamagames.core.i18n import Translator
from lamagames.core.i18n import mark as _mark
from lamagames.core.records import SeatInfo, iter_replay, validate_record
from lamagames.core.registry import make
from lamagames.core.spec import get_spec


class Hint(Protocol):
    """What the hint table shows (:class:`lamagames.dice.hints.ActionHint` fits). A
    provider with sampled values may also give ``standard_error`` (read by ``--json``)."""

    action: int
    notation: str
    expected_points: float | None
    margin: float | None
    bust_chance: float | None
    exact: bool
    basis: str
    best: bool


HintFunction = Callable[[State, int], Sequence[Hint]]

#: Name of the hint provider in a game's spec (``GameSpec.extras``).
HINT_EXTRA = "hints"
#: Name of the optional ``{basis label: explanation}`` mapping in a game's spec extras
#: (LAMA Dice: :data:`lamagames.dice.hints.BASIS_NOTES`), printed under the hint table.
HINT_NOTES_EXTRA = "hint_notes"
#: Name of the optional plain-words function in a game's spec extras
#: (``hint_words(hints, tr) -> list[str]``, ``tr`` the terminal's
#: :class:`~lamagames.core.i18n.Translator`; LAMA Dice: :func:`lamagames.dice.words.hint_words`).
HINT_WORDS_EXTRA = "hint_words"
#: Where the technical table is, under the plain words of ``lama hint`` (these constants
#: are message ids, shown in the terminal's language).
MORE_BY_FLAG = _mark("lama hint --details shows the exact values and where they come from.")
#: The same at the prompt of terminal play.
MORE_BY_WORD = _mark("Type 'hint details' for the exact values and where they come from.")
#: The legend of ``*`` (the solver's choice).
BEST_BY_POINTS = _mark("* best: fewest expected points.")
BEST_BY_MARGIN = _mark(
    "* best: best margin (opponent's points minus yours): it can cost a little more of "
    "your own points to cost the opponent more."
)


def hint_function(game_id: str) -> HintFunction:
    """The hint function of a game: its spec's ``extras["hints"]`` (LAMA Dice:
    :func:`lamagames.dice.hints.hints`).

    Raises:
        RecordError: an unknown game, the game has no hints, or they need a package that is
            not installed (the message says which extra to install).
    """
    try:
        spec = get_spec(game_id)
    except ParameterError as exc:
        raise RecordError(str(exc)) from None
    if HINT_EXTRA not in spec.extras:
        raise RecordError(f"{spec.title} has no hints")
    missing = spec.extra_unavailable(HINT_EXTRA)  # as the web app: checked before importing
    if missing is not None:  # "needs numba: ..." reads on from one thing; "hints" are many
        reason = (
            "need " + missing.removeprefix("needs ") if missing.startswith("needs ") else missing
        )
        raise RecordError(f"{spec.title} hints {reason}")
    try:
        function: HintFunction = spec.load_extra(HINT_EXTRA)
    except ImportError as exc:  # the solver extra is not installed: say how to get it
        raise RecordError(str(exc)) from None
    return function


def fixed(value: float | None, digits: int = 3, *, signed: bool = False) -> str:
    """``value`` with ``digits`` decimals (``"-"`` for ``None``); a value that rounds to
    zero prints as ``0.000``, never ``-0.000``."""
    if value is None:
        return "-"
    text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    if float(text) == 0.0:
        return f"{0.0:.{digits}f}"
    return text


def hint_table(hints: Sequence[Hint]) -> Table:
    """A Rich table (at most 80 columns for actions of up to 13 characters): action,
    expected points, margin (if any), bust chance, basis; the solver's choice is marked
    with ``*`` and bold. :func:`hint_legend` explains the columns and the mark. The title
    and column names are in the terminal's language; the basis labels stay English (the
    JSON's)."""
    show_margin = any(h.margin is not None for h in hints)
    table = Table(title=_("Hint: what each move is worth"))
    table.add_column("", no_wrap=True)
    table.add_column(_("action"), no_wrap=True)
    table.add_column(_("points"), justify="right", no_wrap=True)
    if show_margin:
        table.add_column(_("margin"), justify="right", no_wrap=True)
    table.add_column(_("bust"), justify="right", no_wrap=True)
    table.add_column(_("basis"))
    for h in hints:
        cells = ["*" if h.best else "", h.notation, fixed(h.expected_points)]
        if show_margin:
            cells.append(fixed(h.margin, signed=True))
        cells.append("" if h.bust_chance is None else f"{100 * h.bust_chance:.1f}%")
        cells.append(h.basis)
        table.add_row(*(Text(c) for c in cells), style="bold" if h.best else None)
    return table


def hint_legend(hints: Sequence[Hint], notes: Mapping[str, str] | None = None) -> list[str]:
    """The lines under the hint table: what ``*`` means (the fewest expected points, or
    with two-player margins the best margin), the columns, and each basis label shown
    (with its explanation from ``notes``, the game's ``hint_notes`` extra; English, as the
    labels). In the terminal's language but for the basis notes."""
    show_margin = any(h.margin is not None for h in hints)
    lines = [_(BEST_BY_MARGIN if show_margin else BEST_BY_POINTS)]
    columns = _("points: your expected further points of this round (lower is better)")
    if show_margin:
        columns += _("; margin: the opponent's expected points minus yours (higher is better)")
    if any(h.bust_chance is not None for h in hints):
        columns += _("; bust: the chance that the next roll is a bust")
    lines.append(columns + ".")
    for basis in dict.fromkeys(h.basis for h in hints):
        note = (notes or {}).get(basis)
        if note:
            lines.append(f"{basis} = {note}.")
    return lines


def hint_notes(game_id: str) -> Mapping[str, str]:
    """The game's explanations of its basis labels (``extras["hint_notes"]``), or none."""
    try:
        spec = get_spec(game_id)
        if HINT_NOTES_EXTRA not in spec.extras:
            return {}
        notes: Mapping[str, str] = spec.load_extra(HINT_NOTES_EXTRA)
    except (LamaError, ImportError):
        return {}
    return notes


def hint_words(game_id: str, hints: Sequence[Hint]) -> list[str]:
    """The game's plain words for ``hints`` (``extras["hint_words"]``) in the terminal's
    language (:func:`~lamagames.cli.i18n.translator_now`), or none."""
    try:
        spec = get_spec(game_id)
        if HINT_WORDS_EXTRA not in spec.extras:
            return []
        words: Callable[[Sequence[Hint], Translator], list[str]] = spec.load_extra(HINT_WORDS_EXTRA)
    except (LamaError, ImportError):
        return []
    return words(hints, translator_now())


def hint_view(
    game_id: str, hints: Sequence[Hint], *, details: bool = True, more: str = MORE_BY_FLAG
) -> RenderableType:
    """The hint in plain words (the game's ``hint_words``), then with ``details`` (or for
    a game without words) the table with its legend (:func:`hint_table`,
    :func:`hint_legend`); without ``details`` the line ``more`` (a message id, shown in the
    terminal's language) says where the table is."""
    words = [Text(line) for line in hint_words(game_id, hints)]
    if words and not details:
        return Group(*words, Text(_(more), style="grey50"))
    legend = [Text(line, style="grey50") for line in hint_legend(hints, hint_notes(game_id))]
    return Group(*words, hint_table(hints), *legend)


def hint_renderable(
    game_id: str,
    state: State,
    player: int,
    *,
    working: Callable[[], object] | None = None,
    details: bool = False,
) -> RenderableType:
    """The hint for ``player`` in plain words (with ``details``: and the table and legend),
    or a one-line explanation when there is none.

    Args:
        game_id: the game.
        state: the position.
        player: the seat to advise.
        working: called once the game's hints are known to be available, before they are
            worked out (an exact solve may take seconds): the terminal prompt says so.
        details: add the technical table (``hint details`` at the prompt).
    """
    try:
        function = hint_function(game_id)
        if working is not None:
            working()
        hints = function(state, player)
        return hint_view(game_id, hints, details=details, more=MORE_BY_WORD)
    except (LamaError, ImportError) as exc:  # ImportError: the solver extra is missing
        return Text(_("No hint: {reason}").format(reason=exc), style="yellow")


class Position(NamedTuple):
    """A position read by :func:`load_position`."""

    game_id: str
    state: State
    #: ``"after N of M actions"`` or ``"position file"``.
    where: str
    #: Names and kinds per seat: the record's, else ``Player 1``, ``Player 2``... (as in
    #: ``lama play``).
    seats: list[SeatInfo]


def load_position(path: Path, at: int | None) -> Position:
    """Read a record or position file.

    Raises:
        RecordError: ``FILE: <reason>`` for an unreadable file, bad JSON, a record that does
            not replay, ``--at`` out of range or given for a position file, or a state that
            does not validate.
    """
    try:
        data = read_json_file(path, RecordError)
        if isinstance(data, dict) and "format" in data:
            record = validate_record(data)
            states = list(iter_replay(record))
            last = len(states) - 1
            index = last if at is None else at
            if not 0 <= index <= last:
                raise RecordError(f"--at {at}: the record has {last} actions; choose 0 to {last}")
            where = f"after {index} of {last} actions"
            return Position(record.game, states[index], where, list(record.seats))
        if at is not None:
            raise RecordError("--at applies to game records; this is a position file")
        game_id, params, state_data = _position_parts(data)
        game = make(game_id, **params)
        seats = [
            SeatInfo(name=f"Player {seat + 1}", kind="human")
            for seat in range(game.info.num_players)
        ]
        return Position(game_id, game.state_from_dict(state_data), "position file", seats)
    except LamaError as exc:
        raise RecordError(f"{path}: {exc}") from None


def where_words(where: str) -> str:
    """:attr:`Position.where` (English, as in ``--json``) in the terminal's language:
    ``"after 4 of 59 actions"``, ``"position file"``."""
    match = re.fullmatch(r"after (\d+) of (\d+) actions", where)
    if match is not None:
        index, last = int(match[1]), int(match[2])
        return ngettext("after {index} of {n} action", "after {index} of {n} actions", last).format(
            index=index, n=last
        )
    if where == "position file":
        return _("position file")
    return where


def _position_parts(data: Any) -> tuple[str, dict[str, Any], Any]:
    if not isinstance(data, dict):
        raise RecordError("a position file is a JSON object (a record or a state)")
    if "state" in data:
        unknown = sorted(set(data) - {"game", "params", "state"})
        if unknown:
            raise RecordError(f"unknown field(s): {', '.join(unknown)}")
        game_id, params = data.get("game", "dice"), data.get("params", {})
        if not isinstance(game_id, str) or not isinstance(params, dict):
            raise RecordError("'game' must be a string and 'params' an object")
        return game_id, params, data["state"]
    rows = data.get("rows")
    if not isinstance(rows, list):
        raise RecordError("not a record and not a LAMA Dice state (no 'rows' list)")
    return "dice", {"num_players": len(rows)}, data


#: ``format`` of the ``lama hint --json`` document (its fields: :func:`hint_json`).
HINT_JSON_FORMAT = "lamagames-hint"
#: Version of the ``lama hint --json`` layout; raised when a field changes meaning.
HINT_JSON_VERSION = 1


def hint_json(
    position: Position, player: int, hints: Sequence[Hint], notes: Mapping[str, str]
) -> dict[str, Any]:
    """The ``lama hint --json`` document: the position, and every legal action with its
    value, whether it is exact or an estimate, and how it was worked out.

    Top level: ``format`` (:data:`HINT_JSON_FORMAT`), ``format_version``
    (:data:`HINT_JSON_VERSION`), ``lamagames_version``, ``game``, ``where`` (as printed:
    ``"after 4 of 59 actions"`` or ``"position file"``), ``player`` (the seat to act,
    0-based as in records), ``player_name``, ``objective`` (``"points"``: the best action
    has the fewest expected points; ``"margin"``: the highest margin, with exact two-player
    values), ``best`` (the best action's id) and ``actions``, one object per legal action in
    action-id order:

    - ``action`` (int id), ``notation`` (str);
    - ``value``: the figure ``objective`` ranks by (``expected_points`` or ``margin``);
    - ``expected_points``: the seat's expected further points of the round (lower is
      better), ``margin``: the opponent's expected points minus the seat's (two players,
      exact values only, else ``null``), ``bust_chance``: the probability 0..1 that the
      next roll busts (``roll`` only, else ``null``);
    - ``exact`` (bool) and ``estimate`` (its negation); ``basis`` (the short label) and
      ``basis_note`` (its explanation);
    - ``standard_error``: the standard error of a sampled estimate, else ``null``. The LAMA
      Dice estimates are exact values of a simpler game (the other seats quit right after
      the move), not samples, so they have none: ``null`` there too;
    - ``best`` (bool): the one best action.
    """
    by_margin = any(h.margin is not None for h in hints)
    actions = []
    for h in hints:
        value = h.margin if by_margin else h.expected_points
        actions.append(
            {
                "action": int(h.action),
                "notation": h.notation,
                "value": value,
                "expected_points": h.expected_points,
                "margin": h.margin,
                "bust_chance": h.bust_chance,
                "exact": bool(h.exact),
                "estimate": not h.exact,
                "basis": h.basis,
                "basis_note": notes.get(h.basis),
                "standard_error": getattr(h, "standard_error", None),
                "best": bool(h.best),
            }
        )
    best = [a["action"] for a in actions if a["best"]]
    seats = position.seats
    return {
        "format": HINT_JSON_FORMAT,
        "format_version": HINT_JSON_VERSION,
        "lamagames_version": __version__,
        "game": position.game_id,
        "where": position.where,
        "player": player,
        "player_name": seats[player].name if 0 <= player < len(seats) else None,
        "objective": "margin" if by_margin else "points",
        "best": best[0] if best else None,
        "actions": actions,
    }


def _fail(message: str) -> NoReturn:
    Console(stderr=True, highlight=False).print(
        Text("Error: ", style="bold red") + Text(message), soft_wrap=True
    )
    raise typer.Exit(2)


def hint_command(
    file_name: Annotated[
        str,
        typer.Argument(metavar="FILE", help="A game record or a position file (state JSON)."),
    ],
    at: Annotated[
        int | None,
        typer.Option("--at", min=0, metavar="N", help="Position after N actions of a record."),
    ] = None,
    details: Annotated[
        bool,
        typer.Option("--details", help="Add the table of exact values and where they come from."),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the hint as JSON for programs (every legal action, its value, exact "
            "or estimate) instead of the words and the table.",
        ),
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)] = None,
) -> None:
    """Show what each legal move of the seat to act is worth, in plain words (LAMA Dice)."""
    use_language(lang)  # --lang, else lama --lang, else the locale; --json stays English
    if not file_name.strip():
        _fail("no file name given")
    try:
        position = load_position(Path(file_name), at)
        game_id, state, where, seats = position
        function = hint_function(game_id)
    except RecordError as exc:
        _fail(str(exc))
    player = state.current_player()
    if player < 0:
        what = "the game is over" if state.is_terminal() else "chance acts next (deal or dice)"
        _fail(f"{file_name} ({where}): no seat has a decision: {what}")
    try:
        hints = function(state, player)
    except (LamaError, ImportError, MemoryError) as exc:  # ImportError: no solver extra
        reason = "out of memory" if isinstance(exc, MemoryError) else str(exc)
        _fail(f"{file_name} ({where}): no hint: {reason}")
    if as_json:
        document = hint_json(position, player, hints, hint_notes(game_id))
        # allow_nan=False: a value that is not a number would be invalid JSON; refuse it
        try:
            text = json.dumps(document, indent=2, allow_nan=False)
        except ValueError:
            _fail(f"{file_name} ({where}): no hint: a value is not a finite number")
        print(text)
        return
    out = Console(highlight=False)
    fallback = _("Player {n}").format(n=player + 1)
    name = seats[player].name if 0 <= player < len(seats) else fallback
    head = _("{file} ({where}): {name} (seat {seat}) to act").format(
        file=file_name, where=where_words(where), name=name, seat=player + 1
    )
    out.print(Text(head, style="bold"))
    out.print(get_view(game_id).render(state, seats))
    out.print(hint_view(game_id, hints, details=details))
