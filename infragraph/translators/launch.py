"""How a bundle starts its ASTRA-sim binary: run.sh, which needs nothing but the binary's location.

Each ASTRA-sim backend is a `Binary`: the environment variable that names it, the file names its build
produces (ns-3's differs between a release and a development build of the fork, and with the
build profile: `./ns3 configure -d optimized` names it `-optimized`), and where ASTRA-sim's
own build scripts leave it relative to a checkout. run.sh looks at the variable, then PATH, then those
places, runs the bundle's own Chakra workload (written by `chakra_et`), saves the output to run.log
and fails unless every NPU reports `sys[i] finished` — so "run.sh exited 0" means the collective
completed, and its last line is the collective's time.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import render
from .chakra_et import Workload


@dataclass(frozen=True)
class Binary:
    title: str  # e.g. "ASTRA-sim's analytical backend (congestion-unaware)"
    env: str  # variable holding the binary's path
    names: tuple[str, ...]  # file names a build produces, preferred first
    rel_dirs: tuple[str, ...]  # where ASTRA-sim's build scripts put them, relative to a checkout
    failure_pattern: str = ""  # output that means "ran but did not complete"
    failure_message: str = ""


ANALYTICAL_DIR = "build/astra_analytical/build/bin"
ANALYTICAL = {
    "unaware": Binary("ASTRA-sim's analytical backend (congestion-unaware)", "ASTRA_SIM_BIN",
                      ("AstraSim_Analytical_Congestion_Unaware",), (ANALYTICAL_DIR,)),
    "aware": Binary("ASTRA-sim's analytical backend (congestion-aware)", "ASTRA_SIM_BIN",
                    ("AstraSim_Analytical_Congestion_Aware",), (ANALYTICAL_DIR,)),
}
HTSIM = Binary("ASTRA-sim's HTSim backend (csg-htsim, TCP)", "ASTRA_SIM_HTSIM_BIN", ("AstraSim_HTSim",),
               ("build/astra_htsim/build/bin",), "Simulation timed out",
               "HTSim reached its fixed simulated end time before every flow finished (the collective did not "
               "complete); try --set all-reduce-implementation=ring (and the other collectives) or a smaller size")
NS3 = Binary("ASTRA-sim's ns-3 backend", "ASTRA_SIM_NS3_BIN",
             ("ns3.42-AstraSimNetwork-default", "ns3-dev-AstraSimNetwork-default",
              "ns3.42-AstraSimNetwork-optimized", "ns3-dev-AstraSimNetwork-optimized"),
             ("extern/network_backend/ns-3/build/scratch",))


def run_script(binary: Binary, workload: Workload, num_npus: int, args: list[str]) -> str:
    """run.sh for `binary` with `args` (each `--key="$here/file"` or a literal), the bundle's workload."""
    return render("astra_run.sh.j2", title=binary.title, env=binary.env, names=binary.names,
                  rel_dirs=binary.rel_dirs, num_npus=num_npus, workload=workload.describe(),
                  default_workload=f"workload/{workload.stem}" if workload.files else "", args=args,
                  failure_pattern=binary.failure_pattern, failure_message=binary.failure_message)


def config_args(**files: str) -> list[str]:
    """`--<option>="$here/<file>"` for each option (underscores become dashes)."""
    return [f'--{key.replace("_", "-")}="$here/{name}"' for key, name in files.items()]
