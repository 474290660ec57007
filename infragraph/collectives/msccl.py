"""MSCCL XML programs (msccl-tools' output, NCCL's MSCCL executor's input) to and from schedules.

Why: MSCCL programs are how custom collectives are written and shipped today; importing them lets
the engine time them on any fabric, and exporting lets a synthesized schedule run on real GPUs.

The format, as msccl-tools writes it (msccl/language/ir.py, `ir_to_xml`, old format) and NCCL's
MSCCL executor reads it (microsoft/msccl, src/graph/topo.cc `mscclGetAlgoFromXMLAndSetAlgo`):

    <algo name proto nchannels nchunksperloop ngpus coll inplace [minBytes maxBytes nthreads]>
      <gpu id i_chunks o_chunks s_chunks>
        <tb id send recv chan>            one send peer and one receive peer at most (-1: none)
          <step s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep/>

Step types: s send; r receive; rcs receive, store and forward; rrs receive, reduce with the local
source and forward (not stored); rrc receive, reduce, store; rrcs receive, reduce, store and
forward; cpy local copy; re local reduce (dst += src); nop a dependency only. A step waits for the
step `deps` of thread block `depid` of its GPU (-1: none); `hasdep` says another step waits for it.
The k-th send of thread block (a, send=b, chan=c) pairs with the k-th receive of (b, recv=a, chan=c).
Buffers: i (input), o (output), s (scratch); in-place programs alias them as msccl-tools'
collectives do (all-reduce: o is i; all-gather: i is o at rank x i_chunks; reduce-scatter: o is i
at rank x o_chunks).

Import runs the program symbolically in dependency order (the order the executor enforces) and
records every chunk that crosses between GPUs as a transfer: a reducing receive (rrc, rrs, rrcs),
or a receive whose data a later `re` adds in, is a `reduce`; others are `copy`. A transfer's step
is the first step at which both its sender has it and its receiver's thread block has reached the
receive: one more than the step of the receipt that brought it, or of the receipts before it in
its thread blocks. Protocols, channels and thread blocks shape how NCCL runs the program, not what
it moves: the schedule keeps the data movement and its dependencies, and the engine times it
(docs/collectives.md says what that leaves out).

Export writes, per rank, one thread block per send peer and one per receive peer (channel 0), in
step order, with the dependencies the schedule implies (a send after the receipt that brought its
chunk; a receive after the sends and receipts before it of the chunk it overwrites), extra ones as
nops as msccl-tools does. Buffers are in place, one slot per chunk.
"""
from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import islice

from ..errors import Diagnostic, InfraGraphError, Location
from ..importers.xmlfile import local, parse_xml
from .schedule import BUFFERS, Schedule, Transfer

# NCCL's MSCCL executor (microsoft/msccl src/include/msccl.h) limits.
MAX_STEPS = 256  # MSCCL_MAX_NUM_STEPS: steps per thread block
MAX_THREAD_BLOCKS = 216  # MSCCL_MAX_NUM_THREAD_BLOCKS (108 * 2)
MAX_THREAD_BLOCKS_PER_CHANNEL = 32  # sends (and receives) per channel
MAX_COUNT = 72  # MSCCL_MAX_COUNT: cnt must be below it
MAX_CHANNELS = 32  # NCCL's MAXCHANNELS
PROTOCOLS = ("Simple", "LL", "LL128")
COLLECTIVES = {"allreduce": "all-reduce", "allgather": "all-gather", "reduce_scatter": "reduce-scatter"}
STEP_TYPES = ("s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop")
SENDS = ("s", "rcs", "rrs", "rrcs")
RECEIVES = ("r", "rcs", "rrs", "rrc", "rrcs")
REDUCING = ("rrs", "rrc", "rrcs")


@dataclass
class Step:
    s: int
    type: str
    srcbuf: str
    srcoff: int
    dstbuf: str
    dstoff: int
    cnt: int
    depid: int
    deps: int
    hasdep: int
    at: Location


@dataclass
class ThreadBlock:
    id: int
    send: int
    recv: int
    chan: int
    steps: list[Step]
    at: Location


@dataclass
class Gpu:
    id: int
    i_chunks: int
    o_chunks: int
    s_chunks: int
    tbs: list[ThreadBlock]
    at: Location


@dataclass
class Program:
    name: str
    proto: str
    nchannels: int
    nchunksperloop: int
    ngpus: int
    coll: str
    inplace: int
    gpus: list[Gpu]
    at: Location
    extra: dict[str, str] = field(default_factory=dict)  # minBytes, maxBytes, nthreads as written


