"""Bad .igl programs through `infragraph check`: each case asserts the exit code, the message and the
file:line:col it points at (found from a marker in the program text)."""

from __future__ import annotations

import pytest

from .input_cases import at, cli, write

BASE = """\
link eth {
    bandwidth = 400 Gbps
    latency = 500 ns
}
device npu {
    component xpu: xpu
}
fabric loop {
    instance npu[8]: npu
    npu.xpu -- npu.xpu ring via eth
}
"""
DEVICE = "device h { component x: xpu }\n"


def bw(expr: str) -> str:
    return BASE.replace("400 Gbps", expr)


def lat(expr: str) -> str:
    return BASE.replace("500 ns", expr)


def program(top: str, fabric: str = "instance a: h") -> str:
    return f"{top}\n{DEVICE}fabric f {{\n    {fabric}\n}}\n"


# (id, program, message, marker, occurrence)
CASES = [
    # numbers: finite, bandwidth > 0, latency >= 0
    ("bandwidth-negative", bw("-400 Gbps"), "error: link bandwidth must be greater than 0, got -400 Gbit/s", "-400", 1),
    ("bandwidth-zero", bw("0 Gbps"), "error: link bandwidth must be greater than 0, got 0 Gbit/s", "0 Gbps", 1),
    ("bandwidth-negative-expression", bw("100 Gbps - 200 Gbps"), "link bandwidth must be greater than 0, got -100 Gbit/s",
     "- 200", 1),
    ("latency-negative", lat("-5 ns"), "error: link latency must be 0 or more, got -5 ns", "-5 ns", 1),
    ("latency-negative-us", lat("-1.5 us"), "error: link latency must be 0 or more, got -1.5 us", "-1.5", 1),
    ("bandwidth-overflow-literal", bw("1e999 Gbps"), "error: quantity too large: the number before 'Gbps' overflows",
     "1e999", 1),
    ("latency-overflow-literal", lat("1e400 ns"), "error: quantity too large: the number before 'ns' overflows",
     "1e400", 1),
    ("float-literal-overflow", program("let x = 1e999"), "error: number too large (it overflows a 64-bit float",
     "1e999", 1),
    ("float-nan", bw('float("nan") * 1 Gbps'), 'error: float(): "nan" is not a finite number', '("nan")', 1),
    ("float-inf", program('let x = float("inf")'), 'error: float(): "inf" is not a finite number', '("inf")', 1),
    ("float-minus-infinity", program('let x = float("-Infinity")'), '"-Infinity" is not a finite number', "(", 1),
    ("quantity-product-overflow", bw("1e200 Gbps * 1e200"), "error: number overflow (", "*", 1),
    ("number-overflow", program("let x = 1e300 * 1e300"), "error: number overflow (result is not a finite number)",
     "*", 1),
    ("inline-link-negative-bandwidth", BASE.replace("via eth", "via link(-1 Gbps)"),
     "error: link(): link bandwidth must be greater than 0, got -1 Gbit/s", "link(-1", 1),
    ("inline-link-zero-bandwidth", BASE.replace("via eth", "via link(0 Gbps, 1 ns)"),
     "error: link(): link bandwidth must be greater than 0", "link(0", 1),
    ("inline-link-negative-latency", BASE.replace("via eth", "via link(400 Gbps, -1 ns)"),
     "error: link(): link latency must be 0 or more, got -1 ns", "link(400", 1),
    # unit typos: at the unit, with a suggestion
    ("unit-Gbs", bw("400 Gbs"), "error: unknown unit 'Gbs'; did you mean 'Gbps'?", "Gbs", 1),
    ("unit-lowercase", bw("400 gbps"), "error: unknown unit 'gbps'; did you mean 'Gbps'?", "gbps", 1),
    ("unit-bare-prefix", bw("400G"), "error: unknown unit 'G'; did you mean 'Gbps' (bits per second) or 'GB/s'",
     "G\n", 1),
    ("unit-unknown", bw("400 parsecs"), "error: unknown unit 'parsecs'; expected a unit such as Gbit/s, GB/s, ns",
     "parsecs", 1),
    ("unit-gbits-per-sec", bw("400 Gbit/sec"), "error: unknown unit 'Gbit/sec'; did you mean 'Gbit/s'?", "Gbit", 1),
    ("unit-gb-per-sec", bw("50 GB/sec"), "error: unknown unit 'GB/sec'; did you mean 'GB/s'?", "GB/sec", 1),
    ("unit-nsec", lat("500 nsec"), "error: unknown unit 'nsec'; did you mean 'ns'?", "nsec", 1),
    ("unit-usecs", lat("2 usecs"), "error: unknown unit 'usecs'; did you mean 'us'?", "usecs", 1),
    ("unit-float-Gbs", bw("12.5 Gbs"), "error: unknown unit 'Gbs'; did you mean 'Gbps'?", "Gbs", 1),
    ("unit-lexed-Kibs", program("let x = 4 Kibs"), "error: unknown unit 'Kibs'; did you mean", "Kibs", 1),
    ("unit-typo-in-argument", BASE.replace("via eth", "via link(400 Gbs)"), "unknown unit 'Gbs'; did you mean 'Gbps'?",
     "Gbs", 1),
    # braces never closed
    ("unclosed-fabric-at-eof", BASE[: BASE.rindex("}")],
     "error: '{' of 'fabric loop {' (line 8) is never closed", "{\n    instance", 1),
    ("unclosed-device-before-fabric", BASE.replace("    component xpu: xpu\n}\n", "    component xpu: xpu\n"),
     "error: '{' of 'device npu {' (line 5) is never closed", "{\n    component", 1),
    ("unclosed-link-before-device", BASE.replace("    latency = 500 ns\n}\n", "    latency = 500 ns\n"),
     "error: '{' of 'link eth {' (line 1) is never closed", "{", 1),
    ("unclosed-inner-for", "device d {\n    component x[4]: xpu\n    for i in 0..3 {\n        x[i] -- x[i + 1] via "
     "link(1 Gbps)\n}\n" + "fabric f { instance a: d }\n",
     "error: '{' of 'for i in 0..3 {' (line 3) is never closed", "{\n        x", 1),
    # declared twice
    ("device-twice", BASE + "device npu { component y: xpu }\n", "error: 'npu' is defined twice in this module "
                                                                  "(first at line 5)", "device npu {", 2),
    ("fabric-twice", BASE + "fabric loop { }\n", "error: 'loop' is defined twice in this module (first at line 8)",
     "fabric loop {", 2),
    ("fn-named-like-device", BASE + "fn npu(x: int) = x\n", "error: 'npu' is defined twice in this module",
     "fn npu", 1),
    ("link-twice", BASE + "link eth { bandwidth = 1 Gbps }\n", "error: 'eth' is already defined in this module",
     "link eth {", 2),
    # nesting and length limits, located where they are passed
    ("parentheses-20000", program("let x = " + "(" * 20_000 + "1" + ")" * 20_000),
     "error: brackets nested more than 128 levels deep", "(", 129),
    ("lists-200", program("let x = " + "[" * 200 + "]" * 200), "error: brackets nested more than 128 levels deep",
     "[", 129),
    ("sum-30000-terms", program("let x = " + " + ".join(["1"] * 30_000)),
     "error: expression longer than 256 operators", "+", 257),
    ("sum-over-lines", program("let x = 1\n" + "".join("    + 1\n" for _ in range(300))),
     "error: expression longer than 256 operators", "+", 257),
    # evaluation budget: builtins and string/list growth
    ("sum-huge-range", program("let x = sum(0..10**12)"), "error: evaluation budget exceeded (2,000,000 loop "
                                                           "iterations, list items and calls)", "(0..", 1),
    ("max-huge-range", program("let x = max(range(10**10))"), "error: evaluation budget exceeded", "(range", 1),
    ("product-huge-range", program("let x = product(1..10**9)"), "error: evaluation budget exceeded", "(1..", 1),
    ("min-huge-list", program("let x = min([1] * 900000 + [2] * 900000 + [3] * 900000)"),
     "error: list too long: the result would have 1,800,000 items (limit 1,000,000)", "+ [2]", 1),
    ("join-huge-range", program('let x = join(0..10**8, ",")'), "error: evaluation budget exceeded", "(0..", 1),
    ("string-doubling", program('fn dbl(s: string, n: int) = if n == 0 then s else dbl(s + s, n - 1)\n'
                                'let z = dbl("ab", 60)'),
     "error: string too long: the result would have 1,048,576 items (limit 1,000,000)", "+ s", 1),
    ("list-doubling", program('fn dbl(s: list, n: int) = if n == 0 then s else dbl(s + s, n - 1)\n'
                              'let z = dbl([1], 60)'),
     "error: list too long: the result would have 1,048,576 items", "+ s", 1),
    ("string-repetition", program('let x = "ab" * 10**7'),
     "error: repetition too large: the result would have 20,000,000 items (limit 1,000,000)", "*", 1),
    ("comprehension-huge", program("let x = [i for i in 0..10**9]"), "error: evaluation budget exceeded", "[i", 1),
    ("len-of-huge-range-is-fine-but-count-is-not", program("let n = len(0..10**12)", "instance a[n]: h"),
     "error: the graph would have 1,000,000,000,000 nodes, more than the limit of 20,000,000: instance 'a'",
     "instance a[n]", 1),
    # counts that multiply: refused before anything is built, naming the record
    ("instance-2-pow-63", program("", "instance a[2**63]: h"),
     "error: the graph would have about 9.22e+18 nodes, more than the limit of 20,000,000: instance 'a' is "
     "9,223,372,036,854,775,808 copies of device 'h' (1 node each)", "instance a[", 1),
    ("instance-10-pow-30", program("", "instance a[10**30]: h"), "error: the graph would have about 1e+30 nodes",
     "instance a[", 1),
    ("ports-10-pow-9", "device sw {\n    component asic: switch\n    component port[10**9]: port\n}\n"
                       "fabric f { instance s: sw }\n",
     "error: the graph would have 1,000,000,001 nodes, more than the limit of 20,000,000: component 'port' of "
     "device 'sw' has 1,000,000,000 nodes", "component port", 1),
    ("many2many-100k-squared", program("", "instance a[100000]: h\n    instance b[100000]: h\n"
                                           "    a.x -- b.x many2many via link(1 Gbps)"),
     "error: the graph would have 10,000,000,000 edges, more than the limit of 50,000,000: edge record 0 "
     "(many2many) makes 10,000,000,000 edges", "a.x --", 1),
    ("device-many2many-in-copies", "device sw {\n    component p[5000]: port\n    component q[5000]: port\n"
                                   "    p -- q many2many via link(1 Gbps)\n}\nfabric f { instance s[4]: sw }\n",
     "error: the graph would have 100,000,000 edges, more than the limit of 50,000,000: edge record 0 of device 'sw' "
     "makes 25,000,000 edges per copy, in 4 copies", "p -- q", 1),
    ("composition-10-pow-12", "device d0 { component x[1000]: xpu }\ndevice d1 { component d[1000]: d0 }\n"
                              "device d2 { component d[1000]: d1 }\ndevice d3 { component d[1000]: d2 }\n"
                              "fabric f { instance a: d3 }\n",
     "error: the graph would have 1,000,000,000,000 nodes, more than the limit of 20,000,000: component 'd1' of "
     "device 'd2' has 1,000 copies of device 'd1' (1,000,000 nodes each)", "component d[1000]: d1", 1),
    # counts of the wrong type
    ("count-float", program("", "instance a[2.0]: h"), "error: the count of instance 'a' must be an int, got a float (2)",
     "2.0", 1),
    ("count-zero", program("", "instance a[0]: h"), "error: the count of instance 'a' must be at least 1, got 0",
     "0]", 1),
    ("count-quantity", program("", "instance a[4 Gbps]: h"), "must be an int, got a bandwidth (4 Gbit/s)", "4 Gbps", 1),
    # nothing to build
    ("empty-fabric", "fabric f { }\n", "error: 'f' has no instances, so its graph is empty (0 nodes)", "fabric f", 1),
    ("fabric-of-lets", DEVICE + "fabric f {\n    let n = 4\n}\n", "'f' has no instances, so its graph is empty",
     "fabric f", 1),
    ("no-fabric", DEVICE, "error: t.igl declares no fabric; add 'fabric NAME { ... }'", "device", 1),
    ("unterminated-string", program('let s = "abc'), "error: syntax error: unexpected unterminated string", '"abc',
     1),
]


