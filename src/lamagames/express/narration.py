"""Lama Express in words: menu labels, prompt headlines and a move log. Pure functions.

Everything here reads an :class:`~lamagames.express.game.ExpressState` through its public
accessors and returns plain strings (no colour, no printing), so terminals, replays and logs
can use it alike. People are named ``Name (colour)`` so that the llama letters on the board
(``y``, ``p``, ``g``, ``b``) can be matched to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lamagames.core.events import Event
from lamagames.express.actions import (
    KIND_BOARD,
    KIND_DETOUR,
    KIND_EXIT,
    MOVE_A,
    MOVE_B,
    PASS,
    TRAIN_NAMES,
    decode_free_action,
)
from lamagames.express.board import DIE_COLOUR_NAMES, DIE_COLOURS
from lamagames.express.events import (
    Boarded,
    Detoured,
    Exited,
    GameEnded,
    NoMove,
    Passed,
    Reboarded,
    Rolled,
    TrainMoved,
    WindowOpened,
    events,
)
from lamagames.express.state import ExpressState

STAGE_WORDS: Final = {"after_roll": "roll", "after_move": "move"}


def who(state: ExpressState, names: Sequence[str], seat: int) -> str:
    """``"Anna (yellow)"``: the seat's name and colour."""
    return f"{names[seat]} ({state.game.colours[seat]})"


def die_words(letter: str) -> str:
    """``"G (green)"`` for a die colour letter."""
    return f"{letter} ({DIE_COLOUR_NAMES[DIE_COLOURS.index(letter)]})"


def _car(train: int, car: int) -> str:
    return f"{TRAIN_NAMES[train]}{car}"


def _footpath_arrow(state: ExpressState, train: int, car: int) -> tuple[int, int]:
    """Arrow and re-boarding space of the footpath whose arrow or re-boarding space the car
    stands on (detour and re-board actions, E-7)."""
    board = state.board
    footpath = board.footpaths[board.role_index[state.car_space(train, car)]]
    return footpath.arrow, footpath.reboard


def _spaces(count: int) -> str:
    return f"{count} {'space' if count == 1 else 'spaces'}"


def move_words(state: ExpressState, train: int) -> str:
    """``"tip 5 -> 9, 4 spaces"``: where train ``train`` goes with the rolled die (E-6)."""
    tip = state.train_tip(train)
    distance = state.move_distance(train)
    end = (tip + distance) % state.board.length
    return f"tip {tip} -> {end}, {_spaces(distance)}"


def chances(
    state: ExpressState, names: Sequence[str], *, you: int | None = None, only_acting: bool = True
) -> list[str]:
    """The free actions open to each seat, ``["Anna (yellow): board A3", ...]``, in turn
    order from the seat asked; ``you`` is written as ``"you"``.

    Args:
        state: the position.
        names: display name per seat.
        you: a seat to call ``you``.
        only_acting: only seats that may act now (:meth:`ExpressState.acting_players`);
            ``False``: every seat with an available action (E-7).
    """
    n = state.game.num_players
    if only_acting:
        seats = state.acting_players()
    else:
        start = max(state.current_player(), 0)
        seats = [(start + i) % n for i in range(n)]
    out = []
    for seat in seats:
        free = state.available_actions(seat)
        if free:
            label = "you" if seat == you else who(state, names, seat)
            out.append(f"{label}: " + ", ".join(state.action_to_string(a, seat) for a in free))
    return out


def action_label(state: ExpressState, action: int, player: int, names: Sequence[str]) -> str:
    """A plain-words description of a legal action of ``player`` for a menu, addressed to
    that player: ``"your llama gets into car 3 of train A"``.

    A train choice tells where the train goes and which free actions everyone would then
    have (E-6, E-7); a free action tells whose llama goes where.
    """
    if action == PASS:
        return "let this chance pass (it is gone once a train moves)"
    if action in (MOVE_A, MOVE_B):
        train = action - MOVE_A
        after = state.child(action)
        then = chances(after, names, you=player, only_acting=False)
        return f"{move_words(state, train)}; " + (
            "then " + "; ".join(then) if then else "no chance for anyone after it"
        )
    kind, train, car = decode_free_action(action)
    where = _car(train, car)
    game = state.game
    if kind == KIND_BOARD:
        waiting = state.waiting_llamas(player)
        rest = waiting - 1
        left = f"{rest} more waiting" if rest else "your last waiting llama"
        return f"your llama gets into car {car} of train {TRAIN_NAMES[train]} ({left})"
    if kind == KIND_EXIT:
        home = state.house_llamas(player) + 1
        text = f"your llama in car {where} gets off into your house ({home} of "
        text += f"{game.llamas_to_win} home)"
        return text + (": you win!" if home >= game.llamas_to_win else "")
    arrow, reboard = _footpath_arrow(state, train, car)
    if kind == KIND_DETOUR:
        llama = state.car_llama(train, car)
        owner = "a" if llama is None else f"{names[llama[0]]}'s {game.colours[llama[0]]}"
        return (
            f"{owner} llama goes from car {where} to the footpath at arrow {arrow} "
            f"(re-boards at {reboard})"
        )
    return f"your llama at the front of the footpath from arrow {arrow} gets into car {where}"


