"""Make the databases of ``main`` before migrations (issue 16): run by hand, output committed.

``python tests/data/web_db_main/make_fixture.py [GIT_REF]`` loads ``src/lamagames/web/store.py``
as it is at ``GIT_REF`` (default ``main``: the last schema without Alembic), lets that code
create an SQLite database and fill it through its own ``Store`` methods (a waiting public
table with a claimed seat, so a retired token; a LAMA Dice table of two people with up to
12 stored actions drawn as the server draws them), then writes

- ``sqlite.sql``: that database as ``sqlite3``'s ``iterdump``;
- ``postgresql.sql``: the DDL that code's ``create_all`` emits on PostgreSQL (compiled from
  its models) and the same rows, with the id sequences moved past them.

``tests/web/test_web_migrations.py`` loads both and checks that they upgrade in place.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from sqlalchemy import JSON, String, create_engine, insert, literal, select
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable

from lamagames import make
from lamagames.bots import make_bot
from lamagames.core.rng import make_rng

HERE = Path(__file__).resolve().parent
SEED = 20261201
#: Separates the statements of ``postgresql.sql``.
SEPARATOR = "\n-- statement\n"


def load_store(ref: str) -> ModuleType:
    source = subprocess.run(
        ["git", "show", f"{ref}:src/lamagames/web/store.py"],
        check=True,
        capture_output=True,
        text=True,
        cwd=HERE,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "main_store.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("main_store", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["main_store"] = module
    spec.loader.exec_module(module)
    return module


def fill(main: Any, url: str) -> None:
    store = main.Store(url)
    waiting = store.create_table(
        game="dice", params={}, seed=1, seats=[("human", "", None)] * 3, public=True,
        turn_clock=None, away_timeout=60, alertness=None,
    )
    store.claim_seat(waiting.id, 1, "Robin")
    store.join_seat(waiting.id, 1, "Robin")
    game = make("dice", num_players=2)
    playing = store.create_table(
        game="dice", params={k: v for k, v in game.params.items() if k != "num_players"},
        seed=SEED, seats=[("human", "Ada", None), ("human", "Bo", None)], public=False,
        turn_clock=None, away_timeout=600, alertness=None, bot_pace="fast", hints=False,
    )
    store.join_seat(playing.id, 0, None)
    store.join_seat(playing.id, 1, None)
    store.set_status(playing.id, "playing")
    state = game.new_initial_state()
    bots = [make_bot("heuristic", game, seat, SEED + seat) for seat in range(2)]
    for index in range(12):
        if state.is_chance_node():
            action = state.sample_chance_outcome(make_rng(SEED, "chance", index))
            player, by = None, "chance"
        else:
            player = state.acting_players()[0]
            action, by = bots[player].step(state), "human"
        if state.child(action, player).is_terminal():
            break  # the table stays in play
        notation = state.action_to_string(action, player)
        entry = main.ActionData(index, -1 if player is None else player, notation, by)
        store.append_action(playing.id, entry)
        state.apply_action(action, player)
    store.close()


def postgresql_dump(main: Any, url: str) -> str:
    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    statements = []
    engine = create_engine(url)
    with engine.connect() as connection:
        for table in main.Base.metadata.sorted_tables:
            statements.append(str(CreateTable(table).compile(dialect=dialect)).strip())
            for index in sorted(table.indexes, key=lambda i: str(i.name)):
                statements.append(str(CreateIndex(index).compile(dialect=dialect)))
        for table in main.Base.metadata.sorted_tables:
            for row in connection.execute(select(table).order_by(table.c.id)).mappings():
                # JSON as its text (a quoted literal becomes json on insert)
                fields = {
                    name: literal(json.dumps(value), String())
                    if isinstance(table.c[name].type, JSON)
                    else value
                    for name, value in row.items()
                }
                values = insert(table).values(fields)
                compiled = values.compile(dialect=dialect, compile_kwargs={"literal_binds": True})
                statements.append(str(compiled))
            statements.append(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                f"(SELECT max(id) FROM {table.name}))"
            )
    engine.dispose()
    return "-- made by make_fixture.py from main's store.py" + SEPARATOR + SEPARATOR.join(
        statements
    ) + "\n"


def main(ref: str = "main") -> None:
    import sqlite3

    module = load_store(ref)
    folder = Path(tempfile.mkdtemp())
    db = folder / "main.sqlite3"
    fill(module, f"sqlite:///{db}")
    with sqlite3.connect(db) as raw:
        dump = "\n".join(raw.iterdump()) + "\n"
    (HERE / "sqlite.sql").write_text(dump)
    (HERE / "postgresql.sql").write_text(postgresql_dump(module, f"sqlite:///{db}"))
    print(f"wrote {HERE / 'sqlite.sql'} and {HERE / 'postgresql.sql'}")


if __name__ == "__main__":
    main(*sys.argv[1:])
