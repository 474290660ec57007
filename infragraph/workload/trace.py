"""Read and check a workload: one Chakra ET per NPU plus its communicator groups.

`read_et_set(prefix, num_npus, comm_groups)` reads `<prefix>.<npu>.et` for every NPU;
`read_text(path, num_npus)` converts an ASTRA-sim text workload with Chakra's converter first.
Either way the result is a `Workload`: per NPU, its nodes by id, checked so that a replay can
never hang on it. Every inconsistency ASTRA-sim would turn into a hang, an abort or a silent early
finish is a located error here (file, node id and name; what was found, what was expected):
- a missing or unreadable rank file, or a file for a rank the fabric does not have;
- a dependency on a node id the file does not hold, or a dependency cycle (the cycle is named);
- a collective on a group the comm-group file does not define, a group naming a rank outside the
  fabric, an NPU issuing a collective on a group it is not a member of, or the members of a group
  disagreeing on the sequence of collectives they issue on it (type and size, in issue order);
- a send without its receive (or a receive without its send), matched as ASTRA-sim's analytical
  network matches them: by (source, destination, tag, size) in order.

The files are decoded by the engine (simengine/src/chakra_reader.rs) into columns (`Columns`), with
the field numbers read off mlc-chakra's descriptors; any file it cannot prove ordinary goes to the
Python reader here (`_read_file`, protobuf through mlc-chakra's generated classes), which gives the
located error; the checks across ranks run vectorized first and, when they could fail, as written
here (`_check_communication`), for the message.

Units: Chakra's `duration_micros` is in µs (ASTRA-sim multiplies by 1,000; 0 means 1 ns), sizes
in bytes, `num_ops` in floating-point operations.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from ..uniques import dense_ids
from .chakra import MAX_U64, decode_stream, located, schema, text_converter
from .text_lines import check_layer_lines

# Chakra NodeType values -> our kind names
KINDS = {0: "invalid", 1: "metadata", 2: "mem-load", 3: "mem-store", 4: "compute", 5: "send", 6: "recv",
         7: "collective"}
# Chakra CollectiveCommType values the replay runs -> infragraph.simulate collective names
COLLECTIVE_TYPES = {0: "all-reduce", 2: "all-gather", 6: "all-to-all", 7: "reduce-scatter"}


@dataclass
class Node:
    """One ET node, with the attributes the replay uses (absent attributes as ASTRA-sim defaults them)."""

    id: int
    name: str
    kind: str
    deps: tuple[int, ...]  # data and control dependencies (ASTRA-sim honours both)
    duration_ns: int = 1  # replay time: duration_micros * 1000, or 1 ns when it is 0
    is_cpu_op: bool = False
    num_ops: int = 0
    tensor_size: int = 0
    collective: str | None = None
    comm_size: int = 0
    group: int = 0  # pg_name; 0 = every NPU
    src: int = -1
    dst: int = -1
    tag: int = 0


KIND_CODES = {v: k for k, v in KINDS.items()}
COLLECTIVE_CODES = {v: k for k, v in COLLECTIVE_TYPES.items()}


@dataclass
class Columns:
    """Every NPU's nodes as columns: NPU r's rows are npu_ptr[r]:npu_ptr[r + 1], in ascending id.
    `kind` holds Chakra NodeType numbers, `comm_type` CollectiveCommType numbers, `deps` row
    indices (dep_ptr in CSR), src/dst -1 off point-to-point nodes; names as UTF-8 in one blob."""

    npu_ptr: np.ndarray
    id: np.ndarray
    kind: np.ndarray
    is_cpu: np.ndarray
    duration_ns: np.ndarray  # f64: duration_micros x 1,000, or 1 when it is 0
    num_ops: np.ndarray
    tensor_size: np.ndarray
    comm_size: np.ndarray
    comm_type: np.ndarray
    tag: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    group: np.ndarray
    dep_ptr: np.ndarray
    deps: np.ndarray
    name_ptr: np.ndarray
    names: bytes

    @cached_property
    def _name_bounds(self) -> list[int]:
        """name_ptr as Python ints: `name` runs once per collective of a replay, and indexing numpy
        scalars was most of its cost."""
        return self.name_ptr.tolist()

    def name(self, row: int) -> str:
        b = self._name_bounds
        return self.names[b[row]:b[row + 1]].decode("utf-8")

    def node(self, row: int) -> Node:
        kind = KINDS[int(self.kind[row])]
        comm = kind in ("collective", "send", "recv")
        return Node(id=int(self.id[row]), name=self.name(row), kind=kind,
                    deps=tuple(int(self.id[d]) for d in self.deps[self.dep_ptr[row]:self.dep_ptr[row + 1]]),
                    duration_ns=int(self.duration_ns[row]), is_cpu_op=bool(self.is_cpu[row]),
                    num_ops=int(self.num_ops[row]), tensor_size=int(self.tensor_size[row]),
                    collective=COLLECTIVE_TYPES[int(self.comm_type[row])] if kind == "collective" else None,
                    comm_size=int(self.comm_size[row]) if comm else 0, group=int(self.group[row]),
                    src=int(self.src[row]), dst=int(self.dst[row]), tag=int(self.tag[row]) if comm else 0)


def columns_of(nodes: list[dict[int, Node]]) -> Columns:
    """The columns of per-NPU node dicts (what the Python reader builds)."""
    rows = [n for per in nodes for _, n in sorted(per.items())]
    npu_ptr = np.cumsum([0] + [len(per) for per in nodes])
    index = [{nid: int(npu_ptr[r]) + k for k, nid in enumerate(sorted(per))} for r, per in enumerate(nodes)]
    deps, dep_ptr = [], [0]
    for r, per in enumerate(nodes):
        for _, n in sorted(per.items()):
            deps.extend(index[r][d] for d in n.deps)
            dep_ptr.append(len(deps))
    names = [n.name.encode("utf-8") for n in rows]
    col = lambda f, dt: np.asarray([f(n) for n in rows], dtype=dt)
    return Columns(npu_ptr=npu_ptr.astype(np.int64), id=col(lambda n: n.id, np.uint64),
                   kind=col(lambda n: KIND_CODES[n.kind], np.uint8), is_cpu=col(lambda n: n.is_cpu_op, bool),
                   duration_ns=col(lambda n: n.duration_ns, np.float64), num_ops=col(lambda n: n.num_ops, np.uint64),
                   tensor_size=col(lambda n: n.tensor_size, np.uint64), comm_size=col(lambda n: n.comm_size, np.uint64),
                   comm_type=col(lambda n: COLLECTIVE_CODES.get(n.collective, 0), np.uint32),
                   tag=col(lambda n: n.tag, np.uint32), src=col(lambda n: n.src, np.int64),
                   dst=col(lambda n: n.dst, np.int64), group=col(lambda n: n.group, np.int64),
                   dep_ptr=np.asarray(dep_ptr, dtype=np.int64), deps=np.asarray(deps, dtype=np.int64),
                   name_ptr=np.cumsum([0] + [len(x) for x in names]).astype(np.int64), names=b"".join(names))


@dataclass
class Workload:
    """Every NPU's nodes (columns; by id in `nodes`) and the communicator groups (id -> ranks)."""

    source: str
    cols: Columns
    groups: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def num_npus(self) -> int:
        return len(self.cols.npu_ptr) - 1

    @cached_property
    def nodes(self) -> list[dict[int, Node]]:
        """Per NPU, its nodes by id (built on first use: the replay reads the columns)."""
        c = self.cols
        return [{int(c.id[i]): c.node(i) for i in range(int(c.npu_ptr[r]), int(c.npu_ptr[r + 1]))}
                for r in range(self.num_npus)]

    @cached_property
    def _everyone(self) -> tuple[int, ...]:
        return tuple(range(self.num_npus))

    def members(self, group: int) -> tuple[int, ...]:
        return self.groups[group] if group else self._everyone


