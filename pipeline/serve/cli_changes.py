"""``mtg-pipeline changes``: what refreshes changed (the ``card_changes`` changelog, pipeline/store/changes.py).

The SQL is built from fixed fragments; every user value (run id, date, change kinds) is bound
as a parameter, and the query runs through :func:`pipeline.serve.query.query_result` (read-only,
no external access).
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import click

from pipeline.paths import DB_ENV, default_db_path
from pipeline.store.changes import CHANGE_KINDS

#: Columns printed for card changes and for ability changes (``--abilities``).
CARD_COLUMNS = ("run_id", "changed_at", "name", "change", "cause", "face_index", "detail", "old_value", "new_value")
ABILITY_COLUMNS = ("run_id", "changed_at", "name", "face_index", "change", "old_index", "new_index", "old_kind",
                   "new_kind", "old_text", "new_text", "is_mana_ability")


def changes_sql(*, run: int | None, since: date | None, kinds: tuple[str, ...], abilities: bool
                ) -> tuple[str, dict[str, object]]:
    """The SQL and parameters listing changes of run ``run``, or of runs finished on or after ``since``
    (UTC date), or else of the latest successful build; restricted to ``kinds`` when given
    (card changes only). ``abilities`` lists ``ability_changes`` rows instead."""
    params: dict[str, object] = {}
    if run is not None:
        where = ["c.run_id = $run"]
        params["run"] = run
    elif since is not None:
        where = ["r.finished_at >= $since"]
        params["since"] = since.isoformat()
    else:
        where = ["c.run_id = (SELECT max(run_id) FROM runs WHERE status = 'ok')"]
    if abilities:
        select = ("SELECT c.run_id, r.finished_at AS changed_at, k.name, c.face_index, c.change, c.old_index, "
                  "c.new_index, c.old_kind, c.new_kind, c.old_text, c.new_text, c.is_mana_ability "
                  "FROM ability_changes c LEFT JOIN runs r USING (run_id) LEFT JOIN cards k USING (oracle_id)")
        order = "ORDER BY c.run_id, k.name, c.face_index, coalesce(c.new_index, c.old_index)"
    else:
        if kinds:
            where.append("list_contains($kinds, c.change)")
            params["kinds"] = list(kinds)
        select = ("SELECT c.run_id, r.finished_at AS changed_at, c.name, c.change, c.cause, c.face_index, c.detail, "
                  "c.old_value, c.new_value FROM card_changes c LEFT JOIN runs r USING (run_id)")
        order = "ORDER BY c.run_id, c.name, c.change, c.face_index, c.detail"
    return f"{select} WHERE {' AND '.join(where)} {order}", params


@click.command("changes")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Database file (default: ${DB_ENV}, else the platform data dir).")
@click.option("--run", "run", type=click.IntRange(1), default=None, help="Changes made by this run (runs.run_id).")
@click.option("--since", "since", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Changes made by runs finished on or after this date (YYYY-MM-DD, UTC).")
@click.option("--change", "kinds", multiple=True, type=click.Choice(CHANGE_KINDS),
              help="Only these kinds of change (repeat for several).")
@click.option("--abilities", is_flag=True, help="List the abilities that errata added, removed or changed instead.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
def changes_command(db, run, since, kinds, abilities, fmt):
    """What refreshes changed: cards added and removed, Oracle errata, new type lines, mana costs,
    legality changes, and abilities or produced mana that a new grammar version reads differently.

    Without --run or --since: the changes of the latest successful build. A first build records
    no changes unless it ran with `refresh --changes-on-first-build`. The rows come from the
    `card_changes` table (`ability_changes` with --abilities), documented in docs/schema.md.
    """
    from pipeline.serve.formats import print_result
    from pipeline.serve.query import DatabaseMissing, QueryRefused, query_result
    from pipeline.store.runs import DatabaseBusy
    from pipeline.store.versions import DatabaseUnusable

    if run is not None and since is not None:
        raise click.UsageError("give --run or --since, not both")
    if abilities and kinds:
        raise click.UsageError("--change selects card changes; it does not go with --abilities")
    sql, params = changes_sql(run=run, since=since.date() if since else None, kinds=tuple(kinds),
                              abilities=abilities)
    db_path = db if db is not None else default_db_path()
    try:
        with query_result(db_path, sql, params) as result:
            print_result(result.relation, fmt)
    except (DatabaseMissing, QueryRefused, DatabaseUnusable, DatabaseBusy) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # a database from before the changelog: one line for the user
        click.echo(f"error: {db_path}: {type(exc).__name__}: {str(exc).splitlines()[0]}", err=True)
        sys.exit(1)
