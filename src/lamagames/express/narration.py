"""Lama Express in words: menu labels, prompt headlines and a move log. Pure functions.

Everything here reads an :class:`~lamagames.express.game.ExpressState` through its public
accessors and returns plain strings (no colour, no printing), so terminals, replays and logs
can use it alike. People are named ``Name (colour)`` so that the llama letters on the board
(``y``, ``p``, ``g``, ``b``) can be matched to them.

Sentences name colours and moves in words (issue 19: Dutch ``gooit Y (geel)``, ``board B3``
inside translated sentences): a die colour is its word with the board's letter after it
(``green (G)``, :func:`die_words`), a move its phrase (``board car B3``,
:func:`action_words`). The notation people type (``board B3``) stays in the menu, the
prompt's answers and the records.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lamagames.core.events import Event
from lamagames.core.i18n import ENGLISH, Translator
from lamagames.express.actions import (
    KIND_BOARD,
    KIND_DETOUR,
    KIND_EXIT,
    MOVE_A,
    MOVE_B,
    PASS,
    TRAIN_NAMES,
    chance_to_string,
    decode_free_action,
)
from lamagames.express.board import DIE_COLOUR_NAMES
from lamagames.express.drawing import die_letter
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
from lamagames.express.material import DIE_COLOURS
from lamagames.express.primitives import has_won
from lamagames.express.state import ExpressState

STAGE_WORDS: Final = {"after_roll": "roll", "after_move": "move"}


def _mark(message: str) -> str:
    """Mark ``message`` for extraction (``pybabel extract -k _mark``); translated where used."""
    return message


#: The colours' words (player colours E-1, die colours E-1), marked for the catalogs.
COLOUR_WORDS: Final = (
    _mark("yellow"),
    _mark("pink"),
    _mark("green"),
    _mark("blue"),
    _mark("red"),
    _mark("orange"),
    _mark("purple"),
)


def colour_word(colour: str, tr: Translator = ENGLISH) -> str:
    """A player or die colour (``"yellow"``) in the language of ``tr``."""
    return tr.gettext(colour)


def who(state: ExpressState, names: Sequence[str], seat: int, tr: Translator = ENGLISH) -> str:
    """``"Anna (yellow)"``: the seat's name and colour."""
    return f"{names[seat]} ({colour_word(state.game.colours[seat], tr)})"


def die_words(letter: str, tr: Translator = ENGLISH) -> str:
    """``"green (G)"`` for a die colour letter: the colour's word in the language of
    ``tr``, then the letter its spaces show on the board in that language (French
    ``vert (Ve)``, :func:`~lamagames.express.drawing.die_letter`; as the web app says it)."""
    word = colour_word(DIE_COLOUR_NAMES[DIE_COLOURS.index(letter)], tr)
    return f"{word} ({die_letter(letter, tr)})"


#: A move in words by the first word of its notation (E-6, E-7): ``{car}`` is the car as
#: the board labels it (``B3``), ``{train}`` the train's letter.
ACTION_WORDS: Final = {
    "board": _mark("board car {car}"),
    "exit": _mark("get off at home from car {car}"),
    "detour": _mark("send the llama in car {car} on a detour"),
    "reboard": _mark("get back on into car {car}"),
    "move": _mark("move train {train}"),
    "pass": _mark("let the chance pass"),
}


def action_words(notation: str, tr: Translator = ENGLISH) -> str:
    """A move's notation as a phrase for a sentence, in the language of ``tr``:
    ``"board B3"`` -> ``"board car B3"`` (Dutch ``instappen in wagon B3``), ``"move A"`` ->
    ``"move train A"``; a notation it does not know is returned as it is."""
    head, _sep, rest = notation.partition(" ")
    words = ACTION_WORDS.get(head)
    if words is None:
        return notation
    return tr.gettext(words).format(car=rest, train=rest)