def _attr_value(a) -> object:
    which = a.WhichOneof("value")
    return None if which is None else getattr(a, which)


def _int_attr(attrs: dict, name: str, default: int, where: str, lo: int = 0, hi: int = MAX_U64) -> int:
    v = attrs.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise located(where, f"attribute '{name}' is {v!r}; expected a whole number from {lo} to {hi}")
    return v


def _node(msg, where_file: str) -> Node:
    where = f"{where_file}: node {msg.id} '{msg.name}'"
    kind = KINDS.get(int(msg.type))
    if kind is None:
        raise located(where, f"node type {msg.type} is not a Chakra NodeType; expected one of "
                    f"{', '.join(f'{k} ({v})' for k, v in KINDS.items())}")
    attrs = {a.name: _attr_value(a) for a in msg.attr}
    is_cpu = attrs.get("is_cpu_op", False)
    if not isinstance(is_cpu, bool):
        raise located(where, f"attribute 'is_cpu_op' is {is_cpu!r}; expected a bool")
    if msg.duration_micros > MAX_U64 // 1000:  # ASTRA-sim counts the duration in ns, a uint64
        raise located(where, f"duration_micros is {msg.duration_micros} us; expected at most {MAX_U64 // 1000} us "
                      f"(x 1,000 = ns must fit a uint64, at most {MAX_U64})")
    n = Node(id=int(msg.id), name=msg.name, kind=kind, deps=tuple(dict.fromkeys([*msg.data_deps, *msg.ctrl_deps])),
             duration_ns=int(msg.duration_micros) * 1000 or 1, is_cpu_op=is_cpu)
    if kind == "compute":
        n.num_ops = _int_attr(attrs, "num_ops", 0, where)
        n.tensor_size = _int_attr(attrs, "tensor_size", 0, where)
    elif kind in ("mem-load", "mem-store"):
        n.tensor_size = _int_attr(attrs, "tensor_size", 0, where)
    elif kind in ("collective", "send", "recv"):
        if is_cpu:
            raise located(where, "a communication node cannot run on the CPU (is_cpu_op true); ASTRA-sim refuses it")
        for need in ("comm_size",) + (("comm_type",) if kind == "collective" else ("comm_src", "comm_dst")):
            if need not in attrs:
                raise located(where, f"{kind} node has no '{need}' attribute")
        n.comm_size = _int_attr(attrs, "comm_size", 0, where, lo=1)
        n.tag = _int_attr(attrs, "comm_tag", 0, where, hi=2**32 - 1)
        if kind == "collective":
            t = _int_attr(attrs, "comm_type", 0, where, hi=2**31)
            if t not in COLLECTIVE_TYPES:
                raise located(where, f"collective type {t} is not replayed; expected one of "
                            f"{', '.join(f'{v} ({k})' for k, v in COLLECTIVE_TYPES.items())}")
            n.collective = COLLECTIVE_TYPES[t]
            pg = attrs.get("pg_name", "")
            try:
                n.group = int(pg) if pg not in ("", None) else 0
            except (TypeError, ValueError):
                raise located(where, f"pg_name {pg!r} is not a communicator group id (a whole number)") from None
        else:
            n.src = _int_attr(attrs, "comm_src", 0, where, hi=2**31)
            n.dst = _int_attr(attrs, "comm_dst", 0, where, hi=2**31)
    return n