def _fail(at: Location, message: str, hint: str | None = None) -> InfraGraphError:
    return InfraGraphError(Diagnostic(message, at, hint))


def _attr_int(element, tree, name: str, low: int | None = None, high: int | None = None) -> int:
    value = element.get(name)
    if value is None:
        raise tree.error(element, f"<{local(element.tag)}> has no '{name}' attribute (NCCL's MSCCL executor requires it)")
    try:
        number = int(value)
    except ValueError:
        raise tree.error(element, f"<{local(element.tag)}> {name}=\"{value}\": expected an integer") from None
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise tree.error(element, f"<{local(element.tag)}> {name}={number}: expected {span}")
    return number


def _attr_str(element, tree, name: str, choices: tuple[str, ...] | None = None) -> str:
    value = element.get(name)
    if value is None:
        raise tree.error(element, f"<{local(element.tag)}> has no '{name}' attribute (NCCL's MSCCL executor requires it)")
    if choices is not None and value not in choices:
        raise tree.error(element, f"<{local(element.tag)}> {name}=\"{value}\": expected one of {', '.join(choices)}")
    return value


def read_msccl(text: str, filename: str) -> Program:
    """Parse an MSCCL XML program; every attribute is checked where NCCL's executor would refuse
    it, each error located at file:line:col of its element."""
    tree = parse_xml(text, filename, root="algo")
    algo = tree.root
    at = tree.at(algo)
    program = Program(
        name=_attr_str(algo, tree, "name"),
        proto=_attr_str(algo, tree, "proto", PROTOCOLS),
        nchannels=_attr_int(algo, tree, "nchannels", 0, MAX_CHANNELS),
        nchunksperloop=_attr_int(algo, tree, "nchunksperloop", 1),
        ngpus=_attr_int(algo, tree, "ngpus", 1),
        coll=_attr_str(algo, tree, "coll"),
        inplace=_attr_int(algo, tree, "inplace", 0, 1),
        gpus=[],
        at=at,
        extra={k: algo.get(k) for k in ("minBytes", "maxBytes", "nthreads") if algo.get(k) is not None},
    )
    if program.coll not in COLLECTIVES:
        raise tree.error(algo, f"<algo> coll=\"{program.coll}\": a schedule implements {', '.join(COLLECTIVES)}",
                         hint="alltoall, broadcast, reduce and custom programs are not schedules of ours")
    for key in ("minBytes", "maxBytes"):
        if key in program.extra:
            _attr_int(algo, tree, key, 0)
    if "nthreads" in program.extra and _attr_int(algo, tree, "nthreads", 0) % 32:
        raise tree.error(algo, "<algo> nthreads must be a multiple of 32 (the warp size)")
    seen_gpus: set[int] = set()
    for g in algo:
        if local(g.tag) != "gpu":
            raise tree.error(g, f"<algo> holds <gpu> elements, found <{local(g.tag)}>")
        gpu = Gpu(_attr_int(g, tree, "id", 0, program.ngpus - 1), _attr_int(g, tree, "i_chunks", 0),
                  _attr_int(g, tree, "o_chunks", 0), _attr_int(g, tree, "s_chunks", 0), [], tree.at(g))
        if gpu.id in seen_gpus:
            raise tree.error(g, f"<gpu id={gpu.id}> appears twice")
        seen_gpus.add(gpu.id)
        tb_ids: set[int] = set()
        for t in g:
            if local(t.tag) != "tb":
                raise tree.error(t, f"<gpu> holds <tb> elements, found <{local(t.tag)}>")
            tb = ThreadBlock(_attr_int(t, tree, "id", 0, MAX_THREAD_BLOCKS - 1), _attr_int(t, tree, "send", -1, program.ngpus - 1),
                             _attr_int(t, tree, "recv", -1, program.ngpus - 1), _attr_int(t, tree, "chan", 0, MAX_CHANNELS),
                             [], tree.at(t))
            if tb.id in tb_ids:
                raise tree.error(t, f"gpu {gpu.id}: duplicate thread block id {tb.id}")
            tb_ids.add(tb.id)
            if gpu.id in (tb.send, tb.recv):
                raise tree.error(t, f"gpu {gpu.id} tb {tb.id}: send peer {tb.send} / receive peer {tb.recv} is the GPU itself")
            for n, st in enumerate(t):
                if local(st.tag) != "step":
                    raise tree.error(st, f"<tb> holds <step> elements, found <{local(st.tag)}>",
                                     hint="msccl-tools' new format (<op>) is not what NCCL's executor reads; "
                                          "write the program with old_format=True")
                step = Step(_attr_int(st, tree, "s", 0, MAX_STEPS - 1), _attr_str(st, tree, "type", STEP_TYPES),
                            _attr_str(st, tree, "srcbuf", BUFFERS), _attr_int(st, tree, "srcoff", -1),
                            _attr_str(st, tree, "dstbuf", BUFFERS), _attr_int(st, tree, "dstoff", -1),
                            _attr_int(st, tree, "cnt", 0, MAX_COUNT - 1), _attr_int(st, tree, "depid", -1),
                            _attr_int(st, tree, "deps", -1), _attr_int(st, tree, "hasdep", 0, 1), tree.at(st))
                if step.s != n:
                    raise tree.error(st, f"gpu {gpu.id} tb {tb.id}: step s={step.s} is the thread block's step {n}; "
                                         "steps are numbered 0, 1, ... in order (deps refer to them)")
                tb.steps.append(step)
            gpu.tbs.append(tb)
        program.gpus.append(gpu)
    if len(seen_gpus) != program.ngpus:  # ids are unique and below ngpus: the count says it all
        # the first missing ids, without a set of range(ngpus) (ngpus="99999999999" took all memory)
        missing = list(islice((i for i in range(program.ngpus) if i not in seen_gpus), 8))
        raise _fail(at, f"<algo ngpus={program.ngpus}> has {len(seen_gpus):,} <gpu> elements; none for id(s) {missing}"
                        f"{' ...' if program.ngpus - len(seen_gpus) > 8 else ''}")
    program.gpus.sort(key=lambda gp: gp.id)
    check_program(program)
    return program


