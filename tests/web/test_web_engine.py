"""The synchronous table engine (lamagames.web.engine), driven with no event loop.

Versions, refs, free-action windows (E-9), the move log and the clock plan are decided
here without asyncio: every test below is a plain function (``asyncio.get_running_loop``
would raise in it).
"""

from __future__ import annotations

import asyncio
import gc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import express_window

from lamagames import make
from lamagames.core.errors import RecordError
from lamagames.core.game import State
from lamagames.core.rng import make_rng
from lamagames.web.adapters import get_adapter
from lamagames.web.engine import TableEngine, TableError
from lamagames.web.store import ActionData


def dice_engine(actions: list[ActionData] | None = None) -> TableEngine:
    """A two-seat LAMA Dice table engine (after ``actions``)."""
    return TableEngine(get_adapter("dice"), make("dice", num_players=2), actions or [])


def deal(engine: TableEngine) -> None:
    """Apply chance outcomes until a seat must act."""
    while engine.state.is_chance_node():
        rng = make_rng(7, "chance", engine.version)
        engine.apply(None, engine.state.sample_chance_outcome(rng), "chance")


def refusal(engine: TableEngine, seat: int, version: int, notation: str) -> TableError:
    with pytest.raises(TableError) as caught:
        engine.judge(seat, version, notation)
    return caught.value


def test_engine_runs_without_an_event_loop() -> None:
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()
    engine = dice_engine()
    deal(engine)
    assert engine.version > 0 and len(engine.events) == engine.version
    assert all(e.by == "chance" and e.player == -1 for e in engine.events)


def test_judge_refuses_without_changing_anything() -> None:
    engine = dice_engine()
    deal(engine)
    seat = engine.acting()[0]
    other = 1 - seat
    version, before = engine.version, engine.state.to_dict()
    legal = engine.state.action_to_string(engine.state.legal_actions(seat)[0], seat)
    assert refusal(engine, seat, version - 1, legal).code == "stale"
    assert refusal(engine, seat, version + 5, legal).code == "stale"
    assert refusal(engine, other, version, legal).code == "not_your_turn"
    assert refusal(engine, seat, version, "fly to the moon").code == "invalid"
    assert engine.version == version and engine.state.to_dict() == before
    assert engine.judge(seat, version, legal) == engine.state.legal_actions(seat)[0]


def test_apply_logs_and_remembers_the_ref() -> None:
    engine = dice_engine()
    deal(engine)
    seat = engine.acting()[0]
    action = engine.judge(seat, engine.version, "roll")
    step = engine.apply(seat, action, "human", ref="r1")
    assert step.entry == ActionData(engine.version - 1, seat, "roll", "human")
    assert engine.events[-1].action == "roll" and engine.events[-1].by == "human"
    assert engine.applied_ref(seat, "r1") == engine.version
    assert engine.applied_ref(1 - seat, "r1") is None
    assert engine.applied_ref(seat, None) is None


def test_plan_changes_nothing_until_commit() -> None:
    engine = dice_engine()
    deal(engine)
    seat = engine.acting()[0]
    version = engine.version
    step = engine.plan(seat, engine.judge(seat, version, "roll"), "human")
    assert engine.version == version and step.entry.idx == version
    engine.commit(step)
    assert engine.version == version + 1 and engine.state is step.after
    with pytest.raises(TableError) as caught:
        engine.commit(step)  # planned at an older version
    assert caught.value.code == "stale" and engine.version == version + 1


def test_replay_rebuilds_the_same_table_and_refuses_a_corrupt_one() -> None:
    engine = dice_engine()
    deal(engine)
    seat = engine.acting()[0]
    engine.apply(seat, engine.judge(seat, engine.version, "roll"), "human")
    stored = [ActionData(e.index, e.player, e.action, e.by) for e in engine.events]
    again = dice_engine(stored)
    assert again.version == engine.version
    assert again.state.to_dict() == engine.state.to_dict()
    assert [e.model_dump() for e in again.events] == [e.model_dump() for e in engine.events]
    stored[-1] = ActionData(stored[-1].idx, stored[-1].player, "take 9", "human")
    with pytest.raises(RecordError, match="stored action"):
        dice_engine(stored)


def test_clock_plan_times_humans_only() -> None:
    engine = dice_engine()
    deal(engine)
    seat = engine.acting()[0]
    plan = engine.clock_plan(lambda s: False, 30.0, None)
    assert plan is not None and plan.kind == "turn" and plan.seats == [seat]
    assert plan.delay == 30.0 and plan.key == ("turn", engine.version)
    assert engine.clock_plan(lambda s: True, 30.0, None) is None
    assert engine.clock_plan(lambda s: False, None, None) is None


def two_free_actions(state: State) -> dict[int, str] | None:
    """Two seats that each have a free action (not a pass) of their own (E-9)."""
    found: dict[int, str] = {}
    for seat in state.acting_players():
        for action in state.legal_actions(seat):
            notation = state.action_to_string(action, seat)
            if notation != "pass" and notation not in found.values():
                found[seat] = notation
                break
    return found if len(found) >= 2 else None


def window_engine() -> tuple[TableEngine, dict[int, str]]:
    """A four-seat Lama Express table engine in a window where two seats may act (E-9)."""
    actions, found = express_window(two_free_actions)
    stored = [
        ActionData(i, p, n, "chance" if p < 0 else "human") for i, (p, n) in enumerate(actions)
    ]
    engine = TableEngine(get_adapter("express"), make("express", num_players=4), stored)
    return engine, found


