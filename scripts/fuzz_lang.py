"""Fuzz the .igl front end and compiler with hypothesis: no exception other than InfraGraphError
may escape, whatever the input. Not part of the default test run (it runs for minutes).

Usage: python scripts/fuzz_lang.py [--seconds 180]
Inputs: random text over the language's alphabet, mutations of the examples (token deletions,
duplications, swaps, random insertions), run through compile_source and format_source.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from infragraph.errors import InfraGraphError  # noqa: E402
from infragraph.graph import expand  # noqa: E402
from infragraph.lang import compile_source  # noqa: E402
from infragraph.lang.fmt import format_source  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEEDS = [p.read_text() for p in sorted((ROOT / "examples").glob("*.igl"))] + [(ROOT / "benchmarks/clos3.igl").read_text()]
PIECES = ["{", "}", "[", "]", "(", ")", "--", "..", ":", ",", ";", "=", "*", "//", "-", "+", "%", "**", ".",
          "0", "1", "-1", "99999999999", "2.5", "400 Gbps", "5 ns", "1 MiB", '"s"', '"""d"""', "#c\n", "\n",
          "x", "npu", "port", "via", "ring", "many2many", "for i in 0..3", "if", "then", "else", "let",
          "assert", "fabric", "device", "link", "component", "instance", "include", "import", "annotate",
          "auto", "true", "not", "and", "`q`", "fn", "param", "0..n", "link(1 Gbps)", "custom(\"t\")"]


def check(text: str) -> None:
    try:
        expand(compile_source(text, "fuzz.igl", search_path=[]))
    except InfraGraphError:
        pass
    try:
        format_source(text, "fuzz.igl")
    except InfraGraphError:
        pass


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    toks = text.split(" ")
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(toks) - 1))
        op = draw(st.integers(0, 3))
        if op == 0:
            del toks[i]
        elif op == 1:
            toks.insert(i, draw(st.sampled_from(PIECES)))
        elif op == 2:
            toks.insert(i, toks[draw(st.integers(0, len(toks) - 1))])
        else:
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        if not toks:
            toks = [""]
    return " ".join(toks)


inputs = st.one_of(mutated(), st.lists(st.sampled_from(PIECES), max_size=40).map(" ".join), st.text(max_size=200))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=180)
    args = ap.parse_args()
    count = 0

    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(inputs)
    def fuzz(text):
        nonlocal count
        count += 1
        check(text)

    start = time.monotonic()
    while time.monotonic() - start < args.seconds:
        fuzz()  # a batch of fresh random inputs; an escaping exception fails with the input shown
    print(f"fuzzed {count:,} inputs in {time.monotonic() - start:.0f} s: no exception escaped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
