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


def version_text() -> str:
    """``mtg-pipeline <package version> (grammar <GRAMMAR_VERSION, the version every AST records>,
    schema <SCHEMA_VERSION>)``."""
    from pipeline import __version__
    from pipeline.parse.grammar import parse_version
    from pipeline.store.schema import SCHEMA_VERSION

    return f"mtg-pipeline {__version__} (grammar {parse_version()}, schema {SCHEMA_VERSION})"


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version_text())
        ctx.exit()


#: Exit code of a temporary failure (another refresh holds the lock, the database is busy): EX_TEMPFAIL.
EXIT_BUSY = 75


class _OneErrorPath(click.Group):
    """The one error path of every command: an expected failure becomes one ``error:`` line on stderr
    and a documented exit code (1; 75 when another process holds the lock or the database), never a
    traceback (docs/reliability.md § One error path). Commands may report their own errors first;
    this catches what they let through.
    """

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.UsageError, SystemExit, KeyboardInterrupt):
            raise  # Ctrl-C: click prints 'Aborted!' and exits 1 (the refresh records the run as failed)
        except click.ClickException as exc:  # a command's own one-line failure: same 'error:' form
            click.echo(f"error: {exc.format_message().splitlines()[0] if exc.format_message() else ''}", err=True)
            sys.exit(exc.exit_code)
        except Exception as exc:  # noqa: BLE001 — turned into one line below, or re-raised
            code, message = _expected_failure(exc)
            if code is None:
                raise
            from pipeline.serve.terminal import safe_cell

            click.echo(f"error: {safe_cell(message)}", err=True)
            sys.exit(code)


def _expected_failure(exc: BaseException) -> tuple[int | None, str]:
    """(exit code, one-line message) for an expected failure; (None, '') for a bug (re-raised)."""
    import duckdb

    from pipeline.serve.query import DatabaseMissing, QueryRefused
    from pipeline.serve.outputs import OutputRefused
    from pipeline.sources.errors import SourceError
    from pipeline.store.runs import DatabaseBusy
    from pipeline.store.versions import DatabaseUnusable

    first = (str(exc).splitlines() or [""])[0]
    if isinstance(exc, DatabaseBusy) or type(exc).__name__ == "RefreshLocked":
        return EXIT_BUSY, first
    if isinstance(exc, (SourceError, DatabaseUnusable, DatabaseMissing, QueryRefused, OutputRefused,
                        FileNotFoundError, LookupError)):
        return 1, first
    if isinstance(exc, duckdb.Error):
        return 1, f"{type(exc).__name__}: {first}"
    if isinstance(exc, MemoryError):
        return 1, "out of memory; narrow the input or the query"
    if isinstance(exc, OSError):  # disk full, file too large, permission denied, …
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return 1, f"{where}{exc.strerror or first or type(exc).__name__}"
    if isinstance(exc, RecursionError):
        return 1, "input nested too deeply"
    return None, ""


class _LazyGroup(_OneErrorPath):
    """A group whose commands from other modules are imported only when run or listed, so that
    ``refresh`` (run daily, often "unchanged") does not import the card page, parse and mana code."""

    LAZY = {  # command name → (module, attribute)
        "card": ("pipeline.serve.card_page", "card_command"),           # card NAME (docs/annotate.md)
        "changes": ("pipeline.serve.cli_changes", "changes_command"),   # changes (card_changes, pipeline/store/changes.py)
        "check-mana": ("pipeline.serve.cli_mana", "check_mana"),        # check-mana (docs/mana.md)
        "parse": ("pipeline.serve.cli_parse", "parse_command"),         # parse TEXT / --jsonl FILE (docs/ast.md)
        "coverage": ("pipeline.serve.cli_parse", "coverage_command"),   # coverage (docs/ast.md)
    }

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            import importlib
            module, attr = self.LAZY[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Print the package version, the grammar version and the database schema version, then exit.")
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
              help="'bundled' (the snapshot in data/), 'scryfall' (download Scryfall's bulk data), or a path: a Scryfall bulk card or rulings file "
                   "(JSON Lines or JSON array, plain or gzip), an MTGJSON file (AllPrintings, AtomicCards, "
                   "a set file) or a directory of MTGJSON set files. Repeat to combine (e.g. cards + rulings).")
@click.option("--rules", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Comprehensive Rules text file (plain or gzip). Default: the CR the package bundles "
                   "(with --source scryfall: the --rules-url download, else the bundled CR).")
@click.option("--no-rules", is_flag=True, help="Build no annotation tables (rules, ruling_rules, card_rules, …).")
@DB_OPTION
@click.option("--force", is_flag=True, help="Rebuild even when the source version is unchanged.")
@click.option("--wait", type=float, default=0, show_default=True,
              help="Seconds to wait for another refresh of the same database to finish.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bars; print only the one-line summary (for cron).")
