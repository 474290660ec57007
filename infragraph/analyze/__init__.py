"""Resilience analysis of a fabric: bisection bandwidth by max-flow (also under random cable
failures), diameter, path diversity and single points of failure. `analyze(g)` is the report."""

from .report import analyze, format_report, plot_report

__all__ = ["analyze", "format_report", "plot_report"]