def _read_file(path: Path, rank: int) -> dict[int, Node]:
    where = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise located(where, f"missing: the workload has no trace for rank {rank}; expected one "
                    f"<prefix>.<rank>.et per NPU of the fabric") from None
    except OSError as exc:
        raise located(where, f"cannot read rank {rank}'s trace: {exc.strerror}") from None
    S = schema()
    payloads = decode_stream(data, where)
    try:
        first = next(payloads)
    except StopIteration:
        raise located(where, "empty file; expected GlobalMetadata then the nodes") from None
    from google.protobuf.message import DecodeError

    i = 0
    try:
        S.GlobalMetadata().ParseFromString(first)
        nodes: dict[int, Node] = {}
        for i, payload in enumerate(payloads, 1):
            msg = S.Node()
            msg.ParseFromString(payload)
            n = _node(msg, where)
            if n.id in nodes:
                raise located(where, f"message {i}: node id {n.id} ('{n.name}') appears twice; ids must be "
                            f"unique within a rank's trace (first: '{nodes[n.id].name}')")
            nodes[n.id] = n
    except DecodeError as exc:
        what = "message 0 (GlobalMetadata)" if i == 0 else f"message {i} (the node after id {max(nodes, default='none')})"
        raise located(where, f"{what}: not a Chakra ET message ({exc})") from None
    for n in nodes.values():
        if n.kind == "send" and n.src != rank:
            raise located(where, f"node {n.id} '{n.name}': send from rank {n.src} in rank {rank}'s trace; a send "
                        "is issued by its sender")
        if n.kind == "recv" and n.dst != rank:
            raise located(where, f"node {n.id} '{n.name}': receive at rank {n.dst} in rank {rank}'s trace; a "
                        "receive is issued by its receiver")
        for d in n.deps:
            if d not in nodes:
                raise located(where, f"node {n.id} '{n.name}' depends on node {d}, which the file does not hold")
    _check_acyclic(nodes, where)
    return nodes


