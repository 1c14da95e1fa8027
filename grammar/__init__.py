"""The oracle grammar (``*.lark``), installed as the resource package ``pipeline.grammar``
(see setup.py); read through :data:`pipeline.paths.GRAMMAR_DIR`."""
