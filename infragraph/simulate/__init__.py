"""The simulate stage: a fully qualified graph and options in, a JSON-ready result out.

One module per step of the stage:
- `run`: options, graph → engine arrays, the engine call and the result dict (`simulate`);
- `dims`: a collective's dimensions (the graph's `dims` annotation, `--dims`) and their algorithms;
- `nccl`: what NCCL would run on GPU servers (algorithm, protocol, channels) and the engine run
  that reproduces it (the default algorithm there);
- `engine`: the thin typed wrapper around the Rust engine `infragraph._simengine`;
- `load`: link tiers and per-tier load summaries of a result;
- `checks`: hand-derived bounds and the warnings a result carries;
- `failures`: what-if runs with failed or degraded links, compared against the healthy graph.
"""

from .run import (ALGORITHMS, COLLECTIVES, INTER_DIMENSION_SCHEDULINGS, INTRA_DIMENSION_SCHEDULINGS, LINK_FILTERS,
                  MODELS, ROUTINGS, SCHEDULINGS, PreparedGraph, SimulationOptions, chrome_trace, prepare, simulate, sweep)
from .dims import parse_dims

__all__ = ["ALGORITHMS", "COLLECTIVES", "INTER_DIMENSION_SCHEDULINGS", "INTRA_DIMENSION_SCHEDULINGS", "LINK_FILTERS", "MODELS", "ROUTINGS", "SCHEDULINGS",
           "PreparedGraph", "SimulationOptions", "chrome_trace", "parse_dims", "prepare",
           "simulate", "sweep"]
