"""Time a list of chunk transfers over logical links: the synthesizer's timing model.

Why a replay: reduce-scatter is synthesized as an all-gather run backwards, and all-reduce as
that followed by an all-gather; neither has a timeline of its own until the transfers are run
forwards again. The model is the one the matching uses (links.py): a transfer starts when its
source's data for the chunk is final and every physical link of its path is free, holds those
links for 8 B / bw ns, and lands latency + 8 B / bw ns after it starts. Transfers are taken in
the given order (each physical link serves them in that order), which must list a transfer after
every transfer it depends on: a copy after the one that brought its chunk to its source, a reduce
after every reduce into its source for that chunk. The loop runs in the engine (synth.rs).
"""

from __future__ import annotations

import numpy as np

from ..errors import error
from .links import LogicalLinks
from .matching import engine_arrays


def replay(links: LogicalLinks, link: np.ndarray, chunk: np.ndarray, reduce: np.ndarray, chunk_bytes: float,
           chunks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start and landing time (ns) and round of each transfer, taken in array order; `reduce[i]`
    marks a reduction (its destination's data for the chunk is final once every reduce into it
    landed). Rounds are the schedule's steps: a transfer's round follows the round that made its
    sender's data final and the last round that used a physical link of its path, so a round uses
    each physical link at most once."""
    from .._simengine import synth_replay

    start, land, rounds = _run(synth_replay, links, link, chunk, reduce, chunk_bytes, chunks)
    return (np.frombuffer(start, dtype="<f8"), np.frombuffer(land, dtype="<f8"),
            np.frombuffer(rounds, dtype="<u4").astype(np.int64))


def work_conserving_order(links: LogicalLinks, link: np.ndarray, chunk: np.ndarray, reduce: np.ndarray,
                          chunk_bytes: float, chunks: int) -> np.ndarray:
    """The transfers' order (indices) when every physical link, whenever it is free, starts the
    first-listed transfer that is ready and whose other links are free (synth_list.rs): a transfer
    whose data comes late no longer holds back the ones listed after it on its links. `replay` of
    the list in this order times every transfer no later than that."""
    from .._simengine import synth_list_replay

    start = _run(synth_list_replay, links, link, chunk, reduce, chunk_bytes, chunks)
    return np.argsort(np.frombuffer(start, dtype="<f8"), kind="stable")


def _run(engine_call, links: LogicalLinks, link: np.ndarray, chunk: np.ndarray, reduce: np.ndarray,
         chunk_bytes: float, chunks: int):
    """One of the engine's schedule timers (synth.rs replay, synth_list.rs) on the transfer list,
    its refusal as a located error."""
    try:
        return engine_call(**engine_arrays(links, chunk_bytes), link=link.astype("<u4").tobytes(),
                           chunk=chunk.astype("<u4").tobytes(), reduce=reduce.astype(np.uint8).tobytes(), chunks=chunks)
    except ValueError as exc:
        raise error(f"cannot time the schedule: {exc}") from None
