"""LAMA Dice search bot ``search``: compiled rollouts over the heuristic.

See :mod:`lamagames.bots.search` for the algorithm. The heuristic minimises its own round
points one roll ahead; the rollouts add what it ignores: what the other seats will do on
their turns (modelled by the heuristic), the chance that the round ends before the bot's
next turn (a row emptied, the llama row emptied, everyone else quit: D-9), the
last-player-standing rule (D-8.5) and the points of the others, since only the game counts
(D-11: the lowest score wins). The simulations run in the compiled batch engine
(:func:`lamagames.dice.batch_rollout.rollouts`, the in-kernel copy of the heuristic), so a
decision affords hundreds of them per candidate.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from lamagames.bots.base import Bot, BotUnavailableError
from lamagames.bots.dice import DiceHeuristicBot
from lamagames.bots.search import RolloutSearchBot, check_count
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.dice.actions import GIVE_BLACK, GIVE_NONE, GIVE_WHITE
from lamagames.dice.game import DiceGame, as_dice_state

#: Weight of the game result when a simulated round ends the game (D-11), in points per
#: opponent beaten (above 0.5 of them) on top of the point difference.
GAME_END_WEIGHT: Final = 20.0


def pairwise_share(scores: list[int], seat: int) -> float:
    """Share of the other seats that ``seat`` beats on score (lower wins, D-11); a tie counts
    one half. ``scores`` in points, one per seat (at least two seats)."""
    mine = scores[seat]
    others = [s for i, s in enumerate(scores) if i != seat]
    return sum(1.0 if mine < s else 0.5 if mine == s else 0.0 for s in others) / len(others)


def rollout_values(
    changes: npt.NDArray[np.int32],
    final: npt.NDArray[np.int32],
    over: npt.NDArray[np.bool_],
    seat: int,
) -> npt.NDArray[np.float64]:
    """Value of simulated outcomes for ``seat`` (higher is better), in points.

    Args:
        changes: int32 ``(..., n)``: score change of every seat (points, D-10, D-8.1).
        final: int32 ``(..., n)``: scores at the end of the simulation.
        over: bool ``(...)``: the simulation ended the game (D-11).
        seat: the bot's seat.

    Returns:
        float64 ``(...)``: the mean change of the other seats minus the own change, plus
        :data:`GAME_END_WEIGHT` times (pairwise share of ``final`` - 0.5) where the game
        ended (see :func:`pairwise_share`).
    """
    n = changes.shape[-1]
    mine = changes[..., seat].astype(np.float64)
    value = (changes.sum(axis=-1) - mine) / (n - 1) - mine
    own = final[..., seat : seat + 1]
    ahead = (own < final).sum(axis=-1) + 0.5 * ((own == final).sum(axis=-1) - 1)
    share = ahead / (n - 1)
    bonus = np.where(over, GAME_END_WEIGHT * (share - 0.5), 0.0)
    return np.asarray(value + bonus, dtype=np.float64)


#: Standard deviation of the difference of two seats' points in one round (heuristic
#: self-play, 2..6 seats: 6.6 .. 7.8 points), for :func:`share_values`.
ROUND_SD: Final = 7.0
#: Points the leading seat adds per round (heuristic self-play: about 45 points in 5..7
#: rounds), for :func:`share_values`.
LEADER_PACE: Final = 8.0


def share_values(
    final: npt.NDArray[np.int32], over: npt.NDArray[np.bool_], seat: int, end_score: int
) -> npt.NDArray[np.float64]:
    """Estimated final pairwise share of ``seat`` (0..1, higher is better, D-11).

    Where the game ended it is the exact share (ties one half); otherwise, against each
    other seat, the chance of finishing below it if the score difference ``d`` moves like
    a random walk until the game ends: ``Phi(d / (ROUND_SD * sqrt(r)))`` with ``r`` the
    rounds the leader needs to reach ``end_score`` at :data:`LEADER_PACE` (at least 0.5),
    ``Phi`` by the logistic approximation ``1 / (1 + exp(-1.702 x))``.

    Args:
        final: int32 ``(..., n)`` scores; over: bool ``(...)``; seat: the bot's seat;
        end_score: the game's end score (D-11).

    Returns:
        float64 ``(...)``.
    """
    n = final.shape[-1]
    own = final[..., seat : seat + 1]
    exact = ((own < final).sum(axis=-1) + 0.5 * ((own == final).sum(axis=-1) - 1)) / (n - 1)
    rounds = np.maximum(0.5, (end_score - final.max(axis=-1)) / LEADER_PACE)
    scale = ROUND_SD * np.sqrt(rounds)[..., None]
    chance = 1.0 / (1.0 + np.exp(-1.702 * (final - own) / scale))
    estimate = (chance.sum(axis=-1) - 0.5) / (n - 1)
    return np.asarray(np.where(over, exact, estimate), dtype=np.float64)


class DiceSearchBot(RolloutSearchBot):
    """Rollout search for LAMA Dice (any number of seats, written for 3-6).

    At each roll/quit, discard and take decision with several legal actions it simulates
    every candidate ``rollouts`` times with common dice in compiled code, every seat played
    by the ``heuristic`` policy, until ``rounds`` round ends (D-9, including the give-backs
    of D-10) or the end of the game. A simulation is worth :func:`rollout_values`. It
    leaves the heuristic's action only for a candidate better by ``z`` standard errors
    (paired over the simulations). Chip choices (give) follow the heuristic.

    Args:
        game: a :class:`~lamagames.dice.game.DiceGame`.
        seat, seed: see :class:`~lamagames.bots.base.Bot`; each decision draws one 62-bit
            base seed from the bot's stream, simulation ``k`` uses seed ``base + k``.
        rollouts: simulations per candidate (1 .. 100,000, default :attr:`ROLLOUTS`).
        z: threshold of the paired test in standard errors (>= 0, default :attr:`Z`).
        rounds: round ends simulated (>= 1, default :attr:`ROUNDS`).

    Raises:
        IllegalActionError: the game is not LAMA Dice.
        ParameterError: ``rollouts`` not an integer in 1 .. 100,000
            (:data:`~lamagames.bots.search.MAX_ROLLOUTS`), ``rounds`` not an integer >= 1,
            ``z`` not a finite number >= 0 (the message names the argument), a bad seat or
            seed.
        BotUnavailableError: numba (the ``sim`` extra) is not installed (a
            ``ParameterError`` too).
    """

    kind = "search"
    requires = ("numba",)
    extra = "sim"
    #: its rollouts run interpreted too, with the same results (tested); a first decision
    #: so takes about 1 CPU s with 2 seats instead of a 10 s compile.
    interpretable = True
    ROLLOUTS = 256
    #: Most simulations per candidate, with two seats (``n`` seats: ``2 * this // n``, at
    #: least 16; six seats 21, see :meth:`interpreted_rollouts`), of a decision that starts
    #: while the rollouts kernel is not compiled yet, so runs interpreted (about 100 times
    #: slower: the first moves of ``lama play`` or a web table on a cold install, while the
    #: warm-up compiles it; issue 19: six seats waited 3-8 s for two 256-simulation
    #: decisions on a loaded machine).
    #: The decision draws its one base seed as always and plays the first of the same
    #: simulations (common random numbers), so only that decision's action may differ from
    #: a compiled one's; every later draw from the bot's stream is the same. Decided at the
    #: decision's start: a decision the code gets ready within goes on compiled with the
    #: same count. Once the code is compiled, every decision has :attr:`rollouts`.
    INTERPRETED_ROLLOUTS: ClassVar[int] = 64
    Z = 1.0
    #: Default number of round ends simulated.
    ROUNDS: int = 1
    #: Leaf evaluation: ``"points"`` (:func:`rollout_values`) or ``"share"``
    #: (:func:`share_values`).
    EVALUATION: str = "points"

    def __init__(
        self, game: Game, seat: int, seed: int = 0, *, rounds: int | None = None, **kwargs: Any
    ) -> None:
        if not isinstance(game, DiceGame):
            raise IllegalActionError("the dice search bot plays LAMA Dice only")
        self.rounds = check_count("rounds", self.ROUNDS if rounds is None else rounds)
        try:  # the compiled engine needs numba (the ``sim`` extra, see ``requires``)
            from lamagames.dice import batch_heuristic, batch_rollout
        except ModuleNotFoundError as exc:
            if exc.name in {"numba", "llvmlite"}:
                raise BotUnavailableError(
                    self.kind, f"needs numba: pip install 'lamagames[{self.extra}]'"
                ) from exc
            raise
        self._batch = batch_rollout
        super().__init__(game, seat, seed, **kwargs)
        #: the in-kernel heuristic's roll-value memo, warm across decisions.
        self._memo = batch_heuristic.new_memo(1 << 16)
        #: simulations per candidate of the last decision that simulated (0: none yet).
        self.last_rollouts = 0

    def warm_interpreted(self) -> None:
        """Build the interpreted form of the rollouts kernel (see
        :meth:`~lamagames.bots.base.Bot.warm_interpreted`)."""
        from lamagames.core.jit import interpreted
        from lamagames.dice.batch_heuristic import rollouts

        interpreted(rollouts)

    def base_policy(self, seat: int) -> Bot:
        """The ``heuristic`` bot of that seat (deterministic)."""
        return DiceHeuristicBot(self.game, seat, 0)

    def candidates(self, state: State, legal: list[int], base: int) -> list[int]:
        """Every legal action, except at chip give-backs (none: the heuristic's choice)."""
        if legal[0] in (GIVE_BLACK, GIVE_WHITE, GIVE_NONE):
            return []
        return legal

    def interpreted_rollouts(self) -> int:
        """Simulations per candidate of a decision made interpreted: :attr:`rollouts`, at
        most ``2 * INTERPRETED_ROLLOUTS // n`` (at least 16) with ``n`` seats (a simulation
        plays every seat's turns: the interpreted cost grows with them)."""
        budget = max(16, 2 * self.INTERPRETED_ROLLOUTS // self.game.num_players)
        return min(self.rollouts, budget)

    def decision_rollouts(self) -> int:
        """Simulations per candidate of a decision starting now: :attr:`rollouts`, or
        :meth:`interpreted_rollouts` while the rollouts would run interpreted
        (:func:`lamagames.dice.batch_rollout.runs_interpreted`: the compiled code is not
        ready yet)."""
        if self._batch.runs_interpreted():
            return self.interpreted_rollouts()
        return self.rollouts

    def action_values(self, state: State, actions: list[int]) -> dict[int, list[float]]:
        """Simulated values of each action (:meth:`decision_rollouts` floats each,
        simulation ``k`` of every action on the same seed), by compiled rollouts (or
        interpreted ones while the compiled code is not ready); ``state`` is not changed."""
        count = self.decision_rollouts()
        base_seed = self.rng.getrandbits(62)
        seeds = np.arange(count, dtype=np.uint64) + np.uint64(base_seed)
        result = self._batch.rollouts(
            as_dice_state(state), actions, seeds, rounds=self.rounds, memo=self._memo
        )
        self.last_rollouts = count
        self.simulations += len(actions) * count
        if self.EVALUATION == "share":
            end_score = as_dice_state(state).game.end_score
            values = share_values(result.final_scores, result.over, self.seat, end_score)
        else:
            values = rollout_values(result.changes, result.final_scores, result.over, self.seat)
        return {a: values[i].tolist() for i, a in enumerate(actions)}

    # The compiled rollouts replace the generic Python simulation loop; these hooks are
    # kept for the base class's contract.
    def stop(self, state: State, root: Any) -> bool:
        """The simulated round is over (the next one has begun)."""
        start_round: int = root[0]
        return as_dice_state(state).round != start_round

    def root_info(self, state: State) -> tuple[int, list[int]]:
        """The round number and the scores at the root."""
        dice = as_dice_state(state)
        return dice.round, list(dice.scores)

    def evaluate(self, state: State, root: Any) -> float:
        """:func:`rollout_values` of a finished simulation (one round)."""
        dice = as_dice_state(state)
        start = np.array(root[1], dtype=np.int32)
        final = np.array(dice.scores, dtype=np.int32)
        return float(
            rollout_values(final - start, final, np.array(dice.is_terminal()), self.seat)
        )