@click.option("--strict", is_flag=True,
              help="Fail (exit 1, database untouched) when any record fails validation, instead of quarantining "
                   "it in the data_quality table (docs/reliability.md § Quarantine).")
@click.option("--changes-on-first-build", "record_initial", is_flag=True,
              help="On the first build of this database, record every card as 'added' in card_changes "
                   "(by default a first build records no changes; see `mtg-pipeline changes`).")
@click.option("--jobs", "-j", type=click.IntRange(1), default=None,
              help="Worker processes parsing the face texts not in the parse cache (default: one per CPU, "
                   "at most 4; 1 parses in this process). The database is the same for any value.")
# Download options, used with --source scryfall (see docs/scheduling.md).
@click.option("--bulk-type", default="oracle_cards", show_default=True, envvar="MTG_PIPELINE_BULK_TYPE",
              type=click.Choice(["oracle_cards", "default_cards", "all_cards", "unique_artwork", "rulings"]),
              help="With --source scryfall: the card bulk file to download (the rulings file is fetched too), "
                   "or 'rulings' alone.")
@click.option("--rules-url", default="https://media.wizards.com/2026/downloads/MagicCompRules%2020260227.txt",
              show_default=True, envvar="MTG_PIPELINE_RULES_URL",
              help="With --source scryfall: Comprehensive Rules .txt to download (at most daily); "
                   "--rules PATH reads a local file instead; '' for none (the bundled CR is used then).")
@click.option("--api-url", default="https://api.scryfall.com/bulk-data", show_default=True,
              envvar="MTG_PIPELINE_API_URL", help="With --source scryfall: the bulk-data list (a mirror needs --allow-host).")
@click.option("--allow-host", "allow_hosts", multiple=True, envvar="MTG_PIPELINE_ALLOW_HOSTS",
              help="Also download from this host, over https or plain http (a mirror or a test server). "
                   "Repeatable; the env var takes a space-separated list.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Download cache (default: $MTG_PIPELINE_CACHE, else the platform cache dir).")
@click.option("--max-bytes", type=click.IntRange(1), default=8 << 30, show_default=True,
              envvar="MTG_PIPELINE_MAX_BYTES", help="Refuse a download whose decompressed size exceeds this.")
@click.option("--retries", type=click.IntRange(0), default=4, show_default=True, envvar="MTG_PIPELINE_RETRIES",
              help="Retries after a connection error, timeout, HTTP 5xx or 429.")
@click.option("--backoff", type=click.FloatRange(0), default=2.0, show_default=True, envvar="MTG_PIPELINE_BACKOFF",
              help="Seconds before the first retry, doubled for each next one (a 429's Retry-After wins).")
@click.option("--timeout", type=click.FloatRange(0, min_open=True), default=60.0, show_default=True,
              envvar="MTG_PIPELINE_TIMEOUT", help="Read timeout of a download, seconds (connect timeout: 10 s).")
@click.option("--deadline", type=click.FloatRange(0, min_open=True), default=1800.0, show_default=True,
              envvar="MTG_PIPELINE_DEADLINE",
              help="Most seconds one download may take, retries included; all downloads of the refresh "
                   "together may take 2x this.")
@click.option("--max-time", "max_time", type=click.FloatRange(0, min_open=True), default=None,
              envvar="MTG_PIPELINE_MAX_TIME",
              help="Most seconds the whole refresh may take (download, build, swap); past it the refresh "
                   "stops, exit 1, previous database untouched. Default: no limit.")
