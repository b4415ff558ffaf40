"""``lama lease CODE --db URL``: which ``lama serve`` worker owns a table now (PostgreSQL).

It asks PostgreSQL itself (``pg_locks`` and ``pg_stat_activity``), so the answer is the
lease as it is, not a process's belief: the worker's host and process id (from its lock
connection's ``application_name``, :data:`lamagames.web.cluster.LEASE_APP`), the
PostgreSQL backend and since when. It needs the database URL, so only those who may read
the database can ask; the web app shows none of it.

Exit codes: 0 a process holds the lease, 1 nobody holds it now, 2 bad arguments, an unknown
table or an unreachable database.
"""

from __future__ import annotations

from typing import Annotated

import typer

from lamagames.cli.common import fail, stdout


def lease(
    code: Annotated[str, typer.Argument(help="The table's code (as in its address /t/CODE).")],
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="The PostgreSQL URL the servers use (env LAMA_DB).",
            envvar="LAMA_DB",
        ),
    ] = None,
) -> None:
    """Show which lama serve worker owns a table now (host, pid, since when).

    Several lama serve processes on PostgreSQL share the tables: each live table has one
    owning process, the one holding its lease (docs/deploy.md).
    """
    from lamagames.cli.serve import database_error, missing_driver, shown_url
    from lamagames.web.cluster import lease_holder
    from lamagames.web.store import normalise_url

    if not db or not normalise_url(db).startswith("postgresql"):
        fail("--db needs the PostgreSQL URL of the servers (leases exist only on PostgreSQL)")
    url = normalise_url(db)
    try:
        holder = lease_holder(url, code)
    except LookupError as exc:
        fail(f"{exc} ({shown_url(url)})")
    except ImportError as exc:
        fail(f"cannot read the database {shown_url(url)!r}: {missing_driver(exc)}")
    except Exception as exc:  # the driver's errors: one line, no password
        fail(f"cannot read the database {shown_url(url)!r}: {database_error(exc, url)}")
    out = stdout()
    if holder is None:
        out.print(
            f"table {code}: no lease held: no process serves it now (a worker takes it over "
            "within seconds if it is playing or somebody opens it)"
        )
        raise typer.Exit(1)
    worker = (
        f"worker pid {holder.worker_pid} on host {holder.worker_host}"
        if holder.worker_pid is not None
        else "a process without a lama-lease name (an older server)"
    )
    where = holder.client_addr or "a local socket"
    out.print(
        f"table {code}: lease held by {worker} (PostgreSQL backend {holder.backend_pid} "
        f"from {where}, connected since {holder.since})"
    )
