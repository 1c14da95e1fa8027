"""``python -m pipeline`` → the ``mtg-pipeline`` CLI."""

from pipeline.cli import main

main()
