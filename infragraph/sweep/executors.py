"""Where points run: a local process pool (the default) or a Dask distributed cluster, behind one
small interface — submit a function, get futures back, iterate them as they complete — so the
sweep driver has a single code path for both.

`--scheduler` forms: `tcp://HOST:PORT` (or any Dask address), a scheduler file written by
`dask scheduler --scheduler-file FILE` (`.json`), or `slurm:CONFIG.yaml` — a dask-jobqueue
SLURMCluster built from the YAML mapping of its keyword arguments (`jobs: N` sets how many jobs to
start). The local pool's workers start from a fork server that has already imported the toolchain,
so a worker costs a fork, not a fresh interpreter.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import uuid
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

from ..errors import Diagnostic, InfraGraphError, Location, error
from ..processes import process_pool

OPTION = "--scheduler"


class Executor(Protocol):
    description: str
    workers: int  # points that can run at once (for load balance)
    lost: tuple[type[BaseException], ...]  # a future failing with one of these lost its worker: retry it

    def submit(self, fn: Callable[..., Any], arg: Any, key: str) -> Any: ...
    def as_completed(self, futures: Iterable[Any]) -> Iterator[Any]: ...
    def restart(self) -> None: ...
    def close(self) -> None: ...


class LocalPool:
    """concurrent.futures process pool over `workers` processes (default: every core)."""

    def __init__(self, workers: int | None = None):
        from concurrent.futures.process import BrokenProcessPool

        self.workers = (os.cpu_count() or 1) if workers is None else workers
        self.lost = (BrokenProcessPool,)
        self.description = f"local process pool, {self.workers} worker(s)"
        self._pool = self._start()

    def _start(self) -> cf.ProcessPoolExecutor:
        return process_pool(self.workers, preload=("infragraph.sweep.worker", "infragraph.sources", "infragraph.lang"))

    def submit(self, fn, arg, key):
        return self._pool.submit(fn, arg)

    def as_completed(self, futures):
        return cf.as_completed(list(futures))

    def restart(self) -> None:
        """A worker died and broke the pool: start a fresh one for the points still to run."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._start()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskCluster:
    """A dask.distributed Client (connected to `scheduler`, or given). Lost workers are Dask's to
    handle: it reruns their tasks elsewhere, and a task that kills workers repeatedly fails with
    KilledWorker, which the sweep records as that point's error."""

    lost: tuple[type[BaseException], ...] = ()

    def __init__(self, scheduler: Any):
        try:
            import distributed
        except ImportError:
            raise error("--scheduler needs dask.distributed: pip install 'dask[distributed]'", OPTION) from None
        self._distributed = distributed
        self._cluster = None
        self._own_client = True
        if isinstance(scheduler, distributed.Client):
            self.client, self._own_client = scheduler, False
        elif str(scheduler).startswith("slurm:"):
            self._cluster = _slurm_cluster(str(scheduler)[len("slurm:"):])
            self.client = distributed.Client(self._cluster)
        elif _is_scheduler_file(scheduler):
            self.client = _connect(lambda: distributed.Client(scheduler_file=str(scheduler), timeout="10s"),
                                   str(scheduler))
        else:
            self.client = _connect(lambda: distributed.Client(str(scheduler), timeout="10s"), str(scheduler))
        info = self.client.scheduler_info(n_workers=-1).get("workers", {})
        self.workers = max(1, sum(w.get("nthreads", 1) for w in info.values()))
        self.description = f"Dask cluster at {self.client.scheduler.address}, {len(info)} worker(s)"

    def submit(self, fn, arg, key):
        # a readable key, made unique: Dask treats equal keys as the same task, and another run on
        # this cluster may hold a different batch under the same name
        return self.client.submit(fn, arg, key=f"{key}-{uuid.uuid4().hex[:12]}", pure=False)

    def as_completed(self, futures):
        return self._distributed.as_completed(list(futures))

    def restart(self) -> None:  # never needed: `lost` is empty
        return None

    def close(self) -> None:
        if self._own_client:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def _connect(make: Callable[[], Any], where: str) -> Any:
    try:
        return make()
    except (OSError, TimeoutError, ValueError) as e:
        raise error(f"cannot connect to the Dask scheduler {where}: {e}", OPTION,
                    hint="start one with `dask scheduler` and workers with `dask worker ADDRESS`") from None


def _slurm_cluster(config: str) -> Any:
    """A dask-jobqueue SLURMCluster from a YAML file of its keyword arguments (+ `jobs`)."""
    import yaml

    try:
        from dask_jobqueue import SLURMCluster
    except ImportError:
        raise error("--scheduler slurm:CONFIG needs dask-jobqueue: pip install dask-jobqueue", OPTION) from None
    try:
        kwargs = yaml.safe_load(Path(config).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as e:
        raise _at(config, f"cannot read the SLURM configuration: {e}") from None
    if not isinstance(kwargs, dict):
        raise _at(config, "expected a mapping of SLURMCluster keyword arguments")
    jobs = kwargs.pop("jobs", 1)
    try:
        cluster = SLURMCluster(**kwargs)
    except (TypeError, ValueError) as e:
        raise _at(config, f"bad SLURMCluster arguments: {e}") from None
    cluster.scale(jobs=jobs)
    return cluster


def check_options(scheduler: Any = None, workers: int | None = None) -> None:
    """Refuse bad --scheduler / --workers at the option before anything runs — also when every
    point is already done and no executor will start. A scheduler file must be a JSON object with
    an `address` (what `dask scheduler --scheduler-file` writes); an address itself is Dask's to
    judge when connecting."""
    if workers is not None and scheduler is not None:
        raise error("--workers applies to the local pool; a Dask cluster has its own workers", "--workers")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise error(f"--workers must be at least 1, got {workers}", "--workers")
    if isinstance(scheduler, str) and scheduler.startswith("slurm:"):
        if not Path(scheduler[len("slurm:"):]).is_file():
            raise _at(scheduler[len("slurm:"):], "no such SLURM configuration file")
    elif _is_scheduler_file(scheduler):
        try:
            text = Path(scheduler).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise _at(scheduler, "no such scheduler file",
                      "`dask scheduler --scheduler-file FILE` writes one; or give tcp://HOST:PORT") from None
        except (OSError, UnicodeDecodeError) as e:
            raise _at(scheduler, f"cannot read the scheduler file: {getattr(e, 'strerror', None) or e}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise _at(scheduler, f"not a Dask scheduler file: not JSON ({e})") from None
        if not isinstance(data, dict) or not isinstance(data.get("address"), str):
            raise _at(scheduler, "not a Dask scheduler file: expected a JSON object with an 'address' "
                                 "(as `dask scheduler --scheduler-file` writes)")


def executor_for(scheduler: Any = None, workers: int | None = None) -> Executor:
    """The local pool when `scheduler` is None, else a Dask cluster."""
    check_options(scheduler, workers)
    if scheduler is None:
        return LocalPool(workers)
    return DaskCluster(scheduler)


def _is_scheduler_file(scheduler: Any) -> bool:
    return isinstance(scheduler, (str, Path)) and str(scheduler).endswith(".json") and "://" not in str(scheduler)


def _at(file: str | Path, message: str, hint: str | None = None) -> InfraGraphError:
    """An error about the file that --scheduler names."""
    return InfraGraphError(Diagnostic(message, Location(str(file), path=OPTION), hint))