def check_program(program: Program) -> None:
    """The rules NCCL's MSCCL executor and msccl-tools' checker apply to a program (beyond each
    attribute's own range, checked when read): located InfraGraphErrors.

    - executor: per GPU at most MAX_THREAD_BLOCKS thread blocks and MAX_THREAD_BLOCKS_PER_CHANNEL
      send (receive) peers per channel; a thread block's channel below nchannels; a step that sends
      (receives) needs the thread block's send (receive) peer; i_chunks / o_chunks agree with
      nchunksperloop (all-gather: i_chunks x ngpus, reduce-scatter: o_chunks x ngpus); a step's
      buffer slots exist; a dependency names an existing step of another thread block, and that
      step says hasdep=1 (else the waiting step never wakes).
    - msccl-tools (msccl/language/tb_assignment.py, passes.py): one thread block per (send peer,
      channel) and per (receive peer, channel) on a GPU, so sends and receives pair in order; the
      dependencies within a GPU have no cycle (checked when the program is run symbolically).
    """
    n = program.ngpus
    mult_in = n if program.coll == "allgather" else 1
    mult_out = n if program.coll == "reduce_scatter" else 1
    for gpu in program.gpus:
        if gpu.i_chunks > 0 and gpu.i_chunks * mult_in != program.nchunksperloop or \
                gpu.o_chunks > 0 and gpu.o_chunks * mult_out != program.nchunksperloop:
            raise _fail(gpu.at, f"gpu {gpu.id}: i_chunks/o_chunks {gpu.i_chunks}/{gpu.o_chunks} disagree with "
                                f"nchunksperloop {program.nchunksperloop} for {program.coll}")
        if len(gpu.tbs) > MAX_THREAD_BLOCKS:
            raise _fail(gpu.at, f"gpu {gpu.id}: {len(gpu.tbs)} thread blocks; NCCL's MSCCL executor takes {MAX_THREAD_BLOCKS}")
        by_id = {tb.id: tb for tb in gpu.tbs}
        senders: dict[tuple[int, int], int] = {}
        receivers: dict[tuple[int, int], int] = {}
        per_channel: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for tb in gpu.tbs:
            if tb.chan >= max(program.nchannels, 1):
                raise _fail(tb.at, f"gpu {gpu.id} tb {tb.id}: channel {tb.chan}, but the program has nchannels={program.nchannels}")
            for peer, table, what, k in ((tb.send, senders, "send to", 0), (tb.recv, receivers, "receive from", 1)):
                if peer < 0:
                    continue
                other = table.setdefault((peer, tb.chan), tb.id)
                if other != tb.id:
                    raise _fail(tb.at, f"gpu {gpu.id}: thread blocks {other} and {tb.id} both {what} gpu {peer} on channel "
                                       f"{tb.chan}; msccl-tools gives each (peer, channel) one thread block so that "
                                       "sends and receives pair in order")
                per_channel[tb.chan][k] += 1
                if per_channel[tb.chan][k] > MAX_THREAD_BLOCKS_PER_CHANNEL:
                    raise _fail(tb.at, f"gpu {gpu.id}: more than {MAX_THREAD_BLOCKS_PER_CHANNEL} {what.split()[0]} peers on "
                                       f"channel {tb.chan} (NCCL's MSCCL executor's limit)")
            for st in tb.steps:
                if st.type in SENDS and tb.send < 0:
                    raise _fail(st.at, f"gpu {gpu.id} tb {tb.id} step {st.s}: '{st.type}' sends but the thread block has no send peer")
                if st.type in RECEIVES and tb.recv < 0:
                    raise _fail(st.at, f"gpu {gpu.id} tb {tb.id} step {st.s}: '{st.type}' receives but the thread block has no receive peer")
                if st.type != "nop" and st.cnt < 1:
                    raise _fail(st.at, f"gpu {gpu.id} tb {tb.id} step {st.s}: cnt {st.cnt}; a transfer moves at least one chunk")
                if st.depid >= 0 or st.deps >= 0:
                    dep = by_id.get(st.depid)
                    if dep is None or not 0 <= st.deps < len(dep.steps):
                        raise _fail(st.at, f"gpu {gpu.id} tb {tb.id} step {st.s}: depends on tb {st.depid} step {st.deps}, "
                                           "which does not exist")
                    if dep is tb:
                        raise _fail(st.at, f"gpu {gpu.id} tb {tb.id} step {st.s}: depends on its own thread block "
                                           "(steps of one thread block run in order; msccl-tools drops such dependencies)")
                    if not dep.steps[st.deps].hasdep:
                        raise _fail(dep.steps[st.deps].at, f"gpu {gpu.id} tb {dep.id} step {st.deps}: tb {tb.id} step {st.s} "
                                                           "waits for it but it says hasdep=0, so it never signals")


