"""MSCCL++ JSON execution plans to schedules: the data movement of memory- and port-channel plans.

Why: MSCCL++ plans are what ASTRA-sim 3.0 and MSCCL++'s executor run; importing one lets the
engine time it on any fabric.

The format, from microsoft/mscclpp (src/core/executor/execution_plan.cc reads it,
src/core/include/execution_kernel.hpp runs it):

    {"name", "collective": allreduce|allgather|reducescatter, "protocol", "inplace",
     "gpus": [{"id", "input_chunks", "output_chunks", "scratch_chunks",
               "channels": [{"channel_type": memory|port, "connected_to": [peer, ...]}],
               "remote_buffers": [{"rank", "type": i|o|s, "access_channel_types": [...]}],
               "threadblocks": [{"id", "channels": [{"channel_type", "channel_ids": [...]}],
                                 "remote_buffer_refs": [{"access_channel_type", "remote_buffer_ids": [...]}],
                                 "ops": [{"name", "src_buff": [...], "dst_buff": [...], "channel_ids", ...}]}]}]}

A buffer reference is local (`{"type", "index", "size"}`) or remote (`{"buffer_id", "index",
"size"}`: the op's channel type's entry `buffer_id` of its thread block's remote_buffer_refs, an
index into the GPU's remote_buffers). An op's `channel_ids` index its thread block's channels of
that type, which index the GPU's channels of that type in `connected_to` order; the i-th channel
from a to b pairs with the i-th from b to a, and the k-th signal on it with the k-th wait.

Ops read here (the kernel's handlers): `put` / `pws` / `pwsf` write a local source to remote
destinations; `get` reads remote sources into a local destination; `copy` is local; `re` adds local
sources into dst[0]; `res` does that and writes the result to remote destinations; `rre` adds
remote sources (src[1:]) to src[0] into dst[0]; `rres` does that and writes the result to remote
destinations (dst[1:]); `signal` / `rlxsignal` and `wait` / `rlxwait` order the GPUs; `nop`,
`flush` and `barrier` order nothing across GPUs. Packet ops move data like their plain
counterparts (`ppkt` and `rppkt` like put, `cpkt` and `upkt` like copy, `respkt` / `repkt` /
`recspkt` / `recpkt` like res / re) and order themselves by flags: a read of packets follows the
op that wrote them (each packet slot must be written once). An op of a thread-block group
(`tbg_info`) counts once, at its member with tb_id 0. NVLS (switch) ops, pipelines and semaphores
are refused by name: their timing is not a chunk transfer.

Import runs the plan symbolically in dependency order (thread-block order, signal -> wait): a
chunk written to or read from another GPU is a transfer at the step its op runs; one read by a
reduction (rre, rres, or a later re/res of the slot it landed in) is a `reduce`, else a `copy`. A
wait completes one step after its signal (what was put before the signal is then usable); a value
read and reduced is forwarded one step later. The output check and the proof are as for MSCCL.
"""
from __future__ import annotations

import heapq
import json
from collections import defaultdict
from typing import Any

from ..errors import Diagnostic, InfraGraphError, Location
from .schedule import BUFFERS, Schedule, Transfer

COLLECTIVES = {"allreduce": "all-reduce", "allgather": "all-gather", "reducescatter": "reduce-scatter",
               "reduce_scatter": "reduce-scatter"}
MOVES = ("put", "pws", "pwsf", "get", "copy", "ppkt", "rppkt", "cpkt", "upkt")
REDUCTIONS = ("re", "res", "rre", "rres", "respkt", "repkt", "recspkt", "recpkt")
DATA_OPS = MOVES + REDUCTIONS
# Packet ops: which buffer references (src / dst positions) they read or write as packets.
PACKET_READS = {"rppkt": slice(0, 1), "upkt": slice(0, 1), "respkt": slice(1, None), "repkt": slice(1, None),
                "recspkt": slice(1, None), "recpkt": slice(1, None)}
PACKET_WRITES = {"ppkt": slice(0, None), "rppkt": slice(0, None), "cpkt": slice(0, 1), "respkt": slice(1, None),
                 "recspkt": slice(1, None)}
SYNC_OPS = ("signal", "rlxsignal", "wait", "rlxwait", "nop", "flush", "barrier")
REFUSED = {"gstorepkt": "NVLS (switch)", "glres": "NVLS (switch)", "gstore": "NVLS (switch)", "pipeline": "pipeline",
           "sem_acquire": "semaphore", "sem_release": "semaphore"}
