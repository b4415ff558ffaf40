"""``lama review``'s summary table at 60 columns (issue 19): a figure was cut (``43.…``)
and every header ended in ``…`` (``mov…``, ``cou…``) while the box lines took a quarter of
the width; now a table too wide for its boxes is drawn without the vertical lines and its
figures and headers whole."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from lamagames.cli.i18n import _, use_language
from lamagames.cli.review import summary_table
from lamagames.coach.review import review_record
from tests.coach.test_review_cli import dice_record


@pytest.mark.parametrize("language", ["en", "de", "fr", "nl", "it"])
@pytest.mark.parametrize("width", [60, 80])
def test_summary_table_keeps_figures_and_headers_whole(language: str, width: int) -> None:
    review = review_record(dice_record(), rollouts=16)
    use_language(language)
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, legacy_windows=False)
    console.print(summary_table(review, width))
    lines = out.getvalue().splitlines()
    text = "\n".join(lines)
    assert max(len(line) for line in lines) <= width, text
    assert "…" not in text, text
    for name in (_("moves"), _("lost"), _("per move"), _("acc")):
        assert name in text, (name, text)
    for seat in review.seats:
        assert f"{seat.total_loss:.2f}" in text and f"{seat.mean_loss:.2f}" in text, text
