"""The example notebook ``notebooks/simulate.ipynb`` runs from top to bottom (nbclient)."""

from __future__ import annotations

from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "simulate.ipynb"


def test_simulate_notebook_runs_and_shows_the_summary_table() -> None:
    import nbclient  # the dev extra installs both: missing, the test fails instead of skipping
    import nbformat
    notebook = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3").execute(
        cwd=str(NOTEBOOK.parent)
    )
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    table = code[0].outputs[0]["data"]["text/html"]
    assert "Win share" in table
    assert "3p to 40" in table
    assert "image/png" in code[2].outputs[0]["data"]
