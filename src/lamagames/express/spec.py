"""The :class:`~lamagames.core.spec.GameSpec` of Lama Express: every piece by lazy reference."""

from __future__ import annotations

from pathlib import Path

from lamagames.core.spec import GameSpec, PlayOption, Requirement

SPEC = GameSpec(
    game_id="express",
    title="Lama Express",
    game="lamagames.express.game:ExpressGame",
    bots={
        "benchmark": "lamagames.bots.express:ExpressBenchmarkBot",
        "heuristic": "lamagames.bots.express:ExpressHeuristicBot",
        "search": "lamagames.bots.express_search:ExpressSearchBot",
    },
    cli_view="lamagames.cli.express_view:ExpressView",
    play_options=(
        PlayOption(
            "--short",
            "llamas_to_win",
            "Express: the short game, 3 llamas home win.",
            bool,
            flag_value=3,
        ),
        PlayOption(
            "--board",
            "board",
            "Express: a board file (see lama board).",
            Path,
            metavar="FILE",
            convert="lamagames.cli.express_board:board_param",
        ),
        PlayOption(
            "--colours",
            "colours",
            "Express: colour per seat, clockwise: yellow,pink,green (default by seats).",
            aliases=("--colors",),
            metavar="COLOURS",
            convert="lamagames.cli.express_board:parse_colours",
        ),
        PlayOption(
            "--turn-limit",
            "turn_limit",
            "Express, bots only: stop a game after this many die rolls (default 2000); "
            "games with people have no limit.",
            int,
            metavar="ROLLS",
            minimum=1,
            bots_only="games with people have no turn limit; leave with q",
        ),
    ),
    cli_commands=("lamagames.cli.express_board:board_app",),
    web_static="lamagames.express:static",
    web_adapter="lamagames.web.express:ExpressWebAdapter",
    events="lamagames.express.events:events",
    extras={
        "batch": "lamagames.express.batch:ENGINE",
        "text": "lamagames.express.render:position_text",
        "chance_notation": "lamagames.express.actions:chance_to_string",
        "review": "lamagames.express.review:make_reviewer",
        "tutorial": "lamagames.express.tutorial:make_tutor",
        "rl": "lamagames.express.rl:RL",
        "vector": "lamagames.express.vector:make_engine",
    },
    # Reviews simulate on the compiled batch engine (numba; the README's quick start installs
    # the solver extra, numba alone, so its Lama Express reviews work too).
    requires={
        "review": Requirement(("numba",), "solver"),
        "vector": Requirement(("numba",), "sim"),
    },
    stats="lamagames.express.stats:ExpressStats",
)