def _sizes(program: Program, gpu: Gpu) -> dict[str, int]:
    return {"i": gpu.i_chunks, "o": gpu.o_chunks, "s": gpu.s_chunks}


def _slot(program: Program, rank: int, k: int, buf: str, index: int) -> tuple[str, int]:
    """A buffer slot with msccl-tools' in-place aliasing applied (collectives.py get_buffer_index)."""
    if program.inplace:
        if program.coll == "allreduce" and buf == "o":
            return "i", index
        if program.coll == "allgather" and buf == "i":
            return "o", index + rank * k
        if program.coll == "reduce_scatter" and buf == "o":
            return "i", index + rank * k
    return buf, index


def to_schedule(program: Program) -> Schedule:
    """Run the program symbolically and return its schedule (see the module docstring); errors
    (unpaired sends, a dependency cycle, a send of an empty slot, chunks in the wrong place at the
    end) are located at the step of the XML that causes them."""
    n, total = program.ngpus, program.nchunksperloop
    collective = COLLECTIVES[program.coll]
    if collective == "all-gather":
        k = total // n if total % n == 0 else 0
    elif total % n == 0:
        k = total // n
    else:
        k = 0
    if k == 0:
        raise _fail(program.at, f"nchunksperloop {total} is not a multiple of ngpus {n}; a schedule has ranks x "
                                "chunks_per_rank chunks")
    # Every step as a node: (gpu index, tb position, step index).
    nodes: list[tuple[int, int, int]] = []
    index: dict[tuple[int, int, int], int] = {}
    for g, gpu in enumerate(program.gpus):
        for t, tb in enumerate(gpu.tbs):
            for s in range(len(tb.steps)):
                index[(g, t, s)] = len(nodes)
                nodes.append((g, t, s))

    def step_of(node: int) -> Step:
        g, t, s = nodes[node]
        return program.gpus[g].tbs[t].steps[s]

    preds: list[list[int]] = [[] for _ in nodes]
    succs: list[list[int]] = [[] for _ in nodes]
    match: dict[int, int] = {}  # receiving node -> sending node
    for g, gpu in enumerate(program.gpus):
        pos = {tb.id: t for t, tb in enumerate(gpu.tbs)}
        for t, tb in enumerate(gpu.tbs):
            for s, st in enumerate(tb.steps):
                me = index[(g, t, s)]
                if s:
                    preds[me].append(index[(g, t, s - 1)])
                if st.depid >= 0:
                    preds[me].append(index[(g, pos[st.depid], st.deps)])
    # Pair sends and receives per (sender, receiver, channel), in thread-block order.
    sends: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    recvs: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    for g, gpu in enumerate(program.gpus):
        for t, tb in enumerate(gpu.tbs):
            for s, st in enumerate(tb.steps):
                if st.type in SENDS:
                    sends[(gpu.id, tb.send, tb.chan)].append(index[(g, t, s)])
                if st.type in RECEIVES:
                    recvs[(tb.recv, gpu.id, tb.chan)].append(index[(g, t, s)])
    for key in sorted(set(sends) | set(recvs)):
        a, b = sends.get(key, []), recvs.get(key, [])
        for x, y in zip(a, b):
            if step_of(x).cnt != step_of(y).cnt:
                raise _fail(step_of(y).at, f"gpu {key[1]} receives {step_of(y).cnt} chunk(s) from gpu {key[0]} on channel "
                                           f"{key[2]}, but the matching send (line {step_of(x).at.line}) sends {step_of(x).cnt}")
            match[y] = x
            preds[y].append(x)
        if len(a) != len(b):
            extra = a[len(b)] if len(a) > len(b) else b[len(a)]
            what = "send" if len(a) > len(b) else "receive"
            raise _fail(step_of(extra).at, f"gpu {key[0]} -> gpu {key[1]} on channel {key[2]}: {len(a)} send(s) but "
                                           f"{len(b)} receive(s); this {what} has no partner")
    for me, ps in enumerate(preds):
        for p in ps:
            succs[p].append(me)
    # Contents of buffer slots: the chunk id they hold; messages in flight: (chunk, transfer index).
    content: list[dict[tuple[str, int], int]] = []
    for r in range(n):
        slots: dict[tuple[str, int], int] = {}
        if collective == "all-gather":
            for j in range(k):
                slots[_slot(program, r, k, "i", j)] = r * k + j
        else:
            for c in range(total):
                slots[("i", c)] = c
        content.append(slots)
    pending: list[dict[tuple[str, int], int]] = [dict() for _ in range(n)]  # slot -> transfer a later `re` makes a reduce
    transfers: list[list] = []  # [step, src, dst, chunk, op]
    inflight: dict[int, list[tuple[int, int]]] = {}  # sending node -> [(chunk, transfer)]
    # Per step: `avail`, the first schedule step at which what it did can be sent on (a receipt in
    # step t: t + 1); `order`, the first step at which a following receive may complete.
    avail = [0] * len(nodes)
    order = [0] * len(nodes)
    send_step = [0] * len(nodes)
    waiting = [len(ps) for ps in preds]
    ready = [(0, i) for i, w in enumerate(waiting) if w == 0]
    heapq.heapify(ready)
    visited = 0
    while ready:
        _, me = heapq.heappop(ready)
        visited += 1
        g, t, s = nodes[me]
        gpu, tb, st = program.gpus[g], program.gpus[g].tbs[t], step_of(me)
        r = gpu.id
        before = [p for p in preds[me] if p != match.get(me)]
        start = max((avail[p] for p in before), default=0)  # for a send
        start_recv = max((order[p] for p in before), default=0)  # for a receive
        where = f"gpu {r} tb {tb.id} step {st.s} ('{st.type}')"
        size = _sizes(program, gpu)

        def slots(buf: str, off: int) -> list[tuple[str, int]]:
            if off < 0 or off + st.cnt > size[buf]:
                raise _fail(st.at, f"{where}: {buf}[{off}:{off + st.cnt}] is outside gpu {r}'s "
                                   f"{ {'i': 'i_chunks', 'o': 'o_chunks', 's': 's_chunks'}[buf]} = {size[buf]}")
            return [_slot(program, r, k, buf, off + i) for i in range(st.cnt)]

        got: list[tuple[int, int]] = []
        finish, finish_order = start, start_recv
        if st.type in RECEIVES:
            sender = match[me]
            got = inflight.pop(sender)
            at = max(send_step[sender], start_recv)  # both sides have reached it
            for _chunk, x in got:
                transfers[x][0] = at
                if st.type in REDUCING:
                    transfers[x][4] = "reduce"
            finish, finish_order = max(at + 1, start), at
        if st.type in REDUCING:
            for (chunk, _x), slot in zip(got, slots(st.srcbuf, st.srcoff)):
                mine = content[r].get(slot)
                if mine != chunk:
                    raise _fail(st.at, f"{where}: reduces the received chunk {chunk} with {slot[0]}[{slot[1]}], which "
                                       f"holds {'nothing' if mine is None else f'chunk {mine}'}")
                if slot in pending[r]:  # a received partial result added in here
                    transfers[pending[r].pop(slot)][4] = "reduce"
        if st.type == "re":
            src, dst = slots(st.srcbuf, st.srcoff), slots(st.dstbuf, st.dstoff)
            for a, b in zip(src, dst):
                if content[r].get(a) != content[r].get(b):
                    raise _fail(st.at, f"{where}: adds {a[0]}[{a[1]}] (chunk {content[r].get(a)}) into {b[0]}[{b[1]}] "
                                       f"(chunk {content[r].get(b)})")
                if a in pending[r]:
                    transfers[pending[r].pop(a)][4] = "reduce"
        elif st.type == "cpy":
            for a, b in zip(slots(st.srcbuf, st.srcoff), slots(st.dstbuf, st.dstoff)):
                if content[r].get(a) is None:
                    raise _fail(st.at, f"{where}: copies {a[0]}[{a[1]}], which holds nothing")
                content[r][b] = content[r][a]
                if a in pending[r]:
                    pending[r][b] = pending[r][a]
                else:
                    pending[r].pop(b, None)
        if st.type in ("r", "rcs", "rrc", "rrcs"):
            for (chunk, x), slot in zip(got, slots(st.dstbuf, st.dstoff)):
                content[r][slot] = chunk
                if st.type in ("r", "rcs"):
                    pending[r][slot] = x
                else:
                    pending[r].pop(slot, None)
        if st.type in SENDS:
            if st.type == "s":
                carried = []
                for slot in slots(st.srcbuf, st.srcoff):
                    if content[r].get(slot) is None:
                        raise _fail(st.at, f"{where}: sends {slot[0]}[{slot[1]}], which holds nothing")
                    carried.append(content[r][slot])
            else:
                carried = [chunk for chunk, _x in got]
            send_step[me] = finish
            finish_order = max(finish_order, finish)
            out = []
            for chunk in carried:
                transfers.append([send_step[me], r, tb.send, chunk, "copy"])
                out.append((chunk, len(transfers) - 1))
            inflight[me] = out
        avail[me], order[me] = finish, finish_order
        for nxt in succs[me]:
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                heapq.heappush(ready, (nxt, nxt))
    if visited < len(nodes):
        stuck = next(i for i, w in enumerate(waiting) if w > 0)
        g, t, s = nodes[stuck]
        raise _fail(step_of(stuck).at, f"gpu {program.gpus[g].id} tb {program.gpus[g].tbs[t].id} step {s} never runs: "
                                       "the dependencies and send/receive pairs form a cycle (msccl-tools' "
                                       "check_dependency_cycles / check_threadblock_ordering)")
    _check_outputs(program, content, k)
    steps: dict[int, list[Transfer]] = defaultdict(list)
    for st_, src, dst, chunk, op in transfers:
        steps[st_].append(Transfer(src, dst, chunk, op))
    last = max(steps, default=-1)
    return Schedule(collective, n, k, tuple(tuple(steps.get(i, ())) for i in range(last + 1)), program.name,
                    f"imported from MSCCL XML ({program.coll}, {program.proto}, {program.nchannels} channel(s))")


