import math

import pytest

from infragraph import units
from infragraph.units import UnitError, parse_quantity, parse_size_bytes


def test_bandwidth_units_are_bits_vs_bytes_and_si_vs_binary():
    assert units.to_gbps(parse_quantity("400 Gbps")) == 400
    assert units.to_gbps(parse_quantity("50 GB/s")) == 400
    assert units.to_gbps(parse_quantity("1.6 Tbps")) == 1600
    assert math.isclose(units.to_gbps(parse_quantity("50 GiB/s")), 50 * 2**30 * 8 / 1e9)


def test_time_units():
    assert units.to_ns(parse_quantity("500 ns")) == pytest.approx(500)
    assert units.to_ns(parse_quantity("1 us")) == pytest.approx(1000)
    assert units.to_ns(parse_quantity("2ms")) == pytest.approx(2e6)


def test_arithmetic_keeps_dimensions():
    bits = parse_quantity("400 Gbps") * parse_quantity("1 us")
    assert bits.dim == units.INFORMATION and bits.value == pytest.approx(400_000)
    t = parse_quantity("1 MiB") / parse_quantity("50 GiB/s")
    assert t.dim == units.TIME and units.to_ns(t) == pytest.approx(2**20 / (50 * 2**30) * 1e9)


def test_dimension_errors_name_both_kinds():
    with pytest.raises(UnitError, match="cannot add a bandwidth and a time"):
        parse_quantity("400 Gbps") + parse_quantity("5 ns")
    with pytest.raises(UnitError, match="bandwidth must be a bandwidth, got a time"):
        units.to_gbps(parse_quantity("500 ns"))


def test_unknown_unit_and_malformed_text():
    with pytest.raises(UnitError, match="unknown unit 'Gbpz'"):
        parse_quantity("4 Gbpz")
    with pytest.raises(UnitError, match="expected a number with a unit"):
        parse_quantity("fast")


def test_sizes_and_astra_unit():
    assert parse_size_bytes("1MiB") == 2**20
    assert parse_size_bytes("4 KB") == 4000
    assert parse_size_bytes("123") == 123
    assert units.gbps_to_gib_per_s(400) == pytest.approx(46.566, abs=1e-3)


def test_formatting_picks_natural_units():
    assert str(parse_quantity("400 Gbps")) == "400 Gbit/s"
    assert str(parse_quantity("1 us")) == "1 us"
    assert str(parse_quantity("1 GiB")) == "1 GiB"