def test_window_actions_count_in_arrival_order_E9() -> None:
    engine, found = window_engine()
    (a, a_move), (b, b_move) = list(found.items())[:2]
    version = engine.version
    assert engine.window is not None and engine.window.opened == version
    engine.apply(a, engine.judge(a, version, a_move), "human")
    # b chose at the window's earlier version: still honoured since the engine accepts it now.
    engine.apply(b, engine.judge(b, version, b_move), "human")
    assert [e.action for e in engine.events[-2:]] == [a_move, b_move]
    assert engine.window is not None and engine.window.acted == {a: version, b: version + 1}
    # a acted since that version: the same choice again never counts twice.
    again = refusal(engine, a, version, a_move)
    assert again.code == "stale" and "acted since" in again.message
    # A version from before the window opened never counts.
    assert refusal(engine, b, version - 1, b_move).code == "stale"


def test_alertness_plan_and_timed_out_passes_E9() -> None:
    engine, found = window_engine()
    assert engine.window is not None
    plan = engine.clock_plan(lambda s: False, None, 5.0)
    assert plan is not None and plan.kind == "alertness"
    assert set(found) <= set(plan.seats)
    key = engine.window.key
    passes = 0
    while (pending := engine.timed_out_pass(key, lambda s: False)) is not None:
        seat, action = pending
        assert engine.state.action_to_string(action, seat) == "pass"
        engine.apply(seat, action, "timer")
        passes += 1
    assert passes >= 2
    assert engine.window is None or engine.window.key != key
    assert engine.timed_out_pass(key, lambda s: False) is None


Message = tuple[int, int, int]  # seat, version offset, legal-action pick (-1: nonsense)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.sampled_from([0, 0, 0, -1, 1, -2]), st.integers(-1, 5)),
        min_size=1,
        max_size=60,
    ),
    st.sampled_from(["dice", "express"]),
)
def test_refusals_change_nothing_and_the_log_replays(messages: list[Message], game_id: str) -> None:
    """Whatever seats send, a refused message changes nothing, and the applied log (the
    stored actions) replays to the very same table."""
    engine = TableEngine(get_adapter(game_id), make(game_id, num_players=3))
    for index, (seat, offset, pick) in enumerate(messages):
        while engine.state.is_chance_node():
            rng = make_rng(index, "chance", engine.version)
            engine.apply(None, engine.state.sample_chance_outcome(rng), "chance")
        if engine.state.is_terminal():
            break
        legal = engine.state.legal_actions(seat)
        notation = (
            engine.state.action_to_string(legal[pick % len(legal)], seat)
            if legal and pick >= 0
            else "no such move"
        )
        before = (engine.version, engine.state.to_dict(), len(engine.events))
        try:
            action = engine.judge(seat, engine.version + offset, notation)
        except TableError as exc:
            assert exc.code in ("stale", "invalid", "illegal", "not_your_turn")
            assert (engine.version, engine.state.to_dict(), len(engine.events)) == before
            continue
        engine.apply(seat, action, "human", ref=f"r{index}")
        assert engine.version == before[0] + 1
        assert engine.applied_ref(seat, f"r{index}") == engine.version
    stored = [ActionData(e.index, e.player, e.action, e.by) for e in engine.events]
    again = TableEngine(get_adapter(game_id), make(game_id, num_players=3), stored)
    assert again.version == engine.version
    assert again.state.to_dict() == engine.state.to_dict()
    assert [e.model_dump() for e in again.events] == [e.model_dump() for e in engine.events]


def play_on(engine: TableEngine, actions: int) -> None:
    """Apply ``actions`` actions: chance outcomes, else the acting seat's first legal one."""
    for _ in range(actions):
        state = engine.state
        if state.is_terminal():
            return
        if state.is_chance_node():
            rng = make_rng(7, "chance", engine.version)
            engine.apply(None, state.sample_chance_outcome(rng), "chance")
        else:
            seat = engine.acting()[0]
            engine.apply(seat, state.legal_actions(seat)[0], "human")


def test_the_move_log_gives_the_garbage_collector_nothing_to_scan() -> None:
    """A long game's log adds (almost) no objects the garbage collector tracks: a busy
    server keeps every table's whole log, and full collections over them stopped its event
    loop for up to 270 ms (issue 16). As pydantic models, 300 entries were over 1,000
    tracked objects (the model, its dict, its fields set, its events list and dicts)."""
    engine = TableEngine(get_adapter("dice"), make("dice", num_players=2, end_score=1000))
    play_on(engine, 20)  # caches filled
    gc.collect()
    before, logged = len(gc.get_objects()), len(engine.events)
    play_on(engine, 300)
    gc.collect()
    assert len(engine.events) - logged == 300
    assert len(gc.get_objects()) - before < 30


def test_the_move_log_reads_back_what_was_logged() -> None:
    """Entries read back (index, slice, iteration) are the logged models; the JSON tail and
    the action rows are theirs too."""
    engine = dice_engine()
    logged = []
    for _ in range(12):
        deal(engine)
        seat = engine.acting()[0]
        step = engine.apply(seat, engine.state.legal_actions(seat)[0], "human")
        logged.append(step.event)
    log = engine.events
    mine = [e for e in log if e.by == "human"]
    assert log[-1] == logged[-1] and mine == logged and log[-1:] == logged[-1:]
    assert [e.index for e in log[3:6]] == [3, 4, 5]
    assert log.json_tail(2) == ",".join(e.model_dump_json() for e in log[-2:])
    assert log.json_tail(0) == "" and log.json_tail(10**6).count('"index"') == len(log)
    assert log.actions(len(log) - 2) == [[e.index, e.player, e.action, e.by] for e in log[-2:]]
    with pytest.raises(IndexError):
        log[len(log)]
