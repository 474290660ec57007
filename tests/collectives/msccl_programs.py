"""MSCCL XML programs written by hand (in msccl-tools' old format) for the import/export tests."""
from __future__ import annotations


def _step(s, type_, buf="i", src=-1, dst=-1, cnt=1, depid=-1, deps=-1, hasdep=0, srcbuf=None, dstbuf=None):
    return (f'      <step s="{s}" type="{type_}" srcbuf="{srcbuf or buf}" srcoff="{src}" dstbuf="{dstbuf or buf}" '
            f'dstoff="{dst}" cnt="{cnt}" depid="{depid}" deps="{deps}" hasdep="{hasdep}"/>')


def _tb(tb: int, send: int, recv: int, steps: list[str]) -> str:
    """One thread block; every program's blocks are written alike (msccl-tools' indentation)."""
    return f'    <tb id="{tb}" send="{send}" recv="{recv}" chan="0">\n' + "\n".join(steps) + "\n    </tb>"


def _gpu(r: int, i_chunks: int, o_chunks: int, s_chunks: int, tbs: list[str]) -> str:
    return (f'  <gpu id="{r}" i_chunks="{i_chunks}" o_chunks="{o_chunks}" s_chunks="{s_chunks}">\n'
            + "\n".join(tbs) + "\n  </gpu>")


def _algo(name, coll, n, chunks, gpus, proto="Simple", nchannels=1, inplace=1):
    return (f'<algo name="{name}" proto="{proto}" nchannels="{nchannels}" nchunksperloop="{chunks}" ngpus="{n}" '
            f'coll="{coll}" inplace="{inplace}">\n' + "\n".join(gpus) + "\n</algo>\n")


def ring_allreduce(n: int = 8) -> str:
    """One thread block per GPU (send to r+1, receive from r-1): s, rrs x (n-2), rrcs, rcs x (n-2), r."""
    gpus = []
    for r in range(n):
        steps = [_step(0, "s", src=r, dst=r)]
        for j in range(1, n - 1):
            c = (r - j) % n
            steps.append(_step(j, "rrs", src=c, dst=c))
        c = (r + 1) % n
        steps.append(_step(n - 1, "rrcs", src=c, dst=c))
        for j in range(n - 1):
            c = (r - j) % n
            steps.append(_step(n + j, "rcs" if j < n - 2 else "r", src=c, dst=c))
        gpus.append(_gpu(r, n, n, 0, [_tb(0, (r + 1) % n, (r - 1) % n, steps)]))
    return _algo(f"ring_allreduce_{n}", "allreduce", n, n, gpus)


def allpairs_allreduce(n: int = 8) -> str:
    """Rank r owns chunk r. Thread block p (send and receive peer p): send my part of chunk p to p,
    receive p's part of chunk r into scratch slot p; a local thread block adds the scratch slots into
    chunk r, each after its receive; then thread block p sends the result to p (after the last
    add) and receives chunk p from p."""
    gpus = []
    for r in range(n):
        peers = [p for p in range(n) if p != r]
        local = len(peers)  # the local thread block's id
        tbs = []
        for t, p in enumerate(peers):
            steps = [_step(0, "s", src=p, dst=p),
                     _step(1, "r", src=r, dst=p, dstbuf="s", hasdep=1),
                     _step(2, "s", src=r, dst=r, depid=local, deps=len(peers) - 1),
                     _step(3, "r", src=p, dst=p)]
            tbs.append(_tb(t, p, p, steps))
        adds = [_step(i, "re", src=p, dst=r, srcbuf="s", dstbuf="i", depid=i, deps=1,
                      hasdep=int(i == len(peers) - 1)) for i, p in enumerate(peers)]
        tbs.append(_tb(local, -1, -1, adds))
        gpus.append(_gpu(r, n, n, n, tbs))
    return _algo(f"allpairs_allreduce_{n}", "allreduce", n, n, gpus)


def allpairs_allgather(n: int = 8) -> str:
    """In place: rank r's chunk is o[r]; thread block p sends it to p and receives o[p] from p."""
    gpus = []
    for r in range(n):
        tbs = []
        for t, p in enumerate(q for q in range(n) if q != r):
            steps = [_step(0, "s", buf="o", src=r, dst=r), _step(1, "r", buf="o", src=p, dst=p)]
            tbs.append(_tb(t, p, p, steps))
        gpus.append(_gpu(r, 1, n, 0, tbs))
    return _algo(f"allpairs_allgather_{n}", "allgather", n, n, gpus)


def ring_allgather(n: int = 8) -> str:
    """Out of place: copy my input chunk to o[r], send it, then forward (rcs) and finally receive (r)."""
    gpus = []
    for r in range(n):
        steps = [_step(0, "s", srcbuf="i", src=0, dstbuf="o", dst=r)]
        for j in range(1, n):
            c = (r - j) % n
            steps.append(_step(j, "rcs" if j < n - 1 else "r", buf="o", src=c, dst=c))
        copy = _step(0, "cpy", srcbuf="i", src=0, dstbuf="o", dst=r)
        gpus.append(_gpu(r, 1, n, 0, [_tb(0, (r + 1) % n, (r - 1) % n, steps), _tb(1, -1, -1, [copy])]))
    return _algo(f"ring_allgather_{n}", "allgather", n, n, gpus, inplace=0)
