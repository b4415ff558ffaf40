"""The ``lama`` command: play, watch and simulate games, replay records, read the rules.

Every command works for any game with a spec (:mod:`lamagames.core.spec`); this module only
assembles the Typer app: the generic commands live in their own modules (``play``,
``replay``, ``rules``, ``serve``) and a game adds its ``lama play`` options and its own
commands (Lama Express: ``lama board``) through its spec. It imports no game package.
Seat numbers shown to people are 1-based; records keep the engine's 0-based seats.

Exit codes: 0 success (also when a player leaves with ``q`` or at the end of input), 1 a
file could not be written, 2 bad arguments or a bad record or board file, 130 stopped with
Ctrl-C (after saving the record of a game, or printing the summary of a batch's finished
games and writing its JSON).
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from lamagames import __version__
from lamagames.cli.common import (
    ASCII_STAND_INS,
    hide_flag_types,
    hide_hidden_suggestions,
    number_option_message,
    safe_output_streams,
)
from lamagames.cli.hint import hint_command
from lamagames.cli.i18n import LANG_HELP, set_language_before_command
from lamagames.cli.options import with_game_options
from lamagames.cli.play import play
from lamagames.cli.replay import replay_command
from lamagames.cli.review import review_command
from lamagames.cli.rules import rules
from lamagames.cli.serve import serve
from lamagames.cli.simulate import simulate_command
from lamagames.cli.tutorial import tutorial_command
from lamagames.core.spec import all_specs, load_ref

__all__ = ["ASCII_STAND_INS", "app", "build_app", "run"]


def _click_class(name: str) -> type[Exception]:
    """Click's exception class ``name`` as Typer uses it (newer Typers vendor Click, so the
    class is found through the public ``typer.BadParameter`` rather than imported)."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == name:
            return cls
    raise ImportError(f"typer.BadParameter does not derive from {name}")  # pragma: no cover


_CLICK_EXCEPTION: Any = _click_class("ClickException")
_USAGE_ERROR: Any = _click_class("UsageError")

hide_flag_types()
hide_hidden_suggestions()  # a mistyped option is never answered with a hidden one


def _version(value: bool) -> None:
    if value:
        print(f"lama (lamagames) {__version__}")
        raise typer.Exit()


def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANG",
            help=LANG_HELP + " For play, replay, tutorial, rules, hint and review; their own "
            "--lang wins.",
        ),
    ] = None,
) -> None:
    """LAMA Dice and Lama Express in the terminal: play, watch bots, simulate, replay records."""
    safe_output_streams()
    set_language_before_command(lang)  # lama --lang de tutorial dice


def add_game_commands(target: typer.Typer) -> None:
    """Add the commands every game's spec names (``GameSpec.cli_commands``) to ``target``:
    a ``typer.Typer`` as a command group, a function as one command."""
    for spec in all_specs():
        for ref in spec.cli_commands:
            command = load_ref(ref)
            if isinstance(command, typer.Typer):
                target.add_typer(command)
            else:
                target.command()(command)


def build_app() -> typer.Typer:
    """The ``lama`` app for the games known now (:func:`lamagames.core.spec.spec_ids`):
    the generic commands, every game's ``play`` options and its own commands."""
    app = typer.Typer(
        name="lama",
        help="LAMA Dice and Lama Express in the terminal: play, watch bots, simulate, "
        "replay records.",
        no_args_is_help=True,
        add_completion=True,  # --install-completion, --show-completion [SHELL]
        rich_markup_mode="rich",
        pretty_exceptions_show_locals=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(main)
    app.command("play")(with_game_options(play))
    app.command("replay")(replay_command)
    app.command("hint")(hint_command)
    app.command("review")(review_command)
    app.command("tutorial")(tutorial_command)
    app.command("rules")(rules)
    add_game_commands(app)
    app.command("simulate")(simulate_command)
    app.command("serve")(serve)
    app.command("lease")(load_ref("lamagames.cli.lease:lease"))
    app.command("ladder")(load_ref("lamagames.cli.ladder:ladder"))
    return app


#: The ``lama`` app (built at import for the games known then; see :func:`build_app`).
app = build_app()


def run() -> None:
    """Run the ``lama`` command line; the entry point of ``lama``, ``python -m lamagames``
    and ``python -m lamagames.cli`` is :func:`lamagames.cli.entry.run`, which imports this
    module and calls this (a Ctrl-C during the imports ends quietly there, issue 19).

    Argument errors found by the option parser (a value out of range, an unknown option, a
    missing argument) are printed as one line, like the commands' own checks:
    ``Error: No such option: --gmes (see 'lama ladder -h')``, exit code 2; a number option's
    bad value names the option and its range (:func:`~lamagames.cli.common.number_option_message`:
    ``Error: --games: expected a whole number >= 1, got '0' (see 'lama ladder -h')``).
    """
    safe_output_streams()
    try:
        code = app(prog_name="lama", standalone_mode=False)
    except typer.Abort:  # Ctrl-C or end of input at a prompt of the option parser
        sys.exit(130)
    except _CLICK_EXCEPTION as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare ``lama`` or a bare group: help
            exc.show()
        elif isinstance(exc, _USAGE_ERROR) and exc.ctx is not None:
            message = number_option_message(exc) or exc.format_message()
            print(f"Error: {message} (see '{exc.ctx.command_path} -h')", file=sys.stderr)
        else:
            print(f"Error: {exc.format_message()}", file=sys.stderr)
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)
