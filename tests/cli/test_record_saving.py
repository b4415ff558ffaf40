"""A played game's record is never lost: an unwritable path falls back to the temporary
folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from lamagames.core.records import load_record

Lama = Callable[..., Result]


def test_an_unwritable_record_file_falls_back_to_the_temp_folder(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    import lamagames.cli.session as session
    from lamagames.core.records import save_record as real_save

    target = tmp_path / "deny.lamarec.json"

    def refuse_target(record: object, path: Path) -> None:
        if Path(path) == target:
            raise PermissionError(13, "Permission denied")
        real_save(record, path)  # type: ignore[arg-type]

    monkeypatch.setattr(session, "save_record", refuse_target)
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    result = lama(
        "play", "dice", "--seats", "human,random", "--seed", "2", "--delay", "0",
        "--record", str(target), input="1\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Permission denied" in result.stdout
    assert load_record(tmp_path / "tmp" / target.name).game == "dice"
