"""The ``mtg-pipeline`` command line: wires the stages together; no logic of its own."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click

from pipeline.paths import DB_ENV, default_db_path

DB_OPTION = click.option(
    "--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help=f"Database file (default: ${DB_ENV}, else the platform data dir; see `mtg-pipeline paths`).",
)


def resolve_db(db: Path | None) -> Path:
    """``--db`` if given, else the default database path."""
    return db if db is not None else default_db_path()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mtg-pipeline")
def main() -> None:
    """mtg-pipeline: Magic: The Gathering card data → parsed abilities → DuckDB.

    Build a database with `mtg-pipeline refresh --source bundled`, then query it with
    `mtg-pipeline query "SQL"` or look at one card with `mtg-pipeline card NAME`.
    """


@contextmanager
def _progress(quiet: bool):
    if quiet:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True, console=None) as progress:
        def step(label: str, total: int):
            task = progress.add_task(label, total=total or None)
            return lambda n: progress.advance(task, n)
        yield step


@main.command()
@click.option("--source", "sources", multiple=True, default=["bundled"], show_default=True,
              help="'bundled' (the snapshot in data/), or a path: a Scryfall bulk card or rulings file "
                   "(JSON Lines or JSON array, plain or gzip), an MTGJSON file (AllPrintings, AtomicCards, "
                   "a set file) or a directory of MTGJSON set files. Repeat to combine (e.g. cards + rulings).")
@click.option("--rules", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Comprehensive Rules text file (plain or gzip). Default: the bundled rules with --source bundled.")
@DB_OPTION
@click.option("--force", is_flag=True, help="Rebuild even when the source version is unchanged.")
@click.option("--wait", type=float, default=0, show_default=True,
              help="Seconds to wait for another refresh of the same database to finish.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bars; print only the one-line summary (for cron).")
def refresh(sources, rules, db, force, wait, quiet):
    """Build or update the database from a source, atomically.

    Exit codes: 0 built or unchanged; 1 bad input or failed build (previous database untouched);
    75 another refresh holds the lock.
    """
    from pipeline.refresh import RefreshLocked, refresh as run_refresh
    from pipeline.sources.errors import SourceError

    db_path = resolve_db(db)
    try:
        with _progress(quiet) as step:
            outcome = run_refresh(list(sources), db_path, rules=rules, force=force, wait=wait, step=step)
    except RefreshLocked as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(75)
    except SourceError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if outcome.status == "unchanged":
        click.echo(f"unchanged: {db_path} already holds source version {outcome.source_version} "
                   f"(run {outcome.run_id}, {outcome.seconds:.1f}s); use --force to rebuild")
        return
    c = outcome.counts
    click.echo(f"built {db_path}: {c['cards']} cards, {c['faces']} faces, {c['abilities']} abilities, "
               f"{c['rulings']} rulings, {c['other_objects']} other objects; parsed {outcome.parsed} face texts; "
               f"source version {outcome.source_version}; {outcome.seconds:.1f}s")


@main.command()
@click.argument("sql")
@DB_OPTION
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="Bind a named parameter ($NAME in the SQL); never formatted into the SQL text.")
def query(sql, db, fmt, params):
    """Run SQL against the database (opened read-only) and print the result."""
    from pipeline.serve.query import DatabaseMissing, format_frame, run_query

    bound = {}
    for p in params:
        name, sep, value = p.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"expected NAME=VALUE, got {p!r}", param_hint="--param")
        bound[name] = value
    try:
        df = run_query(resolve_db(db), sql, bound)
    except DatabaseMissing as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # duckdb errors: one line for the user
        click.echo(f"error: {type(exc).__name__}: {str(exc).splitlines()[0]}", err=True)
        sys.exit(1)
    click.echo(format_frame(df, fmt))


@main.command()
def paths():
    """Print the default database path and download cache directory."""
    from pipeline.paths import default_cache_dir

    click.echo(f"database: {default_db_path()}")
    click.echo(f"cache:    {default_cache_dir()}")

main.add_command(__import__("pipeline.serve.cli_mana", fromlist=["check_mana"]).check_mana)  # check-mana (docs/mana.md)