def _check_outputs(program: Program, content: list[dict[tuple[str, int], int]], k: int) -> None:
    """msccl-tools' collective check (msccl/language/collectives.py): the output buffer holds the
    right chunk in every slot (that each is fully reduced is the schedule validator's proof)."""
    n = program.ngpus
    for gpu in program.gpus:
        r = gpu.id
        if program.coll == "allreduce":
            want = {("i" if program.inplace else "o", c): c for c in range(program.nchunksperloop)}
        elif program.coll == "allgather":
            want = {("o", c): c for c in range(n * k)}
        else:
            want = {_slot(program, r, k, "o", j): r * k + j for j in range(k)}
        for slot, chunk in want.items():
            if content[r].get(slot) != chunk:
                have = content[r].get(slot)
                raise _fail(gpu.at, f"gpu {r} ends with {'nothing' if have is None else f'chunk {have}'} in "
                                    f"{slot[0]}[{slot[1]}]; {program.coll} needs chunk {chunk} there")


_EXPORT = {  # collective -> (coll, buffer every chunk lives in, in place)
    "all-reduce": ("allreduce", "i"),
    "all-gather": ("allgather", "o"),
    "reduce-scatter": ("reduce_scatter", "i"),
}


@dataclass
class _Op:
    type: str
    chunk: int = -1
    dep: tuple[int, int] | None = None  # (thread block position, op index)
    hasdep: bool = False


