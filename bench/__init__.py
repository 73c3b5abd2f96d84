"""The performance measurements: one module per row of docs/PERFORMANCE.md's table.

`python -m bench.run [--smoke]` runs every module listed in `bench.run.ROWS`.
A row module defines WHAT, HOW, TARGET (the table's first three columns),
SIZES (`"full"` and `"smoke"`, each a dict of keyword arguments) and
`measure(**sizes) -> bench.common.Row`. Adding a row is adding a module and
naming it in ROWS.
"""
