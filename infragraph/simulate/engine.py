"""Typed access to the Rust collective simulation engine (`infragraph._simengine`).

The extension is compiled by `pip install -e .` (maturin). Importing it through this module gives
one place that explains a missing build instead of a bare ImportError, and gives type checkers a
signature for the array-level entry point. Most callers want `infragraph.simulate` instead, which
takes a fully qualified graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from ..errors import InfraGraphError, error

if TYPE_CHECKING:
    from ..graph import FQG

try:
    from .. import _simengine as _ext
except ImportError as exc:  # pragma: no cover - only without a built extension
    _ext = None
    _IMPORT_ERROR: ImportError | None = exc
else:
    _IMPORT_ERROR = None


class _SimulateArrays(Protocol):
    def __call__(
        self,
        *,
        num_nodes: int,
        edge_src: Sequence[int],
        edge_dst: Sequence[int],
        edge_bandwidth_gbps: Sequence[float],
        edge_latency_ns: Sequence[float],
        npu_nodes: Sequence[int],
        collective: str,
        size_bytes: float,
        groups: Sequence[Sequence[int]],
        algorithms: Sequence[str],
        dims: Sequence[int] = ...,
        root: int = ...,
        chunks: int = ...,
        active_chunks: int = ...,
        endpoint_delay_ns: float = ...,
        local_mem_bw_gb_per_s: float | None = ...,
        optimization: str = ...,
        scheduling: str = ...,
        intra_dimension_scheduling: str = ...,
        inter_dimension_scheduling: str = ...,
        dim_bandwidth: Sequence[float] = ...,
        model: str = ...,
        astra: bool = ...,
        routing: str = ...,
        ecmp: bool = ...,
        dor_dims: Sequence[int] | None = ...,
        dor_direct_dims: Sequence[int] = ...,
        trace: bool = ...,
        node_kind: Sequence[int] | None = ...,
        no_transit_kinds: Sequence[int] = ...,
        no_transit_nodes: Sequence[int] = ...,
        npu_nic: Sequence[int] = ...,
        npu_server: Sequence[int] = ...,
        edge_policy: Sequence[int] = ...,
        pxn: bool = ...,
        cut_through_kinds: Sequence[int] = ...,
        rail_chains: bool = ...,
        max_events: int = ...,
        progress: Callable[[dict[str, float]], None] | None = ...,
        progress_interval_s: float = ...,
    ) -> dict[str, Any]: ...


def engine() -> Any:
    """The compiled extension module; a clear InfraGraphError if it was never built."""
    if _ext is None:
        raise error(
            f"the simulation engine is not built ({_IMPORT_ERROR}); run `pip install -e .` in the "
            "repository (it compiles simengine/ with maturin; needs a Rust toolchain)"
        )
    return _ext


def simulate_arrays() -> _SimulateArrays:
    """`_simengine.simulate`: arrays in, raw measurement dict out (engine units: bytes, ns)."""
    return engine().simulate


def engine_error_type() -> type[Exception]:
    """The exception class the engine raises: args are (kind, message, src_node, dst_node)."""
    return engine().SimEngineError


def engine_error(g: FQG, exc: Exception) -> InfraGraphError:
    """The user's error for an engine exception (`engine_error_type()`) raised while simulating on
    `g`: an unreachable pair is named by its nodes and left unlocated, a property of the graph (the
    CLI locates it at the fabric, cli.common.about_source); a refusal the engine says one option
    caused (`field`: halving-doubling on 6 members, a deadlock of arrival scheduling) is located at
    that SimulationOptions field (the CLI shows the option, `--algorithm`); any other is quoted. An
    'internal' kind is an engine bug, not bad input, and is re-raised as RuntimeError (exit code 3)."""
    kind, message, src, dst, field = (list(exc.args) + [None] * 5)[:5]
    if kind == "unreachable":
        return error(f"no path from '{g.node_name(src)}' to '{g.node_name(dst)}': these NPUs must "
                     "communicate in this collective but the graph does not connect them",
                     hint="check the edges between their hosts and the fabric (`infragraph info`)")
    if kind == "internal":
        raise RuntimeError(message)
    return error(f"cannot simulate: {message}", field)
