"""What an export keeps of a schedule's named paths: nothing, and the exporter says so.

Why a note and not silence: a schedule's `paths` (schedule.py) send transfers between one NPU pair
over different ways (a DGX's four NVSwitch chips), and the engine times them side by side. Neither
export format can name a link: an MSCCL program names per thread block only its send and receive
peer and a channel, and NCCL picks the transport between two GPUs itself (a channel is a slice of
NCCL's work, not a link); an ASTRA-sim Chakra send or receive node names only its peer
(comm_dst / comm_src), and ASTRA-sim's network backend routes every message itself, as `simulate
--model astra` does (its `paths-not-followed` warning). So the exported program moves the same
chunks between the same ranks in the same order, but over the ways the target picks: its time may
differ from the engine's time of the schedule with paths (docs/collectives.md, "Exports and paths").
"""
from __future__ import annotations

from .schedule import Schedule

WHY = {
    "msccl": "an MSCCL program names only each thread block's peers and channel, and NCCL picks the transport "
             "between two GPUs itself",
    "chakra": "a Chakra send or receive node names only its peer (comm_dst / comm_src), and ASTRA-sim's network "
              "backend routes every message itself",
}


def dropped_paths(schedule: Schedule, target: str) -> str | None:
    """The warning for exporting `schedule` to `target` ("msccl" or "chakra") when its transfers
    name paths, which the export drops; None when none does."""
    named = sum(t.path >= 0 for step in schedule.steps for t in step)
    if not named:
        return None
    total = sum(len(step) for step in schedule.steps)
    return (f"the schedule names a path for {named:,} of its {total:,} transfers ({len(schedule.paths):,} paths); "
            f"the export drops them: {WHY[target]}, so the transfers take the ways the target picks and its time "
            "may differ from the engine's (docs/collectives.md, \"Exports and paths\")")