@pytest.mark.parametrize("name,text,message,marker,occurrence", CASES, ids=[c[0] for c in CASES])
def test_igl_program(tmp_path, capsys, name, text, message, marker, occurrence):
    path = write(tmp_path, "t.igl", text)
    code, out = cli(capsys, "check", path)
    assert code == 1
    assert message in out, out[:600]
    assert out.startswith(at(path, text, marker, occurrence) + ":"), out[:300]
    assert "Traceback" not in out


def test_comment_heavy_program_locates_an_error_after_100k_comment_lines(tmp_path, capsys):
    text = "".join(f"# comment {i} with some words to make the line longer than most\n" for i in range(100_000))
    text += DEVICE + "fabric f { instance a: hh }\n"
    path = write(tmp_path, "t.igl", text)
    code, out = cli(capsys, "check", path)
    assert code == 1
    assert out.startswith(f"{path}:100002:24: error: undefined name 'hh'") and "did you mean 'h'?" in out


def test_docstring_with_hash_lines_survives_comment_stripping(tmp_path, capsys):
    from infragraph.lang.describe import describe

    text = '"""Doc.\n\n# not a comment\n"""\n' + "\n" * 6000 + DEVICE + "fabric f { instance a: h }  # trailing\n"
    path = write(tmp_path, "t.igl", text)
    assert describe(str(path))["doc"] == "Doc.\n\n# not a comment"
    code, out = cli(capsys, "check", path)
    assert code == 0 and "ok (1 nodes, 0 edges)" in out


