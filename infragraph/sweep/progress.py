"""The sweep's progress bar (rich): points done of all, how many failed, elapsed time and ETA.

Shown on stderr when it is a terminal (or when asked); silent in pipes, CI and tests, where the
command's closing summary is the record.
"""

from __future__ import annotations

import sys


class SweepProgress:
    def __init__(self, total: int, done: int, title: str, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.total, self.done, self.failed, self.title = total, done, 0, title
        self._bar = None

    def __enter__(self) -> SweepProgress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            self._bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("[red]{task.fields[failed]} failed"), TimeElapsedColumn(),
                                 TextColumn("ETA"), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=False)
            self._bar.start()
            self._task = self._bar.add_task(self.title, total=self.total, completed=self.done, failed=0)
        return self

    def advance(self, ok: bool) -> None:
        self.done += 1
        self.failed += not ok
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, failed=self.failed)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
