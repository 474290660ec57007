"""The textbook ring as a schedule document: the reference every custom schedule is compared to."""
from __future__ import annotations


def ring_schedule(collective: str, n: int) -> dict:
    """Ring reduce-scatter (n-1 reduce steps) then all-gather (n-1 copy steps), one chunk per rank."""
    steps = []
    if collective in ("reduce-scatter", "all-reduce"):
        for s in range(n - 1):
            steps.append([{"src": r, "dst": (r + 1) % n, "chunk": (r - s - 1) % n, "op": "reduce"} for r in range(n)])
    if collective in ("all-gather", "all-reduce"):
        for s in range(n - 1):
            steps.append([{"src": r, "dst": (r + 1) % n, "chunk": (r - s) % n, "op": "copy"} for r in range(n)])
    return {"collective": collective, "ranks": n, "chunks_per_rank": 1, "steps": steps}