def headline(state: ExpressState, names: Sequence[str], player: int) -> str:
    """The title over a prompt to ``player``: whose turn and what is asked."""
    me = who(state, names, player)
    active = state.active_player()
    stage = state.window_stage()
    die = state.die()
    rolled = f" · die {die_words(die)}" if die is not None else ""
    if stage is None:
        return f"{me}: your turn, choose a train{rolled}"
    turn = "your" if active == player else f"{names[active]}'s"
    return f"{me}: a chance after {turn} {STAGE_WORDS[stage]}{rolled}"


def describe_events(state: ExpressState, found: Sequence[Event], names: Sequence[str]) -> list[str]:
    """Plain lines for the events of one step (:func:`lamagames.express.events.events`).

    A roll names the roller and the colour; a train move where the train went (chosen, or
    the only train that could move, E-6); a free action who took it and whose llama went
    where; a pass which chances were let go; a window that opened everyone's chances (E-9);
    then the end of the game (E-10, E-11).

    Args:
        state: any state of the game (for the seats' colours).
        found: the events, in order.
        names: display name per seat.
    """
    lines: list[str] = []
    colours = state.game.colours
    for event in found:
        if isinstance(event, Rolled):
            lines.append(f"{who(state, names, event.seat)} rolls {die_words(event.colour)}.")
        elif isinstance(event, Passed):
            missed = ", ".join(event.missed)
            lines.append(f"{who(state, names, event.seat)} lets the chance pass ({missed}).")
        elif isinstance(event, Boarded | Exited | Detoured | Reboarded):
            where = f"{event.train}{event.car}"
            colour = colours[event.seat]
            if isinstance(event, Boarded):
                note = f"board {where}"
                what = f"a {colour} llama gets into car {event.car} of train {event.train}"
            elif isinstance(event, Exited):
                note = f"exit {where}"
                what = (
                    f"the {colour} llama in car {where} goes home, "
                    f"{event.home} of {event.llamas_to_win}"
                )
            elif isinstance(event, Detoured):
                note = f"detour {where}"
                owner = (
                    "a llama"
                    if event.owner < 0
                    else f"{names[event.owner]}'s {colours[event.owner]} llama"
                )
                what = f"{owner} leaves car {where} for the footpath, back to space {event.reboard}"
            else:
                note = f"reboard {where}"
                what = (
                    f"the {colour} llama from the footpath of arrow {event.arrow} "
                    f"gets into car {where}"
                )
            lines.append(f"{who(state, names, event.seat)}: {note} ({what}).")
        elif isinstance(event, TrainMoved):
            moves = f"tip {event.from_tip} -> {event.to_tip}, {_spaces(event.distance)}"
            if event.chosen:
                lines.append(f"{who(state, names, event.seat)} moves train {event.train}: {moves}.")
            else:
                lines.append(f"Only train {event.train} can move: {moves}.")
        elif isinstance(event, NoMove):
            lines.append("Neither train can move with that colour; the turn ends.")
        elif isinstance(event, WindowOpened):
            open_now = [
                f"{who(state, names, c.seat)}: " + ", ".join(c.actions) for c in event.chances
            ]
            lines.append(
                f"Chances after the {STAGE_WORDS[event.stage]}: " + "; ".join(open_now) + "."
            )
        elif isinstance(event, GameEnded):
            if event.winners:
                winner = event.winners[0]
                lines.append(
                    f"{who(state, names, winner)} has all {event.houses[winner]} llamas home "
                    "and wins!"
                )
            else:
                lines.append(
                    f"The turn limit of {event.rolls} rolls is reached: "
                    "the game stops without a winner."
                )
    return lines


def narrate(
    before: ExpressState,
    player: int,
    action: int,
    after: ExpressState,
    names: Sequence[str],
) -> list[str]:
    """Describe one applied action and what followed from it, for a move log: the lines of
    :func:`describe_events` for :func:`lamagames.express.events.events`.

    Args:
        before: the state before the action (a copy).
        player: the seat that acted, or -1 for the die roll.
        action: the action id (or chance outcome id).
        after: the state after the action.
        names: display name per seat.

    Returns:
        Plain lines, in order.
    """
    return describe_events(after, events(before, action, player, after), names)
