"""The language of the terminal commands (``lama play``, ``lama replay``, ``lama tutorial``,
``lama rules``).

A command chooses the language once (:func:`use_language`: its ``--lang`` option, else
``lama --lang`` before the command, else the locale), and the terminal code reads the words
through :func:`_` and :func:`ngettext`; the
game packages get the catalog as a :class:`~lamagames.core.i18n.Translator` argument
(:func:`translator_now`).
"""

from __future__ import annotations

import os

import typer

from lamagames.core.i18n import (
    ENGLISH,
    LANGUAGES,
    Translator,
    language_from_environment,
    parse_language,
    translator,
    web_text,
)

#: The web app's catalogs (``web/static/i18n/<lang>.json``): their ``bot.<kind>`` messages
#: name the bot kinds for people ("Clever" for ``heuristic``) in the browser and the
#: terminal alike (:func:`kind_name`). Read as package data, without importing the web app.
WEB_WORDS = "lamagames:web/static/i18n"
#: The seat kind of a person (:data:`lamagames.core.records.SeatInfo.kind`).
HUMAN_KIND = "human"


class _Choice:
    """The language chosen last and its catalog."""

    language: str = "en"
    translator: Translator = ENGLISH
    #: ``lama --lang X COMMAND``: the language of a command without its own ``--lang``.
    before_command: str | None = None


#: Help of the ``--lang`` option.
LANG_HELP = (
    "Language of the game's words: " + ", ".join(LANGUAGES) + " (default: from the locale, "
    "LC_ALL / LC_MESSAGES / LANG; else English)."
)


def _parse_option(option: str) -> str:
    try:
        return parse_language(option)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang") from None


def set_language_before_command(option: str | None) -> None:
    """Remember ``lama --lang X`` (the option before the command; ``None``: not given) for
    the commands that choose their language (:func:`use_language`).

    Raises:
        typer.BadParameter: ``option`` is not a known language.
    """
    _Choice.before_command = None if option is None else _parse_option(option)


def use_language(option: str | None) -> str:
    """Set the language for what follows: ``option`` (a command's ``--lang`` value) if
    given, else ``lama --lang`` before the command (:func:`set_language_before_command`),
    else the locale's (:func:`~lamagames.core.i18n.language_from_environment`). Returns it.

    Raises:
        typer.BadParameter: ``option`` is not a known language (shown as one line naming
            ``--lang`` and listing the languages).
    """
    if option is not None:
        language = _parse_option(option)
    elif _Choice.before_command is not None:
        language = _Choice.before_command
    else:
        language = language_from_environment(os.environ)
    _Choice.language = language
    _Choice.translator = translator(language)
    return language


def language_now() -> str:
    """The language chosen last (``"en"`` before any choice)."""
    return _Choice.language


def translator_now() -> Translator:
    """The catalog of the language chosen last."""
    return _Choice.translator


def _(message: str) -> str:
    """``message`` in the language chosen last."""
    return translator_now().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for ``n``, in the language chosen last."""
    return translator_now().ngettext(singular, plural, n)


def label(text: str) -> str:
    """``text`` and a colon as the language chosen last writes it before what follows:
    ``"LAMA Dice: "``, French ``"LAMA Dice : "`` (the message ``{label}: {text}`` of the
    Lama Express narration)."""
    return _("{label}: {text}").format(label=text, text="")


def kind_name(kind: str) -> str:
    """A seat kind as people read it, in the language chosen last: ``human`` translated
    (``Mensch``), a bot kind by the web app's display name (``heuristic``: ``Clever``,
    ``Slim``; ``exact``: ``Exact (solver)``; one source for the browser and the terminal,
    issue 19), a kind the web app does not name (a new game's bot) as typed."""
    if kind == HUMAN_KIND:
        return _("human")
    try:
        return web_text(WEB_WORDS, f"bot.{kind}", language_now())
    except (KeyError, OSError, ValueError):
        return kind
