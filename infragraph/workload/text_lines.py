"""Check an ASTRA-sim text workload's layer lines before Chakra's converter sees them.

A layer line is 12 fields: name, reserved, then compute time (µs), comm type and comm size (bytes)
for the forward pass, the input gradient and the weight gradient, then the update time (ns).
Chakra's `TextConverter` takes `int()` of the numbers and writes them into protobuf fields: a
negative or too large number comes back as "Value out of range" without a line, a negative compute
time in a MICRO workload passes unread, and a misspelt comm type (`ALLGATHR`) silently becomes an
all-reduce (its `get_comm_type` returns 0, ALL_REDUCE, for any name it does not know). Here every
field is checked where it is written: file:line:column, what was found, what was expected.
"""

from __future__ import annotations

import re

from ..errors import did_you_mean
from .chakra import MAX_I64, MAX_U64, located

FIELDS = 12
COMPUTE = {2: "forward compute time", 5: "input-gradient compute time", 8: "weight-gradient compute time"}
COMM_TYPE = {3: "forward comm type", 6: "input-gradient comm type", 9: "weight-gradient comm type"}
COMM_SIZE = {4: "forward comm size", 7: "input-gradient comm size", 10: "weight-gradient comm size"}
UPDATE = 11
# The names Chakra's converter maps to a collective; NONE: no collective (in DATA / MODEL / HYBRID).
COMM_TYPES = ("ALLREDUCE", "ALLGATHER", "REDUCESCATTER", "ALLTOALL", "NONE")


def check_layer_lines(where: str, lines: list[str]) -> None:
    """Every non-blank layer line (the file's lines 3 on) as described above; the first bad field
    is a located error."""
    for number, text in enumerate(lines[2:], 3):
        fields = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
        if not fields:
            continue
        if len(fields) < FIELDS:
            raise located(where, f"layer line has {len(fields)} fields; expected {FIELDS}: name, reserved, then compute "
                                 "time, comm type and comm size for forward, input gradient and weight gradient, then "
                                 "the update time", number, 1)
        for i, what in COMM_TYPE.items():
            name, column = fields[i]
            if name not in COMM_TYPES:
                raise located(where, f"{what} '{name}' is not one Chakra's converter knows (it would run it as an "
                                     f"all-reduce); expected one of: {', '.join(COMM_TYPES)}", number, column,
                              did_you_mean(name, COMM_TYPES))
        for i, what, hi, unit in ([(i, w, MAX_U64, "µs") for i, w in COMPUTE.items()]
                                  + [(i, w, MAX_I64, "bytes") for i, w in COMM_SIZE.items()]
                                  + [(UPDATE, "update time", MAX_U64, "ns")]):
            value, column = fields[i]
            if not (value.isdigit() and int(value) <= hi):
                raise located(where, f"{what} '{value}' is not a whole number of {unit} from 0 to {hi:,}",
                              number, column)
        for i, what in COMM_SIZE.items():
            value, column = fields[i]
            kind = fields[i - 1][0]
            if kind != "NONE" and int(value) == 0:
                raise located(where, f"{what} is 0 bytes for its {kind}; expected at least 1 byte, or comm type NONE",
                              number, column)