def _check_acyclic(nodes: dict[int, Node], where: str) -> None:
    """Kahn's algorithm; on a cycle, walk it from a node left over to name it."""
    indeg = {i: len(n.deps) for i, n in nodes.items()}
    children: dict[int, list[int]] = defaultdict(list)
    for n in nodes.values():
        for d in n.deps:
            children[d].append(n.id)
    ready = [i for i, k in indeg.items() if k == 0]
    done = 0
    while ready:
        i = ready.pop()
        done += 1
        for c in children[i]:
            indeg[c] -= 1
            if indeg[c] == 0:
                ready.append(c)
    if done == len(nodes):
        return
    left = {i for i, k in indeg.items() if k > 0}
    at, seen = min(left), []
    while at not in seen:
        seen.append(at)
        at = next(d for d in nodes[at].deps if d in left)
    cycle = seen[seen.index(at):] + [at]
    raise located(where, "dependency cycle: " + " -> ".join(f"{i} '{nodes[i].name}'" for i in reversed(cycle))
                + "; no node on it can ever start")


def read_comm_groups(path: str | os.PathLike, num_npus: int) -> dict[int, tuple[int, ...]]:
    """ASTRA-sim's comm-group JSON: {"<group id>": [ranks...]}, ids >= 1 (0 and "" mean every NPU)."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise located(where, "communicator group file not found") from None
    except OSError as exc:
        raise located(where, f"cannot read the communicator group file: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise located(where, f"not JSON: {exc.reason} at byte {exc.start}") from None
    try:  # strictly: a group id given twice is an error, not its last rank list
        raw = json.loads(text, object_pairs_hook=_unique_group_ids)
    except json.JSONDecodeError as exc:
        raise located(where, f"not JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except _RepeatedGroup as exc:
        line, column = _key_position(text, exc.args[0], exc.args[1])
        raise located(where, f"group id {exc.args[0]!r} appears twice; expected each group once", line,
                      column) from None
    if not isinstance(raw, dict):
        raise located(where, f"expected an object mapping group ids to rank lists, found {type(raw).__name__}")
    groups: dict[int, tuple[int, ...]] = {}
    for key, ranks in raw.items():
        line, column = _key_position(text, key, 1)

        def at(message: str) -> Exception:
            return located(where, message, line, column)

        try:
            gid = int(key)
        except ValueError:
            raise at(f"group id '{key}' is not a whole number") from None
        if gid < 1:
            raise at(f"group id {gid}: ids start at 1 (0 is the group of every NPU)")
        if gid in groups:  # "1" and "01"
            raise at(f"group id '{key}' is group {gid} again; expected each group once")
        if not isinstance(ranks, list) or not ranks or not all(isinstance(r, int) and not isinstance(r, bool)
                                                               for r in ranks):
            raise at(f"group {gid}: expected a non-empty list of ranks, found {ranks!r}")
        bad = [r for r in ranks if not 0 <= r < num_npus]
        if bad:
            raise at(f"group {gid} names rank {bad[0]}, but the fabric has ranks 0..{num_npus - 1}")
        dup = [r for r, k in Counter(ranks).items() if k > 1]
        if dup:
            raise at(f"group {gid} lists rank {dup[0]} twice")
        groups[gid] = tuple(ranks)
    return groups


class _RepeatedGroup(Exception):
    """A key given twice in one JSON object: (key, which occurrence)."""


def _unique_group_ids(pairs: list[tuple[str, object]]) -> dict:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _RepeatedGroup(key, 2)
        seen.add(key)
    return dict(pairs)


def _key_position(text: str, key: str, occurrence: int) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the `occurrence`-th `"key":` in a JSON text; (None, None) when
    the key is not written plainly (escaped characters)."""
    needle, at = json.dumps(key), -1
    for _ in range(occurrence):
        at = text.find(needle, at + 1)
        while at >= 0 and not text[at + len(needle):].lstrip().startswith(":"):
            at = text.find(needle, at + 1)
        if at < 0:
            return None, None
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def _check_communication(w: Workload, prefix: str) -> None:
    """Collectives: issued by members only, and the same sequence on every member. Point-to-point:
    every send has its receive, matched by (src, dst, tag, size) in order."""
    seqs: dict[int, dict[int, list[tuple[str, int]]]] = defaultdict(dict)
    sends: Counter = Counter()
    recvs: Counter = Counter()
    first_node: dict[tuple, tuple[int, Node]] = {}
    for rank, nodes in enumerate(w.nodes):
        for nid in sorted(nodes):
            n = nodes[nid]
            if n.kind == "collective":
                if n.group and n.group not in w.groups:
                    raise located(f"{prefix}.{rank}.et", f"node {n.id} '{n.name}': communicator group {n.group} is not "
                                f"defined" + (f" (defined: {', '.join(map(str, sorted(w.groups)))})" if w.groups
                                              else "; give the comm-group JSON (--comm-group)"))
                members = w.members(n.group)
                if rank not in members:
                    raise located(f"{prefix}.{rank}.et", f"node {n.id} '{n.name}': rank {rank} issues a collective on "
                                f"group {n.group}, which does not include it (members {list(members)})")
                seqs[n.group].setdefault(rank, []).append((n.collective, n.comm_size))
            elif n.kind in ("send", "recv"):
                if not 0 <= (n.dst if n.kind == "send" else n.src) < w.num_npus:
                    peer = n.dst if n.kind == "send" else n.src
                    raise located(f"{prefix}.{rank}.et", f"node {n.id} '{n.name}': {n.kind} names rank {peer}, but the "
                                f"workload has ranks 0..{w.num_npus - 1}")
                if n.src == n.dst:
                    raise located(f"{prefix}.{rank}.et", f"node {n.id} '{n.name}': {n.kind} {n.src} -> {n.dst}: a "
                                "rank sends to itself; expected two different ranks (a point-to-point message "
                                "crosses the fabric)")
                key = (n.src, n.dst, n.tag, n.comm_size)
                (sends if n.kind == "send" else recvs)[key] += 1
                first_node.setdefault((n.kind,) + key, (rank, n))
    for gid, per_rank in seqs.items():
        members = w.members(gid)
        ref_rank = members[0]
        ref = per_rank.get(ref_rank, [])
        for r in members:
            mine = per_rank.get(r, [])
            if mine != ref:
                k = next((i for i, (a, b) in enumerate(zip(mine, ref)) if a != b), min(len(mine), len(ref)))
                got = mine[k] if k < len(mine) else "nothing"
                want = ref[k] if k < len(ref) else "nothing"
                raise located(prefix, f"group {gid}: collective #{k + 1} is {got} on rank {r} but {want} on rank "
                            f"{ref_rank}; every member must issue the same collectives (type, bytes) in the same "
                            "order, or the group waits forever")
    for key in sorted(set(sends) | set(recvs)):
        if sends[key] != recvs[key]:
            src, dst, tag, size = key
            kind, missing = ("send", "recv") if sends[key] > recvs[key] else ("recv", "send")
            rank, n = first_node[(kind,) + key]
            raise located(f"{prefix}.{rank}.et", f"node {n.id} '{n.name}': {kind} {src} -> {dst} (tag {tag}, {size} bytes) "
                        f"has no matching {missing} ({sends[key]} sends, {recvs[key]} receives with these "
                        "endpoints, tag and size)")


