"""The spec of Toy Race: the one entry a new game needs."""

from __future__ import annotations

from lamagames.core.spec import GameSpec, PlayOption

SPEC = GameSpec(
    game_id="toy",
    title="Toy Race",
    game="tests.toygame.game:ToyGame",
    bots={"stepper": "tests.toygame.bots:StepperBot"},
    play_options=(
        PlayOption("--target", "target", "Toy: points to win (default 5).", int, minimum=1),
    ),
    web_adapter="tests.toygame.extras:ToyWebAdapter",
    web_static="tests.toygame:static",
    stats="tests.toygame.extras:ToyStats",
    extras={
        "hints": "tests.toygame.extras:hint",
        "rl": "tests.toygame.rl:RL",
        "batch": "tests.toygame.batch:ENGINE",
    },
)
