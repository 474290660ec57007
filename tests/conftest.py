"""What every test runs under.

- Hypothesis: every property test runs the same examples on every run. CI runs the whole suite
  once on a loaded 2-core machine, and one red run loses the round, so a property test must not
  draw new random examples each run (a failure nobody can reproduce) nor fail on time:
  `derandomize` fixes the examples (derived from the test), `database=None` keeps nothing between
  runs (and writes no `.hypothesis/` into the working directory), `deadline=None` and the
  `too_slow` health check off stop wall time under load from failing a test. A test's own
  `@settings(...)` inherits these and overrides only what it names. To look for new examples
  locally, run with `HYPOTHESIS_PROFILE=explore`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("deterministic", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", derandomize=False, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
