"""The Lama Express table for people on small terminals (issue 8): a compact layout that keeps
whose turn it is on an 80x24 screen, and a margin between the ring's cars and the text."""

from __future__ import annotations

from rich.console import Console

from lamagames.cli.express_view import ExpressView
from lamagames.core.records import SeatInfo
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.drawing import CELL_GAP, CELL_WIDTH, INFO_MARGIN
from lamagames.express.table import table_lines

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def _window_state() -> ExpressState:
    """Four players; a roll opened a window: Ann may board A3 and exit A4 (lap done)."""
    state = ExpressGame(num_players=4).build_state(trains={"A": 5}, cars={"B2": 1, "A4": 0})
    state.apply_action(state.string_to_action("roll O"))
    return state


def test_issue8_prompt_fits_an_80x24_terminal_with_the_turn_line() -> None:
    state = _window_state()
    console = Console(width=80, height=24, color_system=None, force_terminal=True)
    seats = [SeatInfo(name=n, kind="human") for n in NAMES]
    lines = console.render_lines(ExpressView().render_focus(state, seats, 0), pad=False)
    text = ["".join(seg.text for seg in line).rstrip() for line in lines]
    # Room is left for the menu (2 choices) and the prompt below the table.
    assert len(text) <= 24 - 4
    turn = [i for i, line in enumerate(text) if line.startswith("Turn: Ann (yellow)")]
    assert turn and any("Chances: Ann (yellow): board A3, exit A4" in t for t in text)
    assert any("A4:y*" in t for t in text)  # the cars are still drawn
    assert all(len(t) <= 80 for t in text)


def test_issue8_full_table_when_the_terminal_is_tall() -> None:
    state = _window_state()
    full = table_lines(state, NAMES, viewer=0, width=80)
    assert table_lines(state, NAMES, viewer=0, width=80, height=len(full)) == full
    compact = table_lines(state, NAMES, viewer=0, width=80, height=len(full) - 1)
    assert len(compact) < len(full) and compact[-2].startswith("Turn: Ann (yellow)")
    assert compact[-1].startswith("Chances: Ann (yellow): board A3, exit A4")


def test_issue8_car_markers_keep_a_margin_from_the_text_inside_the_ring() -> None:
    state = _window_state()
    lines = table_lines(state, NAMES, viewer=0, width=100)
    inside = [line for line in lines[2:-2] if len(line) > CELL_WIDTH + CELL_GAP + INFO_MARGIN]
    assert any(line.startswith("A4:y*") for line in inside)
    for line in inside:
        assert line[CELL_WIDTH : CELL_WIDTH + CELL_GAP + INFO_MARGIN].isspace(), line
