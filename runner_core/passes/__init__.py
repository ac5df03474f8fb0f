"""Passes over the runner's IR and MLIR-style textual pipelines.

`pipeline.parse_pipeline` / `pipeline.run_pipeline` are the entry points;
`registry.register_pass` adds passes by name (docs/design.md, contract 4).
"""
