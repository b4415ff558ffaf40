"""The language of the terminal commands (``lama play``, ``lama replay``).

A command chooses the language once (:func:`use_language`: its ``--lang`` option, else the
locale), and the terminal code reads the words through :func:`_` and :func:`ngettext`; the
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
)


class _Choice:
    """The language chosen last and its catalog."""

    language: str = "en"
    translator: Translator = ENGLISH


#: Help of the ``--lang`` option.
LANG_HELP = (
    "Language of the game's words: " + ", ".join(LANGUAGES) + " (default: from the locale, "
    "LC_ALL / LC_MESSAGES / LANG; else English)."
)


def use_language(option: str | None) -> str:
    """Set the language for what follows: ``option`` (a ``--lang`` value) if given, else
    the locale's (:func:`~lamagames.core.i18n.language_from_environment`). Returns it.

    Raises:
        typer.BadParameter: ``option`` is not a known language (shown as one line naming
            ``--lang`` and listing the languages).
    """
    if option is not None:
        try:
            language = parse_language(option)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--lang") from None
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
