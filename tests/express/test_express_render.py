"""Text rendering of Lama Express positions (pure functions; E-2 trains, E-3 board)."""

from __future__ import annotations

from rich.text import Text

from lamagames.express import ExpressGame
from lamagames.express.drawing import ring_positions
from lamagames.express.render import board_lines, board_text

from .conftest import Runner


def test_e3_ring_positions_cover_the_track_once() -> None:
    for length in (16, 17, 20, 48, 51, 100):
        cells = ring_positions(length)
        assert len(cells) == len(set(cells)) == length
        assert cells[0] == (0, 0)
    cells = ring_positions(48)
    assert [cells[k] for k in (0, 12, 24, 36)] == [(0, 0), (0, 12), (12, 12), (12, 0)]


def test_e2_e3_standard_board_text(std4: ExpressGame, run: Runner) -> None:
    state = std4.build_state(trains={"A": 9, "B": 21}, cars={"A1": 2, "B1": 1}, footpaths={1: [0]})
    run(state, "roll O")
    lines = board_lines(state)
    text = "\n".join(lines)
    assert lines[0].startswith("R@  0 O   1 Y   2 G<  3")
    assert lines[1].split() == ["A5:.", "A4:.", "A3:.", "A2:.", "A1:g", "A:##", "A:>>"]
    assert "B1:p" in text and "B:>>" in text
    assert "Die: O orange" in text
    assert "Window after_roll: asking seat 0" in text
    assert "@0   yellow seat 0 wait 3 home 0  x 45 46 47" in text
    assert "^18 -> <15  [y . .] front first" in text
    for space in range(48):
        assert f"{space:>3}" in text
    assert max(len(line) for line in lines) <= 80


def test_e3_small_board_lists_info_below_the_ring(tiny2: ExpressGame) -> None:
    lines = board_lines(tiny2.new_initial_state())
    assert lines[0].startswith("R@  0 O^  1")
    assert "Seat 0 rolls the die" in lines
    assert "@5   pink   (no player)  x 2 3 4" in lines


def test_e10_rich_text_matches_plain_lines(std2: ExpressGame) -> None:
    state = std2.build_state(trains={"A": 2}, cars={"A1": 0}, houses=[3, 0])
    state.apply_action(1)
    state.apply_action(state.string_to_action("exit A1"))
    rich = board_text(state)
    assert isinstance(rich, Text)
    assert rich.plain == "\n".join(board_lines(state))
    assert "Game over: winner seat 0 yellow" in rich.plain
    assert any(span.style for span in rich.spans)