@lru_cache(maxsize=1)
def _reader_schema() -> dict:
    """What the engine's ET reader needs of Chakra's schema, read off mlc-chakra's descriptors:
    every field of every message type reachable from Node and GlobalMetadata (scalar, string or
    nested message), the Node fields it extracts, and AttributeProto's value fields and types."""
    from google.protobuf.descriptor import FieldDescriptor as F

    S = schema()
    order = [S.Node.DESCRIPTOR, S.AttributeProto.DESCRIPTOR, S.GlobalMetadata.DESCRIPTOR]
    fields = []
    i = 0
    while i < len(order):
        for f in order[i].fields:
            sub = 0
            if f.type == F.TYPE_MESSAGE:
                if f.message_type not in order:
                    order.append(f.message_type)
                sub = order.index(f.message_type)
            fields.append((i, f.number, 1 if f.type == F.TYPE_STRING else 2 if f.type == F.TYPE_MESSAGE else 0, sub))
        i += 1
    node = {name: S.Node.DESCRIPTOR.fields_by_name[name].number
            for name in ("id", "name", "type", "ctrl_deps", "data_deps", "duration_micros", "attr")}
    a = S.AttributeProto.DESCRIPTOR
    names = {getattr(F, k): k[5:].lower() for k in dir(F) if k.startswith("TYPE_")}
    values = {f.number: names[f.type] for f in a.oneofs_by_name["value"].fields}
    return dict(fields=fields, node=node, attr_name=a.fields_by_name["name"].number, attr_values=values)


