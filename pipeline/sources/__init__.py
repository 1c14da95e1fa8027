"""Extract stage: read (and download) the sources — Scryfall bulk files, MTGJSON files, the Comprehensive Rules."""
