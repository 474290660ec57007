"""A value of the wrong type in an .igl program or a -D override, as a user would write it: the
message names the value briefly (its type and name, a long list cut short), never Python's repr of
an internal object (a fabric's was 300 kB of syntax tree); located, exit 1, no traceback."""

from __future__ import annotations

import pytest

from .input_cases import at, cli, write

HOST = "device h { component x: xpu }\n"
CLOS = "import std.fabrics.clos\n" + HOST
LONG = "[i for i in 0..1000]"

# (id, program, message, marker the error points at)
PROGRAMS = [
    ("fabric-as-device", CLOS + "fabric c { instance c: clos.clos(16) }\n", "expected a device, got a fabric (clos)",
     "(16)"),
    ("fabric-template-as-device", CLOS + "fabric c { instance c: clos.clos }\n",
     "expected a device, got a fabric (clos)", ".clos }"),
    ("module-as-device", CLOS + "fabric c { instance c: clos }\n", "expected a device, got a module (clos)", "clos }"),
    ("fabric-as-link", CLOS + "fabric c {\n instance a[2]: h\n a.x -- a.x via clos.clos(16)\n}\n",
     "'via' needs a link, got a fabric (clos)", "(16)"),
    ("device-as-link", HOST + "fabric c {\n instance a[2]: h\n a.x -- a.x via h\n}\n",
     "'via' needs a link, got a device (h)", "h\n}"),
    ("device-included", HOST + "fabric c { include h as p }\n", "include needs a fabric, got a device (h)", "h as"),
    ("fabric-as-name", CLOS + "fabric c { instance a[2]: h { name = clos.clos(16) } }\n",
     "got a fabric (clos)", "(16)"),
    ("list-as-count", HOST + "fabric c { instance a[[1, 2, 3]]: h }\n",
     "the count of instance 'a' must be an int, got a list ([1, 2, 3])", "[1, 2"),
    ("long-list-as-count", HOST + f"fabric c {{ instance a[{LONG}]: h }}\n",
     "must be an int, got a list ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, …, 1000 elements])",
     LONG),
    ("time-as-count", HOST + "fabric c { instance a[4 ns]: h }\n", "must be an int, got a time (4 ns)", "4 ns"),
    ("string-as-bandwidth", HOST + 'fabric c {\n instance a[2]: h\n a.x -- a.x via link("400G", 10 ns)\n}\n',
     'link bandwidth must be a bandwidth such as 400 Gbps, got a string ("400G")', "link("),
    ("list-as-bandwidth", "link e { bandwidth = [1, 2]; latency = 5 ns }\n" + HOST + "fabric c { instance a[2]: h }\n",
     "bandwidth must be a bandwidth such as 400 Gbps, got a list ([1, 2])", "[1, 2]"),
    ("list-compared-with-a-time", HOST + f"fabric c {{\n let z = {LONG} < 3 ns\n instance a[2]: h\n}}\n",
     "cannot apply '<' to list and time", "< 3 ns"),
    ("long-assertion-message", HOST + f"fabric c {{\n assert false, {LONG}\n instance a[2]: h\n}}\n",
     "assertion failed: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, …, 1000 elements]", "assert"),
    ("long-string-to-int", HOST + f'fabric c {{ instance a[int("{"x" * 500}")]: h }}\n',
     'int() cannot convert "xxxxxxxxxx', '("x'),
]


def _short_and_clean(out: str) -> None:
    assert "Traceback" not in out and "Template(" not in out and "Pos(" not in out, out[:300]
    assert max(map(len, out.splitlines())) < 300, max(out.splitlines(), key=len)[:300]


@pytest.mark.parametrize("name, text, message, marker", PROGRAMS, ids=[c[0] for c in PROGRAMS])
def test_a_value_of_the_wrong_type_is_named_briefly(tmp_path, capsys, name, text, message, marker):
    path = write(tmp_path, "c.igl", text)
    code, out = cli(capsys, "check", path)
    assert code == 1
    assert out.startswith(at(path, text, marker) + ": error: "), out[:300]
    assert message in out.splitlines()[0], out[:300]
    _short_and_clean(out)


PROGRAM = "param n: int = 4\nparam bw: bandwidth = 100 Gbps\n" + HOST + \
    "fabric t {\n instance a[n]: h\n a.x -- a.x ring via link(bw, 10 ns)\n}\n"

# (-D value, message): each at "-D NAME:1:COL"
DEFINES = [
    ("n=2.5", "-D n:1:1: error: parameter 'n' of the program must be an int, got a float (2.5)"),
    ("n=[1, 2]", "-D n:1:1: error: parameter 'n' of the program must be an int, got a list ([1, 2])"),
    ("n=4 ns", "-D n:1:1: error: parameter 'n' of the program must be an int, got a time (4 ns)"),
    ('n="4"', "-D n:1:1: error: parameter 'n' of the program must be an int, got a string (\"4\")"),
    ("n=true", "-D n:1:1: error: parameter 'n' of the program must be an int, got a bool (true)"),
    (f"n={list(range(500))}", "-D n:1:1: error: parameter 'n' of the program must be an int, got a list "
                              "([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, …, 500 elements])"),
    ('bw="fast"', "-D bw:1:1: error: parameter 'bw' of the program must be a bandwidth, got a string (\"fast\")"),
    ("bw=100", "-D bw:1:1: error: parameter 'bw' of the program must be a bandwidth, got an int (100)"),
    ("bw=10 ns", "-D bw:1:1: error: parameter 'bw' of the program must be a bandwidth, got a time (10 ns)"),
    ("n=std.fabrics.clos", "-D n:1:1: error: -D n=std.fabrics.clos: not a valid value for an int parameter: "
                           "undefined name 'std'"),
    (f"n={'x' * 400}", f"-D n:1:1: error: -D n={'x' * 60}…: not a valid value for an int parameter"),
]


@pytest.mark.parametrize("define, message", DEFINES, ids=[d[:20] for d, _ in DEFINES])
def test_a_define_of_the_wrong_type_is_named_briefly(tmp_path, capsys, define, message):
    code, out = cli(capsys, "check", write(tmp_path, "t.igl", PROGRAM), "-D", define)
    assert code == 1
    assert out.startswith(message), out[:300]
    _short_and_clean(out)


@pytest.mark.parametrize("call, message", [
    ("len(clos.clos(16))", "error: len() needs a list, range or string, got a fabric (clos)"),
    ("abs([1, 2])", "error: abs() needs a number, got a list ([1, 2])"),
    ("floor(3 ns)", "error: floor() needs a number, got a time (3 ns)"),
    ("parse_shape(4)", "error: parse_shape() needs a string, got an int (4)"),
])
def test_a_builtin_names_the_value_it_cannot_take(tmp_path, capsys, call, message):
    """Was "len(): len() needs a list, range or string, got fabric": the name twice, no article."""
    text = CLOS + f"fabric c {{\n let z = {call}\n instance a[2]: h\n}}\n"
    path = write(tmp_path, "c.igl", text)
    code, out = cli(capsys, "check", path)
    assert code == 1 and out.startswith(at(path, text, call[call.index("("):]) + ": " + message), out[:300]
    _short_and_clean(out)
