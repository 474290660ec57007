"""MSCCL++ execution plans written by hand (memory channels) for the import tests."""
from __future__ import annotations

import json


def _plan(name: str, coll: str, gpus: list[dict]) -> str:
    return json.dumps({"name": name, "collective": coll, "protocol": "Simple", "inplace": True,
                       "num_threads_per_block": 1024, "gpus": gpus}, indent=1)


def _ref(buf: str, index: int) -> dict:
    return {"type": buf, "index": index, "size": 1}


def _remote(bid: int, index: int) -> dict:
    return {"buffer_id": bid, "index": index, "size": 1}


def ring_allreduce(n: int = 8) -> str:
    """Rank r puts a chunk into the next rank's scratch, signals it, waits for the previous rank,
    and adds the chunk that arrived (n - 1 times); then puts the reduced chunks into the next
    rank's input (n - 1 times). Channel 0 goes to the next rank, channel 1 to the previous one;
    remote buffer 0 is the next rank's scratch, 1 its input."""
    gpus = []
    for r in range(n):
        ops = []
        for j in range(n - 1):
            c, got = (r - j) % n, (r - j - 1) % n
            ops += [{"name": "put", "src_buff": [_ref("i", c)], "dst_buff": [_remote(0, c)], "channel_type": "memory"},
                    {"name": "signal", "channel_ids": [0], "channel_type": "memory"},
                    {"name": "wait", "channel_ids": [1], "channel_type": "memory"},
                    {"name": "re", "src_buff": [_ref("i", got), _ref("s", got)], "dst_buff": [_ref("i", got)],
                     "reduce_op": "sum"}]
        for j in range(n - 1):
            c = (r + 1 - j) % n
            ops += [{"name": "put", "src_buff": [_ref("i", c)], "dst_buff": [_remote(1, c)], "channel_type": "memory"},
                    {"name": "signal", "channel_ids": [0], "channel_type": "memory"},
                    {"name": "wait", "channel_ids": [1], "channel_type": "memory"}]
        gpus.append({"id": r, "input_chunks": n, "output_chunks": n, "scratch_chunks": n,
                     "channels": [{"channel_type": "memory", "connected_to": [(r + 1) % n, (r - 1) % n]}],
                     "remote_buffers": [{"rank": (r + 1) % n, "type": "s", "access_channel_types": ["memory"]},
                                        {"rank": (r + 1) % n, "type": "i", "access_channel_types": ["memory"]}],
                     "threadblocks": [{"id": 0, "ops": ops,
                                       "channels": [{"channel_type": "memory", "channel_ids": [0, 1]}],
                                       "remote_buffer_refs": [{"access_channel_type": "memory",
                                                               "remote_buffer_ids": [0, 1]}]}]})
    return _plan(f"ring_allreduce_{n}", "allreduce", gpus)


def allpairs_allreduce(n: int = 8) -> str:
    """Rank r owns chunk r: it puts its part of chunk p into rank p's scratch slot r, signals and
    waits on every channel, adds the parts it got into chunk r, puts the result into every peer's
    input and signals and waits again. Channel j and remote buffers 2j (scratch) and 2j + 1
    (input) belong to the j-th peer."""
    gpus = []
    for r in range(n):
        peers = [p for p in range(n) if p != r]
        every = list(range(len(peers)))
        ops = [{"name": "put", "src_buff": [_ref("i", p)], "dst_buff": [_remote(2 * j, r)], "channel_type": "memory"}
               for j, p in enumerate(peers)]
        ops += [{"name": "signal", "channel_ids": every, "channel_type": "memory"},
                {"name": "wait", "channel_ids": every, "channel_type": "memory"},
                {"name": "re", "src_buff": [_ref("i", r)] + [_ref("s", p) for p in peers], "dst_buff": [_ref("i", r)],
                 "reduce_op": "sum"},
                {"name": "put", "src_buff": [_ref("i", r)] * len(peers), "dst_buff": [_remote(2 * j + 1, r) for j in every],
                 "channel_type": "memory"},
                {"name": "signal", "channel_ids": every, "channel_type": "memory"},
                {"name": "wait", "channel_ids": every, "channel_type": "memory"}]
        remote = []
        for p in peers:
            remote += [{"rank": p, "type": "s", "access_channel_types": ["memory"]},
                       {"rank": p, "type": "i", "access_channel_types": ["memory"]}]
        gpus.append({"id": r, "input_chunks": n, "output_chunks": n, "scratch_chunks": n,
                     "channels": [{"channel_type": "memory", "connected_to": peers}], "remote_buffers": remote,
                     "threadblocks": [{"id": 0, "ops": ops, "channels": [{"channel_type": "memory", "channel_ids": every}],
                                       "remote_buffer_refs": [{"access_channel_type": "memory",
                                                               "remote_buffer_ids": list(range(2 * len(peers)))}]}]})
    return _plan(f"allpairs_allreduce_{n}", "allreduce", gpus)


def allpairs_allreduce_packets(n: int = 8) -> str:
    """LL packets, no signals: rank r puts its part of chunk p as packets into rank p's scratch
    slot r; `respkt` adds the packets it got into chunk r (each read waits for its packets) and
    sends the result as packets into every peer's scratch slot n + r; `upkt` unpacks the results
    into the input. Remote buffer j is the j-th peer's scratch."""
    gpus = []
    for r in range(n):
        peers = [p for p in range(n) if p != r]
        every = list(range(len(peers)))
        ops = [{"name": "ppkt", "src_buff": [_ref("i", p)], "dst_buff": [_remote(j, r)], "channel_type": "memory"}
               for j, p in enumerate(peers)]
        ops.append({"name": "respkt", "src_buff": [_ref("i", r)] + [_ref("s", p) for p in peers],
                    "dst_buff": [_ref("i", r)] + [_remote(j, n + r) for j in every], "channel_type": "memory",
                    "reduce_op": "sum"})
        ops += [{"name": "upkt", "src_buff": [_ref("s", n + p)], "dst_buff": [_ref("i", p)]} for p in peers]
        gpus.append({"id": r, "input_chunks": n, "output_chunks": n, "scratch_chunks": 2 * n,
                     "channels": [{"channel_type": "memory", "connected_to": peers}],
                     "remote_buffers": [{"rank": p, "type": "s", "access_channel_types": ["memory"]} for p in peers],
                     "threadblocks": [{"id": 0, "ops": ops, "channels": [{"channel_type": "memory", "channel_ids": every}],
                                       "remote_buffer_refs": [{"access_channel_type": "memory", "remote_buffer_ids": every}]}]})
    return json.dumps({"name": f"allpairs_allreduce_packets_{n}", "collective": "allreduce", "protocol": "LL",
                       "inplace": True, "gpus": gpus}, indent=1)