def test_max_nodes_flag_raises_and_lowers_the_limit(tmp_path, capsys):
    text = program("", "instance a[500]: h")
    path = write(tmp_path, "t.igl", text)
    code, out = cli(capsys, "check", path, "--max-nodes", "100")
    assert code == 1
    assert out.startswith(at(path, text, "instance a[") + ": instances[0]: error: the graph would have 500 nodes, "
                          "more than the limit of 100: instance 'a' is 500 copies of device 'h'")
    assert "raise the limit with --max-nodes" in out
    code, out = cli(capsys, "check", path, "--max-nodes", "1000")
    assert code == 0


def test_max_edges_flag(tmp_path, capsys):
    text = program("", "instance a[100]: h\n    a.x -- a.x many2many via link(1 Gbps)")
    path = write(tmp_path, "t.igl", text)
    code, out = cli(capsys, "validate", path, "--max-edges", "4000")
    assert code == 1
    assert out.startswith(at(path, text, "a.x --") + ": edges[0]: error: the graph would have 4,950 edges, more "
                          "than the limit of 4,000")
    assert cli(capsys, "validate", path, "--max-edges", "5000")[0] == 0


@pytest.mark.parametrize("value", ["0", "-5", "lots", "1.5"])
def test_max_nodes_option_must_be_a_positive_whole_number(tmp_path, capsys, value):
    path = write(tmp_path, "t.igl", program(""))
    code, out = cli(capsys, "check", path, "--max-nodes", value)
    assert code == 2
    assert f"argument --max-nodes: expected a positive whole number, got '{value}'" in out