def refresh(sources, rules, no_rules, db, force, wait, quiet, strict, record_initial, jobs, bulk_type, rules_url, api_url,
            allow_hosts, cache_dir, max_bytes, retries, backoff, timeout, deadline, max_time):
    """Build or update the database from a source, atomically.

    `--source scryfall` downloads Scryfall's bulk data (cards + rulings) and the Comprehensive
    Rules into the cache and does nothing when Scryfall's `updated_at` is that of the last build.

    A record whose fields have the wrong type is quarantined: left out (its previous version kept
    if the database had the card), listed in the data_quality table and counted in the summary;
    the refresh still exits 0 unless --strict.
    The summary line ends with the changes the build recorded, by kind (`mtg-pipeline changes`
    lists them).

    Exit codes: 0 built or unchanged; 1 bad input, failed download or failed build (previous
    database untouched), a quarantine under --strict, or a database of another schema version without --force; 75 another
    refresh holds the lock (or another process keeps the database open for writing).
    """
    from pipeline.refresh import RefreshLocked, refresh as run_refresh
    from pipeline.sources.errors import SourceError
    from pipeline.store.runs import DatabaseBusy
    from pipeline.store.versions import DatabaseUnusable

    db_path = resolve_db(db)
    remote = None
    if "scryfall" in sources:
        if len(sources) > 1:
            raise click.BadParameter("'scryfall' cannot be combined with other sources", param_hint="--source")
        from pipeline.paths import default_cache_dir
        from pipeline.sources.http import Fetcher, HttpConfig
        from pipeline.sources.scryfall_api import ScryfallSource

        config = HttpConfig(retries=retries, backoff=backoff, read_timeout=timeout, max_bytes=max_bytes,
                            download_deadline=deadline, total_deadline=2 * deadline,
                            extra_hosts=tuple(h for a in allow_hosts for h in a.replace(",", " ").split()))
        remote = ScryfallSource(Fetcher(config), cache_dir or default_cache_dir(), bulk_type=bulk_type,
                                api_url=api_url, rules_path=None if no_rules else rules,
                                rules_url=None if no_rules else (rules_url or None), force=force,
                                warn=lambda message: click.echo(message, err=True))
        sources, rules = (), None
    from pipeline.deadline import refresh_deadline

    try:
        with refresh_deadline(max_time, str(db_path)), _progress(quiet) as step:
            outcome = run_refresh(list(sources), db_path, rules=None if no_rules else rules, no_rules=no_rules,
                                  force=force, wait=wait, step=step, remote=remote, strict=strict,
                                  record_initial=record_initial, jobs=jobs)
    except (RefreshLocked, DatabaseBusy) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(75)
    except (SourceError, DatabaseUnusable) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    finally:
        if remote is not None:
            remote.fetcher.close()
    for note in outcome.notes:
        click.echo(f"note: {note}", err=True)
    if outcome.status == "unchanged":
        click.echo(f"unchanged: {db_path} already holds source version {outcome.source_version} "
                   f"(run {outcome.run_id}, {outcome.seconds:.1f}s); use --force to rebuild")
        return
    c = outcome.counts
    click.echo(f"built {db_path}: {c['cards']} cards, {c['faces']} faces, {c['abilities']} abilities, "
               f"{c['rulings']} rulings, {c['other_objects']} other objects; parsed {outcome.parsed} face texts; "
               + (f"incremental: rebuilt {len(outcome.rebuilt_ids)} oracle ids; " if outcome.rebuilt_ids is not None else "")
               + f"source version {outcome.source_version}; {outcome.seconds:.1f}s"
               + _quarantine_summary(c) + "; " + _changes_summary(outcome.changes))


def _quarantine_summary(counts: dict[str, int]) -> str:
    """'; N records quarantined (K kept from the previous database; see data_quality)' or ''."""
    n = counts.get("quarantined", 0)
    if not n:
        return ""
    kept = counts.get("kept_previous", 0)
    return (f"; {n} record{'s' if n != 1 else ''} quarantined"
            + (f" ({kept} card{'s' if kept != 1 else ''} kept from the previous database)" if kept else "")
            + " — see the data_quality table")


def _changes_summary(changes: dict[str, int]) -> str:
    """'changes: 3 added, 12 oracle_text' (kinds in changelog order), or 'no changes recorded'."""
    from pipeline.store.changes import CHANGE_KINDS

    if not changes:
        return "no changes recorded"
    return "changes: " + ", ".join(f"{changes[k]} {k}" for k in CHANGE_KINDS if changes.get(k))


@main.command()
@click.argument("sql")
@DB_OPTION
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]), default="table",
              show_default=True,
              help="Output format: table (NULL printed as NULL), csv (DuckDB's CSV writer; lists and structs as JSON "
                   "text per cell, NULL an empty field), json (an array of rows with native lists), parquet (each "
                   "column's database comment as field metadata 'description'; needs --output).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the result to this file instead of printing it (required for parquet).")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="Bind a named parameter ($NAME in the SQL); never formatted into the SQL text.")
@click.option("--allow-writes", is_flag=True, help="Open the database read-write (default: read-only).")
@click.option("--allow-external", is_flag=True,
              help="Allow reading/writing other files, ATTACH, COPY … TO, EXPORT and extensions (default: refused).")
