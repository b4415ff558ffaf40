"""A rated ladder: round robin of bot kinds per player count, rated with OpenSkill.

For each player count ``n`` the ladder seats every *table* of kinds (:func:`tables`) for
``games`` games each, rotating the seating by one seat per game so every kind plays every
position. Each game's finishing order (by the game's standing, see
:func:`lamagames.sim.match.standings`; ties share a rank) updates OpenSkill's Plackett-Luce
ratings (Weng and Lin 2011, "A Bayesian approximation method for online ranking"; the
``openskill`` package), one rating per kind and player count, all starting at the model's
defaults (mu 25, sigma 25/3, beta 25/6). The 95% interval of a kind is ``mu +- 1.96
sigma``, the model's normal posterior of its skill (not a bootstrap); intervals that do not
overlap mark kinds whose strengths differ at that level.

Two settings differ from OpenSkill's defaults, because bots, unlike people, do not change
between games (:func:`ladder_model`):

- no dynamics (``tau = 0``): the default ``tau = 25/300`` adds variance before every game
  for skills that drift, which keeps every sigma near 1.5 however many games are played, so
  kinds 62% apart (search against heuristic, two players) could never be told apart;
- no damping of the variance update (``gamma = 1``): Weng and Lin's default
  ``gamma = sigma / c`` (their eq. for ``gamma_q``, added to keep variances positive) shrinks
  sigma like ``N**-1/3`` instead of the posterior's ``N**-1/2`` and overstates it. With
  ``gamma = 1`` each game adds its Fisher information, as a Laplace approximation does.

Checked on synthetic round robins with known Plackett-Luce strengths
(``tests/sim/test_ladder_ratings.py``): equal kinds' intervals overlap, the spread of
``mu_a - mu_b`` between runs matches ``hypot(sigma_a, sigma_b)``, and kinds one step of
62.5% apart separate.

When a table seats a kind more than once (``n`` above the number of kinds), each copy is
rated as its own team from the kind's rating and the kind's new rating is the mean of the
copies' updated mu and sigma: an approximation, said here so nobody mistakes it for exact.

Imports no game package; kinds come from the game's spec (:func:`lamagames.bots.bot_kinds`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lamagames.bots.base import BotUnavailableError, bot_kinds, make_bot
from lamagames.core.errors import LamaError, ParameterError
from lamagames.core.extras import require
from lamagames.core.game import Game
from lamagames.core.registry import make
from lamagames.core.rng import derive_seed
from lamagames.core.spec import get_spec
from lamagames.sim.match import Z95, standings
from lamagames.sim.pool import ordered_map
from lamagames.sim.runner import play_game

#: Called after every game: (player count, table index, game index, kinds by seat).
Progress = Callable[[int, int, int, tuple[str, ...]], None]


def tables(kinds: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """The tables of a round robin of ``kinds`` at ``n`` seats.

    With ``n <= len(kinds)``: every combination of ``n`` different kinds. With more seats
    than kinds: every multiset of ``n`` kinds that seats each kind at least once.

    >>> tables(["a", "b", "c"], 2)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> tables(["a", "b"], 3)
    [('a', 'a', 'b'), ('a', 'b', 'b')]

    Raises:
        ParameterError: fewer than two kinds or ``n < 2``.
    """
    if len(kinds) < 2 or n < 2:
        raise ParameterError("a ladder needs at least two bot kinds and two seats")
    if n <= len(kinds):
        return list(itertools.combinations(kinds, n))
    return [t for t in itertools.combinations_with_replacement(kinds, n) if set(t) == set(kinds)]


def ranks(standing: Sequence[float]) -> list[int]:
    """Competition ranks from standings, higher standing first, ties shared (1 = best).

    >>> ranks([-10.0, -30.0, -10.0])
    [1, 3, 1]
    """
    return [1 + sum(1 for other in standing if other > mine) for mine in standing]


@dataclass(frozen=True, slots=True)
class Rating:
    """The rating of one kind at one player count.

    Attributes:
        kind: bot kind; ``mu``, ``sigma``: OpenSkill Plackett-Luce posterior (skill units).
        ci_low, ci_high: ``mu -+ 1.96 sigma``.
        games: games the kind played; ``wins``: games it won (shared wins count);
        ``mean_rank``: its mean finishing rank (1 = best).
    """

    kind: str
    mu: float
    sigma: float
    ci_low: float
    ci_high: float
    games: int
    wins: int
    mean_rank: float


def _undamped(*_args: Any) -> float:
    """OpenSkill ``gamma`` of 1: the full (Laplace) variance update, see the module doc."""
    return 1.0


#: What ``lama ladder`` needs beyond the base install: the rating package, and its extra.
LADDER_MODULES = ("openskill",)
LADDER_EXTRA = "ladder"


def require_ladder() -> None:
    """Refuse to start a ladder without openskill (before any game is played).

    Raises:
        ParameterError: ``"lama ladder needs openskill: pip install 'lamagames[ladder]'"``.
    """
    require("lama ladder", LADDER_MODULES, LADDER_EXTRA)


def ladder_model() -> Any:
    """OpenSkill's Plackett-Luce model as the ladder uses it: default mu, sigma and beta, no
    dynamics (``tau = 0``) and no damping (``gamma = 1``), for players of fixed strength.

    Returns:
        An ``openskill.models.PlackettLuce`` (the ``ladder`` extra).
    """
    from openskill.models import PlackettLuce

    return PlackettLuce(tau=0.0, gamma=_undamped)


def rate_games(
    kinds: Sequence[str],
    seatings: Sequence[tuple[str, ...]],
    outcomes: Sequence[tuple[Sequence[int], Sequence[float]]],
) -> list[Rating]:
    """Rate ``kinds`` from games played in this order (:func:`ladder_model`).

    Args:
        kinds: the kinds rated; every kind of every seating must be among them.
        seatings: per game, the kind in each seat.
        outcomes: per game, the finishing ranks (1 = best, ties shared) and the returns
            (a return above 0 counts as a win), one per seat.

    Returns:
        One :class:`Rating` per kind, best mu first. A kind seated twice in a game is rated
        as separate teams from its rating; its new mu and sigma are the copies' means. Games
        and wins count games (a game counts once for a kind, won when any of its seats has
        a return above 0); the mean rank is over the kind's seats.

    Raises:
        ValueError: seatings and outcomes differ in length or a game's lists in size.
        KeyError: a seating names a kind not in ``kinds``.
    """
    if len(seatings) != len(outcomes):
        raise ValueError(f"{len(seatings)} seatings but {len(outcomes)} outcomes")
    model = ladder_model()
    rating = {k: model.rating(name=k) for k in kinds}
    played = dict.fromkeys(kinds, 0)
    won = dict.fromkeys(kinds, 0)
    rank_sum = dict.fromkeys(kinds, 0)
    seated = dict.fromkeys(kinds, 0)
    for seating, (order, returns) in zip(seatings, outcomes, strict=True):
        if not len(seating) == len(order) == len(returns):
            raise ValueError(f"a game of {len(seating)} seats has {len(order)} ranks")
        teams = [[rating[k]] for k in seating]
        new = model.rate(teams, ranks=[float(r) for r in order])
        updates: dict[str, list[Any]] = {}
        for s, k in enumerate(seating):
            updates.setdefault(k, []).append(new[s][0])
            seated[k] += 1
            rank_sum[k] += order[s]
        for k in updates:
            played[k] += 1
            won[k] += any(returns[s] > 0 for s, kk in enumerate(seating) if kk == k)
        for k, copies in updates.items():
            mu = sum(c.mu for c in copies) / len(copies)
            sigma = sum(c.sigma for c in copies) / len(copies)
            rating[k] = model.rating(mu=mu, sigma=sigma, name=k)
    rows = [
        Rating(
            kind=k,
            mu=rating[k].mu,
            sigma=rating[k].sigma,
            ci_low=rating[k].mu - Z95 * rating[k].sigma,
            ci_high=rating[k].mu + Z95 * rating[k].sigma,
            games=played[k],
            wins=won[k],
            mean_rank=rank_sum[k] / seated[k] if seated[k] else 0.0,
        )
        for k in kinds
    ]
    return sorted(rows, key=lambda r: -r.mu)


def separated(ratings: Sequence[Rating]) -> list[bool]:
    """Per rating (best mu first), whether its 95% interval lies wholly above the next
    one's (the last is ``False``): ``ci_low`` above the next ``ci_high``.

    >>> a = Rating("a", 30.0, 1.0, 28.04, 31.96, 10, 8, 1.2)
    >>> b = Rating("b", 25.0, 1.0, 23.04, 26.96, 10, 2, 1.8)
    >>> separated([a, b])
    [True, False]
    """
    return [
        i + 1 < len(ratings) and ratings[i].ci_low > ratings[i + 1].ci_high
        for i in range(len(ratings))
    ]


@dataclass(slots=True)
class LadderResult:
    """Ratings per player count, best first, plus the run's settings.

    Attributes:
        game: game id; ``params``: extra game parameters; ``seed``: root seed;
        ``games_per_table``: games per table; ``ratings``: player count -> ratings (best
        mu first); ``skipped``: player count -> kinds left out (they refused that count,
        or cannot be used in this installation); ``why``: player count -> kind left out ->
        the reason (``"needs numba: pip install 'lamagames[sim]'"``).
    """

    game: str
    params: dict[str, Any]
    seed: int
    games_per_table: int
    ratings: dict[int, list[Rating]] = field(default_factory=dict)
    skipped: dict[int, list[str]] = field(default_factory=dict)
    why: dict[int, dict[str, str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible dict: settings, and per player count the ratings and skips."""
        return {
            "game": self.game,
            "params": self.params,
            "seed": self.seed,
            "games_per_table": self.games_per_table,
            "interval": "mu +- 1.96 sigma (OpenSkill Plackett-Luce, tau 0, gamma 1)",
            "players": {
                str(n): {
                    "ratings": [
                        {
                            "kind": r.kind,
                            "mu": r.mu,
                            "sigma": r.sigma,
                            "ci95": [r.ci_low, r.ci_high],
                            "games": r.games,
                            "wins": r.wins,
                            "mean_rank": r.mean_rank,
                            "above_next": above if i + 1 < len(ratings) else None,
                        }
                        for i, (r, above) in enumerate(
                            zip(ratings, separated(ratings), strict=True)
                        )
                    ],
                    "skipped": self.skipped.get(n, []),
                    "skipped_why": self.why.get(n, {}),
                }
                for n, ratings in self.ratings.items()
            },
        }


