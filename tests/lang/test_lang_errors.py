"""Every error class: located (file:line:col), with the source line, a caret and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from infragraph.errors import InfraGraphError
from infragraph.lang import compile_file, compile_source

from .helpers import PRELUDE, error, graph

ROOT = PRELUDE.count("\n")  # the fabric in each test starts on the line after the prelude


def test_syntax_error_names_expected_tokens_with_caret():
    msg = error("device d {\n    component x[2] xpu\n}\n")
    assert "t.igl:2:20: error: syntax error: unexpected 'xpu'; expected ':'" in msg
    assert "    component x[2] xpu\n" in msg and "\n                     ^" in msg


def test_several_syntax_errors_in_one_run():
    msg = error("device d { component x: }\nfabric f { instance = 3 }\n")
    assert msg.count("syntax error") >= 2


def test_slash_comment_gets_a_hint():
    assert "comments start with '#'" in error("// hello\n")


def test_unit_error_bandwidth_is_a_time():
    msg = error("link l { bandwidth = 500 ns }\n")
    assert "t.igl:1:22: error: bandwidth must be a bandwidth such as 400 Gbps, got a time (500 ns)" in msg


def test_adding_different_dimensions():
    assert "cannot add a bandwidth and a time (400 Gbit/s + 5 ns)" in error("let x = 400 Gbps + 5 ns\nfabric f {}\n")


def test_unknown_unit_suggests():
    assert "unknown unit 'Gbit'" not in error("let x = 4 Gbps + 1\nfabric f {}\n")  # number + quantity
    msg = error("let x = 4 Kibs\nfabric f {}\n")
    assert "unknown unit 'Kibs'" in msg and "did you mean" in msg


def test_undefined_name_did_you_mean():
    msg = error(PRELUDE + "fabric f { instance s: sww }\n")
    assert f"t.igl:{ROOT + 1}:24: error: undefined name 'sww'" in msg and "did you mean 'sw'?" in msg


def test_unknown_component_did_you_mean():
    msg = error(PRELUDE + "fabric f { instance s[2]: sw; s[0].prot[0] -- s[1].port[0] via eth }\n")
    assert "device 'sw' has no component 'prot'" in msg and "did you mean 'port'?" in msg


def test_index_out_of_range_at_the_index():
    msg = error(PRELUDE + "fabric f { instance s[2]: sw; s[0].port[9] -- s[1].port[0] via eth }\n")
    assert "index 9 out of range for 'port', which has 4 (valid: 0..3)" in msg


def test_one2one_count_mismatch():
    msg = error(PRELUDE + "fabric f { instance s[2]: sw; s[0].port[0:2] -- s[1].port via eth }\n")
    assert "one2one needs the same number of endpoints on both sides: 's[0].port[0:2]' has 2, 's[1].port' has 4" in msg


def test_wrong_parameter_type_and_unknown_parameter():
    msg = error(PRELUDE + 'fabric f { instance s: sw(ports="8"); instance t: sw(prots=8) }\n')
    assert "parameter 'ports' of device 'sw' must be an int, got a string (\"8\")" in msg
    assert "device 'sw' has no parameter 'prots'" in msg and "did you mean 'ports'?" in msg


def test_assert_message_is_located():
    msg = error("param radix: int = 7\nfabric f {\n    assert radix % 2 == 0, \"radix must be even\"\n}\n")
    assert "t.igl:3:5: error: assertion failed: radix must be even" in msg


def test_failed_asserts_are_all_reported_but_nothing_after_them():
    msg = error("param k: int = 7\nparam n: int = -1\ndevice d { component x: xpu }\nfabric f {\n"
                "    assert k % 2 == 0, \"k must be even\"\n    assert n > 0, \"n must be positive\"\n"
                "    instance h[n]: d\n    h[0].x -- h[k].x\n}\n")
    assert "t.igl:5:5: error: assertion failed: k must be even" in msg
    assert "t.igl:6:5: error: assertion failed: n must be positive" in msg
    assert msg.count("error:") == 2  # no follow-on errors from the instance or the edge


def test_errors_inside_a_template_show_the_instantiation():
    msg = error("device d(n: int) { component x[n]: xpu }\nfabric f { instance a: d(0) }\n")
    assert "t.igl:1:32: error: the count of component 'x' must be at least 1, got 0" in msg
    assert "note: in device 'd(n=0)' instantiated at t.igl:2:25" in msg


def test_runaway_recursion_is_bounded():
    msg = error("fn f(n: int) = f(n + 1)\nfabric x { assert f(0) == 1 }\n")
    assert "recursion deeper than 64 calls in function 'f'" in msg


def test_runaway_loop_is_bounded():
    msg = error("fabric x { for i in 0..100000000 { let y = i } }\n")
    assert "evaluation budget exceeded" in msg


def test_device_containing_itself():
    assert "device 'd' contains itself" in error("device d { component x: d }\nfabric f { instance a: d }\n")


def test_port_cabled_twice_is_relocated_to_the_igl_line():
    src = PRELUDE + "fabric f {\n    instance s[2]: sw\n    s[0].port[0] -- s[1].port[0] via eth\n    s[0].port[0] -- s[1].port[1] via eth\n}\n"
    msg = error(src)
    assert "port 's.0.port.0' is cabled 2 times" in msg
    assert f"t.igl:{ROOT + 4}:5" in msg and "    s[0].port[0] -- s[1].port[1] via eth" in msg


def test_self_loop_is_relocated():
    msg = error(PRELUDE + "fabric f {\n    instance s: host\n    s.gpu[0] -- s.gpu[0] via eth\n}\n")
    assert "self-loop" in msg and f"t.igl:{ROOT + 3}:5" in msg


def test_several_errors_per_run():
    msg = error("fabric f {\n    let a = nope\n    let b = 1 + \"x\"\n    instance c[2]: zzz\n}\n")
    assert msg.count("error:") == 3


def test_failed_definitions_do_not_cascade():
    msg = error("fabric f {\n    let a = nope\n    let b = a + 1\n}\n")
    assert msg.count("error:") == 1


def test_edge_needs_a_link_and_statement_placement():
    msg = error("device d { component x[2]: xpu; x[0] -- x[1]; instance i: d }\nfabric f {}\n")
    assert "an edge needs a link" in msg and "an instance belongs in a fabric body, not in a device" in msg


def test_unknown_define_and_bad_define_value():
    msg = error("param n: int = 1\nfabric f {}\n", nn="2")
    assert "-D nn: the program has no parameter 'nn'" in msg and "did you mean 'n'?" in msg
    assert "must be an int, got a string" in error("param n: int = 1\nfabric f {}\n", n='"x"')


def test_no_fabric():
    assert "declares no fabric" in error("let x = 1\n")


def test_import_cycle_and_import_chain(tmp_path: Path):
    (tmp_path / "a.igl").write_text('import "b.igl"\nfabric a {}\n')
    (tmp_path / "b.igl").write_text('import "a.igl"\n')
    with pytest.raises(InfraGraphError) as info:
        compile_file(str(tmp_path / "a.igl"))
    assert "import cycle: a.igl -> b.igl -> a.igl" in str(info.value)
    (tmp_path / "c.igl").write_text('let broken = 1 + true\n')
    (tmp_path / "m.igl").write_text('import "c.igl"\nfabric m {}\n')
    with pytest.raises(InfraGraphError) as info:
        compile_file(str(tmp_path / "m.igl"))
    text = str(info.value)
    assert "c.igl:1:16: error: cannot apply '+' to int and bool" in text
    assert f"note: imported from {tmp_path / 'm.igl'}:1:1" in text


def test_missing_library_module_suggests():
    msg = error("import std.fabrics.nothing_here\nfabric f {}\n")
    assert "cannot find module 'std.fabrics.nothing_here'" in msg


def test_condition_must_be_bool():
    assert "an 'if' condition must be a bool, got int" in error("fabric f { if 1 { } }\n")


def test_no_traceback_on_garbage():
    for text in ["\x00\x01", "fabric {", '"""', "`", "device d(x: int = ) {}", "fabric f { a -- }"]:
        with pytest.raises(InfraGraphError):
            compile_source(text, "g.igl")


def test_list_of_typed_elements_is_checked_where_the_value_enters():
    """`list[T]`: every element a T. A wrong-unit element of a -D list was an error wherever the
    program first used it (std.fabrics.stack: stack.igl:55, inside the default of `node`)."""
    src = "fabric f(bw: list[bandwidth] = [1 Gbps], n: list[int] = [1]) { let m = max(bw) }\n"
    msg = error(src, bw="[50 GB/s, 50 ns]")
    assert msg.startswith("-D bw:1:1: error: parameter 'bw' of the program must be a list of bandwidth values, "
                          "but element [1] is a time (50 ns)"), msg
    assert "must be a list[int], got an int (3)" in error(src, n="3")
    assert "unknown type 'bandwith' for parameter 'bw'" in error(src.replace("list[bandwidth]", "list[bandwith]"))
    fn = "fn total(xs: list[size]) = sum(xs)\nfabric f { let t = total([1 KiB, 2]) }\n"
    assert "parameter 'xs' of function 'total' must be a list of size values, but element [1] is an int (2)" in error(fn)
    graph(src, bw="[50 GB/s, 100 Gbps]", n="[1, 2]")  # conforming lists compile