def _read_columns(paths: list[str]) -> tuple[Columns, list[int]]:
    """The engine's reader over every rank's file: the columns and the ranks it left to `_read_file`."""
    from .._simengine import read_chakra_et

    d = read_chakra_et(paths=paths, **_reader_schema())
    arr = lambda k, dt: np.frombuffer(d[k], dtype=dt)
    src, dst = arr("src", "<u4").astype(np.int64), arr("dst", "<u4").astype(np.int64)
    src[src == 2**32 - 1] = -1
    dst[dst == 2**32 - 1] = -1
    cols = Columns(npu_ptr=arr("npu_ptr", "<u4").astype(np.int64), id=arr("id", "<u8"), kind=arr("kind", np.uint8),
                   is_cpu=arr("is_cpu", np.uint8).astype(bool), duration_ns=arr("duration_ns", "<f8"),
                   num_ops=arr("num_ops", "<u8"), tensor_size=arr("tensor_size", "<u8"),
                   comm_size=arr("comm_size", "<u8"), comm_type=arr("comm_type", "<u4"), tag=arr("tag", "<u4"),
                   src=src, dst=dst, group=arr("group", "<u8").astype(np.int64),
                   dep_ptr=arr("dep_ptr", "<u4").astype(np.int64), deps=arr("deps", "<u4").astype(np.int64),
                   name_ptr=arr("name_ptr", "<u8").astype(np.int64), names=d["names"])
    return cols, list(d["bad"])