def check_fits_executor(schedule: Schedule) -> None:
    """Refuse, before building anything, a schedule NCCL's MSCCL executor cannot run as the export
    writes it: a rank's sends to one peer go in one thread block, as its receives from one peer, so
    the busiest rank pair needs that many steps (at most MAX_STEPS) and a rank one thread block per
    peer and direction (at most MAX_THREAD_BLOCKS). Counted in one pass over the transfers; a
    1,024-rank ring needs 2,046 steps to its neighbour. Errors name `--to msccl`, what the schedule
    needs and what fits."""
    at = Location("--to msccl")
    pairs: dict[tuple[int, int], int] = defaultdict(int)
    for step in schedule.steps:
        for t in step:
            pairs[t.src, t.dst] += 1
    (a, b), most = max(pairs.items(), key=lambda kv: kv[1], default=((0, 0), 0))
    if most > MAX_STEPS:
        raise _fail(at, f"rank {a} sends {most:,} chunks to rank {b}, each a step of its thread block to rank {b}; "
                        f"NCCL's MSCCL executor takes at most {MAX_STEPS} steps per thread block "
                        "(msccl.h MSCCL_MAX_NUM_STEPS)")
    blocks = [0] * schedule.ranks  # per rank: its send peers plus its receive peers
    for a, b in pairs:
        blocks[a] += 1
        blocks[b] += 1
    r = max(range(len(blocks)), key=blocks.__getitem__, default=0)
    if blocks and blocks[r] > MAX_THREAD_BLOCKS:
        raise _fail(at, f"rank {r} sends to or receives from peers in {blocks[r]:,} (peer, direction) pairs, each a "
                        f"thread block; NCCL's MSCCL executor takes at most {MAX_THREAD_BLOCKS} per GPU")


