"""What every test runs under, whoever starts pytest from wherever.

- Hypothesis: every property test runs the same examples on every run. CI runs the whole suite
  once on a loaded 2-core machine, and one red run loses the round, so a property test must not
  draw new random examples each run (a failure nobody can reproduce) nor fail on time:
  `derandomize` fixes the examples (derived from the test), `database=None` replays no failing
  example saved by an earlier run, `deadline=None` and the `too_slow` health check off stop wall
  time under load from failing a test. A test's own `@settings(...)` inherits these and overrides
  only what it names. To look for new examples locally, run with `HYPOTHESIS_PROFILE=explore`.
- The working directory is the repository: tests name `examples/ring8.igl` and the like relative
  to it, and the CLI resolves them from there (pytest run from another folder failed them).
- The compile cache is a fresh folder of this run's, not the user's `~/.cache/infragraph`, which
  every run on the machine shares (and evicts from): a test never sees another run's entries.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parents[1]

settings.register_profile("deterministic", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", derandomize=False, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(autouse=True, scope="session")
def _own_compile_cache(tmp_path_factory):
    """Under pytest's own temporary folder, which it prunes (a killed run leaves nothing behind for
    long); the CLI subprocesses the tests start inherit the variable."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("INFRAGRAPH_CACHE_DIR", str(tmp_path_factory.mktemp("compile-cache")))
        yield


@pytest.fixture(autouse=True)
def _in_the_repository(monkeypatch):
    monkeypatch.chdir(REPO)
