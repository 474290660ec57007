"""Document-level reference checks that need no expansion: names, references and cycles.

These run before expansion and report every problem found (not just the first): duplicate
names, instances of unknown devices, composed devices that do not exist or contain themselves,
edges naming undefined links. Endpoint paths and index ranges are checked during expansion,
where the counts they are resolved against are at hand.
"""

from __future__ import annotations

from ..errors import Diagnostic, Location, unknown_name
from ..units import bandwidth_problem, latency_problem
from .model import Infrastructure


def _duplicates(names: list[str], kind: str, path_of) -> list[Diagnostic]:
    seen: dict[str, int] = {}
    out = []
    for i, name in enumerate(names):
        if name in seen:
            out.append(
                Diagnostic(
                    f"duplicate {kind} name '{name}' (first defined at {path_of(seen[name])})",
                    Location(path=f"{path_of(i)}.name"),
                    "names must be unique: rename one of them",
                )
            )
        else:
            seen[name] = i
    return out


def _cycle_errors(doc: Infrastructure) -> list[Diagnostic]:
    """Composition cycles (A contains B contains A), reported once per cycle."""
    contains = {
        d.name: [c.name for c in d.components if c.choice == "device"] for d in doc.devices
    }
    index = {d.name: i for i, d in enumerate(doc.devices)}
    state: dict[str, int] = {}  # 1 = on the DFS stack, 2 = done
    out: list[Diagnostic] = []

    def visit(name: str, stack: list[str]) -> None:
        state[name] = 1
        for child in contains.get(name, []):
            if state.get(child) == 1:
                cycle = stack[stack.index(child):] + [child]
                out.append(
                    Diagnostic(
                        f"device composition cycle: {' contains '.join(cycle)}",
                        Location(path=f"devices[{index[name]}].components"),
                        "a device cannot contain itself, directly or through other devices",
                    )
                )
            elif child in contains and state.get(child) is None:
                visit(child, stack + [child])
        state[name] = 2

    for d in doc.devices:
        if d.name not in state:
            visit(d.name, [d.name])
    return out


def reference_errors(doc: Infrastructure) -> list[Diagnostic]:
    """Every name and reference problem in `doc`, as located diagnostics (document paths)."""
    out: list[Diagnostic] = []
    device_names = [d.name for d in doc.devices]
    out += _duplicates(device_names, "device", lambda i: f"devices[{i}]")
    out += _duplicates([x.name for x in doc.links], "link", lambda i: f"links[{i}]")
    out += _duplicates([x.name for x in doc.instances], "instance", lambda i: f"instances[{i}]")
    for di, d in enumerate(doc.devices):
        out += _duplicates([c.name for c in d.components], f"component (in device '{d.name}')",
                           lambda i, di=di: f"devices[{di}].components[{i}]")
        out += _duplicates([x.name for x in d.links], f"link (in device '{d.name}')",
                           lambda i, di=di: f"devices[{di}].links[{i}]")
        for ci, c in enumerate(d.components):
            if c.choice == "device" and c.name not in device_names:
                out += unknown_name("device", c.name, device_names, f"devices[{di}].components[{ci}].name",
                                    " (a component with choice 'device' must be named after a device)").diagnostics
        local_links = [x.name for x in d.links]
        for ei, e in enumerate(d.edges):
            if e.link not in local_links:
                out += unknown_name("link", e.link, local_links, f"devices[{di}].edges[{ei}].link",
                                    f" in device '{d.name}'").diagnostics
    for ii, inst in enumerate(doc.instances):
        if inst.device not in device_names:
            out += unknown_name("device", inst.device, device_names, f"instances[{ii}].device").diagnostics
    links = [x.name for x in doc.links]
    for ei, e in enumerate(doc.edges):
        if e.link not in links:
            out += unknown_name("link", e.link, links, f"edges[{ei}].link", " in the infrastructure links").diagnostics
    out += _cycle_errors(doc)
    out += value_errors(doc)
    return out



def value_errors(doc: Infrastructure) -> list[Diagnostic]:
    """Link bandwidths and latencies that are not finite, or out of range (bandwidth > 0,
    latency >= 0). The schema cannot say this: NaN passes every JSON Schema bound."""
    out: list[Diagnostic] = []
    scopes = [("", doc.links)] + [(f"devices[{di}].", d.links) for di, d in enumerate(doc.devices)]
    for prefix, links in scopes:
        for li, link in enumerate(links):
            base = f"{prefix}links[{li}].physical"
            if link.bandwidth is not None:
                problem = bandwidth_problem(link.bandwidth.value)
                if problem:
                    out.append(Diagnostic(f"link '{link.name}': {problem}",
                                          Location(path=f"{base}.bandwidth.{link.bandwidth.unit}")))
            if link.latency is not None:
                problem = latency_problem(link.latency.value)
                if problem:
                    out.append(Diagnostic(f"link '{link.name}': {problem}",
                                          Location(path=f"{base}.latency.{link.latency.unit}")))
    return out
