"""SVG pictures of Lama Express positions (lamagames.express.svg, ExpressState._repr_svg_)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from lamagames.express import ExpressGame
from lamagames.express.svg import state_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_svg_shows_track_trains_stations_and_llamas() -> None:
    """E-2, E-3, E-7: 48 spaces in their colours, both trains, waiting counts, llamas in cars
    and on footpaths in their owners' colours, houses in the status lines."""
    game = ExpressGame(num_players=4)
    state = game.build_state(
        trains={"A": 10, "B": 30}, cars={"A3": 1}, footpaths={1: [0, 2]}, houses=[1, 0, 2, 0]
    )
    root = parse(state_svg(state, names=["Ann", "Bo", "Cy", "<Di>"]))
    spaces = by_class(root, "space")
    assert len(spaces) == 48
    assert [s.get("data-colour") for s in spaces[:6]] == list("ROYGBP")  # E-3 first block
    assert len(by_class(root, "locomotive")) == 2 and len(by_class(root, "car")) == 10
    loco_a = next(e for e in by_class(root, "locomotive") if e.get("data-train") == "A")
    assert loco_a.get("data-space") == "9"  # E-2: the locomotive is on tip - 1
    llamas = {e.get("data-where"): e.get("data-seat") for e in by_class(root, "llama")}
    assert llamas == {"A3": "1", "F1.0": "0", "F1.1": "2"}
    waiting = {e.get("data-colour"): e.get("data-waiting") for e in by_class(root, "station")}
    assert waiting == {"yellow": "2", "pink": "3", "green": "1", "blue": "4"}
    seats = [e.text or "" for e in by_class(root, "seat")]
    assert seats[2] == "Cy (green): 1 waiting, 2 home"
    assert seats[3].startswith("<Di> (blue)")  # escaped in the file, text again when parsed
    assert len(by_class(root, "arrow")) == 4


def test_repr_svg_is_the_state_picture_and_two_seat_games_grey_inert_stations() -> None:
    """E-4: stations without a player are drawn faded and show no count."""
    state = ExpressGame(num_players=2).new_initial_state()
    assert state._repr_svg_() == state_svg(state)
    root = parse(state._repr_svg_())
    stations = {e.get("data-colour"): e for e in by_class(root, "station")}
    assert stations["pink"].find(f"{NS}rect").get("opacity") == "0.35"  # type: ignore[union-attr]
    assert [e.text for e in by_class(root, "die")] == ["no roll yet"]


@pytest.mark.parametrize(
    ("kwargs", "needle"), [({"size": 50}, "size"), ({"names": ["A"]}, "names")]
)
def test_bad_options_are_refused(kwargs: dict[str, object], needle: str) -> None:
    state = ExpressGame(num_players=2).new_initial_state()
    with pytest.raises(ValueError, match=needle):
        state_svg(state, **kwargs)  # type: ignore[arg-type]