#: A free action on the board's chances line (the table), short enough for 80 columns:
#: English keeps the notation people type (``board A3``), the other languages a word and
#: the car (French ``monter A3``, Dutch ``instappen A3``).
CHANCE_WORDS: Final = {
    "board": _mark("board {car}"),
    "exit": _mark("exit {car}"),
    "detour": _mark("detour {car}"),
    "reboard": _mark("reboard {car}"),
}


def chance_words(notation: str, tr: Translator = ENGLISH) -> str:
    """A free action's notation in the short words of the table's chances line, in the
    language of ``tr`` (:data:`CHANCE_WORDS`: ``"board B3"`` -> French ``"monter B3"``); a
    notation it does not know is returned as it is."""
    head, _sep, rest = notation.partition(" ")
    words = CHANCE_WORDS.get(head)
    return notation if words is None else tr.gettext(words).format(car=rest)


#: A label and what it introduces; French puts a space before the colon (``Anna (jaune) :
#: monter A3``).
LABELLED: Final = _mark("{label}: {text}")


def labelled(label: str, text: str, tr: Translator = ENGLISH) -> str:
    """``"Anna (yellow): board car A3"``: ``label``, the colon as the language of ``tr``
    writes it (French ``Anna (jaune) : ...``), then ``text``."""
    return tr.gettext(LABELLED).format(label=label, text=text)


def _actions_words(notations: Sequence[str], tr: Translator) -> str:
    return ", ".join(action_words(n, tr) for n in notations)


def _car(train: int, car: int) -> str:
    return f"{TRAIN_NAMES[train]}{car}"


def _footpath_arrow(state: ExpressState, train: int, car: int) -> tuple[int, int]:
    """Arrow and re-boarding space of the footpath whose arrow or re-boarding space the car
    stands on (detour and re-board actions, E-7)."""
    board = state.board
    footpath = board.footpaths[board.role_index[state.car_space(train, car)]]
    return footpath.arrow, footpath.reboard


def _moves(start: int, end: int, count: int, tr: Translator) -> str:
    return tr.ngettext(
        "tip {start} -> {end}, {n} space", "tip {start} -> {end}, {n} spaces", count
    ).format(start=start, end=end, n=count)


def move_words(state: ExpressState, train: int, tr: Translator = ENGLISH) -> str:
    """``"tip 5 -> 9, 4 spaces"``: where train ``train`` goes with the rolled die (E-6,
    :meth:`ExpressState.move_tip`)."""
    tip = state.train_tip(train)
    return _moves(tip, state.move_tip(train), state.move_distance(train), tr)


