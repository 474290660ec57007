"""Running the Graphviz programs (`dot`, `neato`, `sfdp`) with clear errors when they are absent.

Graphviz is called as a program, not through Python bindings, so the only thing to install is
the Debian/Homebrew `graphviz` package; and a missing program is a one-line message that says
what to install, never a traceback.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np

from ..errors import error

INSTALL_HINT = ("install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz), "
                "or write the interactive page instead (-o OUT.html), which needs no Graphviz")
TIMEOUT_S = 300


def available(program: str = "dot") -> bool:
    return shutil.which(program) is not None


def run(program: str, dot_text: str, fmt: str) -> bytes:
    """Lay out and render `dot_text` with `program` to `fmt` (svg, png, pdf, plain…); the rendered
    bytes are returned (the caller writes them, atomically, through infragraph.output)."""
    name, *flags = program.split()
    exe = shutil.which(name)
    if exe is None:
        raise error(f"the Graphviz program '{name}' was not found on PATH", hint=INSTALL_HINT)
    cmd = [exe, *flags, f"-T{fmt}"]
    try:
        done = subprocess.run(cmd, input=dot_text.encode(), capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise error(f"Graphviz '{program}' took more than {TIMEOUT_S} s; draw a smaller level "
                    f"(--level fabric aggregates large fabrics) or use -o OUT.html") from None
    except OSError as e:
        raise error(f"cannot run Graphviz '{program}': {e}", hint=INSTALL_HINT) from None
    if done.returncode != 0:
        msg = done.stderr.decode(errors="replace").strip().splitlines()
        raise error(f"Graphviz '{program}' failed: {' / '.join(msg[-3:]) or f'exit code {done.returncode}'}")
    return done.stdout


def plain_positions(n: int, src: np.ndarray, dst: np.ndarray, program: str = "sfdp") -> np.ndarray | None:
    """Node positions (n, 2) from `program -Tplain` on a bare graph, y downwards; None on failure."""
    # Boxes of about the drawn size, and overlap removal, so that no two boxes land on each other.
    lines = ["graph G {", "graph [overlap=prism, sep=\"+6\"];",
             "node [shape=box, width=0.9, height=0.35, fixedsize=true, label=\"\"];"] + [f"{i};" for i in range(n)]
    lines += [f"{a} -- {b};" for a, b in zip(src.tolist(), dst.tolist())] + ["}"]
    try:
        out = run(program, "\n".join(lines), "plain").decode()
    except Exception:  # a free layout is a nicety: fall back to a grid rather than fail
        return None
    xy = np.zeros((n, 2))
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "node":
            xy[int(parts[1])] = (float(parts[2]), -float(parts[3]))
    span = max(np.ptp(xy[:, 0]), np.ptp(xy[:, 1]), 1e-9)
    return xy * (2.0 * np.sqrt(n) / span)


def run_fixed(dot_text: str, fmt: str) -> bytes:
    """`neato -n2`: draw at the positions given in the DOT text (no layout of our own grids)."""
    exe = shutil.which("neato")
    if exe is None:
        raise error("the Graphviz program 'neato' was not found on PATH", hint=INSTALL_HINT)
    return run("neato -n2", dot_text, fmt)