def _usable(game_id: str, kinds: Sequence[str], game: Game) -> tuple[list[str], dict[str, str]]:
    """Split kinds into those that accept this game and those left out, with the reason:
    they refuse its seat count, or this installation cannot use them (a missing package,
    :func:`~lamagames.bots.base.bot_unavailable`)."""
    usable: list[str] = []
    skipped: dict[str, str] = {}
    for kind in kinds:
        try:
            make_bot(kind, game, 0, 0)
        except BotUnavailableError as exc:
            skipped[kind] = exc.reason
        except LamaError as exc:
            skipped[kind] = str(exc)
        else:
            usable.append(kind)
    return usable, skipped


def check_kinds(game_id: str, kinds: Sequence[str] | None) -> list[str]:
    """The ladder's kinds: ``kinds``, or every kind of the game when ``None``.

    Raises:
        ParameterError: an unknown game or kind (the message lists the available kinds), a
            kind named twice.
    """
    known = bot_kinds(game_id)
    chosen = list(known if kinds is None else kinds)
    repeated = sorted({k for k in chosen if chosen.count(k) > 1})
    if repeated:
        raise ParameterError(f"bot kind(s) named twice: {', '.join(repeated)}")
    unknown = [k for k in chosen if k not in known]
    if unknown:
        raise ParameterError(
            f"unknown bot kind(s) {', '.join(unknown)} for {game_id}; available: "
            + ", ".join(known)
        )
    return chosen