def chances(
    state: ExpressState,
    names: Sequence[str],
    *,
    you: int | None = None,
    only_acting: bool = True,
    tr: Translator = ENGLISH,
) -> list[str]:
    """The free actions open to each seat in words, ``["Anna (yellow): board car A3",
    ...]`` (:func:`action_words`), in turn order from the seat asked; ``you`` is written as
    ``"you"``.

    Args:
        state: the position.
        names: display name per seat.
        you: a seat to call ``you``.
        only_acting: only seats that may act now (:meth:`ExpressState.acting_players`);
            ``False``: every seat with an available action (E-7).
        tr: the language of the words (default English).
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
            label = tr.gettext("you") if seat == you else who(state, names, seat, tr)
            notations = [state.action_to_string(a, seat) for a in free]
            out.append(labelled(label, _actions_words(notations, tr), tr))
    return out


def outcome_words(outcome: int, tr: Translator = ENGLISH) -> str:
    """A die roll (chance outcome, E-6) in words, for the replay's step line: ``"the die
    shows green (G)"`` (:func:`die_words`, in the language of ``tr``).

    Raises:
        InvalidActionError: ``outcome`` is not a chance outcome id.
    """
    letter = chance_to_string(outcome).partition(" ")[2]
    return tr.gettext("the die shows {colour}").format(colour=die_words(letter, tr))


def action_label(
    state: ExpressState,
    action: int,
    player: int,
    names: Sequence[str],
    tr: Translator = ENGLISH,
) -> str:
    """A plain-words description of a legal action of ``player`` for a menu, addressed to
    that player: ``"your llama gets into car 3 of train A"``.

    A train choice tells where the train goes and which free actions everyone would then
    have (E-6, E-7); a free action tells whose llama goes where. ``tr``: the language.
    """
    _ = tr.gettext
    if action == PASS:
        return _("let this chance pass (it is gone once a train moves)")
    if action in (MOVE_A, MOVE_B):
        train = action - MOVE_A
        after = state.child(action)
        then = chances(after, names, you=player, only_acting=False, tr=tr)
        moves = move_words(state, train, tr)
        if then:
            return _("{moves}; then {chances}").format(moves=moves, chances="; ".join(then))
        return _("{moves}; no chance for anyone after it").format(moves=moves)
    kind, train, car = decode_free_action(action)
    where = _car(train, car)
    game = state.game
    if kind == KIND_BOARD:
        waiting = state.waiting_llamas(player)
        rest = waiting - 1
        left = (
            tr.ngettext("{n} more waiting", "{n} more waiting", rest).format(n=rest)
            if rest
            else _("your last waiting llama")
        )
        return _("your llama gets into car {car} of train {train} ({left})").format(
            car=car, train=TRAIN_NAMES[train], left=left
        )
    if kind == KIND_EXIT:
        home = state.house_llamas(player) + 1
        fields = {"car": where, "home": home, "of": game.llamas_to_win}
        if has_won(home, game.llamas_to_win):  # E-10
            text = _(
                "your llama in car {car} gets off into your house ({home} of {of} home): you win!"
            )
        else:
            text = _("your llama in car {car} gets off into your house ({home} of {of} home)")
        return text.format(**fields)
    arrow, reboard = _footpath_arrow(state, train, car)
    if kind == KIND_DETOUR:
        llama = state.car_llama(train, car)
        owner = _("a llama") if llama is None else _owners_llama(state, names, llama[0], tr)
        text = _(
            "{owner} goes from car {car} to the footpath at arrow {arrow} (re-boards at {reboard})"
        )
        return text.format(owner=owner, car=where, arrow=arrow, reboard=reboard)
    text = _("your llama at the front of the footpath from arrow {arrow} gets into car {car}")
    return text.format(arrow=arrow, car=where)


def _owners_llama(state: ExpressState, names: Sequence[str], seat: int, tr: Translator) -> str:
    """``"Ann's yellow llama"``."""
    return tr.gettext("{name}'s {colour} llama").format(
        name=names[seat], colour=colour_word(state.game.colours[seat], tr)
    )


def headline(
    state: ExpressState, names: Sequence[str], player: int, tr: Translator = ENGLISH
) -> str:
    """The title over a prompt to ``player``: whose turn and what is asked (``tr``: the
    language)."""
    _ = tr.gettext
    me = who(state, names, player, tr)
    active = state.active_player()
    stage = state.window_stage()
    die = state.die()
    rolled = " · " + _("die {die}").format(die=die_words(die, tr)) if die is not None else ""
    if stage is None:
        return _("{me}: your turn, choose a train").format(me=me) + rolled
    if active == player:
        text = (
            _("{me}: a chance after your roll")
            if stage == "after_roll"
            else _("{me}: a chance after your move")
        )
    else:
        text = (
            _("{me}: a chance after {name}'s roll")
            if stage == "after_roll"
            else _("{me}: a chance after {name}'s move")
        )
    return text.format(me=me, name=names[active]) + rolled


def describe_events(
    state: ExpressState, found: Sequence[Event], names: Sequence[str], tr: Translator = ENGLISH
) -> list[str]:
    """Plain lines for the events of one step (:func:`lamagames.express.events.events`).

    A roll names the roller and the colour; a train move where the train went (chosen, or
    the only train that could move, E-6); a free action who took it and whose llama went
    where; a pass which chances were let go; a window that opened everyone's chances (E-9);
    then the end of the game (E-10, E-11).

    Args:
        state: any state of the game (for the seats' colours).
        found: the events, in order.
        names: display name per seat.
        tr: the language of the lines (default English).
    """
    _ = tr.gettext
    lines: list[str] = []
    colours = state.game.colours
    for event in found:
        if isinstance(event, Rolled):
            lines.append(
                _("{who} rolls {die}.").format(
                    who=who(state, names, event.seat, tr), die=die_words(event.colour, tr)
                )
            )
        elif isinstance(event, Passed):
            missed = _actions_words(event.missed, tr)
            lines.append(
                _("{who} lets the chance pass ({missed}).").format(
                    who=who(state, names, event.seat, tr), missed=missed
                )
            )
        elif isinstance(event, Boarded | Exited | Detoured | Reboarded):
            where = f"{event.train}{event.car}"
            colour = colour_word(colours[event.seat], tr)
            if isinstance(event, Boarded):
                what = _("a {colour} llama gets into car {car} of train {train}").format(
                    colour=colour, car=event.car, train=event.train
                )
            elif isinstance(event, Exited):
                what = _("the {colour} llama in car {car} goes home, {home} of {of}").format(
                    colour=colour, car=where, home=event.home, of=event.llamas_to_win
                )
            elif isinstance(event, Detoured):
                owner = (
                    _("a llama")
                    if event.owner < 0
                    else _owners_llama(state, names, event.owner, tr)
                )
                what = _("{owner} leaves car {car} for the footpath, back to space {space}").format(
                    owner=owner, car=where, space=event.reboard
                )
            else:
                what = _(
                    "the {colour} llama from the footpath of arrow {arrow} gets into car {car}"
                ).format(colour=colour, arrow=event.arrow, car=where)
            lines.append(labelled(who(state, names, event.seat, tr), what, tr) + ".")
        elif isinstance(event, TrainMoved):
            moves = _moves(event.from_tip, event.to_tip, event.distance, tr)
            if event.chosen:
                lines.append(
                    _("{who} moves train {train}: {moves}.").format(
                        who=who(state, names, event.seat, tr), train=event.train, moves=moves
                    )
                )
            else:
                lines.append(
                    _("Only train {train} can move: {moves}.").format(
                        train=event.train, moves=moves
                    )
                )
        elif isinstance(event, NoMove):
            lines.append(_("Neither train can move with that colour; the turn ends."))
        elif isinstance(event, WindowOpened):
            open_now = "; ".join(
                labelled(who(state, names, c.seat, tr), _actions_words(c.actions, tr), tr)
                for c in event.chances
            )
            line = (
                _("Chances after the roll: {chances}.")
                if event.stage == "after_roll"
                else _("Chances after the move: {chances}.")
            )
            lines.append(line.format(chances=open_now))
        elif isinstance(event, GameEnded):
            if event.winners:
                winner = event.winners[0]
                lines.append(
                    tr.ngettext(
                        "{who} has all {n} llama home and wins!",
                        "{who} has all {n} llamas home and wins!",
                        event.houses[winner],
                    ).format(who=who(state, names, winner, tr), n=event.houses[winner])
                )
            else:
                lines.append(
                    tr.ngettext(
                        "The turn limit of {n} roll is reached: the game stops without a winner.",
                        "The turn limit of {n} rolls is reached: the game stops without a winner.",
                        event.rolls,
                    ).format(n=event.rolls)
                )
    return lines


def narrate(
    before: ExpressState,
    player: int,
    action: int,
    after: ExpressState,
    names: Sequence[str],
    tr: Translator = ENGLISH,
) -> list[str]:
    """Describe one applied action and what followed from it, for a move log: the lines of
    :func:`describe_events` for :func:`lamagames.express.events.events`.

    Args:
        before: the state before the action (a copy).
        player: the seat that acted, or -1 for the die roll.
        action: the action id (or chance outcome id).
        after: the state after the action.
        names: display name per seat.
        tr: the language of the lines (default English).

    Returns:
        Plain lines, in order.
    """
    return describe_events(after, events(before, action, player, after), names, tr)