def _communication_suspect(w: Workload) -> bool:
    """Whether `_check_communication` could find anything, decided on the columns (vectorized): it
    runs, on the nodes, only then. True for every set it would refuse (and possibly a few more)."""
    c, n = w.cols, w.num_npus
    rank = np.repeat(np.arange(n), np.diff(c.npu_ptr))
    coll = np.flatnonzero(c.kind == KIND_CODES["collective"])
    if coll.size:
        g = c.group[coll]
        if not np.isin(g[g != 0], np.asarray(list(w.groups), dtype=np.int64)).all():
            return True
        # Per group (all at once): every member issues the same number k of collectives on it and
        # no other rank issues any; then each member's sequence (type, size) equals the first's.
        gids, ginv = dense_ids(g)
        counts = np.bincount(ginv * n + rank[coll], minlength=gids.size * n).reshape(gids.size, n)
        members = [w.members(gid) for gid in gids.tolist()]
        member = np.zeros((gids.size, n), dtype=bool)
        member[np.repeat(np.arange(gids.size), [len(m) for m in members]), np.concatenate(members)] = True
        k = np.where(member, counts, -1).max(axis=1)
        if (np.where(member, counts, k.max() + 1).min(axis=1) != k).any() or counts[~member].any():
            return True
        # a group's rows by row index are its members' blocks of k rows, in rank order
        # (numpy sorts 16-bit keys by radix)
        order = coll[np.argsort(ginv.astype(np.uint16) if gids.size <= 1 << 16 else ginv, kind="stable")]
        sorted_g = np.repeat(np.arange(gids.size), np.bincount(ginv, minlength=gids.size))
        first = np.searchsorted(sorted_g, np.arange(gids.size))[sorted_g]
        ref = order[first + (np.arange(order.size) - first) % k[sorted_g]]
        if (c.comm_type[order] != c.comm_type[ref]).any() or (c.comm_size[order] != c.comm_size[ref]).any():
            return True
    p2p = np.flatnonzero((c.kind == KIND_CODES["send"]) | (c.kind == KIND_CODES["recv"]))
    if p2p.size:
        sends = c.kind[p2p] == KIND_CODES["send"]
        peer = np.where(sends, c.dst[p2p], c.src[p2p])
        if (peer < 0).any() or (peer >= n).any() or (c.src[p2p] == c.dst[p2p]).any():
            return True
        # the sends' (src, dst, tag, size) keys and the receives' are the same multiset: equal once sorted
        key = np.stack([c.src[p2p], c.dst[p2p], c.tag[p2p].astype(np.int64), c.comm_size[p2p].astype(np.int64)], axis=1)
        s_keys, r_keys = (k_[np.lexsort(k_.T)] for k_ in (key[sends], key[~sends]))
        if s_keys.shape != r_keys.shape or not (s_keys == r_keys).all():
            return True
    return False


def _check_group_sizes(cols: Columns, groups: dict[int, tuple[int, ...]], where: str) -> None:
    """A collective on a group of one rank, located at the comm-group file and the group (the
    engine refused it as `<input>: a process group needs at least 2 ranks`). An unused one-rank
    group is accepted: traces of runs with a parallelism of 1 define them."""
    single = [gid for gid, members in groups.items() if len(members) < 2]
    if not single:
        return
    used = np.flatnonzero((cols.kind == KIND_CODES["collective"]) & np.isin(cols.group, single))
    if used.size:
        i = int(used[0])
        gid, rank = int(cols.group[i]), int(np.searchsorted(cols.npu_ptr, i, side="right") - 1)
        raise located(where, f"group {gid} has 1 rank {list(groups[gid])}, but rank {rank} issues a collective on it "
                             f"(node {int(cols.id[i])}); expected a group of at least 2 ranks")


