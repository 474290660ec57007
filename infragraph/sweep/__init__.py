"""Design-space sweeps: many simulations of one source over parameter axes, as one tidy table.

`sweep(spec, output)` reads a YAML/TOML spec (schemas/sweep.schema.json; docs/sweep.md), expands
its axes into points, runs them on a local process pool or a Dask cluster, and writes
OUTPUT.parquet and OUTPUT.csv, one row per point. Module map: spec (reading, checks) → points
(expansion, keys) → executors (pool / Dask) + worker (compile once, simulate, metrics) → store
(journal, tables) ← run (the driver).
"""

from .run import SweepReport, sweep

__all__ = ["SweepReport", "sweep"]