def plan_ladder(
    game_id: str, players: Sequence[int], kinds: Sequence[str], params: dict[str, Any]
) -> dict[int, tuple[list[str], dict[str, str]]]:
    """Per player count, the kinds that play it and those left out, each with the reason
    (they refuse the count, or this installation cannot use them).

    Raises:
        ParameterError: a player count out of the game's range, bad parameters (also
            ``num_players``, which ``players`` sets); fewer than two kinds left at a player
            count because others were left out (the message says why each was).
    """
    if "num_players" in params:
        raise ParameterError("params: 'num_players' is set by the player counts (players)")
    plan = {}
    for n in players:
        game = make(game_id, num_players=n, **params)
        usable, skipped = _usable(game_id, kinds, game)
        if len(usable) < 2 and skipped:
            why = "; ".join(f"{kind}: {reason}" for kind, reason in skipped.items())
            raise ParameterError(
                f"a ladder needs at least two bot kinds; at {n} players "
                + (f"only {usable[0]} can play" if usable else "no kind can play")
                + f" ({why})"
            )
        plan[n] = usable, skipped
    return plan


def ladder_games(
    game_id: str,
    players: Sequence[int],
    games: int,
    kinds: Sequence[str] | None = None,
    params: dict[str, Any] | None = None,
) -> int:
    """How many games :func:`run_ladder` will play with these arguments (for progress bars).

    Raises:
        ParameterError: as :func:`plan_ladder`; fewer than two usable kinds.
    """
    chosen = check_kinds(game_id, kinds)
    plan = plan_ladder(game_id, players, chosen, dict(params or {}))
    return sum(len(tables(usable, n)) * games for n, (usable, _) in plan.items())


def play_ladder_game(
    game_id: str, params: dict[str, Any], seating: tuple[str, ...], game_seed: int
) -> tuple[list[int], list[float]]:
    """Play one ladder game: ``seating`` (one kind per seat) with seed ``game_seed``.

    Returns:
        The finishing ranks (:func:`ranks`, 1 = best) and the returns, per seat.
    """
    game = make(game_id, num_players=len(seating), **params)
    bots = [make_bot(k, game, s, game_seed) for s, k in enumerate(seating)]
    state = play_game(game, bots, game_seed).state
    return ranks(standings(state, game_id)), list(state.returns())


