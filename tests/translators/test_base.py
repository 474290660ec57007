"""translators/base.py: the --set value parsers every backend's settings use. A value goes into a
bundle a backend runs, so a word, nan, inf or an out-of-range number is refused at `--set KEY`."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph.translators import Options, get
from infragraph.translators.base import (parse_bool, parse_int, parse_nonnegative_float, parse_positive_float,
                                         parse_positive_int)
from tests.badinput.input_cases import cli
from tests.helpers import one_diagnostic

RING8 = Path(__file__).resolve().parents[2] / "examples" / "ring8.igl"


@pytest.mark.parametrize("parse, text, value", [
    (parse_int, "-3", -3), (parse_positive_int, "7", 7), (parse_positive_float, "1600", 1600.0),
    (parse_positive_float, "2.5e-3", 0.0025), (parse_nonnegative_float, "0", 0.0), (parse_bool, " Yes", True),
])
def test_good_values_parse(parse, text, value):
    assert parse(text) == value and type(parse(text)) is type(value)


@pytest.mark.parametrize("parse, text, message", [
    (parse_int, "1.5", "expected an integer"),
    (parse_int, "ten", "expected an integer"),
    (parse_int, "1" + "0" * 400, "expected an integer"),
    (parse_positive_int, str(2**63), "expected an integer > 0"),
    (parse_positive_int, "0", "expected an integer > 0"),
    (parse_positive_int, "-2", "expected an integer > 0"),
    (parse_positive_float, "0", "expected a finite number > 0"),
    (parse_positive_float, "nan", "expected a finite number > 0"),
    (parse_positive_float, "inf", "expected a finite number > 0"),
    (parse_positive_float, "1e400", "expected a finite number > 0"),
    (parse_nonnegative_float, "-0.5", "expected a finite number >= 0"),
    (parse_nonnegative_float, "-inf", "expected a finite number >= 0"),
    (parse_bool, "maybe", "expected true or false"),
])
def test_bad_values_say_what_was_expected(parse, text, message):
    with pytest.raises(ValueError) as e:
        parse(text)
    assert str(e.value) == message


@pytest.mark.parametrize("backend, key, text, expected", [
    ("astra-analytical", "local-mem-bw", "nan", "expected a finite number > 0"),
    ("astra-analytical", "local-mem-bw", "-1", "expected a finite number > 0"),
    ("htsim", "active-chunks-per-dimension", "0", "expected an integer > 0"),
    ("ns3", "forwarding-latency-ns", "-5", "expected a finite number >= 0"),
])
def test_a_bad_setting_is_located_at_its_key(backend, key, text, expected):
    d = one_diagnostic(get(backend).resolve_settings, Options(settings={key: text}))
    assert d.message == f"bad value '{text}' for {key}: {expected}"
    assert d.location.path == f"--set {key}"


def test_a_nan_setting_exits_1_at_the_option_not_as_an_internal_error(capsys, tmp_path):
    """It used to reach the bundle writer and stop there with exit 3 (cannot convert float NaN)."""
    code, out = cli(capsys, "translate", RING8, "--to", "astra-analytical", "--set", "local-mem-bw=nan",
                    "-o", tmp_path / "out", "-q")
    assert code == 1, out
    assert "--set local-mem-bw: error: bad value 'nan' for local-mem-bw: expected a finite number > 0" in out
    assert "internal error" not in out and not (tmp_path / "out").exists()
