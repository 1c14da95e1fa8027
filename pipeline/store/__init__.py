"""Load stage: the DuckDB schema, atomic database builds, the ``runs`` history and the parse cache."""
