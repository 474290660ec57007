"""When each communication node's data could start moving: the line between waiting for a peer
and communicating, which the per-NPU breakdown (report.py) draws.

A receive is posted as soon as its dependencies finish, often long before its peer sends (1F1B
posts a stage's receives at once): from its posting until its matching send's issue nothing moves
for it; the NPU waits on a dependency (the pipeline bubble). A collective member issued before the
group's last member likewise waits for that member before the collective can run. So, per node:
- a receive: its matching send's issue (or its own posting, when later);
- a collective: its instance's last member issue (every member's issue of the group's k-th);
- anything else: its own issue.

The pairing is the replay's (simengine/src/workload_replay.rs): the k-th send on a (tag, src, dst,
size) key meets the k-th receive posted on it; each member's k-th collective on a group is one
instance. Issue order is (issue time, node index), the order the replay visits ready nodes in.
"""

from __future__ import annotations

import numpy as np

from .trace import KIND_CODES


def _kth(key: np.ndarray, start: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Each of `rows`' rank among the rows of its `key`, in issue order (start, then row)."""
    order = np.lexsort((rows, start, key))
    k = np.empty(rows.size, dtype=np.int64)
    if rows.size:
        sk = key[order]
        first = np.r_[True, sk[1:] != sk[:-1]]
        run_start = np.maximum.accumulate(np.where(first, np.arange(rows.size), 0))
        k[order] = np.arange(rows.size) - run_start
    return k


def data_start(npu_ptr: np.ndarray, kind: np.ndarray, channel: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Per node, the time its data could start moving (see the module docstring): `start` (issue
    times, NaN: never issued) except for receives and collectives. `channel`: per node its p2p key
    (sends, receives) or its group index (collectives), as the replay numbers them."""
    out = np.array(start, dtype=np.float64, copy=True)
    issued = ~np.isnan(out)
    chan = np.asarray(channel, dtype=np.int64)
    rank = np.repeat(np.arange(len(npu_ptr) - 1, dtype=np.int64), np.diff(np.asarray(npu_ptr, dtype=np.int64)))

    def kth(rows: np.ndarray, key: np.ndarray) -> np.ndarray:
        return (key << np.int64(32)) | _kth(key, out[rows], rows)

    sends = np.flatnonzero((kind == KIND_CODES["send"]) & issued)
    recvs = np.flatnonzero((kind == KIND_CODES["recv"]) & issued)
    if recvs.size and sends.size:
        skey, rkey = kth(sends, chan[sends]), kth(recvs, chan[recvs])
        order = np.argsort(skey, kind="stable")
        at = np.minimum(np.searchsorted(skey[order], rkey), sends.size - 1)
        matched = skey[order][at] == rkey
        sent = out[sends[order][at]]
        r = recvs[matched]
        out[r] = np.maximum(out[r], sent[matched])
    colls = np.flatnonzero((kind == KIND_CODES["collective"]) & issued)
    if colls.size:
        # instance = (group, k-th issue of it on the member's rank); its last member's issue
        g = chan[colls]
        inst = (g << np.int64(32)) | _kth((g << np.int64(32)) | rank[colls], out[colls], colls)
        ids, inverse = np.unique(inst, return_inverse=True)
        last = np.full(ids.size, -np.inf)
        np.maximum.at(last, inverse, out[colls])
        out[colls] = last[inverse]
    return out
