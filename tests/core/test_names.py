"""Display names: one rule for records, the terminal and the web app (a name the web app
accepts must be storable in a record, so the replay and download of its table work)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from lamagames.core.names import refused_character
from lamagames.core.records import SeatInfo
from lamagames.web.schemas import _clean_name

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
RAINBOW_FLAG = "\U0001f3f3\ufe0f\u200d\U0001f308 Flag"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"

ACCEPTED = ["Ann", "Zoë", FAMILY, "Bea" + FAMILY, RAINBOW_FLAG, ENGLAND]
REFUSED = ["Ann\u202e", "Ann\u200d", "\u200dAnn", "x\u200by", "bell\x07", "two\u2028lines"]


@pytest.mark.parametrize("name", ACCEPTED)
def test_emoji_names_are_accepted_by_records_and_the_web(name: str) -> None:
    assert refused_character(name) is None
    assert SeatInfo(name=name, kind="human").name == name
    assert _clean_name(name) == name


@pytest.mark.parametrize("name", REFUSED)
def test_control_and_invisible_characters_are_refused_everywhere(name: str) -> None:
    assert refused_character(name) is not None
    with pytest.raises(ValidationError, match="control character"):
        SeatInfo(name=name, kind="human")
    with pytest.raises(ValueError, match="control or text-direction"):
        _clean_name(name)
