"""Chakra execution traces (ETs) for one collective: the workload every ASTRA-sim bundle carries.

ASTRA-sim reads `<prefix>.<npu>.et` for every NPU. Each file is two length-delimited (varint-prefixed)
protobuf messages: `GlobalMetadata` (version "0.0.4") and one `Node` of type COMM_COLL_NODE with the
attributes `is_cpu_op` (bool false), `comm_type` (int64) and `comm_size` (int64 bytes per NPU; for
all-gather the shard each NPU contributes). That is exactly the shape of ASTRA-sim's shipped
microbenchmark workloads, which these files reproduce byte for byte (tests/translators/test_chakra_et.py).

The messages are Chakra's own (MLCommons' `mlc-chakra` package, through infragraph.workload.chakra),
so the schema is never restated here. A oneof member set to 0/false is still written, which ASTRA-sim
relies on (it looks `comm_type` up by name).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import error
from ..workload.chakra import ET_VERSION, MAX_I64, encode, schema

# our collective name -> (Chakra CollectiveCommType, ASTRA-sim's file/node stem)
COLLECTIVES: dict[str, tuple[int, str]] = {
    "all-reduce": (0, "all_reduce"),
    "all-gather": (2, "all_gather"),
    "all-to-all": (6, "all_to_all"),
    "reduce-scatter": (7, "reduce_scatter"),
}
DEFAULT_COLLECTIVE = "all-reduce"
DEFAULT_SIZE = "1MiB"  # as `infragraph simulate`; packet-level backends (HTSim, ns-3) finish it in seconds


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


@dataclass(frozen=True)
class Workload:
    """One collective on every NPU: what `translate --collective/--size` asks for."""

    collective: str = DEFAULT_COLLECTIVE
    size_bytes: int = 1 << 20
    files: bool = True  # False (`translate --no-workload`): no .et files; run.sh then needs WORKLOAD

    def __post_init__(self) -> None:
        if self.collective not in COLLECTIVES:
            raise error(f"collective '{self.collective}' has no Chakra workload here; expected one of: "
                        f"{', '.join(COLLECTIVES)}")
        if not isinstance(self.size_bytes, int) or not 0 < self.size_bytes <= MAX_I64:
            raise error(f"collective size {self.size_bytes!r} bytes is out of range; expected a whole number of "
                        f"bytes from 1 to {MAX_I64} (int64)")

    @property
    def stem(self) -> str:
        """ASTRA-sim's file stem for this collective (`all_reduce` -> all_reduce.<npu>.et)."""
        return COLLECTIVES[self.collective][1]

    def node_name(self, num_npus: int) -> str:
        return f"{self.stem}_{num_npus}npus_{self.size_bytes}B"

    def describe(self) -> str:
        return f"{self.collective} of {self.size_bytes:,} bytes per NPU (comm_size)"


def _node(npu: int, node_name: str, comm_type: int, comm_size: int) -> bytes:
    node = schema().Node(id=npu, name=node_name, type=schema().COMM_COLL_NODE)
    node.attr.add(name="is_cpu_op", bool_val=False)
    node.attr.add(name="comm_type", int64_val=comm_type)
    node.attr.add(name="comm_size", int64_val=comm_size)
    return node.SerializeToString()


def _metadata() -> bytes:
    return encode(schema().GlobalMetadata(version=ET_VERSION))


def et_file(npu: int, node_name: str, comm_type: int, comm_size: int) -> bytes:
    """One NPU's trace: GlobalMetadata, then the collective node (id = the NPU's rank)."""
    return _metadata() + _varint(len(body := _node(npu, node_name, comm_type, comm_size))) + body


def workload_files(w: Workload, num_npus: int, folder: str = "workload", node_name: str | None = None
                   ) -> dict[str, bytes]:
    """`folder/<stem>.<npu>.et` for every NPU (the node named `node_name`, default Workload.node_name).

    Only the node id differs between the files, so the node is serialized once with id 0 (which
    proto3 leaves out) and each NPU's id field (field 1, first in protobuf's canonical order) is put
    in front of it; the ids' varints are built with numpy, a group of equal length at a time (262,144
    NPUs take a fraction of a second)."""
    if not w.files:
        return {}
    head = _metadata()
    rest = _node(0, node_name or w.node_name(num_npus), COLLECTIVES[w.collective][0], w.size_bytes)
    out = {f"{folder}/{w.stem}.0.et": head + _varint(len(rest)) + rest} if num_npus else {}
    ids = np.arange(1, num_npus, dtype=np.uint64)
    length = 1
    while ids.size:
        mine = ids[ids < np.uint64(1) << np.uint64(7 * length)]
        ids = ids[mine.size:]
        groups = np.stack([(mine >> np.uint64(7 * k)) & np.uint64(0x7F) for k in range(length)], axis=1).astype(np.uint8)
        groups[:, :-1] |= 0x80
        buf = groups.tobytes()
        prefix = head + _varint(1 + length + len(rest)) + b"\x08"
        for j, npu in enumerate(mine.tolist()):
            out[f"{folder}/{w.stem}.{npu}.et"] = prefix + buf[j * length:(j + 1) * length] + rest
        length += 1
    return out
