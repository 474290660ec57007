"""Chakra execution traces (ETs) for one collective: the workload every ASTRA-sim bundle carries.

ASTRA-sim reads `<prefix>.<npu>.et` for every NPU. Each file is two length-delimited (varint-prefixed)
protobuf messages: `GlobalMetadata` (version "0.0.4") and one `Node` of type COMM_COLL_NODE with the
attributes `is_cpu_op` (bool false), `comm_type` (int64) and `comm_size` (int64 bytes per NPU; for
all-gather the shard each NPU contributes). That is exactly the shape of ASTRA-sim's shipped
microbenchmark workloads, which these files reproduce byte for byte (tests/test_translators_chakra_et.py).

The schema is ours: only the fields we write, built as descriptors here (no .proto compiler at install
time). Field numbers and enum values are what make the bytes Chakra's: GlobalMetadata.version = 1;
Node.id = 1, name = 2, type = 3, attr = 10; AttributeProto.name = 1, and in its `value` oneof
int64_val = 9, bool_val = 27; NodeType COMM_COLL_NODE = 7; CollectiveCommType ALL_REDUCE 0,
ALL_GATHER 2, ALL_TO_ALL 6, REDUCE_SCATTER 7. A oneof member set to 0/false is still written, which
ASTRA-sim relies on (it looks `comm_type` up by name).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import error

ET_VERSION = "0.0.4"
COMM_COLL_NODE = 7
# our collective name -> (Chakra CollectiveCommType, ASTRA-sim's file/node stem)
COLLECTIVES: dict[str, tuple[int, str]] = {
    "all-reduce": (0, "all_reduce"),
    "all-gather": (2, "all_gather"),
    "all-to-all": (6, "all_to_all"),
    "reduce-scatter": (7, "reduce_scatter"),
}
DEFAULT_COLLECTIVE = "all-reduce"
DEFAULT_SIZE = "1MiB"  # as `infragraph simulate`; packet-level backends (HTSim, ns-3) finish it in seconds
MAX_COMM_SIZE = 2**63 - 1  # int64


@lru_cache(maxsize=1)
def _messages() -> tuple[Any, Any]:
    """(GlobalMetadata, Node) message classes from descriptors built here (protobuf imported lazily:
    only bundle writing needs it)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    F = descriptor_pb2.FieldDescriptorProto
    fd = descriptor_pb2.FileDescriptorProto(name="infragraph_chakra_et.proto", package="infragraph.chakra", syntax="proto3")

    def message(name: str, fields: list[tuple[str, int, int, str | None, int | None]]) -> None:
        m = fd.message_type.add(name=name)
        for fname, number, ftype, type_name, oneof in fields:
            f = m.field.add(name=fname, number=number, type=ftype,
                            label=F.LABEL_REPEATED if fname == "attr" else F.LABEL_OPTIONAL)
            if type_name:
                f.type_name = type_name
            if oneof is not None:
                f.oneof_index = oneof
        if any(x[4] is not None for x in fields):
            m.oneof_decl.add(name="value")

    message("AttributeProto", [("name", 1, F.TYPE_STRING, None, None), ("int64_val", 9, F.TYPE_INT64, None, 0),
                               ("bool_val", 27, F.TYPE_BOOL, None, 0)])
    message("GlobalMetadata", [("version", 1, F.TYPE_STRING, None, None)])
    message("Node", [("id", 1, F.TYPE_UINT64, None, None), ("name", 2, F.TYPE_STRING, None, None),
                     ("type", 3, F.TYPE_INT32, None, None),  # Chakra's NodeType enum: same varint encoding
                     ("attr", 10, F.TYPE_MESSAGE, ".infragraph.chakra.AttributeProto", None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    get = message_factory.GetMessageClass
    return (get(pool.FindMessageTypeByName("infragraph.chakra.GlobalMetadata")),
            get(pool.FindMessageTypeByName("infragraph.chakra.Node")))


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _delimited(payload: bytes) -> bytes:
    """A varint length prefix, then the message (protobuf's length-delimited stream)."""
    return _varint(len(payload)) + payload


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
        if not isinstance(self.size_bytes, int) or not 0 < self.size_bytes <= MAX_COMM_SIZE:
            raise error(f"collective size {self.size_bytes!r} bytes is out of range; expected a whole number of "
                        f"bytes from 1 to {MAX_COMM_SIZE} (int64)")

    @property
    def stem(self) -> str:
        """ASTRA-sim's file stem for this collective (`all_reduce` -> all_reduce.<npu>.et)."""
        return COLLECTIVES[self.collective][1]

    def node_name(self, num_npus: int) -> str:
        return f"{self.stem}_{num_npus}npus_{self.size_bytes}B"

    def describe(self) -> str:
        return f"{self.collective} of {self.size_bytes:,} bytes per NPU (comm_size)"


def _node(npu: int, node_name: str, comm_type: int, comm_size: int) -> bytes:
    node = _messages()[1](id=npu, name=node_name, type=COMM_COLL_NODE)
    node.attr.add(name="is_cpu_op", bool_val=False)
    node.attr.add(name="comm_type", int64_val=comm_type)
    node.attr.add(name="comm_size", int64_val=comm_size)
    return node.SerializeToString()


def _metadata() -> bytes:
    return _delimited(_messages()[0](version=ET_VERSION).SerializeToString())


def et_file(npu: int, node_name: str, comm_type: int, comm_size: int) -> bytes:
    """One NPU's trace: GlobalMetadata, then the collective node (id = the NPU's rank)."""
    return _metadata() + _delimited(_node(npu, node_name, comm_type, comm_size))


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
    out = {f"{folder}/{w.stem}.0.et": head + _delimited(rest)} if num_npus else {}
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
