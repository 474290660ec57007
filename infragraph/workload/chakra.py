"""Chakra execution traces through MLCommons' own package (`mlc-chakra`, imported as `chakra`).

One place for the schema and the stream format, so every reader and writer in the toolchain
(the workload replay, the workload generator, the translators' bundle writer) speaks exactly the
bytes ASTRA-sim's feeder reads:
- `et_def_pb2`: Chakra's schema (Node, GlobalMetadata, AttributeProto, NodeType,
  CollectiveCommType); imported lazily because only ET reading/writing needs protobuf;
- `encode` / `decode`: Chakra's protolib helpers (a varint length prefix, then the message);
- `text_converter`: Chakra's converter from ASTRA-sim's text workloads (MICRO / DATA / MODEL /
  HYBRID_*), used by `infragraph simulate --workload FILE.txt`.
"""

from __future__ import annotations

import io
from functools import lru_cache
from types import ModuleType
from typing import Any, Iterator

from ..errors import Diagnostic, InfraGraphError, Location, error


def located(file: str, message: str, line: int | None = None, column: int | None = None,
            hint: str | None = None) -> InfraGraphError:
    """An error located at a workload file (an ET, a comm-group JSON, a text workload or a spec)."""
    return InfraGraphError(Diagnostic(message, Location(file=str(file), line=line, column=column), hint))

MAX_U64 = 2**64 - 1  # Chakra's uint64 fields (duration_micros, num_ops, tensor_size, ...)
MAX_I64 = 2**63 - 1  # Chakra's int64_val attributes (comm_size)
ET_VERSION = "0.0.4"  # what ASTRA-sim's shipped microbenchmark traces carry in GlobalMetadata.version


@lru_cache(maxsize=1)
def schema() -> ModuleType:
    """Chakra's generated schema module (`chakra.schema.protobuf.et_def_pb2`)."""
    try:
        from chakra.schema.protobuf import et_def_pb2
    except ImportError as exc:  # pragma: no cover - a broken install, not an input error
        raise error(f"the Chakra package (mlc-chakra) is not importable: {exc}",
                    hint="pip install mlc-chakra (a dependency of infragraph-toolchain)") from None
    return et_def_pb2


def encode(message: Any) -> bytes:
    """One length-delimited message, written by Chakra's protolib."""
    from chakra.src.third_party.utils.protolib import encodeMessage

    buf = io.BytesIO()
    encodeMessage(buf, message)
    return buf.getvalue()


def decode_stream(data: bytes, where: str) -> Iterator[bytes]:
    """The payloads of a length-delimited stream. Chakra's protolib stops silently at a truncated
    message; here a truncated or garbled stream is a located error (`where` names the file)."""
    pos, n = 0, len(data)
    while pos < n:
        size, shift, start = 0, 0, pos
        while True:
            if pos >= n:
                raise located(where, f"byte {start}: truncated length prefix; the file is not a Chakra ET "
                            "(a stream of length-delimited protobuf messages)")
            b = data[pos]
            pos += 1
            size |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
            if shift > 63:
                raise located(where, f"byte {start}: length prefix longer than 10 bytes; not a Chakra ET")
        if pos + size > n:
            raise located(where, f"byte {start}: message of {size} bytes runs past the end of the file "
                        f"({n - pos} left); the trace is truncated")
        yield data[pos:pos + size]
        pos += size


def text_converter() -> type:
    """Chakra's TextConverter class (ASTRA-sim text workload -> one ET per NPU)."""
    from chakra.src.converter.text_converter import TextConverter

    return TextConverter


# Chakra NodeType numbers by the kind names the toolchain uses (infragraph.workload.trace.KINDS inverted)
NODE_TYPES = {"invalid": 0, "metadata": 1, "mem-load": 2, "mem-store": 3, "compute": 4, "send": 5, "recv": 6,
              "collective": 7}
COMM_TYPES = {"all-reduce": 0, "all-gather": 2, "all-to-all": 6, "reduce-scatter": 7}


def make_node(node_id: int, name: str, kind: str, deps: tuple[int, ...] = (), ctrl_deps: tuple[int, ...] = (),
              duration_us: int = 0, **attrs: int | bool | str) -> Any:
    """A Chakra Node: `kind` as in NODE_TYPES; attrs by Chakra's names (comm_type may be given as our
    collective name). Ints are written as int64_val, bools as bool_val, strings as string_val."""
    S = schema()
    n = S.Node(id=node_id, name=name, type=NODE_TYPES[kind], duration_micros=duration_us)
    n.data_deps.extend(deps)
    n.ctrl_deps.extend(ctrl_deps)
    if isinstance(attrs.get("comm_type"), str):
        attrs["comm_type"] = COMM_TYPES[attrs["comm_type"]]
    for key, value in attrs.items():
        if isinstance(value, bool):
            n.attr.add(name=key, bool_val=value)
        elif isinstance(value, int):
            n.attr.add(name=key, int64_val=value)
        else:
            n.attr.add(name=key, string_val=str(value))
    return n


def et_bytes(nodes: list[Any]) -> bytes:
    """One rank's ET file: GlobalMetadata, then the nodes, each length-delimited."""
    return encode(schema().GlobalMetadata(version=ET_VERSION)) + b"".join(encode(n) for n in nodes)