def query(sql, db, fmt, params, output, allow_writes, allow_external):
    """Run SQL against the database and print the result.

    The database is opened read-only with external access disabled: statements that write,
    ATTACH, COPY … TO, install extensions or read files are refused with a message naming the
    flag that allows them. Even with --allow-external, an ATTACH of the database itself
    read-write is refused without --allow-writes. Results are streamed (bounded memory); the
    table format shows the first 1,000 rows and how many more there are, with control
    characters made visible. --output never overwrites the database or its files. Exit code 1
    with one `error:` line on any failure.
    """
    import duckdb

    from pipeline.serve import formats
    from pipeline.serve.outputs import OutputRefused, check_output, write_text_output
    from pipeline.serve.export import write_query_parquet
    from pipeline.serve.query import DatabaseMissing, QueryRefused, query_result
    from pipeline.store.runs import DatabaseBusy
    from pipeline.store.versions import DatabaseUnusable

    bound = {}
    for p in params:
        name, sep, value = p.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"expected NAME=VALUE, got {p!r}", param_hint="--param")
        bound[name] = value
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet needs --output FILE")
    try:
        if output is not None:
            check_output(output, resolve_db(db))
        with query_result(resolve_db(db), sql, bound, allow_writes=allow_writes,
                          allow_external=allow_external) as result:
            rel = result.relation
            if fmt == "parquet":
                rows = write_query_parquet(result, output)
            elif fmt == "table":
                table = formats.table_output(rel)
                if output is None:
                    click.echo(table)
                    return
                write_text_output(output, table + "\n")
                rows = table.count("\n") if rel is not None and table != "(no rows)" else 0
            elif rel is None:
                rows = 0
            elif output is None:
                formats.write_stream(rel, fmt, sys.stdout)
                return
            else:
                rows = formats.write_file(rel, fmt, output)
    except (DatabaseMissing, QueryRefused, DatabaseUnusable, DatabaseBusy, OutputRefused) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except duckdb.OutOfMemoryException as exc:
        click.echo(f"error: the query needs more memory than DuckDB may use; narrow it, or write it with "
                   f"--format csv --output FILE [{str(exc).splitlines()[0]}]", err=True)
        sys.exit(1)
    except OSError as exc:  # unwritable --output, disk full, file too large
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else (f"{output}: " if output else "")
        click.echo(f"error: {where}cannot write: {exc.strerror or exc}", err=True)
        sys.exit(1)
    except duckdb.Error as exc:  # one line for the user
        click.echo(f"error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}", err=True)
        sys.exit(1)
    except MemoryError:
        click.echo("error: the result does not fit in memory; write it with --format csv --output FILE", err=True)
        sys.exit(1)
    except Exception as exc:  # pyarrow: a type Parquet cannot hold
        if type(exc).__module__.startswith("pyarrow"):
            click.echo(f"error: {output}: Parquet cannot hold this result ({str(exc).splitlines()[0]}); "
                       f"cast the column in SQL, or use --format csv|json", err=True)
            sys.exit(1)
        raise
    if output is not None:
        click.echo(f"wrote {rows} rows to {output}", err=True)


@main.command()
@click.option("--parquet", "parquet_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for the files, one <name>.parquet per table and view (created if missing).")
@DB_OPTION
def export(parquet_dir, db):
    """Export every public table and view of the database as Parquet.

    Left out: internal tables — parse_cache (the build's memo of parse results by face-text
    hash) — and the deprecated v_… view aliases. Every file carries key-value metadata: source,
    source_version, grammar_version, schema_version, exported_at (UTC), relation and
    relation_kind; every column its comment in the database as field metadata 'description'.
    """
    from pipeline.serve.export import export_parquet
    from pipeline.serve.query import DatabaseMissing

    try:
        files = export_parquet(resolve_db(db), parquet_dir)
    except DatabaseMissing as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    for f in files:
        click.echo(f"{f.path}\t{f.kind}\t{f.rows} rows")
    click.echo(f"exported {len(files)} tables and views to {parquet_dir}", err=True)


@main.command("schema-doc")
@DB_OPTION
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the Markdown here (docs/schema.md) instead of printing it.")
@click.option("--fresh", is_flag=True,
              help="Document a database built now from the bundled snapshot in a temporary directory "
                   "(what docs/schema.md is made from) instead of --db.")
def schema_doc(db, output, fresh):
    """Generate docs/schema.md from a live database: tables, views, columns, types, meanings.

    Regenerate the committed file with `mtg-pipeline schema-doc --fresh --output docs/schema.md`.
    """
    import tempfile

    from pipeline.serve.outputs import OutputRefused, check_output, write_text_output
    from pipeline.serve.query import DatabaseMissing
    from pipeline.serve.schema_doc import generate

    try:
        if output is not None:
            check_output(output, resolve_db(db))
        if fresh:
            from pipeline.refresh import refresh as run_refresh

            with tempfile.TemporaryDirectory(prefix="mtg-schema-") as tmp:
                run_refresh(["bundled"], Path(tmp) / "cards.duckdb")
                text = generate(Path(tmp) / "cards.duckdb")
        else:
            text = generate(resolve_db(db))
    except (DatabaseMissing, OutputRefused) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_text_output(output, text)
        click.echo(f"wrote {output}", err=True)


@main.command()
def paths():
    """Print the default database path, download cache directory and grammar cache directory."""
    from pipeline.paths import default_cache_dir, grammar_cache_dir

    click.echo(f"database: {default_db_path()}")
    click.echo(f"cache:    {default_cache_dir()}")
    click.echo(f"grammar:  {grammar_cache_dir()}")