# Chunks per buffer x GPUs the reader tracks (a dict entry each while it runs the plan): far beyond
# any plan (8 GPUs x 64 chunks); input_chunks=10**12 ran for hours before this bound.
MAX_CHUNK_SLOTS = 1 << 22


class _Plan:
    """The plan's JSON with located access: every error names the document path."""

    def __init__(self, doc: Any, file: str) -> None:
        self.doc, self.file = doc, file

    def fail(self, where: str, message: str, hint: str | None = None) -> InfraGraphError:
        return InfraGraphError(Diagnostic(message, Location(self.file, path=where or "/"), hint))

    def get(self, obj: Any, key: str, where: str, kind: type | tuple, default: Any = ...) -> Any:
        if not isinstance(obj, dict):
            raise self.fail(where, f"expected an object, found {type(obj).__name__}")
        if key not in obj:
            if default is not ...:
                return default
            raise self.fail(f"{where}/{key}", "missing (MSCCL++'s executor requires it)")
        value = obj[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(f"{where}/{key}", f"expected {names}, found {value!r}")
        return value

    def count(self, obj: Any, key: str, where: str, low: int = 0, high: int | None = None) -> int:
        value = self.get(obj, key, where, int)
        if value < low or (high is not None and value > high):
            raise self.fail(f"{where}/{key}", f"expected {low}..{'' if high is None else high}, found {value}")
        return value


def _slot(collective: str, inplace: bool, rank: int, k: int, buf: str, index: int) -> tuple[str, int]:
    """In-place aliasing, as in MSCCL (msccl-tools collectives.py get_buffer_index)."""
    if inplace:
        if collective == "all-reduce" and buf == "o":
            return "i", index
        if collective == "all-gather" and buf == "i":
            return "o", index + rank * k
        if collective == "reduce-scatter" and buf == "o":
            return "i", index + rank * k
    return buf, index


def read_mscclpp(text: str, file: str) -> Schedule:
    """The schedule of an MSCCL++ execution plan (see the module docstring), not yet validated."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InfraGraphError(Diagnostic(f"not JSON: {exc.msg}", Location(file, exc.lineno, exc.colno))) from None
    return read_mscclpp_doc(doc, file)


def read_mscclpp_doc(doc: Any, file: str) -> Schedule:
    """`read_mscclpp` of the decoded JSON document."""
    P = _Plan(doc, file)
    coll = P.get(doc, "collective", "", str)
    if coll not in COLLECTIVES:
        raise P.fail("/collective", f"'{coll}': a schedule implements allreduce, allgather or reducescatter")
    collective = COLLECTIVES[coll]
    inplace = P.get(doc, "inplace", "", bool)
    if "num_threads_per_block" in doc:  # not timed here, but a NaN or -1 is a broken plan, not a default
        P.count(doc, "num_threads_per_block", "", 1)
    gpus = P.get(doc, "gpus", "", list)
    n = len(gpus)
    if n < 2:
        raise P.fail("/gpus", f"{n} GPU(s); a collective needs at least 2")
    by_rank: dict[int, int] = {}
    for g, gpu in enumerate(gpus):
        r = P.count(gpu, "id", f"/gpus/{g}", 0, n - 1)
        if r in by_rank:
            raise P.fail(f"/gpus/{g}/id", f"GPU {r} appears twice (also /gpus/{by_rank[r]})")
        by_rank[r] = g
    first = gpus[by_rank[0]]
    chunks_in = P.count(first, "input_chunks", f"/gpus/{by_rank[0]}", 1, MAX_CHUNK_SLOTS // n)
    for r in range(1, n):  # one collective: every GPU's input buffer holds as many chunks (the schedule's)
        if (c := P.count(gpus[by_rank[r]], "input_chunks", f"/gpus/{by_rank[r]}", 1)) != chunks_in:
            raise P.fail(f"/gpus/{by_rank[r]}/input_chunks", f"GPU {r} has {c} input chunks, GPU 0 {chunks_in}; "
                                                             "expected the same on every GPU")
    total = chunks_in * n if collective == "all-gather" else chunks_in
    if collective != "all-gather" and total % n:
        raise P.fail(f"/gpus/{by_rank[0]}/input_chunks", f"{total} chunks is not a multiple of {n} GPUs; a schedule "
                                                         "has ranks x chunks_per_rank chunks")
    k = chunks_in if collective == "all-gather" else total // n

    # Ops as nodes; per GPU its channels to peers and its remote buffers.
    nodes: list[tuple[int, int, int]] = []  # (rank, tb position, op position)
    ops: list[dict] = []
    where_of: list[str] = []
    preds: list[list[int]] = []
    signals: dict[tuple[int, int, str, int], list[int]] = defaultdict(list)  # (from, to, type, nth channel)
    waits: dict[tuple[int, int, str, int], list[int]] = defaultdict(list)
    sizes: dict[int, dict[str, int]] = {}
    for r in range(n):
        gw, gpu = f"/gpus/{by_rank[r]}", gpus[by_rank[r]]
        sizes[r] = {b: P.count(gpu, key, gw, 0, MAX_CHUNK_SLOTS // n)
                    for b, key in (("i", "input_chunks"), ("o", "output_chunks"), ("s", "scratch_chunks"))}
    resolved: list[dict] = []  # per node: resolved buffers and peers
    for r in range(n):
        g = by_rank[r]
        gw = f"/gpus/{g}"
        gpu = gpus[g]
        peers: dict[str, list[tuple[int, int]]] = defaultdict(list)  # type -> [(peer, nth channel to peer)]
        seen: dict[tuple[str, int], int] = defaultdict(int)
        for c, ch in enumerate(P.get(gpu, "channels", gw, list, [])):
            cw = f"{gw}/channels/{c}"
            ctype = P.get(ch, "channel_type", cw, str)
            if ctype == "switch":
                raise P.fail(cw, "an NVLS (switch) channel; NVLS plans are not read (their reductions happen in the switch)")
            if ctype not in ("memory", "port"):
                raise P.fail(f"{cw}/channel_type", f"'{ctype}': expected memory, port or switch")
            for j, peer in enumerate(P.get(ch, "connected_to", cw, list)):
                if isinstance(peer, bool) or not isinstance(peer, int) or not 0 <= peer < n or peer == r:
                    raise P.fail(f"{cw}/connected_to/{j}", f"expected a GPU id 0..{n - 1} other than {r}, found {peer!r}")
                peers[ctype].append((peer, seen[(ctype, peer)]))
                seen[(ctype, peer)] += 1
        remote = []
        for b, rb in enumerate(P.get(gpu, "remote_buffers", gw, list, [])):
            bw = f"{gw}/remote_buffers/{b}"
            rank = P.count(rb, "rank", bw, 0, n - 1)
            btype = P.get(rb, "type", bw, str)
            if btype not in BUFFERS:
                raise P.fail(f"{bw}/type", f"'{btype}': expected i, o or s")
            remote.append((rank, btype))
        for t, tb in enumerate(P.get(gpu, "threadblocks", gw, list)):
            tw = f"{gw}/threadblocks/{t}"
            tb_channels: dict[str, list[tuple[int, int]]] = defaultdict(list)
            for c, ch in enumerate(P.get(tb, "channels", tw, list, [])):
                ctype = P.get(ch, "channel_type", f"{tw}/channels/{c}", str)
                for j, cid in enumerate(P.get(ch, "channel_ids", f"{tw}/channels/{c}", list)):
                    if isinstance(cid, bool) or not isinstance(cid, int) or not 0 <= cid < len(peers[ctype]):
                        raise P.fail(f"{tw}/channels/{c}/channel_ids/{j}", f"expected a {ctype} channel of GPU {r} "
                                     f"(0..{len(peers[ctype]) - 1}), found {cid!r}")
                    tb_channels[ctype].append(peers[ctype][cid])
            tb_buffers: dict[str, list[tuple[int, str]]] = defaultdict(list)
            for c, ref in enumerate(P.get(tb, "remote_buffer_refs", tw, list, [])):
                ctype = P.get(ref, "access_channel_type", f"{tw}/remote_buffer_refs/{c}", str)
                for j, bid in enumerate(P.get(ref, "remote_buffer_ids", f"{tw}/remote_buffer_refs/{c}", list)):
                    if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid < len(remote):
                        raise P.fail(f"{tw}/remote_buffer_refs/{c}/remote_buffer_ids/{j}",
                                     f"expected a remote buffer of GPU {r} (0..{len(remote) - 1}), found {bid!r}")
                    tb_buffers[ctype].append(remote[bid])
            previous = None
            for o, op in enumerate(P.get(tb, "ops", tw, list)):
                ow = f"{tw}/ops/{o}"
                name = P.get(op, "name", ow, str)
                if name in REFUSED:
                    raise P.fail(f"{ow}/name", f"'{name}' is a {REFUSED[name]} op, which is not read: its timing is not a "
                                 "chunk transfer", hint="memory- and port-channel plans (put, get, re, rre, rres, res, "
                                 "copy, signal, wait, and the packet ops) are read")
                if name not in DATA_OPS + SYNC_OPS:
                    raise P.fail(f"{ow}/name", f"unknown op '{name}'")
                me = len(nodes)
                nodes.append((r, t, o))
                ops.append(op)
                where_of.append(ow)
                preds.append([] if previous is None else [previous])
                previous = me
                info: dict[str, Any] = {"name": name}
                ctype = op.get("channel_type", "memory")
                group = op.get("tbg_info")
                if name in DATA_OPS and group is not None:
                    # A thread-block group splits one op's data among tbg_size thread blocks: the
                    # member with tb_id 0 stands for the whole op, the others only keep their order.
                    part = P.count(group, "tb_id", f"{ow}/tbg_info", 0, P.count(group, "tbg_size", f"{ow}/tbg_info", 1) - 1)
                    if part:
                        info["name"] = name = "nop"
                if name in ("signal", "rlxsignal", "wait", "rlxwait"):
                    ids = P.get(op, "channel_ids", ow, list)
                    for j, cid in enumerate(ids):
                        if isinstance(cid, bool) or not isinstance(cid, int) or not 0 <= cid < len(tb_channels[ctype]):
                            raise P.fail(f"{ow}/channel_ids/{j}", f"expected a {ctype} channel of this thread block "
                                         f"(0..{len(tb_channels[ctype]) - 1}), found {cid!r}")
                        peer, nth = tb_channels[ctype][cid]
                        if name.endswith("signal"):
                            signals[(r, peer, ctype, nth)].append(me)
                        else:
                            waits[(peer, r, ctype, nth)].append(me)
                if name in DATA_OPS:
                    info["src"] = [_buffer(P, ref, f"{ow}/src_buff/{j}", r, ctype, tb_buffers, sizes, n)
                                   for j, ref in enumerate(P.get(op, "src_buff", ow, list))]
                    info["dst"] = [_buffer(P, ref, f"{ow}/dst_buff/{j}", r, ctype, tb_buffers, sizes, n)
                                   for j, ref in enumerate(P.get(op, "dst_buff", ow, list))]
                    _check_shape(P, name, info, ow, r)
                resolved.append(info)
    for key in sorted(set(signals) | set(waits)):
        s, w = signals.get(key, []), waits.get(key, [])
        for a, b in zip(s, w):
            preds[b].append(a)
        if len(s) < len(w):
            raise P.fail(where_of[w[len(s)]], f"GPU {key[1]} waits on its {key[2]} channel {key[3]} from GPU {key[0]} "
                                              f"{len(w)} times but GPU {key[0]} signals it {len(s)} times; this wait never ends")
    remote_preds = _packet_order(P, collective, inplace, k, nodes, preds, resolved, where_of)
    return _run(P, collective, inplace, n, k, total, nodes, preds, remote_preds, resolved, where_of,
                str(doc.get("name", "")), str(doc.get("protocol", "")))


def _packet_order(P: _Plan, collective: str, inplace: bool, k: int, nodes, preds, resolved, where_of) -> list[set[int]]:
    """Packet ops order themselves by flags: a read of packets waits until they are written. Each
    slot written with packets must be written once (then its reader follows its writer; with
    reuse the pairing would depend on flag values the plan does not state). Adds writer -> reader
    to `preds`; returns per reader the writers on other GPUs (their data is usable a step later)."""
    writer: dict[tuple[int, tuple[str, int]], int] = {}
    for me, key in _packet_slots(collective, inplace, k, resolved, PACKET_WRITES, "dst"):
        if key in writer and writer[key] != me:
            raise P.fail(where_of[me], f"GPU {key[0]}'s {key[1][0]}[{key[1][1]}] is written with packets twice "
                                       f"(also at {where_of[writer[key]]}); reused packet slots are not read")
        writer[key] = me
    remote: list[set[int]] = [set() for _ in nodes]
    for me, key in _packet_slots(collective, inplace, k, resolved, PACKET_READS, "src"):
        if key not in writer:
            raise P.fail(where_of[me], f"'{resolved[me]['name']}' on GPU {nodes[me][0]} reads packets from "
                                       f"{key[1][0]}[{key[1][1]}], which no op writes: it would wait forever")
        w = writer[key]
        if w not in preds[me]:
            preds[me].append(w)
        if nodes[w][0] != nodes[me][0]:
            remote[me].add(w)
    return remote


def _packet_slots(collective: str, inplace: bool, k: int, resolved, parts: dict[str, slice], side: str):
    """(op, (GPU, slot)) for every chunk slot a packet op writes (`parts` PACKET_WRITES, side "dst")
    or reads (PACKET_READS, "src"), ops in plan order: one walk for both sides, so that a writer and
    its reader resolve a reference to the same slot."""
    for me, info in enumerate(resolved):
        part = parts.get(info["name"])
        if part is None:
            continue
        for ref in info[side][part]:
            for i in range(ref[3]):
                yield me, (ref[0], _slot(collective, inplace, ref[0], k, ref[1], ref[2] + i))


def _buffer(P: _Plan, ref: Any, where: str, rank: int, ctype: str, tb_buffers, sizes, n: int) -> tuple[int, str, int, int]:
    """(rank, buffer, index, size) of a buffer reference; remote ones resolved through the thread
    block's remote_buffer_refs."""
    index = P.count(ref, "index", where, 0)
    size = P.count(ref, "size", where, 1)
    if "buffer_id" in ref:
        bid = P.count(ref, "buffer_id", where, 0)
        if bid >= len(tb_buffers[ctype]):
            raise P.fail(f"{where}/buffer_id", f"the thread block has {len(tb_buffers[ctype])} {ctype} remote buffer(s), "
                                               f"found {bid}")
        owner, btype = tb_buffers[ctype][bid]
    else:
        owner, btype = rank, P.get(ref, "type", where, str)
        if btype not in BUFFERS:
            raise P.fail(f"{where}/type", f"'{btype}': expected i, o or s")
    if index + size > sizes[owner][btype]:
        raise P.fail(where, f"{btype}[{index}:{index + size}] is outside GPU {owner}'s {btype} buffer of "
                            f"{sizes[owner][btype]} chunks")
    return owner, btype, index, size


def _check_shape(P: _Plan, name: str, info: dict, where: str, rank: int) -> None:
    src, dst = info["src"], info["dst"]
    if not src or not dst:
        raise P.fail(where, f"'{name}' needs src_buff and dst_buff entries")
    local_src = name in ("put", "pws", "pwsf", "copy", "re", "res", "rre", "rres") + tuple(PACKET_READS) + ("ppkt", "cpkt")
    if name == "get" and any(s[0] == rank for s in src):
        raise P.fail(f"{where}/src_buff", "'get' reads other GPUs' buffers")
    if local_src and src[0][0] != rank:
        raise P.fail(f"{where}/src_buff/0", f"'{name}' reads its first source locally")
    if name in ("get", "copy", "re", "res", "rre", "rres") and dst[0][0] != rank:
        raise P.fail(f"{where}/dst_buff/0", f"'{name}' writes its first destination locally")
    if name in ("put", "pws", "pwsf") and any(d[0] == rank for d in dst):
        raise P.fail(f"{where}/dst_buff", f"'{name}' writes to other GPUs' buffers")
    sizes = {s[3] for s in src + dst}
    if len(sizes) != 1:
        raise P.fail(where, f"'{name}' mixes buffer sizes {sorted(sizes)}; every reference must cover as many chunks")


def _chunk(P: _Plan, content, owner: int, slot: tuple[str, int], op: str, r: int, where: str) -> int:
    chunk = content[owner].get(slot)
    if chunk is None:
        raise P.fail(where, f"'{op}' on GPU {r} reads {slot[0]}[{slot[1]}] of GPU {owner}, which holds nothing")
    return chunk


def _move(P: _Plan, info, i, r, t, slots, content, pending, transfers, where) -> int:
    """put / pws / pwsf / get / copy of chunk i of each (source, destination) pair (one source may
    go to every destination); returns the step from which what arrived here can be used."""
    src, dst = info["src"], info["dst"]
    pairs = list(zip(src, dst)) if len(src) == len(dst) else [(src[0], d) for d in dst]
    finish = t
    for s_ref, d_ref in pairs:
        (so, ss), (do, ds) = slots(s_ref, i), slots(d_ref, i)
        chunk = _chunk(P, content, so, ss, info["name"], r, where)
        content[do][ds] = chunk
        if so != do:
            transfers.append([t, so, do, chunk, "copy"])
            pending[do][ds] = len(transfers) - 1
            if do == r:
                finish = t + 1
        elif ss in pending[so]:
            pending[do][ds] = pending[so][ss]
        else:
            pending[do].pop(ds, None)
    return finish


def _reduce(P: _Plan, info, i, r, t, slots, content, pending, transfers, where) -> int:
    """re / res / rre / rres of chunk i: every source added into the first destination, which
    res / rres also write to the other (remote) destinations."""
    op = info["name"]
    srcs = [slots(ref, i) for ref in info["src"]]
    chunks = {_chunk(P, content, o, sl, op, r, where) for o, sl in srcs}
    if len(chunks) != 1:
        raise P.fail(where, f"'{op}' on GPU {r} adds up different chunks {sorted(chunks)}")
    chunk = chunks.pop()
    remote = False
    for owner, slot in srcs:
        if owner != r:
            transfers.append([t, owner, r, chunk, "reduce"])
            remote = True
        elif slot in pending[r]:  # a received partial result added in here
            transfers[pending[r].pop(slot)][4] = "reduce"
    after = t + 1 if remote else t
    finish = after
    for j, ref in enumerate(info["dst"]):
        owner, slot = slots(ref, i)
        content[owner][slot] = chunk
        if owner != r:
            transfers.append([after, r, owner, chunk, "copy"])
            pending[owner][slot] = len(transfers) - 1
        else:
            pending[r].pop(slot, None)
    return finish


def _run(P: _Plan, collective: str, inplace: bool, n: int, k: int, total: int, nodes, preds, remote_preds, resolved,
         where_of, name: str, protocol: str) -> Schedule:
    succs: list[list[int]] = [[] for _ in nodes]
    for me, ps in enumerate(preds):
        for p in ps:
            succs[p].append(me)
    content: list[dict[tuple[str, int], int]] = [dict() for _ in range(n)]
    for r in range(n):
        if collective == "all-gather":
            for j in range(k):
                content[r][_slot(collective, inplace, r, k, "i", j)] = r * k + j
        else:
            for c in range(total):
                content[r][("i", c)] = c
    pending: list[dict[tuple[str, int], int]] = [dict() for _ in range(n)]
    transfers: list[list] = []
    avail = [0] * len(nodes)
    waiting = [len(ps) for ps in preds]
    ready = [i for i, w in enumerate(waiting) if w == 0]
    heapq.heapify(ready)
    visited = 0

    def slots(ref, i):
        owner, btype, index, _size = ref
        return owner, _slot(collective, inplace, owner, k, btype, index + i)

    while ready:
        me = heapq.heappop(ready)
        visited += 1
        r = nodes[me][0]
        info = resolved[me]
        op = info["name"]
        start = max((avail[p] + (p in remote_preds[me]) for p in preds[me]), default=0)
        finish = start
        if op in ("wait", "rlxwait"):
            finish = max(start, max((avail[p] + 1 for p in preds[me] if nodes[p][0] != r), default=start))
        if op in DATA_OPS:
            size = info["src"][0][3]
            for i in range(size):
                if op in MOVES:
                    finish = max(finish, _move(P, info, i, r, start, slots, content, pending, transfers, where_of[me]))
                else:
                    finish = max(finish, _reduce(P, info, i, r, start, slots, content, pending, transfers, where_of[me]))
        avail[me] = finish
        for nxt in succs[me]:
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                heapq.heappush(ready, nxt)
    if visited < len(nodes):
        stuck = next(i for i, w in enumerate(waiting) if w > 0)
        raise P.fail(where_of[stuck], "this op never runs: the waits and signals form a cycle")
    for r in range(n):
        if collective == "all-reduce":
            want = {("i" if inplace else "o", c): c for c in range(total)}
        elif collective == "all-gather":
            want = {("o", c): c for c in range(n * k)}
        else:
            want = {_slot(collective, inplace, r, k, "o", j): r * k + j for j in range(k)}
        for slot, chunk in want.items():
            if content[r].get(slot) != chunk:
                have = content[r].get(slot)
                raise P.fail("/gpus", f"GPU {r} ends with {'nothing' if have is None else f'chunk {have}'} in "
                                      f"{slot[0]}[{slot[1]}]; {collective} needs chunk {chunk} there")
    steps: dict[int, list[Transfer]] = defaultdict(list)
    for t, src, dst, chunk, kind in transfers:
        steps[t].append(Transfer(src, dst, chunk, kind))
    last = max(steps, default=-1)
    return Schedule(collective, n, k, tuple(tuple(steps.get(i, ())) for i in range(last + 1)), name,
                    f"imported from an MSCCL++ execution plan ({protocol or 'no protocol'})")