def _reporter(
    progress: Progress | None, n: int, where: list[tuple[int, int]], jobs: list[tuple[Any, ...]]
) -> Callable[[int, Any], None] | None:
    """The ``done`` callback of :func:`ordered_map` that forwards to ``progress``."""
    if progress is None:
        return None
    report = progress

    def done(index: int, _outcome: Any) -> None:
        table, game = where[index]
        report(n, table, game, jobs[index][2])

    return done


def run_ladder(
    game_id: str,
    players: Sequence[int],
    *,
    games: int,
    seed: int,
    kinds: Sequence[str] | None = None,
    params: dict[str, Any] | None = None,
    progress: Progress | None = None,
    workers: int = 1,
) -> LadderResult:
    """Play the round robin and rate every kind per player count.

    Game ``g`` of table ``t`` at ``n`` seats uses seed ``derive_seed(seed, "ladder", n, t,
    g)`` and seats the table rotated by ``g`` places. The games may be played on several
    worker processes, but the ratings are updated in that fixed game order, so the result
    does not depend on ``workers``.

    Args:
        game_id: the game.
        players: player counts to run (each within the game's range).
        games: games per table (>= 1).
        seed: root seed.
        kinds: bot kinds (default: every kind of the game, :func:`bot_kinds`).
        params: further game parameters (for example ``{"turn_limit": 2000}``).
        progress: called after each game, in game order.
        workers: local processes playing the games (>= 1).

    Raises:
        ParameterError: unknown game or kind, a player count out of range, ``num_players``
            in ``params``, ``games < 1``, ``workers < 1``, fewer than two usable kinds at a
            player count, openskill not installed (:func:`require_ladder`; checked before
            any game is played).
    """
    get_spec(game_id)  # unknown game: ParameterError
    require_ladder()
    if games < 1:
        raise ParameterError(f"games per table must be at least 1, got {games}")
    if workers < 1:
        raise ParameterError(f"workers must be at least 1, got {workers}")
    chosen = check_kinds(game_id, kinds)
    extra = dict(params or {})
    result = LadderResult(game_id, extra, seed, games)
    for n, (usable, skipped) in plan_ladder(game_id, players, chosen, extra).items():
        if skipped:
            result.skipped[n] = list(skipped)
            result.why[n] = skipped
        jobs: list[tuple[Any, ...]] = []
        where: list[tuple[int, int]] = []
        for t, table in enumerate(tables(usable, n)):
            for g in range(games):
                seating = tuple(table[(s + g) % n] for s in range(n))
                jobs.append((game_id, extra, seating, derive_seed(seed, "ladder", n, t, g)))
                where.append((t, g))

        outcomes = ordered_map(play_ladder_game, jobs, workers, _reporter(progress, n, where, jobs))
        rows = rate_games(usable, [job[2] for job in jobs], outcomes)
        result.ratings[n] = rows
    return result


def games_per_table(games: int) -> str:
    """``"1 game per table"``, ``"4 games per table"``."""
    return f"{games} game{'' if games == 1 else 's'} per table"


#: File suffixes :func:`plot_ladder` writes (Matplotlib's Agg backend).
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def plot_ladder(result: LadderResult, path: str) -> None:
    """Draw every kind's mu with its 95% interval, one colour per player count, and save it
    (format from the suffix: ``.png``, ``.svg``, ``.pdf``).

    Raises:
        OSError: the file cannot be written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds: list[str] = []
    for ratings in result.ratings.values():
        for r in sorted(ratings, key=lambda r: r.mu):
            if r.kind not in kinds:
                kinds.append(r.kind)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(kinds)))
    counts = list(result.ratings)
    for i, n in enumerate(counts):
        offset = (i - (len(counts) - 1) / 2) * 0.15
        ratings = result.ratings[n]
        ys = [kinds.index(r.kind) + offset for r in ratings]
        xs = [r.mu for r in ratings]
        errors = [Z95 * r.sigma for r in ratings]
        ax.errorbar(xs, ys, xerr=errors, fmt="o", capsize=3, label=f"{n} players")
    ax.set_yticks(range(len(kinds)), kinds)
    ax.set_xlabel("OpenSkill mu (95% interval: mu +- 1.96 sigma)")
    ax.set_title(f"{result.game} ladder, {games_per_table(result.games_per_table)}")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


__all__ = [
    "PLOT_SUFFIXES",
    "LadderResult",
    "Rating",
    "games_per_table",
    "ladder_model",
    "play_ladder_game",
    "plot_ladder",
    "ranks",
    "rate_games",
    "require_ladder",
    "run_ladder",
    "separated",
    "tables",
]
