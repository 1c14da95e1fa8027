"""Serve stage: read-only SQL over the database, card pages, exports."""
