"""The runner's front end: xDSL context, parsing, the dialects xDSL lacks.

`context.make_context()` and `parse.parse_source()` are the entry points
(docs/design.md, contract 4).  Importing this package imports no xDSL.
"""
