"""The :class:`~lamagames.core.spec.GameSpec` of LAMA Dice: every piece by lazy reference."""

from __future__ import annotations

from lamagames.core.spec import GameSpec, PlayOption, Requirement

SPEC = GameSpec(
    game_id="dice",
    title="LAMA Dice",
    game="lamagames.dice.game:DiceGame",
    bots={
        "benchmark": "lamagames.bots.dice:DiceBenchmarkBot",
        "heuristic": "lamagames.bots.dice:DiceHeuristicBot",
        "search": "lamagames.bots.dice_search:DiceSearchBot",
        "exact": "lamagames.bots.dice_exact:DiceExactBot",
    },
    cli_view="lamagames.cli.dice_view:DiceView",
    play_options=(
        PlayOption(
            "--end-score", "end_score", "Dice: end score (default 40).", int, metavar="POINTS"
        ),
    ),
    web_static="lamagames.dice:static",
    web_adapter="lamagames.web.dice:DiceWebAdapter",
    events="lamagames.dice.events:events",
    stats="lamagames.dice.stats:DiceStats",
    extras={
        "batch": "lamagames.dice.batch:ENGINE",
        "hints": "lamagames.dice.hints:hints",
        "hint_notes": "lamagames.dice.hints:BASIS_NOTES",
        "hint_words": "lamagames.dice.words:hint_words",
        "rl": "lamagames.dice.rl:RL",
        "vector": "lamagames.dice.vector:make_engine",
        "standing": "lamagames.dice.stats:standing",
        "text": "lamagames.dice.render:position_text",
        "review": "lamagames.dice.review:make_reviewer",
        "tutorial": "lamagames.dice.tutorial:make_tutor",
    },
    # Hints and reviews work with the exact solver and the compiled rollouts (numba).
    requires={
        "hints": Requirement(("numba",), "solver"),
        "review": Requirement(("numba",), "solver"),
        "vector": Requirement(("numba",), "sim"),
    },
)
