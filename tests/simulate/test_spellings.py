"""SimulationOptions accepts the command line's spellings (infragraph.simulate.spellings): the same
run from `simulate --size 1MiB --local-mem-bw "1600 GB/s" ...` and from Python."""

from __future__ import annotations

from dataclasses import replace

import pytest

from infragraph.cli.simulate import options as cli_options
from infragraph.cli import build_parser
from infragraph.errors import InfraGraphError
from infragraph.simulate import SimulationOptions
from infragraph.simulate.spellings import cli_option


def test_cli_spellings_give_the_fields():
    o = SimulationOptions(size="1MiB", local_mem_bw="1600 GB/s", endpoint_delay="1us", no_ecmp=True,
                          no_nic_affinity=True, algorithm="ring,direct", group=["0-3", "4-7"], pxn="on", dims="4,2")
    assert (o.size_bytes, o.local_mem_bw_gb_per_s, o.endpoint_delay_ns) == (1048576.0, 1600.0, 1000.0)
    assert (o.ecmp, o.nic_affinity, o.pxn) == (False, False, True)
    assert o.algorithm == ("ring", "direct") and o.groups == ((0, 1, 2, 3), (4, 5, 6, 7)) and o.dims == (4, 2)
    assert SimulationOptions(local_mem_bw="12.8 Tbit/s").local_mem_bw_gb_per_s == 1600.0  # bits / 8
    assert SimulationOptions(size_bytes="4 KB").size_bytes == 4000.0  # a field given as text is converted too
    assert replace(o, size_bytes=5.0).size_bytes == 5.0  # dataclasses.replace still works


def test_python_and_command_line_agree():
    argv = ["simulate", "x.igl", "--size", "1MiB", "--local-mem-bw", "800", "--endpoint-delay", "20ns",
            "--no-ecmp", "--algorithm", "ring", "--group", "0-3", "--pxn", "off"]
    from_cli = replace(cli_options(build_parser().parse_args(argv)), size_bytes=1048576.0)
    from_python = SimulationOptions(size="1MiB", local_mem_bw="800", endpoint_delay="20ns", no_ecmp=True,
                                    algorithm="ring", group="0-3", pxn="off")
    assert from_cli == from_python


@pytest.mark.parametrize("kwargs,message", [
    ({"sise": "1MiB"}, "sise: error: SimulationOptions has no option 'sise'\n  hint: did you mean 'size'?"),
    ({"size": "1MiB", "size_bytes": 3}, "size_bytes: error: 'size_bytes' and another spelling of size_bytes"),
    ({"size": "1 Gbps"}, "size: error: bad size '1 Gbps'"),
    ({"size": 0}, "size: error: size must be a finite number of bytes > 0"),
    ({"local_mem_bw": "5 ns"}, "local_mem_bw: error: bad local_mem_bw '5 ns': local_mem_bw must be a bandwidth"),
    ({"endpoint_delay": "-1ns"}, "endpoint_delay: error: endpoint_delay must be a finite time >= 0 such as '10ns' (a number is ns), got '-1ns'"),
    ({"group": ["3-1"]}, "group: error: bad group '3-1'; expected ranks like 0-7 or 0,2,4,6"),
    ({"pxn": "maybe"}, "pxn: error: pxn must be auto, on or off, got 'maybe'"),
    ({"symmetry": "no"}, "symmetry: error: symmetry must be true or false, got 'no'"),
    ({"ecmp": 0}, "ecmp: error: ecmp must be true or false, got 0"),
    ({"no_ecmp": "no"}, "no_ecmp: error: no_ecmp must be true or false, got 'no'"),
    ({"astra_communicator_group": "yes"}, "astra_communicator_group: error: astra_communicator_group must be true or false"),
    ({"pxn": 1}, "pxn: error: pxn must be true or false, got 1"),
])
def test_bad_spellings_name_the_keyword(kwargs, message):
    with pytest.raises(InfraGraphError) as e:
        SimulationOptions(**kwargs)
    assert str(e.value).startswith(message)


def test_every_true_false_option_is_checked():
    """A flag given as 'no' or 0 would pass as truthy or falsy: every bool field is in FLAGS."""
    from dataclasses import fields

    from infragraph.simulate.spellings import FLAGS

    assert set(FLAGS) == {f.name for f in fields(SimulationOptions) if str(f.type).startswith("bool")}
    for name in FLAGS:
        assert getattr(SimulationOptions(**{name: False}), name) is False


@pytest.mark.parametrize("field, option", [("chunks", "--chunks"), ("active_chunks", "--active-chunks"),
                                           ("size_bytes", "--size"), ("endpoint_delay_ns", "--endpoint-delay"),
                                           ("local_mem_bw_gb_per_s", "--local-mem-bw"), ("groups", "--group")])
def test_cli_option_names_the_option_a_field_is_typed_as(field, option):
    assert cli_option(field) == option