def read_et_set(prefix: str, num_npus: int, comm_groups: str | os.PathLike | None = None) -> Workload:
    """Read `<prefix>.<rank>.et` for ranks 0..num_npus-1 (the fabric's NPUs) and check the set.
    The engine's reader decodes the files; a file it leaves (anything unusual) is read here, which
    gives its located error, and when none has one every file is read here."""
    extra = Path(f"{prefix}.{num_npus}.et")
    if extra.exists():
        raise located(extra, f"the workload has a trace for rank {num_npus}, but the fabric has only {num_npus} NPUs")
    paths = [f"{prefix}.{r}.et" for r in range(num_npus)]
    cols, bad = _read_columns(paths)
    if bad:
        for r in bad:
            _read_file(Path(paths[r]), r)
        cols = columns_of([_read_file(Path(p), r) for r, p in enumerate(paths)])
    groups = read_comm_groups(comm_groups, num_npus) if comm_groups else {}
    if groups:
        _check_group_sizes(cols, groups, str(comm_groups))
    w = Workload(source=prefix, cols=cols, groups=groups)
    if _communication_suspect(w):
        _check_communication(w, prefix)
    return w


def read_text(path: str | os.PathLike, num_npus: int, passes: int = 1, update_times: bool = False) -> Workload:
    """An ASTRA-sim text workload (MICRO / DATA / MODEL / HYBRID_*), converted by Chakra's converter
    into one ET per NPU in a temporary folder, then read as an ET set (every collective on all NPUs).

    `update_times`: also wait the layer's weight-gradient update time (the line's last field, in
    ns) after its collective, as ASTRA-sim's own text-workload layer did before Chakra (Layer.cc at
    the ASPLOS 2023 tutorial's commit: the collective's end plus `weight_grad_update_time`; that is
    the tutorial's 45,681 ns = 45,680 + 1). Chakra's converter, and so ASTRA-sim 518bd51, drops it.
    Checked against that binary for one-layer MICRO workloads of one pass only, so only those take it."""
    where = str(path)
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise located(where, f"cannot read the text workload: {exc.strerror}") from None
    if len(lines) < 2:
        raise located(where, f"a text workload needs a parallelism line and a layer count, found {len(lines)} line(s)")
    try:
        layers = int(lines[1].strip())
    except ValueError:
        raise located(where, f"layer count '{lines[1].strip()}' is not a whole number", 2, 1) from None
    body = [ln for ln in lines[2:] if ln.strip()]
    if layers != len(body):
        raise located(where, f"the file says {layers} layers but lists {len(body)}", 2, 1)
    check_layer_lines(where, lines)
    with tempfile.TemporaryDirectory(prefix="infragraph-workload-") as tmp:
        out = os.path.join(tmp, "et")
        try:
            text_converter()(str(path), out, num_npus, passes).convert()
        except ValueError as exc:
            raise located(where, f"Chakra's text converter refused the workload: {exc}", 1, 1) from None
        w = read_et_set(out, num_npus)
    w.source = where
    if update_times:
        _add_update_time(w, lines, passes)
    return w


def _add_update_time(w: Workload, lines: list[str], passes: int) -> None:
    """Append, on every NPU, a wait of the MICRO layer's update time after its collective (see
    `read_text`); a host-side wait (is_cpu_op), as the old workload layer's timer took no resource."""
    where = w.source
    kind = lines[0].split()[0] if lines[0].split() else ""
    body = [(i, ln) for i, ln in enumerate(lines[2:], 3) if ln.strip()]
    if kind != "MICRO" or len(body) != 1 or passes != 1:
        raise located(where, f"--text-update-times takes a one-layer MICRO workload of one pass (checked against "
                      f"ASTRA-sim's old text-workload layer only there); this is {kind or 'no'} parallelism with "
                      f"{len(body)} layer(s) and {passes} pass(es)", 1, 1)
    line, text = body[0]
    field_ = text.split()[11]
    if not field_.isdigit():
        column = text.index(field_, len(" ".join(text.split()[:11]))) + 1
        raise located(where, f"update time '{field_}' is not a whole number of ns", line, column)
    ns = int(field_)
    if ns == 0:
        return
    for nodes in w.nodes:
        (coll,) = [n for n in nodes.values() if n.kind == "collective"]
        new_id = max(nodes) + 1
        nodes[new_id] = Node(id=new_id, name=f"{coll.name}_update", kind="compute", deps=(coll.id,), duration_ns=ns,
                             is_cpu_op=True)
    w.cols = columns_of(w.nodes)