def from_schedule(schedule: Schedule, name: str | None = None, proto: str = "Simple") -> Program:
    """The schedule as an MSCCL program NCCL's MSCCL executor accepts (see the module docstring):
    in place, chunk c in slot c of the collective's buffer, one thread block per send peer and one
    per receive peer on channel 0, steps in schedule order. A schedule too large for the executor
    (more than 256 steps in a thread block, more than 216 thread blocks, more than 72 chunks per
    loop is fine) is refused, naming the limit."""
    if proto not in PROTOCOLS:
        raise _fail(Location("--proto"), f"protocol '{proto}': expected one of {', '.join(PROTOCOLS)}")
    check_fits_executor(schedule)
    n, k = schedule.ranks, schedule.chunks_per_rank
    coll, buf = _EXPORT[schedule.collective]
    # Per rank: thread blocks keyed by ("send", peer) / ("recv", peer), each a list of ops.
    tbs: list[dict[tuple[str, int], list[_Op]]] = [defaultdict(list) for _ in range(n)]
    last_recv: list[dict[int, tuple[tuple[str, int], int]]] = [dict() for _ in range(n)]  # chunk -> its last receive
    sends_of: list[dict[int, dict[tuple[str, int], int]]] = [defaultdict(dict) for _ in range(n)]  # chunk -> tb -> op

    def add(rank: int, key: tuple[str, int], op: _Op, deps: list[tuple[tuple[str, int], int]]) -> None:
        ops = tbs[rank][key]
        others = [d for d in dict.fromkeys(deps) if d[0] != key]  # steps of one thread block run in order
        for dep in others[1:]:  # one dependency per step: the rest on nops before it, as msccl-tools does
            ops.append(_Op("nop", dep=dep))
        if others:
            op.dep = others[0]
        ops.append(op)

    for step in schedule.steps:
        for t in step:  # sends read the state at the start of the step: all sends first
            deps = [last_recv[t.src][t.chunk]] if t.chunk in last_recv[t.src] else []
            key = ("send", t.dst)
            add(t.src, key, _Op("s", t.chunk), deps)
            sends_of[t.src][t.chunk][key] = len(tbs[t.src][key]) - 1
        for t in step:
            key = ("recv", t.src)
            deps = list(sends_of[t.dst][t.chunk].items())
            if t.chunk in last_recv[t.dst]:
                deps.append(last_recv[t.dst][t.chunk])
            add(t.dst, key, _Op("rrc" if t.op == "reduce" else "r", t.chunk), deps)
            last_recv[t.dst][t.chunk] = (key, len(tbs[t.dst][key]) - 1)
    gpus = []
    for r in range(n):
        keys = sorted(tbs[r], key=lambda kk: (kk[1] if kk[0] == "send" else -1, kk[1] if kk[0] == "recv" else -1))
        position = {kk: i for i, kk in enumerate(keys)}
        for kk in keys:
            for op in tbs[r][kk]:
                if op.dep is not None:
                    tbs[r][op.dep[0]][op.dep[1]].hasdep = True
        threadblocks = []
        for i, kk in enumerate(keys):
            ops = tbs[r][kk]
            if len(ops) > MAX_STEPS:
                raise _fail(Location("<export>"), f"rank {r}'s thread block {'to' if kk[0] == 'send' else 'from'} rank "
                                                  f"{kk[1]} has {len(ops)} steps; NCCL's MSCCL executor takes at most "
                                                  f"{MAX_STEPS} (msccl.h MSCCL_MAX_NUM_STEPS)")
            steps = []
            for s, op in enumerate(ops):
                off = -1 if op.type == "nop" else op.chunk
                dep = (-1, -1) if op.dep is None else (position[op.dep[0]], op.dep[1])
                steps.append(Step(s, op.type, buf if op.type != "nop" else "i", off, buf if op.type != "nop" else "o", off,
                                  0 if op.type == "nop" else 1, dep[0], dep[1], int(op.hasdep), Location("<export>")))
            threadblocks.append(ThreadBlock(i, kk[1] if kk[0] == "send" else -1, kk[1] if kk[0] == "recv" else -1, 0,
                                            steps, Location("<export>")))
        if len(threadblocks) > MAX_THREAD_BLOCKS:
            raise _fail(Location("<export>"), f"rank {r} needs {len(threadblocks)} thread blocks; NCCL's MSCCL executor "
                                              f"takes at most {MAX_THREAD_BLOCKS}")
        i_chunks = k if coll == "allgather" else n * k
        o_chunks = k if coll == "reduce_scatter" else n * k
        gpus.append(Gpu(r, i_chunks, o_chunks, 0, threadblocks, Location("<export>")))
    program = Program(name or schedule.name or f"{schedule.collective}-{n}", proto, 1, n * k, n, coll, 1, gpus,
                      Location("<export>"))
    check_program(program)
    return program


