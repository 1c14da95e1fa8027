"""The on-disk format of the database files we write, chosen so other DuckDB readers can open them.

DuckDB writes a new database file in the newest storage format of the writing library unless
told otherwise (DuckDB 2.0 writes storage version 69, which no 1.x release can read). Every
database file this project creates is therefore created with the DuckDB setting
``storage_compatibility_version`` = :data:`STORAGE_VERSION` (the equivalent of
``ATTACH … (STORAGE_VERSION '…')``); DuckDB keeps writing an existing file in the format it was
created with. The oldest reader is also bounded by the SQL of the views, which every reader
binds again when it queries them: they use the ``lambda x: …`` syntax of DuckDB 1.3.
:data:`OLDEST_READER` is the oldest DuckDB release tested to open a database and query every
table and view (README § Reading the database with other tools).
"""

from __future__ import annotations

#: DuckDB storage format written (``storage_compatibility_version``): readable by DuckDB ≥ this.
STORAGE_VERSION = "v1.4.0"

#: The oldest DuckDB release known to read our databases, views included.
OLDEST_READER = "1.4.0"


def new_database_config() -> dict[str, str]:
    """DuckDB ``config`` for ``duckdb.connect`` of a database file about to be created."""
    return {"storage_compatibility_version": STORAGE_VERSION}