def test_lint_applies_defines_to_blueprint_names(capsys):
    code, out = cli(capsys, "lint", "std.fabrics.clos", "-D", "radix=15")
    assert code == 2
    assert "clos.igl:" in out and "assertion failed: oversubscription [1] does not split radix 15" in out


def test_lint_for_htsim_agrees_with_translate(tmp_path, capsys):
    """A fabric the HTSim translator refuses fails `lint --for htsim` with the translator's own reason."""
    code, lint_out = cli(capsys, "lint", "--for", "htsim", "std.fabrics.torus")
    assert code == 1
    code_t, translate_out = cli(capsys, "translate", "--to", "htsim", "std.fabrics.torus", "-o", tmp_path / "b")
    assert code_t == 1
    reason = "not a fat tree HTSim can build: link 'npu.0.xpu.0' - 'npu.1.xpu.0' joins two NPUs"
    assert reason in lint_out and reason in translate_out


PAIRS = BASE.replace("npu.xpu -- npu.xpu ring via eth", "npu[0:8:2].xpu -- npu[1:8:2].xpu one2one via eth")


def test_translate_a_product_broken_after_a_linked_dimension(tmp_path, capsys):
    """NPUs linked in pairs: dimension 0 is found (a chain 0-1), dimension 1 is not; the refusal says
    where the chain ends (this path raised KeyError: 'direct' before), --approximate says why not."""
    p = write(tmp_path, "pairs.igl", PAIRS)
    code, out = cli(capsys, "translate", p, "--to", "astra-analytical", "-o", tmp_path / "b")
    assert code == 1 and "internal error" not in out
    assert f"{p}: error: the graph is not an RI/FC/SW product" in out
    assert "found so far: linked(2) (the chain of directly linked NPUs 0, 1 ends at NPU 1 ('npu.1.xpu.0'), " \
           "which has no link to NPU 2 ('npu.2.xpu.0'))" in out
    code, out = cli(capsys, "translate", p, "--to", "astra-analytical", "-o", tmp_path / "b", "--approximate")
    assert code == 1 and "NPU 'npu.2.xpu.0' cannot reach NPU 'npu.0.xpu.0'" in out and "check the wiring" in out


