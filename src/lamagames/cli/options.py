"""``lama play`` arguments: seats, names, ``--param`` and the options games contribute.

The generic options (``--seats``, ``--starting-seat``...) are declared on the ``play``
command itself; every game adds its own through its spec
(:class:`~lamagames.core.spec.PlayOption`, e.g. LAMA Dice's ``--end-score`` and Lama
Express's ``--short``, ``--board``, ``--colours``, ``--turn-limit``), which
:func:`with_game_options` adds to the command's signature. No game is imported here.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from lamagames.bots.base import BotUnavailableError, bot_kinds, bot_unavailable, make_bot
from lamagames.cli import i18n
from lamagames.cli.common import fail, game_argument, offer_only, param_value
from lamagames.cli.session import HUMAN
from lamagames.cli.views import GameView, get_view
from lamagames.core.errors import LamaError, did_you_mean, quoted
from lamagames.core.game import Game
from lamagames.core.records import SeatInfo
from lamagames.core.registry import game_title, make, parameter_names
from lamagames.core.spec import GameSpec, PlayOption, all_specs, get_spec, spec_ids

#: Game parameters that ``lama play`` sets itself, by option, for every game that has them.
#: ``--param`` refuses these keys and the keys of the games' play options.
GENERIC_OPTION_PARAMS: dict[str, str] = {
    "--seats": "num_players",
    "--starting-seat": "starting_seat",
}


def game_view(game_id: str) -> GameView:
    """The terminal view of ``game_id`` (the ``GAME`` argument).

    Raises:
        typer.BadParameter: unknown game (the message lists the known games).
    """
    try:
        return get_view(game_id)
    except LamaError as exc:
        raise typer.BadParameter(str(exc), param_hint="GAME") from None


def parse_seats(text: str, game_id: str) -> list[str]:
    """Parse ``--seats``: comma-separated ``human`` or bot kinds of ``game_id``.

    Raises:
        typer.BadParameter: an empty entry, an unknown kind (the message lists the kinds) or
            a bot kind this installation cannot use (the message names the missing package
            and the extra that installs it, :func:`~lamagames.bots.base.bot_unavailable`).
    """
    kinds = [part.strip().lower() for part in text.split(",")]
    allowed = bot_kinds(game_id)
    choices = ", ".join([HUMAN, *allowed])
    for kind in kinds:
        if not kind:
            raise typer.BadParameter(
                f"empty seat in {quoted(text)}; seats are: {choices}", param_hint="--seats"
            )
        if kind == HUMAN:
            continue
        if kind not in allowed:
            raise typer.BadParameter(
                f"unknown seat kind {quoted(kind)}; seats are: {choices}"
                + did_you_mean(kind, [HUMAN, *allowed]),
                param_hint="--seats",
            )
        reason = bot_unavailable(game_id, kind)
        if reason is not None:
            raise typer.BadParameter(str(BotUnavailableError(kind, reason)), param_hint="--seats")
    return kinds


def check_bots(game: Game, kinds: Sequence[str], seed: int) -> None:
    """Build every bot seat once, before anything is played, so that a kind that refuses
    this game (its seat count, a missing package) is a one-line error, not a traceback.

    Raises:
        typer.BadParameter: (``--seats``) the message names the seat and the kind.
    """
    for seat, kind in enumerate(kinds):
        if kind == HUMAN:
            continue
        try:
            make_bot(kind, game, seat, seed)
        except LamaError as exc:
            raise typer.BadParameter(
                f"seat {seat + 1} ({kind}): {exc}", param_hint="--seats"
            ) from None


def parse_names(text: str | None, kinds: Sequence[str]) -> list[str]:
    """Display names: ``--names`` split on commas, or ``Player N`` / ``Bot N`` by seat.

    ``--names`` gives one name per seat, or one per human seat (in seat order; the bots
    keep ``Bot N``).

    Raises:
        typer.BadParameter: wrong count, an empty, too long or repeated name.
    """
    default = [  # in the chosen language (lamagames.cli.i18n): Spieler 1, Joueur 1...
        (i18n._("Player {n}") if kind == HUMAN else i18n._("Bot {n}")).format(n=seat + 1)
        for seat, kind in enumerate(kinds)
    ]
    if text is None:
        return default
    given = [part.strip() for part in text.split(",")]
    human_seats = [seat for seat, kind in enumerate(kinds) if kind == HUMAN]
    if len(given) == len(kinds):
        names = given
    elif human_seats and len(given) == len(human_seats):
        names = list(default)
        for seat, name in zip(human_seats, given, strict=True):
            names[seat] = name
    else:
        humans = len(human_seats)
        counts = f"{len(kinds)} names (one per seat)"
        if 0 < humans < len(kinds):
            counts += f" or {humans} (one per human seat)"
        raise typer.BadParameter(f"give {counts}, got {len(given)}", param_hint="--names")
    for name in given:
        if not 1 <= len(name) <= 64:
            raise typer.BadParameter(
                f"names must have 1 to 64 characters, got {quoted(name)}", param_hint="--names"
            )
        try:  # the same rules as names in records (no control characters)
            SeatInfo(name=name, kind=HUMAN)
        except ValidationError as exc:
            reason = exc.errors()[0]["msg"].removeprefix("Value error, ")
            raise typer.BadParameter(reason, param_hint="--names") from None
    if len(set(names)) != len(names):
        raise typer.BadParameter("names must differ", param_hint="--names")
    return names


def parse_params(items: Sequence[str]) -> dict[str, Any]:
    """Parse repeated ``--param KEY=VALUE``; VALUE is read as JSON, else kept as text.

    Raises:
        typer.BadParameter: an item without ``=`` or with an empty key.
    """
    params: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise typer.BadParameter(
                f"expected KEY=VALUE, got {quoted(item)}", param_hint="--param"
            )
        params[key] = param_value(raw)
    return params


def game_play_options() -> dict[str, tuple[PlayOption, list[GameSpec]]]:
    """Every game's ``lama play`` options by flag, each with the games that contribute it.

    A flag that a game gives another meaning than an earlier game (another parameter or
    value type), or that is a generic option, is left out for that game with a
    :class:`RuntimeWarning`, so one game cannot break ``lama`` for the others.
    """
    found: dict[str, tuple[PlayOption, list[GameSpec]]] = {}
    for spec in all_specs():
        for option in spec.play_options:
            known = found.get(option.flag)
            if option.flag in GENERIC_OPTION_PARAMS:
                problem = f"{option.flag} is a generic play option"
            elif known is None:
                found[option.flag] = (option, [spec])
                continue
            elif (known[0].param, known[0].value_type) != (option.param, option.value_type):
                problem = f"{known[1][0].title} gives {option.flag} another meaning"
            else:
                known[1].append(spec)
                continue
            warnings.warn(f"{spec.title}: {problem}; option left out", RuntimeWarning, 2)
    return found


def option_params(game_id: str | None = None) -> dict[str, str]:
    """Option -> game parameter: the generic ones and the play options of ``game_id``
    (of every game when ``None``)."""
    params = dict(GENERIC_OPTION_PARAMS)
    if game_id is None:
        for flag, (option, _) in game_play_options().items():
            params[flag] = option.param
    else:
        params.update({option.flag: option.param for option in get_spec(game_id).play_options})
    return params


def check_params(game_id: str, params: dict[str, Any]) -> None:
    """Refuse ``--param`` keys that an option sets and keys the game does not know.

    Raises:
        typer.BadParameter: the key has its own option (the message names it) or is not a
            parameter of the game (the message lists the game's parameters).
    """
    by_param = {param: option for option, param in option_params().items()}
    known = parameter_names(game_id)
    for key in params:
        option = by_param.get(key)
        if option == "--seats":
            raise typer.BadParameter(
                f"{key!r} is set by the number of seats (--seats)", param_hint="--param"
            )
        if option is not None and (known is None or key in known):
            extra = " (seats count from 1)" if option == "--starting-seat" else ""
            raise typer.BadParameter(
                f"{key!r} has its own option: use {option}{extra}", param_hint="--param"
            )
        if known is not None and key not in known:
            raise typer.BadParameter(
                f"unknown parameter {quoted(key)} for {game_title(game_id)}; "
                f"known: {', '.join(known)}",
                param_hint="--param",
            )


def foreign_options(game_id: str) -> set[str]:
    """The ``lama play`` options (every spelling) that ``game_id`` does not use: another
    game's play options and the generic options whose parameter the game lacks."""
    foreign = {
        name
        for option, specs in game_play_options().values()
        if all(spec.game_id != game_id for spec in specs)
        for name in (option.flag, *option.aliases)
    }
    known = parameter_names(game_id)
    if known is not None:
        foreign |= {flag for flag, param in GENERIC_OPTION_PARAMS.items() if param not in known}
    return foreign


def offered_options(values: Mapping[str, Any]) -> Callable[[str], bool] | None:
    """For a mistyped ``lama play`` option: which option names to suggest, from the values
    the parser read (:func:`lamagames.cli.common.offer_only`): those of the game ``GAME``
    names, or all when it names no known game (issue 19: ``lama play dice --shrt``
    suggested Lama Express's ``--short``)."""
    game = values.get("game")
    if not isinstance(game, str) or game_argument(game) not in spec_ids():
        return None
    foreign = foreign_options(game_argument(game))
    return lambda name: name not in foreign


def check_game_options(game_id: str, options: Sequence[str]) -> None:
    """Refuse options that belong to another game: a generic option whose parameter the
    game lacks, or another game's play option.

    Raises:
        typer.BadParameter: the message names the game(s) the option is for.
    """
    own = {
        flag
        for flag, (_, specs) in game_play_options().items()
        if any(spec.game_id == game_id for spec in specs)
    }
    known = parameter_names(game_id)
    for option in options:
        if option in own:
            continue
        param = GENERIC_OPTION_PARAMS.get(option)
        if param is not None:
            if known is None or param in known:
                continue
            owners = [s.title for s in all_specs() if param in (parameter_names(s.game_id) or ())]
        else:
            owners = [s.title for s in game_play_options().get(option, (None, []))[1]]
        where = f"a {' and '.join(owners)} option" if owners else "not an option of any game"
        raise typer.BadParameter(
            f"{option} is {where}; {game_title(game_id)} does not use it", param_hint=option
        )


def apply_game_options(
    game_id: str, given: Mapping[str, Any], params: dict[str, Any], *, humans: bool
) -> None:
    """Put the values of the game's play options that were given into ``params``.

    Args:
        game_id: the game (its options were checked by :func:`check_game_options`).
        given: flag -> typed value of the options given on the command line.
        params: the game parameters, updated in place.
        humans: a person plays (options with ``bots_only`` are refused).

    Raises:
        typer.BadParameter: a bots-only option with a person, or a badly typed value.
        typer.Exit: (code 2, after ``Error: <message>``) a value the game refuses through
            its converter, for example a bad board file.
    """
    spec = get_spec(game_id)
    for flag, value in given.items():
        option = spec.play_option(flag)
        if option.bots_only is not None and humans:
            raise typer.BadParameter(option.bots_only, param_hint=flag)
        try:
            params[option.param] = option.to_param(value)
        except LamaError as exc:  # FILE: <field>: <reason>
            fail(str(exc))
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint=flag) from None