def write_msccl(program: Program) -> str:
    """The program as MSCCL XML in msccl-tools' old format (what NCCL's MSCCL executor reads)."""
    from xml.sax.saxutils import quoteattr

    extra = "".join(f" {k}={quoteattr(v)}" for k, v in program.extra.items())
    lines = [f"<algo name={quoteattr(program.name)} proto=\"{program.proto}\" nchannels=\"{program.nchannels}\" "
             f"nchunksperloop=\"{program.nchunksperloop}\" ngpus=\"{program.ngpus}\" coll=\"{program.coll}\" "
             f"inplace=\"{program.inplace}\"{extra}>"]
    for gpu in program.gpus:
        lines.append(f"  <gpu id=\"{gpu.id}\" i_chunks=\"{gpu.i_chunks}\" o_chunks=\"{gpu.o_chunks}\" s_chunks=\"{gpu.s_chunks}\">")
        for tb in gpu.tbs:
            lines.append(f"    <tb id=\"{tb.id}\" send=\"{tb.send}\" recv=\"{tb.recv}\" chan=\"{tb.chan}\">")
            for st in tb.steps:
                lines.append(f"      <step s=\"{st.s}\" type=\"{st.type}\" srcbuf=\"{st.srcbuf}\" srcoff=\"{st.srcoff}\" "
                             f"dstbuf=\"{st.dstbuf}\" dstoff=\"{st.dstoff}\" cnt=\"{st.cnt}\" depid=\"{st.depid}\" "
                             f"deps=\"{st.deps}\" hasdep=\"{st.hasdep}\"/>")
            lines.append("    </tb>")
        lines.append("  </gpu>")
    lines.append("</algo>")
    return "\n".join(lines) + "\n"
