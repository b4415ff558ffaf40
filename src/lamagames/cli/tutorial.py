"""``lama tutorial GAME``: a short scripted first game against the ``heuristic`` bot that
explains each kind of decision (with the rules' ids) and suggests a move with the reason.

Generic: a game takes part through its spec's ``tutorial`` extra, a factory
``make_tutor(game, seat)`` returning an object with ``params`` (the game's parameters),
``seed`` (the fixed seed: the same dice every time), ``lessons(state, player) -> [kind]``,
``lesson(kind, language) -> str`` (ending with its ruling ids in brackets) and
``advice(state, player, language) -> (action, why)`` (LAMA Dice:
:mod:`lamagames.dice.tutorial`, Lama Express: :mod:`lamagames.express.tutorial`). Each kind
of decision is explained the first time it comes up; at every decision the suggestion is
shown and Enter takes it. The rest is ``lama play``'s terminal: the menu, ``?`` help,
``hint``, ``q`` to leave.

Languages (issue 19 item 5): ``--lang``, else the locale, as ``lama play``. The lessons and
reasons are the game's browser catalogs' (``<game>.tut.<kind>``, one source for the
terminal and the web walkthrough); the rest goes through the terminal's gettext catalogs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from lamagames.bots.base import Bot, make_bot
from lamagames.cli.common import fail, output_path, read_line_from, stdout
from lamagames.cli.i18n import LANG_HELP, _, language_now, use_language
from lamagames.cli.session import (
    HUMAN,
    LeaveGame,
    Narrator,
    ReadLine,
    TerminalHuman,
    winners_line,
)
from lamagames.cli.views import complete_game, get_view
from lamagames.core.errors import LamaError, ParameterError
from lamagames.core.game import State
from lamagames.core.records import SeatInfo, record_from_state, save_record
from lamagames.core.registry import make
from lamagames.core.spec import get_spec
from lamagames.sim.runner import play_game

#: Name of the walkthrough's factory in a game's spec (``GameSpec.extras``).
TUTORIAL_EXTRA = "tutorial"
#: The person's seat name in the walkthrough (terminal and browser; the terminal shows it
#: in its language). Not "You": the moves are told in the third person ("{name} starts",
#: "{name} rolls ...", "{name}'s turn"), and "You starts" is wrong; the table marks the
#: person's seat "(you)" anyway.
PERSON_NAME = "Player"
#: The bot's seat name (English; the terminal shows it in its language).
BOT_NAME = "Bot"


def tutorial_seats() -> list[SeatInfo]:
    """The seats of the walkthrough in the terminal's language: you, then the bot."""
    return [SeatInfo(name=_("Player"), kind=HUMAN), SeatInfo(name=_("Bot"), kind="heuristic")]


def load_tutor_factory(game_id: str) -> Callable[..., Any]:
    """The game's ``tutorial`` factory.

    Raises:
        ParameterError: an unknown game or a game without a walkthrough.
    """
    spec = get_spec(game_id)
    if TUTORIAL_EXTRA not in spec.extras:
        raise ParameterError(f"{spec.title} has no walkthrough")
    factory: Callable[..., Any] = spec.load_extra(TUTORIAL_EXTRA)
    return factory


class TutorialSeat(TerminalHuman):
    """The person's seat: before each prompt the new lessons and the suggestion; an empty
    line takes the suggested move."""

    def __init__(self, *args: Any, tutor: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tutor = tutor
        self.explained: set[str] = set()
        self._inner: ReadLine = self.read_line
        self._suggested = ""
        self.read_line = self._read

    def _read(self, prompt: Text) -> str:
        line = self._inner(prompt)
        return self._suggested if not line.strip() and self._suggested else line

    def step(self, state: State) -> int:
        """Explain, suggest, then ask as :class:`TerminalHuman` does (Enter: the suggestion),
        in the terminal's language (:func:`~lamagames.cli.i18n.language_now`)."""
        legal = state.legal_actions(self.seat)
        language = language_now()
        for kind in self.tutor.lessons(state, self.seat):
            if kind not in self.explained:
                self.explained.add(kind)
                lesson = self.tutor.lesson(kind, language)
                self.console.print(Text(lesson, style="cyan"), soft_wrap=False)
                if kind == "start":
                    how = _("Press Enter to take the suggested move, or type your own; ? helps.")
                    self.console.print(Text(how, style="cyan"), soft_wrap=False)
        if len(legal) > 1:
            action, why = self.tutor.advice(state, self.seat, language)
            self._suggested = state.action_to_string(action, self.seat)
            label = self.view.action_label(state, action, self.seat, self.seats)
            line = _("Suggested: {move} ({label}).").format(move=self._suggested, label=label)
            self.console.print(Text(line, style="bold green"))
            self.console.print(Text(why))
        else:
            self._suggested = ""
        return super().step(state)


def run_tutorial(
    game_id: str, console: Console, read_line: ReadLine, record_path: Path | None = None
) -> State:
    """Play the walkthrough of ``game_id`` to its end (or until the person leaves).

    Raises:
        ParameterError: the game has no walkthrough.
        LeaveGame: the person left (``q``, end of input).
        OSError: the record could not be written.
    """
    factory = load_tutor_factory(game_id)
    view = get_view(game_id)
    probe = factory(make(game_id), 0)
    game = make(game_id, **probe.params)
    tutor = factory(game, 0)
    seats = tutorial_seats()
    bots: list[Bot] = [
        TutorialSeat(
            game, 0, view=view, seats=seats, console=console, read_line=read_line, tutor=tutor
        ),
        make_bot("heuristic", game, 1, tutor.seed),
    ]
    narrator = Narrator(view, seats, console, game.new_initial_state())
    try:
        state = play_game(game, bots, tutor.seed, observer=narrator).state
    finally:
        if record_path is not None:
            save_record(record_from_state(narrator.last, seats, seed=tutor.seed), record_path)
    return state


def tutorial_command(
    game: Annotated[str, typer.Argument(
            metavar="GAME", help="The game: dice or express.", autocompletion=complete_game
        )],
    record: Annotated[
        str | None,
        typer.Option("--record", metavar="FILE", help="Save the game (for lama review)."),
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)] = None,
) -> None:
    """A first game against a bot that explains each kind of decision and suggests a move."""
    use_language(lang)  # --lang, else the locale (LC_ALL / LC_MESSAGES / LANG)
    path = output_path(record, "--record")
    out = stdout()
    try:
        state = run_tutorial(game.strip().lower(), out, read_line_from(out), path)
    except LeaveGame as leave:
        out.print(_("You left the walkthrough."))
        if leave.interrupted:
            raise typer.Exit(130) from None
        return
    except KeyboardInterrupt:
        out.print()
        fail("the walkthrough was interrupted", code=130)  # errors in English, as lama play
    except LamaError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {path}: {exc}", code=1)
    out.print(Text(winners_line(state, tutorial_seats()), style="bold"))
    if path is not None:
        saved = _("Saved to {path}. See what each decision cost: lama review {path}")
        out.print(saved.format(path=path))
