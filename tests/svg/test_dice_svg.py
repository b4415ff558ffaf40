"""SVG pictures of LAMA Dice positions (lamagames.dice.svg, DiceState._repr_svg_)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from lamagames.core import make
from lamagames.dice.state import DiceState
from lamagames.dice.svg import state_svg

NS = "{http://www.w3.org/2000/svg}"
#: Three deals, a roll, a discard, the next roll (action ids of the dice engine).
STEPS = [(-1, 595), (-1, 1009), (-1, 540), (0, 0), (-1, 307), (0, 13), (1, 0), (-1, 246)]


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def known_position() -> DiceState:
    state = make("dice", num_players=3).new_initial_state()
    for _player, action in STEPS:
        state.apply_action(action)
    assert isinstance(state, DiceState)
    return state


def test_svg_shows_dice_rows_llama_row_and_turn() -> None:
    """D-1, D-3, D-5: the rolled dice, each seat's row card by card, the full llama row."""
    state = known_position()
    root = ET.fromstring(state_svg(state, names=["Ann", "Bo", "Cy & Co"]))
    assert root.tag == f"{NS}svg"
    assert [d.get("data-symbol") for d in by_class(root, "die")] == ["6", "1", "2"]
    row = by_class(root, "llama-row")[0]
    assert row.get("data-cards") == "7"
    seats = by_class(root, "seat")
    assert len(seats) == 3
    for seat, group in zip(range(3), seats, strict=True):
        symbols = "".join(c.get("data-symbol") or "" for c in by_class(group, "card"))
        expected = "".join(s * n for s, n in zip("123456L", state.rows[seat], strict=True))
        assert symbols == expected
    assert "".join(c.get("data-symbol") or "" for c in by_class(seats[0], "card")) == "1245L"
    status = by_class(root, "status")[0].text
    assert status == "round 1: Bo to act"


def test_chips_and_scores_of_a_finished_game() -> None:
    """D-4, D-11: chips black = score // 10, white = score % 10; the winners are named."""
    state = make("dice", num_players=2).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(state, DiceState)
    root = ET.fromstring(state._repr_svg_())
    for seat, group in enumerate(by_class(root, "seat")):
        assert group.get("data-score") == str(state.scores[seat])
        black, white = state.chips(seat)
        assert len(by_class(group, "black")) == black and len(by_class(group, "white")) == white
    winners = ", ".join(f"seat {s + 1}" for s in state.winners())
    assert by_class(root, "status")[0].text == f"winner: {winners}"


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="width"):
        state_svg(known_position(), width=100)
    with pytest.raises(ValueError, match="names"):
        state_svg(known_position(), names=["A"])
