"""The sweep progress bar: done of all (resumed points counted), failures, silent when disabled."""

from __future__ import annotations

from infragraph.sweep.progress import SweepProgress


def test_progress_bar_counts_done_and_failed(capsys):
    with SweepProgress(total=5, done=2, title="grid", enabled=True) as bar:
        bar.advance(True)
        bar.advance(False)
        bar.advance(True)
    err = capsys.readouterr().err
    assert "grid" in err and "5/5" in err and "1 failed" in err and "ETA" in err
    assert (bar.done, bar.failed) == (5, 1)


def test_progress_bar_is_silent_when_disabled(capsys):
    with SweepProgress(total=1, done=0, title="grid", enabled=False) as bar:
        bar.advance(True)
    assert capsys.readouterr().err == "" and bar.done == 1
