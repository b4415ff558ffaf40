"""The ``exact`` LAMA Dice bot: plays the exact solver's policy where it is known.

* **Last player standing** (every other seat has quit, D-8.5): the exact optimal policy
  (least expected points of the round, chips given back counted) from a table of the seat's
  own rows, :mod:`lamagames.dice.solver.seat_table` (equal to the one-player tables of
  :mod:`lamagames.dice.solver.last_standing` to 1e-12; solved in under a millisecond, so
  nothing is solved ahead), wherever it fits
  :data:`~lamagames.dice.solver.seat_table.MAX_SEAT_WORK` (every score below the thousands);
  beyond it the ``search`` bot's choice.
* **Two players, both still in**: the exact two-player policy of
  :mod:`lamagames.dice.solver.two_player` (largest expected margin, opponent minus own points)
  when the compiled solve fits :attr:`DiceExactBot.MAX_WORK` (indices times score-level
  pairs; a fresh deal at scores 0 is 1.3-1.7 million, solved in about 1.5 CPU s, in two
  threads on two cores, :func:`~lamagames.dice.solver.pair_table.sweep_spans`); otherwise the
  ``search`` bot's choice. One solve serves every later position of the round at the
  same scores (and one give-back below); the bot keeps its solver for the round.
* **Three or more players with others still in**: the ``search`` bot's choice (the
  multi-player game is not solved; rollouts over the heuristic, :mod:`lamagames.bots.dice_search`),
  so ``exact`` is never weaker than ``search`` where no exact values exist.
* **Give-back after emptying the row** (D-10): black, else white (the best chip).

**Solving ahead** (:meth:`DiceExactBot.prepare`, issue 18). The slow decisions are the first
of a round: the solve from the fresh deal. A driver that calls :meth:`~DiceExactBot.prepare`
with each new position (the web app does, before its pause ahead of a bot decision and while
people think) lets the bot start that solve in a background thread as soon as the deal is
known (the compiled kernels release the GIL); :meth:`~DiceExactBot.step` then waits only
for what is left of it. The table solved ahead is the one :meth:`~DiceExactBot.step` would
solve itself (rooted at the same position: the round's first decision, made by whichever
seat acts first), so the chosen actions do not depend on whether, or how far, the
background solve ran (tested for several seeds); only the waiting does.

Its only random numbers are the search fallback's, from the bot's seeded stream, so games
replay from their seed.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from lamagames.bots.base import Bot, BotUnavailableError
from lamagames.bots.dice_search import DiceSearchBot
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.dice.actions import (
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    QUIT,
    ROLL,
    TAKE_BASE,
)
from lamagames.dice.game import DiceGame, as_dice_state
from lamagames.dice.primitives import chip_points, is_last_standing
from lamagames.dice.rules import Phase, after_discard
from lamagames.dice.state import DiceState

if TYPE_CHECKING:  # the solver needs numba: imported when a bot is made (``requires``)
    from lamagames.dice.solver.seat_table import SeatTable
    from lamagames.dice.solver.two_player import Key, Outcome, TwoPlayerSolver

CHIPS = {a: chip_points(a) for a in (GIVE_BLACK, GIVE_WHITE, GIVE_NONE)}  # D-4


class DiceExactBot(Bot):
    """Plays the exact solver's policy (see the module docstring)."""

    kind = "exact"
    requires = ("numba",)
    extra = "solver"
    #: Largest compiled two-player solve (indices times score-level pairs) the bot starts:
    #: 1-2 million per CPU second, so at most about 2 s, which a background solve started
    #: by :meth:`prepare` hides behind the web app's 1.2 s bot pause with under 1 s left to
    #: wait (issue 18; docs/bots.md). Every fresh deal at scores 0/0 fits (1.2-1.7 million).
    #: It was 8 million (up to about 6 s): in 20 seeded games against ``heuristic`` the
    #: lower budget moved 95 of 822 decisions to ``search``, which chose the exact move in
    #: 90 of them and lost 6.5 expected round points in all (0.33 a game).
    MAX_WORK: ClassVar[int] = 3_000_000

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        if not isinstance(game, DiceGame):
            raise IllegalActionError("the exact dice bot plays LAMA Dice only")
        try:
            from lamagames.dice.solver import get_solver
        except ImportError as exc:
            raise BotUnavailableError(
                self.kind, f"needs numba: pip install 'lamagames[{self.extra}]'"
            ) from exc
        self.solver = get_solver(tuple(game.dice))
        self.fallback = DiceSearchBot(game, seat, seed)
        #: with three or more seats its decisions are mostly the search fallback's, whose
        #: rollouts run interpreted too (issue 19); the two-player solves do not.
        self.interpretable = game.num_players > 2
        self._two = self._new_two_player()
        self._round = -1
        #: the last player standing's table (D-8.5), kept while it holds the positions
        self._seat: SeatTable | None = None
        self._ahead: threading.Thread | None = None
        #: How the last decision was made: ``"exact"`` or ``"search"``.
        self.last_basis = ""

    def warm_code(self, state: State) -> None:
        """Compile (or load) the solver's kernels: with two seats by a tiny two-player solve
        (one card per row and in the llama row; the kernels of a fresh deal's solve, in a
        small fraction of its time), else by deciding at ``state`` (the search fallback's
        rollouts)."""
        if self.game.num_players != 2:
            self.step(state)
            return
        from lamagames.dice.actions import LLAMA

        one = tuple(1 if s == 0 else 0 for s in range(7))
        other = tuple(1 if s == 1 else 0 for s in range(7))
        self._new_two_player().roll_outcome((one, other, 1 << LLAMA, 0, 0))

    def interpretable_at(self, state: State) -> bool:
        """With three or more seats always (:attr:`interpretable`); with two once the bot is
        the last player standing (D-8.5): its table of its own rows takes a few
        milliseconds interpreted, so a person who quits at once does not wait for the
        two-player kernels to compile (issue 19)."""
        if self.interpretable:
            return True
        s = as_dice_state(state)
        return not s.quit[self.seat] and is_last_standing(s.quit, self.seat)

    def warm_interpreted(self) -> None:
        """The search fallback's (see :meth:`~lamagames.bots.base.Bot.warm_interpreted`):
        with three or more seats it decides interpreted while the code compiles; with two
        it makes the :meth:`interim_step` decisions."""
        self.fallback.warm_interpreted()

    def interim_step(self, state: State) -> int | None:
        """With two seats, while the solver's kernels still compile (see
        :meth:`~lamagames.bots.base.Bot.interim_step`): the search fallback's choice, its
        rollouts interpreted (so at most
        :attr:`~lamagames.bots.dice_search.DiceSearchBot.INTERPRETED_ROLLOUTS` simulations
        per candidate, about a quarter of a CPU second) until its own code is ready
        (:meth:`~lamagames.bots.base.Bot.later_code`); a chip give-back's choice is the
        exact one (D-10, D-8.1). The fallback's random stream is put back as it was: a
        compiled decision here would not have drawn from it, so every later decision is
        the same as on a warm install. With more seats ``None`` (it decides interpreted,
        :meth:`interpretable_at`)."""
        if self.game.num_players != 2:
            return None
        s = as_dice_state(state)
        legal = s.legal_actions(self.seat)
        if s.phase == Phase.GIVE_EMPTY:
            return legal[0]  # black, else white, else none: the best chip (D-10)
        if s.phase == Phase.GIVE_LLAMAS:  # the best chip is optimal (greedy_chain, D-8.1)
            return max(legal, key=CHIPS.__getitem__)
        from lamagames.core.jit import interpreting

        ready = self.later_ready
        until = None if ready is None else functools.partial(ready, "search")
        stream = self.fallback.rng.getstate()
        try:
            with interpreting(until=until):
                return self.fallback.step(state)
        finally:
            self.fallback.rng.setstate(stream)

    def warm_kind(self) -> str:
        """``exact`` with two seats (the solver's kernels); with more, ``search`` (its
        decisions are the search fallback's, see :meth:`~lamagames.bots.base.Bot.warm_kind`)."""
        return self.kind if self.game.num_players == 2 else "search"

    def later_code(self) -> tuple[object, ...]:
        """With two seats (see :meth:`~lamagames.bots.base.Bot.later_code`):

        * the roll value (:func:`~lamagames.dice.solver.kernel2p.roll_value`, one position
          per call: about a millisecond interpreted, 0.4-0.7 CPU s to compile on a cold
          install), compiled after the first decision, which runs it interpreted;
        * ``"search"``: a two-player table over :attr:`MAX_WORK` (scores apart, from round
          2 on) or a last player's table over
          :data:`~lamagames.dice.solver.seat_table.MAX_SEAT_WORK` is decided by the search
          fallback, whose rollouts kernel (15-18 CPU s to compile) :meth:`warm_code`'s tiny
          solve does not compile; a helper process compiles it after the solver's kernels,
          and the fallback decides interpreted until then (a cold install waited 19-26 s at
          round 2 for that compile on the main thread).

        With more seats none: :meth:`warm_code` decides there, with the fallback."""
        if self.game.num_players != 2:
            return ()
        from lamagames.dice.solver import kernel2p

        return (kernel2p.roll_value, "search")

    @contextlib.contextmanager
    def _deferred(self) -> Iterator[None]:
        """Within this block (this thread), the roll value kernel of :meth:`later_code`
        runs interpreted while :attr:`~lamagames.bots.base.Bot.later_ready` says it is not
        compiled yet, and compiled from the moment it is."""
        if self.game.num_players != 2:
            yield
            return
        from lamagames.dice.solver import kernel2p

        kernel = kernel2p.roll_value
        until = self.later_until(kernel)
        if until is None:
            yield
            return
        from lamagames.core.jit import interpreting

        with interpreting(only=lambda k: k is kernel, until=until):
            yield

    def _in_deferred(self, work: Callable[..., None], *args: Any) -> None:
        """``work(*args)`` within :meth:`_deferred` (a thread of :meth:`prepare`)."""
        with self._deferred():
            work(*args)

    def warm_split(self) -> tuple[object, ...] | None:
        """With two seats the helper process compiles the sweep
        (:func:`~lamagames.dice.solver.kernel2p.sweep_pair` with its callees, about 2.6 CPU
        s) while ``lama play`` compiles the last-standing solve
        (:func:`~lamagames.dice.solver.kernel2p.solve_last_standing` with the callees it
        shares with the sweep, about 1.2 CPU s); the roll value
        (:func:`~lamagames.dice.solver.kernel2p.roll_value`) is compiled after the first
        decision (:meth:`later_code`; it was the game's share too, which then ended
        after the helper's on a loaded machine). The helper, started by ``lama``'s entry
        point before the commands are imported (:mod:`lamagames.prestart`), spends about
        1.2 CPU s on its imports first and starts compiling as soon as they are done;
        ``lama play`` imports its commands and makes the game meanwhile. Else ``None``
        (the search fallback's rollouts, one kernel, all in the helper)."""
        if self.game.num_players != 2:
            return None
        from lamagames.dice.solver import kernel2p

        return (kernel2p.sweep_pair,)

    def prepare(self, state: State) -> None:
        """Start solving in a background thread the two-player table the coming decisions
        of this round need, when ``state`` is a turn with both seats in (D-6) whose table is
        not solved yet and fits :attr:`MAX_WORK`; otherwise do nothing (once every other seat
        has quit, D-8.5, :meth:`step` solves a table of its own rows in well under a
        millisecond). Returns at once; bad input (another game's state) raises as
        :meth:`step` does.

        Only turn positions start a solve (the round's first decision is one), rooted at
        that position with its seat to act, which is where :meth:`step` roots its own solve
        of the round: the result, and so every chosen action, is the same either way. A
        position held by a kept table whose roll needs a score-level pair the table did not
        keep (a second give-back, D-8.1) is solved again from there, as :meth:`step` would.
        After the bot's own roll (discard or take, D-8.2, D-8.3) it runs ahead exactly the
        queries :meth:`step` makes, in the same order (a turn over the budget leaves those
        positions to be solved then).
        """
        s = as_dice_state(state)
        self._sync_round(s)
        if self._ahead is not None and self._ahead.is_alive():
            return
        if s.game.num_players != 2 or any(s.quit):
            return
        actor = s.current_player()
        if actor not in (0, 1):
            return
        key = self._key(s, actor)
        two = self._two
        if actor == self.seat and s.phase in (Phase.DISCARD, Phase.TAKE):
            # After its own roll (D-8.2, D-8.3): the very queries step makes, in its order.
            self._ahead = threading.Thread(
                target=self._in_deferred,
                args=(self._outcomes_ahead, two, s.phase, key, s.legal_actions(self.seat)),
                name="exact-bot-prepare",
                daemon=True,
            )
            self._ahead.start()
            return
        if s.phase != Phase.TURN:
            return
        for table in reversed(two.tables):  # the table roll_outcome would read (newest first)
            found = table.find(*key)
            if found is not None:
                with self._deferred():  # not a compile on the caller's thread
                    rolled = table.roll_value(found)
                if rolled is not None:
                    return  # solved; else a roll needs a level pair below it: solve again
                break
        from lamagames.dice.solver.pair_table import table_work

        if table_work(*key) > self.MAX_WORK:
            return  # step falls back to the search bot here
        self._ahead = threading.Thread(
            target=self._in_deferred,
            args=(self._solve_ahead, two, key),
            name="exact-bot-prepare",
            daemon=True,
        )
        self._ahead.start()

    def preparing(self) -> bool:
        """Whether a solve started by :meth:`prepare` is still running."""
        return self._ahead is not None and self._ahead.is_alive()

    @staticmethod
    def _solve_ahead(two: TwoPlayerSolver, key: Key) -> None:
        from lamagames.dice.solver.last_standing import NotTractableError
        from lamagames.dice.solver.space import PositionError

        try:
            two.roll_outcome(key)  # solves (and keeps) the table rooted at ``key``
        except (NotTractableError, PositionError):
            return  # step meets the same condition and handles it

    @classmethod
    def _outcomes_ahead(
        cls, two: TwoPlayerSolver, phase: Phase, key: Key, legal: list[int]
    ) -> None:
        from lamagames.dice.solver.last_standing import NotTractableError
        from lamagames.dice.solver.space import PositionError

        try:
            cls._outcomes(two, phase, key, legal)
        except (NotTractableError, PositionError):
            return  # step meets the same condition and handles it

    def _sync_round(self, s: DiceState) -> None:
        """A fresh two-player solver when a new round has begun (earlier positions never
        come back); a solve still running for the old round finishes on the old solver."""
        if s.round != self._round:
            self._round = s.round
            self._two = self._new_two_player()
            self._ahead = None

    def _key(self, s: DiceState, actor: int) -> Key:
        """The two-player position with ``actor`` to act (2 players, both in)."""
        from lamagames.dice.solver.space import llama_mask

        other = 1 - actor
        return (
            tuple(s.rows[actor]),
            tuple(s.rows[other]),
            llama_mask(s.llama_row),
            s.scores[actor],
            s.scores[other],
        )

    def step(self, state: State) -> int:
        """The solver's action for :attr:`seat` (or the fallback's, see the class doc)."""
        s = as_dice_state(state)
        legal = s.legal_actions(self.seat)
        self._sync_round(s)  # positions of earlier rounds never come back
        if self._ahead is not None:  # a solve started by prepare: wait for what is left
            self._ahead.join()
            self._ahead = None
        if s.phase == Phase.GIVE_EMPTY:
            self.last_basis = "exact"
            return legal[0]  # black, else white, else none: the best chip (D-10)
        if is_last_standing(s.quit, self.seat):  # D-8.5
            alone = self._last_standing(s, legal)
            if alone is not None:  # else over the size budget
                self.last_basis = "exact"
                return alone
        elif s.game.num_players == 2:
            choice = self._two_player(s, legal)
            if choice is not None:
                self.last_basis = "exact"
                return choice
        self.last_basis = "search"
        until = self.later_until("search")
        if until is not None:
            # its kernel still compiles in the warm-up's helper process: interpreted (the
            # same action, about a second with two seats), not a 15 s compile here that
            # holds the GIL (issue 19); compiled again from the moment it is loaded
            from lamagames.core.jit import interpreting

            with interpreting(until=until):
                return self.fallback.step(state)
        return self.fallback.step(state)

    def _new_two_player(self) -> TwoPlayerSolver:
        """A fresh two-player solver (one per round, see the module docstring)."""
        from lamagames.dice.solver.two_player import TwoPlayerSolver

        return TwoPlayerSolver(self.solver, max_work=self.MAX_WORK, disk_cache=False)

    def _last_standing(self, state: DiceState, legal: list[int]) -> int | None:
        """The exact action of the last player standing (D-8.5), from a table of its own
        rows (:func:`~lamagames.dice.solver.seat_table.solve_seat`, kept while it holds
        the positions that follow); ``None`` when the table would be over
        :data:`~lamagames.dice.solver.seat_table.MAX_SEAT_WORK`."""
        from lamagames.dice.solver.seat_table import SeatTooLargeError, solve_seat
        from lamagames.dice.solver.space import llama_mask

        row = tuple(state.rows[self.seat])
        score = state.scores[self.seat]
        mask = llama_mask(state.llama_row)
        if state.phase == Phase.GIVE_LLAMAS:  # the best chip is optimal (greedy_chain, D-8.1)
            return max(legal, key=CHIPS.__getitem__)
        table = self._seat
        if table is None or not table.covers(row, mask, score):
            try:
                table = solve_seat(self.solver.dice, row, mask, score)
            except SeatTooLargeError:
                return None
            self._seat = table
        if state.phase == Phase.TURN:  # D-7 / D-8: roll only where it beats quitting
            choice = ROLL if table.rolls(row, score) else QUIT
            return choice if choice in legal else legal[0]
        # D-8.2: the discard leaving the row with the least expected points (an emptied row
        # is worth the best chip, D-9 / D-10); the first such discard on a tie
        values = [table.value(after_discard(row, action), score) for action in legal]
        return legal[min(range(len(legal)), key=values.__getitem__)]

    def _two_player(self, state: DiceState, legal: list[int]) -> int | None:
        from lamagames.dice.solver.last_standing import NotTractableError
        from lamagames.dice.solver.space import llama_mask

        other = 1 - self.seat
        row = tuple(state.rows[self.seat])
        key: Key = (
            row,
            tuple(state.rows[other]),
            llama_mask(state.llama_row),
            state.scores[self.seat],
            state.scores[other],
        )
        if state.phase == Phase.GIVE_LLAMAS:  # the best chip is optimal (greedy_chain, D-8.1)
            return max(legal, key=CHIPS.__getitem__)
        try:
            with self._deferred():
                outcomes = self._outcomes(self._two, state.phase, key, legal)
        except NotTractableError:
            return None
        return legal[max(range(len(legal)), key=lambda i: outcomes[i].margin)]

    @staticmethod
    def _outcomes(two: TwoPlayerSolver, phase: Phase, key: Key, legal: list[int]) -> list[Outcome]:
        """The outcome of each legal action at ``key`` (own seat to act), in order; the
        solves they need happen in this order (also when :meth:`prepare` runs it ahead).

        Raises:
            NotTractableError: a solve is over the budget.
        """
        row = key[0]
        outcomes: list[Outcome] = []
        for action in legal:
            if phase == Phase.TURN:
                o = two.roll_outcome(key) if action == ROLL else two.quit_outcome(key)
            elif phase == Phase.DISCARD:
                after = after_discard(row, action)  # D-8.2
                o = two.discard_outcome(key, after)
            elif phase == Phase.TAKE:
                o = two.take_outcome(key, action - TAKE_BASE)
            else:
                o = two.give_outcome(key, CHIPS[action])
            outcomes.append(o)
        return outcomes