def option_message(message: str, game_id: str | None = None) -> str:
    """A game's parameter error in the words of the command line: a message about a
    parameter that an option sets names the option (``end_score must be ...`` ->
    ``--end-score must be ...``); others are ``bad game parameters: <message>``."""
    for option, param in option_params(game_id).items():
        if option != "--seats" and message.startswith((f"{param} ", f"{param}:")):
            return option + message[len(param) :]
    return f"bad game parameters: {message}"


def make_game(game_id: str, kinds: Sequence[str], params: dict[str, Any]) -> Game:
    """The game for ``len(kinds)`` seats with ``params``.

    Raises:
        typer.BadParameter: the game does not take that many seats.
        typer.Exit: (code 2) the game refuses a parameter (the message names the option).
    """
    try:
        info = make(game_id).info
    except LamaError as exc:
        fail(str(exc))
    if not info.min_players <= len(kinds) <= info.max_players:
        raise typer.BadParameter(
            f"{info.long_name} takes {info.min_players} to {info.max_players} seats, "
            f"got {len(kinds)}",
            param_hint="--seats",
        )
    try:
        return make(game_id, **{**params, "num_players": len(kinds)})
    except LamaError as exc:
        fail(option_message(str(exc), game_id))


def _typer_parameter(name: str, option: PlayOption) -> inspect.Parameter:
    """The keyword parameter through which Typer reads ``option``."""
    info: Any
    if option.is_flag:
        info = typer.Option(*option.flags, help=option.help)
        annotation: Any = Annotated[bool, info]
        default: Any = False
    else:
        info = typer.Option(
            *option.flags, metavar=option.metavar, help=option.help, min=option.minimum
        )
        annotation = Annotated[option.value_type | None, info]
        default = None
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def with_game_options(
    command: Callable[..., None], after: str = "starting_seat"
) -> Callable[..., None]:
    """``command`` with every game's play options added to its signature (after the
    parameter ``after``), for Typer.

    ``command`` takes a keyword ``game_options``: a dict of flag -> value of the game
    options that were given (flags set, other options not ``None``).
    """
    signature = inspect.signature(command, eval_str=True)
    names: dict[str, str] = {}
    extra: list[inspect.Parameter] = []
    for flag, (option, _) in game_play_options().items():
        name = "game_option_" + flag.removeprefix("--").replace("-", "_")
        names[name] = flag
        extra.append(_typer_parameter(name, option))
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter.name == "game_options":
            continue
        parameters.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY))
        if parameter.name == after:
            parameters += extra

    def with_options(**kwargs: Any) -> None:
        given = {}
        for name, flag in names.items():
            value = kwargs.pop(name, None)
            if value is not None and value is not False:
                given[flag] = value
        command(**kwargs, game_options=given)

    offer_only(with_options, offered_options)  # a typo's suggestions: the game's options
    with_options.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    with_options.__doc__ = command.__doc__
    with_options.__name__ = command.__name__
    return with_options