def test_translate_a_torus_with_a_failed_cable(tmp_path, capsys):
    """The engine bundle takes the failure (the torus's stated dims on the broken graph, as simulate runs
    them); the analytical one refuses, naming ns3."""
    cable = "npu.1.port.0--npu.2.port.1"
    code, out = cli(capsys, "translate", "std.fabrics.torus", "--to", "simengine", "-o", tmp_path / "e", "--fail", cable)
    assert code == 0, out
    assert "1 failed link(s)" in out and " --dims 4,4 " in (tmp_path / "e" / "run.sh").read_text()
    code, out = cli(capsys, "translate", "std.fabrics.torus", "--to", "astra-analytical", "-o", tmp_path / "a",
                    "--fail", cable)
    assert code == 1 and "--fail: error: astra-analytical cannot express failed or degraded links" in out


@pytest.mark.parametrize("define,message", [
    ("bandwidth=[50 ns]", "-D bandwidth:1:1: error: parameter 'bandwidth' of the program must be a list of bandwidth "
                          "values, but element [0] is a time (50 ns)"),
    ("latency=[500 ns, 50 GB/s]", "-D latency:1:1: error: parameter 'latency' of the program must be a list of time "
                                  "values, but element [1] is a bandwidth (400 Gbit/s)"),
])
def test_a_wrong_unit_in_a_stack_list_is_located_at_the_option(capsys, tmp_path, define, message):
    """Was 'stack.igl:55:34: error: parameter 'port_speed' of device 'npu' must be a bandwidth', located
    in the blueprint's source instead of at the -D value that was wrong."""
    code, out = cli(capsys, "compile", "std.fabrics.stack", "-D", define, "-D", 'shape="RI(4)_RI(2)"', "-o",
                    tmp_path / "g.json")
    assert code == 1 and out.startswith(message), out
