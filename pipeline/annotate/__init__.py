"""Rulings ↔ Comprehensive Rules ↔ abilities (see docs/annotate.md)."""
