"""The terminal's languages: gettext catalogs of the ``lamagames`` domain (standard library only).

The words of ``lama play`` and ``lama replay`` (the game packages' narration, the table
labels, the prompts and menus) are English message ids marked for extraction with ``_()``
and ``ngettext()``; Babel (a dev tool, ``pybabel extract/update/compile``, see docs/cli.md)
keeps ``locale/<lang>/LC_MESSAGES/lamagames.po`` and the compiled ``.mo`` files that ship as
package data. At run time only :mod:`gettext` reads them.

The rules code stays pure: a game's narration takes a :class:`Translator` argument
(default :data:`ENGLISH`, the message ids themselves) and never reads files; loading a
catalog (:func:`translator`) is done by the terminal commands.
"""

from __future__ import annotations

import gettext
import json
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Final, Protocol

#: The terminal's languages, English first (the message ids).
LANGUAGES: Final = ("en", "de", "fr", "nl", "it")
#: The gettext domain of the catalogs (``locale/<lang>/LC_MESSAGES/lamagames.mo``).
DOMAIN: Final = "lamagames"
#: Environment variables that name the language, in the order POSIX gives them precedence.
LOCALE_VARIABLES: Final = ("LC_ALL", "LC_MESSAGES", "LANG")


class Translator(Protocol):
    """What narration needs of a catalog: :class:`gettext.NullTranslations` has it."""

    def gettext(self, message: str, /) -> str:
        """The translation of ``message`` (the message itself if it has none)."""

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The translation of ``singular``/``plural`` for the count ``n`` (the language's
        plural rule picks the form)."""


def mark(message: str) -> str:
    """Mark a constant ``message`` for extraction (``pybabel extract -k _mark``, imported as
    ``_mark``); it is translated where it is shown. Returns ``message``."""
    return message


#: English: the message ids as they are.
ENGLISH: Final[Translator] = gettext.NullTranslations()


def parse_language(text: str) -> str:
    """The language of a ``--lang`` value: ``de``, ``de_DE``, ``de-DE``, ``fr_FR.UTF-8``,
    ``IT`` all name one of :data:`LANGUAGES`.

    Raises:
        ValueError: not one of the languages (the message lists them).
    """
    code = text.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {text!r}; choose one of {', '.join(LANGUAGES)}")
    return code


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language the locale names: the first set of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` (POSIX precedence); English if it is none of :data:`LANGUAGES` (``C``,
    ``POSIX``, ``es_ES.UTF-8``) or nothing is set."""
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            try:
                return parse_language(value)
            except ValueError:
                return "en"
    return "en"


@cache
def translator(language: str) -> Translator:
    """The catalog of ``language`` (one of :data:`LANGUAGES`), read once from the
    package's compiled ``.mo`` file; English is :data:`ENGLISH`.

    Raises:
        ValueError: an unknown language.
        OSError: the installed catalog is missing or unreadable.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    if language == "en":
        return ENGLISH
    path = files("lamagames").joinpath("locale", language, "LC_MESSAGES", f"{DOMAIN}.mo")
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)


def language_of(tr: Translator) -> str:
    """The language of a catalog from :func:`translator`: its header's ``Language``
    (``"fr"``), ``"en"`` for English (no catalog) or a translator without one."""
    info = getattr(tr, "info", None)
    language = info().get("language") if callable(info) else None
    return language if language in LANGUAGES else "en"


@cache
def web_catalog(folder: str, language: str) -> Mapping[str, object]:
    """A game's browser catalog ``<language>.json`` in ``folder``, a ``"package:folder"``
    string as in :attr:`~lamagames.core.spec.GameSpec.web_static`
    (``"lamagames.dice:static"``): key -> message (a string, or plural forms). The
    terminal reads the texts it shares with the browser (the walkthrough's lessons,
    ``<game>.tut.<kind>``) from here, so each text has one source.

    Raises:
        ValueError: an unknown language or a malformed ``folder``.
        OSError: the catalog is missing or unreadable.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    package, sep, sub = folder.partition(":")
    if not sep or not package or not sub:
        raise ValueError(f"a catalog folder is 'package:folder', got {folder!r}")
    path = files(package).joinpath(*sub.split("/"), f"{language}.json")
    words = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(words, dict):
        raise OSError(f"{path}: not a JSON object")
    return MappingProxyType(words)


def web_text(folder: str, key: str, language: str) -> str:
    """The message ``key`` of the browser catalog in ``folder`` (:func:`web_catalog`) in
    ``language``, else in English (a catalog that lacks it; the completeness tests keep
    that from happening).

    Raises:
        KeyError: no English message ``key`` (or it is not a plain string).
        ValueError, OSError: as :func:`web_catalog`.
    """
    for lang in (language, "en"):
        text = web_catalog(folder, lang).get(key)
        if isinstance(text, str):
            return text
    raise KeyError(f"{folder}: no message {key!r}")


def localized_text(package: str, name: str, language: str) -> str:
    """The package data text file ``name`` of ``package`` in ``language``: the file
    ``<stem>.<language><suffix>`` beside it (``rules.de.md`` for ``rules.md``) when the
    package has one, else ``name`` itself (English, the fallback). The rules texts
    (``lama rules``, ``/rules/<game>``) are read this way.

    Raises:
        ValueError: an unknown language.
        OSError: ``name`` itself is missing or unreadable.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    folder = files(package)
    stem, dot, suffix = name.rpartition(".")
    if language != "en" and dot:
        translated = folder.joinpath(f"{stem}.{language}.{suffix}")
        if translated.is_file():
            return translated.read_text(encoding="utf-8")
    return folder.joinpath(name).read_text(encoding="utf-8")
