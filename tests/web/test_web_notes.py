"""Log notes of LAMA Dice: bust, round end with each seat's points, give-backs, game end."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import create, start, wait_status

from lamagames import make
from lamagames.bots import make_bot
from lamagames.core.rng import make_rng
from lamagames.dice.game import DiceState
from lamagames.web.adapters import get_adapter


def _notes_of_games(games: int) -> list[tuple[dict[str, Any], DiceState]]:
    adapter = get_adapter("dice")
    out: list[tuple[dict[str, Any], DiceState]] = []
    for seed in range(games):
        game = make("dice", num_players=3)
        state = game.new_initial_state()
        bots = [make_bot("random", game, s, seed * 10 + s) for s in range(3)]
        while not state.is_terminal():
            if state.is_chance_node():
                player, action = None, state.sample_chance_outcome(make_rng(seed, "c", len(out)))
            else:
                player = state.current_player()
                action = bots[player].step(state)
            after = state.child(action, player)
            assert isinstance(after, DiceState)
            out.extend((note, after) for note in adapter.notes(state, player, action, after))
            state = after
    return out


def test_dice_notes_tell_rounds_busts_and_the_end() -> None:
    found = _notes_of_games(4)
    kinds = {note["kind"] for note, _ in found}
    assert {"round_start", "round_end", "game_end", "bust"} <= kinds
    reasons = {note["reason"] for note, _ in found if note["kind"] == "round_end"}
    assert "bust" in reasons and reasons <= {"bust", "emptied", "llama_row", "all_quit"}
    for note, after in found:
        if note["kind"] == "round_end":
            assert note["points"] == after.round_points[note["round"] - 1]
        if note["kind"] == "game_end":
            assert note["winners"] == after.winners() and note["scores"] == after.scores
    rounds = [note["round"] for note, _ in found if note["kind"] == "round_start"]
    assert rounds[:2] == [1, 2]


def test_events_carry_notes_live_and_in_replay(client: TestClient) -> None:
    bot = {"kind": "bot", "bot_kind": "random"}
    table = create(client, [bot, bot], seed=3)
    start(client, table)
    wait_status(client, table["code"], "finished")
    events = client.get(f"/api/tables/{table['code']}/replay").json()["events"]
    notes = [n for e in events for n in e["notes"]]
    assert notes[0] == {"kind": "round_start", "round": 1, "starter": 0}
    assert sum(1 for n in notes if n["kind"] == "round_end") >= 1
    assert notes[-1]["kind"] == "game_end"
    deals = [e for e in events if e["action"].startswith("deal")]
    assert all(bool(e["notes"]) == (i % 2 == 1) for i, e in enumerate(deals))
