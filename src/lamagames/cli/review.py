"""``lama review RECORD``: what every decision of a recorded game cost (any game whose spec
has a ``review`` extra: LAMA Dice and Lama Express).

A thin layer over :mod:`lamagames.coach.review` (the library the web app can call too):
by default each seat's totals and, in plain words, every marked decision; ``--details``
adds the table of every decision with its values, standard error and basis; ``--json``
writes every decision and the totals; ``--plot`` the chart (:mod:`lamagames.coach.chart`).

Exit codes: 0 done; 2 bad input, one ``Error:`` line (not a record, unknown game or
format version, a record that does not replay, ``--player`` out of range, a bad ``--plot``
name) or an unfinished record (reviewed up to its end first, then said so); 1 an output
file could not be written; 130 interrupted (Ctrl-C) before any output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from lamagames.cli.common import fail, output_path, progress_bar, stderr, stdout, write_json
from lamagames.cli.i18n import LANG_HELP, _, ngettext, translator_now, use_language
from lamagames.coach.chart import chart_format, write_chart
from lamagames.coach.review import MARK_Z, Decision, Review, load_reviewer, review_record
from lamagames.core.errors import LamaError, RecordError
from lamagames.core.extras import require
from lamagames.core.files import read_json_file
from lamagames.core.i18n import mark as _mark
from lamagames.core.records import validate_record

MARK_STYLES = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}
#: The marks' names for people (message ids; the ``--json`` values stay these English
#: identifiers in every language). The web catalogs' ``review.mark.*`` say the same.
MARK_NAMES = {"inaccuracy": _mark("inaccuracy"), "mistake": _mark("mistake"),
              "blunder": _mark("blunder")}  # fmt: skip


def mark_name(mark: str | None) -> str:
    """A mark's name in the terminal's language (``""`` for none)."""
    return "" if mark is None else _(MARK_NAMES.get(mark, mark))


def _number(value: float | None, unit: str, *, signed: bool = False) -> str:
    if value is None:
        return "-"
    if unit == "win chance":
        return f"{100 * value:+.1f}%" if signed else f"{100 * value:.1f}%"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def summary_table(review: Review, width: int | None = None) -> Table:
    """Per seat: decisions, marks, total and mean loss, accuracy (in the terminal's
    language). ``width``: the terminal's width in columns; a table too wide for it in its
    boxes is drawn without the vertical lines (as the details table), and a figure is
    never cut (``43.…`` at 60 columns): the headers and the seats' names end in ``…``
    first."""
    if review.unit == "points":
        title = _("{game} review: points lost per seat")
    else:
        title = _("{game} review: win chance lost per seat")
    rows = [
        (
            f"{s.seat + 1} {s.name}",
            str(s.decisions),
            str(s.inaccuracies),
            str(s.mistakes),
            str(s.blunders),
            _number(s.total_loss, review.unit),
            _number(s.mean_loss, review.unit),
            "-" if s.accuracy is None else f"{s.accuracy:.0f}%",
        )
        for s in review.seats
    ]
    headers = ((_("seat"), "left"), (_("moves"), "right"), (_("inacc"), "right"),
               (_("mist"), "right"), (_("blund"), "right"), (_("lost"), "right"),
               (_("per move"), "right"), (_("acc"), "right"))  # fmt: skip
    widths = [
        max(len(name), *(len(row[column]) for row in rows))
        for column, (name, _justify) in enumerate(headers)
    ]
    natural = sum(widths)
    fixed = width is not None and natural + len(headers) - 1 <= width
    if width is None or natural + 3 * len(headers) + 1 <= width:
        table = Table(title=title.format(game=review.title))
    else:  # no vertical lines
        table = Table(
            title=title.format(game=review.title),
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            # the box's blank between columns, and one more where it fits (not Dutch at 60)
            padding=(0, 1, 0, 0) if natural + 2 * (len(headers) - 1) <= width else (0, 0),
        )
    for column, (name, justify) in enumerate(headers):
        least = 3 if column == 0 else max((len(row[column]) for row in rows), default=1)
        table.add_column(
            name,
            justify=justify,  # type: ignore[arg-type]
            no_wrap=True,
            min_width=least,
            width=widths[column] if fixed else None,  # whole when they fit (Rich cut them)
        )
    for row in rows:
        table.add_row(Text(row[0]), *row[1:])  # a name is text, never Rich markup
    return table


def details_table(review: Review) -> Table:
    """Every decision: record index, seat, action played and its value, the best action and
    its value, the loss (± its standard error when estimated), the mark and whether the
    values are exact (the full basis is in ``--json``)."""
    table = Table(
        title=_("Every decision (values: higher is better)"),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
    )  # fits 80 columns
    for name, right, wrap in (("#", True, False), (_("seat"), True, False),
                              (_("played"), False, True), (_("value"), True, False),
                              (_("best"), False, True), (_("value"), True, False),
                              (_("loss"), True, False), (_("mark"), False, False),
                              (_("how"), False, False)):  # fmt: skip
        table.add_column(name, justify="right" if right else "left", no_wrap=not wrap,
                         min_width=len(name))  # fmt: skip
    signed = review.unit == "points"
    for d in review.decisions:
        loss = _number(d.loss, review.unit)
        if d.stderr is not None:
            loss += f" ±{_number(d.stderr, review.unit)}"
        table.add_row(
            str(d.index),
            str(d.seat + 1),
            d.action,
            _number(d.value, review.unit, signed=signed),
            d.best,
            _number(d.best_value, review.unit, signed=signed),
            loss,
            Text(mark_name(d.mark), style=MARK_STYLES.get(d.mark or "", "")),
            _("exact") if d.exact else _("est."),
        )
    return table


def marked_lines(review: Review, you: int | None = None) -> list[Text]:
    """Every marked decision in plain words, in the terminal's language: ``action 34, Ada
    (seat 1): quit. You lost about 6 points here: rolling was better. (blunder)`` (the
    action in the records' notation, as ``lama play`` shows it).

    "You" is only the seat ``you`` (0-based; ``lama review --player N``); the other seats'
    decisions name the seat's player: ``Bot 2 lost about 6 points here`` (a review of every
    seat said "You lost" about the bots' moves too, issue 19)."""
    out = []
    tr = translator_now()
    for d in review.decisions:
        if d.mark is None:
            continue
        name = review.names[d.seat]
        head = _("action {index}, {name} (seat {seat}): {action}. ").format(
            index=d.index, name=name, seat=d.seat + 1, action=d.action
        )
        line = Text(head)
        line.append(review.words_in(d, tr, who=None if d.seat == you else name) + " ")
        mark = mark_name(d.mark)
        tag = f"({mark})" if d.exact else _("({mark}, estimated)").format(mark=mark)
        line.append(tag, MARK_STYLES[d.mark])
        out.append(line)
    return out


def legend(review: Review, *, details: bool = False) -> list[str]:
    """How values, marks and accuracy are defined, for the output's foot (with ``details``:
    also the table's ``how`` column), in the terminal's language."""
    t = review.thresholds
    if review.unit == "points":
        what = _("Values: expected points of the round, your opponents' minus yours "
                 "(higher is better).")  # fmt: skip
        marks = _("{inaccuracy} / {mistake} / {blunder} points").format(
            inaccuracy=f"{t.inaccuracy:g}", mistake=f"{t.mistake:g}", blunder=f"{t.blunder:g}"
        )
    else:
        what = _("Values: chance to win the game (higher is better).")
        marks = _("{inaccuracy} / {mistake} / {blunder} percentage points of win chance").format(
            inaccuracy=f"{100 * t.inaccuracy:g}",
            mistake=f"{100 * t.mistake:g}",
            blunder=f"{100 * t.blunder:g}",
        )
    columns = _(
        "inacc / mist / blund: inaccuracies, mistakes, blunders; acc (accuracy): the share "
        "of a seat's decisions without a mark."
    )
    if details:
        columns += " " + _(
            "how: exact (solved) or est. (estimated by rollouts, ± one standard error)."
        )
    names = " / ".join(mark_name(m) for m in ("inaccuracy", "mistake", "blunder"))
    rule = _(
        "Marks: {names} from a loss of {marks}. Estimated losses below {z} standard errors "
        "cannot be told from noise and count as 0."
    ).format(names=names, marks=marks, z=f"{MARK_Z:g}")
    return [
        what,
        rule,
        columns,
    ]


def review_command(
    record_file: Annotated[
        str, typer.Argument(metavar="RECORD", help="A game record (.lamarec.json).")
    ],
    player: Annotated[
        int | None,
        typer.Option("--player", metavar="N", help="Review seat N only (from 1)."),
    ] = None,
    json_file: Annotated[
        str | None,
        typer.Option("--json", metavar="FILE", help="Write every decision and the totals."),
    ] = None,
    plot: Annotated[
        str | None,
        typer.Option("--plot", metavar="FILE", help="Chart of each seat's value (.png/.svg)."),
    ] = None,
    details: Annotated[
        bool, typer.Option("--details", help="Every decision with its values and basis.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the rollouts.")] = 0,
    rollouts: Annotated[
        int | None,
        typer.Option(
            "--rollouts",
            min=1,
            max=100_000,
            metavar="N",
            help="Simulations per action where values are estimated.",
        ),
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)] = None,
) -> None:
    """Review a recorded game: what each decision cost, marked inaccuracy, mistake or
    blunder (LAMA Dice: expected points, Lama Express: win chance)."""
    use_language(lang)  # --lang, else lama --lang, else the locale; --json stays English
    if not record_file.strip():
        fail("no file name given")
    json_path = output_path(json_file, "--json")
    plot_path = output_path(plot, "--plot")
    for option, path in (("--json", json_path), ("--plot", plot_path)):
        if path is not None and _same_file(path, Path(record_file)):
            fail(f"{option} {path}: that is the record itself; choose another file name")
    if json_path is not None and plot_path is not None and _same_file(json_path, plot_path):
        fail(f"--json and --plot name the same file {plot_path}; choose two file names")
    try:
        if plot_path is not None:
            chart_format(plot_path)
            require("--plot", ("matplotlib",), "sim")
        record = validate_record(read_json_file(Path(record_file), RecordError))
        load_reviewer(record.game)  # a game without reviews fails before the replay
    except LamaError as exc:
        fail(f"{record_file}: {exc}")
    err = stderr()
    try:
        with progress_bar("Reviewing", err) as bar:
            task = bar.add_task("review", total=len(record.actions))
            review = review_record(
                record,
                player=None if player is None else player - 1,
                seed=seed,
                rollouts=rollouts,
                progress=lambda done, _total: bar.update(task, completed=done),
            )
    except LamaError as exc:
        fail(f"{record_file}: {exc}")
    except KeyboardInterrupt:
        fail("the review was interrupted; nothing was written", code=130)
    # The files first: a reader that stops early (``| head``) must not cost them.
    if json_path is not None:
        write_json(json_path, review.to_json())
    if plot_path is not None:
        try:
            write_chart(review, plot_path)
        except LamaError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write {plot_path}: {exc}", code=1)
    out = stdout()
    out.print(summary_table(review, out.width))
    marked = marked_lines(review, None if player is None else player - 1)
    for text in marked:
        out.print(text)
    if not marked:
        out.print(_("No marked decisions."))
    if details:
        out.print(details_table(review))
    for line in legend(review, details=details):
        out.print(Text(line, style="grey50"))
    if not review.finished:
        reviewed = ngettext(
            "the game is unfinished: reviewed its {n} action up to the end of the record",
            "the game is unfinished: reviewed its {n} actions up to the end of the record",
            review.actions,
        ).format(n=review.actions)
        fail(f"{record_file}: {reviewed}")


def _same_file(path: Path, other: Path) -> bool:
    """Whether ``path`` names the file ``other`` (the same absolute path, or both existing
    and one file)."""
    try:
        return path.resolve() == other.resolve() or path.samefile(other)
    except OSError:  # one of them does not exist: not the same file
        return False


__all__ = ["Decision", "review_command"]
