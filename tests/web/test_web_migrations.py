"""Alembic migrations of the web store (issue 16): a database made by ``main`` before
migrations (``tests/data/web_db_main``, made by its ``make_fixture.py`` from main's own
``store.py``) upgrades in place on SQLite and PostgreSQL, keeping its tables and rows; a
fresh database gets the schema of the models; older databases get the columns they lack."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from web_helpers import FAST, TestClient

from lamagames.web import create_app, migrations
from lamagames.web.store import ActionData, Base, Store

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "web_db_main"
#: The statement separator of ``postgresql.sql`` (see ``make_fixture.py``).
SEPARATOR = "\n-- statement\n"
WAITING, PLAYING = "RDQRAW", "HU6YVS"  # the fixture's room codes


def head() -> str:
    found = ScriptDirectory.from_config(migrations.alembic_config()).get_current_head()
    assert found is not None
    return found


def load_main_database(url: str) -> None:
    """Fill the empty database of ``url`` with the fixture of its dialect."""
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as raw:
            raw.executescript((FIXTURES / "sqlite.sql").read_text())
        return
    engine = create_engine(url)
    with engine.begin() as connection:
        for statement in (FIXTURES / "postgresql.sql").read_text().split(SEPARATOR)[1:]:
            connection.execute(text(statement))
    engine.dispose()


def schema_differences(url: str) -> list[object]:
    """What differs between the database's schema and the models (alembic autogenerate)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, Base.metadata))
    finally:
        engine.dispose()


def test_a_database_of_main_upgrades_in_place(db_url: str) -> None:
    load_main_database(db_url)
    engine = create_engine(db_url)
    assert "alembic_version" not in inspect(engine).get_table_names()
    assert migrations.current_revision(engine) is None
    engine.dispose()
    store = Store(db_url)  # migrates on start
    try:
        assert migrations.current_revision(store.engine) == head()
        waiting, playing = store.load(WAITING), store.load(PLAYING)
        assert waiting is not None and playing is not None
        assert [s.name for s in waiting.seats] == ["", "Robin", ""]
        assert store.retired_seat(waiting.id, "x" * 22) is None
        assert (playing.status, playing.version, len(playing.actions)) == ("playing", 12, 12)
        assert (playing.bot_pace, playing.hints) == ("fast", False)
        assert [s.name for s in playing.seats] == ["Ada", "Bo"]
        # new rows go on after the old ones (the id sequences were kept)
        made = store.create_table(
            game="dice", params={}, seed=3, seats=[("human", "", None)] * 2, public=True,
            turn_clock=None, away_timeout=60, alertness=None,
        )
        assert made.id == 3
    finally:
        store.close()
    assert schema_differences(db_url) == []
    # the app resumes the stored game: the table replays its 12 actions and plays on
    with TestClient(create_app(db_url, settings=FAST)) as client:
        info = client.get(f"/api/tables/{PLAYING}").json()
        # 12, or 13 once the resumed driver rolled the dice it owed (a chance node; both
        # seats are people, so nothing else can move): the answer races the driver
        assert info["status"] == "playing" and info["version"] in (12, 13), info
        token = playing.seats[0].token
        assert client.post(f"/api/tables/{PLAYING}/join", json={"token": token}).status_code == 200
    # a second start migrates nothing and loses nothing
    again = Store(db_url)
    try:
        assert migrations.current_revision(again.engine) == head()
        loaded = again.load(PLAYING)
        # the 12 stored actions kept (the driver may have rolled the dice it owed since)
        assert loaded is not None and loaded.actions[:12] == playing.actions
        assert all(action.by == "chance" for action in loaded.actions[12:])
    finally:
        again.close()


def test_a_fresh_database_gets_the_models_schema(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert migrations.current_revision(store.engine) == head()
        store.append_action  # noqa: B018 - the store is usable
        made = store.create_table(
            game="dice", params={}, seed=3, seats=[("human", "", None)] * 2, public=True,
            turn_clock=None, away_timeout=60, alertness=None,
        )
        store.append_action(made.id, ActionData(0, -1, "roll", "chance"))
    finally:
        store.close()
    assert schema_differences(db_url) == []


def test_an_older_database_gets_the_columns_it_lacks(tmp_path: Path) -> None:
    """Before bot_pace and hints (the columns the store's ALTER TABLE used to add)."""
    path = tmp_path / "old.sqlite3"
    load_main_database(f"sqlite:///{path}")
    with sqlite3.connect(path) as raw:
        raw.execute("ALTER TABLE tables DROP COLUMN bot_pace")
        raw.execute("ALTER TABLE tables DROP COLUMN hints")
        raw.execute("DROP TABLE retired_tokens")
    store = Store(f"sqlite:///{path}")
    try:
        playing = store.load(PLAYING)
        assert playing is not None and (playing.bot_pace, playing.hints) == ("normal", True)
        assert len(playing.actions) == 12
    finally:
        store.close()
    assert schema_differences(f"sqlite:///{path}") == []


def test_the_migrations_ship_inside_the_package() -> None:
    folder = migrations.MIGRATIONS_DIR
    assert folder.parent.name == "web" and (folder / "env.py").is_file()
    revisions = [p.name for p in (folder / "versions").glob("*.py") if p.name[0].isdigit()]
    assert "0001_baseline.py" in revisions
    assert (folder / "script.py.mako").is_file()  # for `alembic revision`


@pytest.mark.parametrize("statement", ["DROP TABLE alembic_version"])
def test_a_store_made_before_migrations_is_recognised(tmp_path: Path, statement: str) -> None:
    """A database whose tables exist but without ``alembic_version`` (made by main) is
    stamped by the baseline, not created again (that would fail: the tables exist)."""
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    Store(url).close()
    with sqlite3.connect(tmp_path / "a.sqlite3") as raw:
        raw.execute(statement)
    store = Store(url)
    try:
        assert migrations.current_revision(store.engine) == head()
    finally:
        store.close()


def test_processes_starting_together_migrate_once(db_url: str) -> None:
    """Several stores opening one fresh database at once (several ``lama serve`` processes
    starting together): each waits for the first migration and finds the schema made."""
    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _: Store(db_url), range(4)))
    try:
        assert {migrations.current_revision(s.engine) for s in stores} == {head()}
    finally:
        for store in stores:
            store.close()
    assert schema_differences(db_url) == []
