"""Small workload-sweep specs shared by the tests of infragraph/sweep (a 4-NPU fabric, a tiny
transformer: each point replays in well under a second)."""

from __future__ import annotations

from pathlib import Path

# The fabric and the model every small workload spec shares (here and in tests/badinput).
TINY_MODEL = """\
source: std.fabrics.stack
workload:
  layers: 2
  hidden: 256
  heads: 4
  seq: 128
  vocab: 100
  global_batch: 4
"""

TINY = "name: tiny workload sweep\n" + TINY_MODEL + """\
axes:
  shape: "FC(2)_RI(2)"
  tp: [2, 4]
  bw: [50, 100]
derive:
  dp: "4 // tp"
  bandwidth: "[f'{bw} GB/s', '50 GB/s']"
"""


def write(tmp_path: Path, text: str = TINY, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p
