"""TypeAheadGuard (issue 19): echo off while bots play, type-ahead dropped at a prompt, the
terminal given back as found; nothing at all when the input is not a terminal."""

from __future__ import annotations

import io
import os
import pty  # POSIX only, like the terminals these tests drive (CI runs on Linux)
import termios
from collections.abc import Iterator

import pytest
from rich.text import Text

from lamagames.cli.typeahead import TypeAheadGuard


@pytest.fixture
def tty() -> Iterator[tuple[int, io.TextIOWrapper]]:
    """A pty: the master's descriptor (the keyboard) and the slave as a text stream."""
    master, slave = pty.openpty()
    stream = open(slave, encoding="utf-8", closefd=True)  # noqa: SIM115 - closed below
    try:
        yield master, stream
    finally:
        stream.close()
        os.close(master)


def _echo(stream: io.TextIOWrapper) -> bool:
    return bool(termios.tcgetattr(stream.fileno())[3] & termios.ECHO)


def _pending(stream: io.TextIOWrapper) -> bytes:
    os.set_blocking(stream.fileno(), False)
    try:
        return os.read(stream.fileno(), 100)
    except BlockingIOError:
        return b""
    finally:
        os.set_blocking(stream.fileno(), True)


def test_echo_is_off_between_prompts_and_restored_after_the_game(
    tty: tuple[int, io.TextIOWrapper],
) -> None:
    _, stream = tty
    assert _echo(stream)
    guard = TypeAheadGuard(stream)
    assert guard.enabled
    echoed: list[bool] = []

    def read_line(prompt: Text) -> str:
        echoed.append(_echo(stream))
        return "1"

    read = guard.wrap(read_line)
    with guard.active():
        assert not _echo(stream)  # bots play
        read(Text("> "))
        assert echoed == [True]  # the prompt echoes what is typed
        assert not _echo(stream)
    assert _echo(stream)


def test_keys_typed_before_the_prompt_are_dropped(tty: tuple[int, io.TextIOWrapper]) -> None:
    master, stream = tty
    guard = TypeAheadGuard(stream)
    seen: list[bytes] = []

    def read_line(prompt: Text) -> str:
        seen.append(_pending(stream))
        return "1"

    read = guard.wrap(read_line)
    with guard.active():
        os.write(master, b"zzz\n")  # typed while the bots played
        read(Text("> "))
    assert seen == [b""]


def test_terminal_is_restored_when_the_game_stops_with_ctrl_c(
    tty: tuple[int, io.TextIOWrapper],
) -> None:
    _, stream = tty
    guard = TypeAheadGuard(stream)

    def interrupted(prompt: Text) -> str:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), guard.active():
        guard.wrap(interrupted)(Text("> "))
    assert _echo(stream)


def test_not_a_terminal_changes_nothing() -> None:
    guard = TypeAheadGuard(io.StringIO("1\n"))
    assert not guard.enabled
    with guard.active():
        assert guard.wrap(lambda prompt: "1")(Text("> ")) == "1"
