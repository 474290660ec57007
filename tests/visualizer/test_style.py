"""visualizer/style.py: what widths, colours and numbers mean in both outputs (pictures and page)."""

from __future__ import annotations

import numpy as np
import pytest

from infragraph.visualizer.style import MAX_WIDTH, MIN_WIDTH, gbps, heat, kind_colours, width_legend, widths


def test_widths_are_a_log_scale_from_the_thinnest_to_the_thickest_line():
    w = widths(np.array([100.0, 400.0, 1600.0, 0.0]))  # 400 is halfway on a log scale; 0: unstated
    assert w.tolist() == pytest.approx([MIN_WIDTH, (MIN_WIDTH + MAX_WIDTH) / 2, MAX_WIDTH, MIN_WIDTH])
    assert widths(np.array([5.0, 5.0])).tolist() == [2.0, 2.0] and widths(np.zeros(2)).tolist() == [MIN_WIDTH] * 2


@pytest.mark.parametrize("bandwidth, legend", [
    ([100.0, 1600.0, 0.0], "bandwidth per direction, log scale: thin 100 Gbit/s … thick 1.6 Tbit/s"),
    ([400.0, 400.0], "every line 400 Gbit/s per direction"),  # width says nothing then
    ([0.0], "no bandwidth stated"),
])
def test_the_width_legend_says_what_width_means(bandwidth, legend):
    assert width_legend(np.array(bandwidth)) == legend


@pytest.mark.parametrize("u, colour", [
    (0.0, "#2ca02c"), (0.5, "#ffc800"), (1.0, "#d62728"),  # green, amber, red
    (0.25, "#96b416"), (-3.0, "#2ca02c"), (7.0, "#d62728"),  # between; clipped
])
def test_heat_runs_green_amber_red(u, colour):
    assert heat(u) == colour


@pytest.mark.parametrize("x, text", [(400, "400 Gbit/s"), (3200, "3.2 Tbit/s"), (1.6e6, "1.6 Pbit/s"),
                                     (12.345, "12.3 Gbit/s"), (0, "? Gbit/s"), (float("nan"), "? Gbit/s")])
def test_bandwidths_read_in_three_digits(x, text):
    assert gbps(x) == text


def test_known_types_keep_their_colour_and_others_take_spares_in_order():
    c = kind_colours(["xpu", "weird", "odd", "switch"])
    assert c == {"xpu": "#f28e2b", "weird": "#b07aa1", "odd": "#ff9da7", "switch": "#4e79a7"}
