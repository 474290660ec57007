"""Run-time values of the language and its type names.

Numbers are Python ints/floats, physical quantities are `units.Quantity` (a dimensionless
result collapses back to a float), strings, bools, lists and ranges are Python's. The rest are
the things a topology is made of: component kinds, links, device templates and elaborated
devices, fabric templates, modules, and endpoint references (`sw[i].port[j]`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..document.model import Device
from ..units import BANDWIDTH, DIM_NAMES, INFORMATION, RATE, TIME, Quantity, format_quantity, name_fragment
from . import ast as A


@dataclass(frozen=True)
class Kind:
    """A leaf component kind: xpu, nic, switch, port, cpu, memory, or custom("type")."""

    choice: str
    custom_type: str | None = None

    def __str__(self) -> str:
        return f'custom("{self.custom_type}")' if self.choice == "custom" else self.choice


class AutoValue:
    """`auto`: let the compiler number annotated nodes (ranks) in selection order."""

    def __repr__(self) -> str:
        return "auto"


AUTO = AutoValue()


@dataclass(frozen=True)
class LinkVal:
    """A link class: physical attributes plus free attributes. `name` is None for inline links."""

    name: str | None
    bandwidth: Quantity | None = None
    latency: Quantity | None = None
    description: str = ""
    attrs: tuple[tuple[str, Any], ...] = ()

    def suggested_name(self) -> str:
        if self.name:
            return self.name
        parts = ["link"]
        for q in (self.bandwidth, self.latency):
            if q is not None:
                parts.append(name_fragment(q))
        return "-".join(parts)


@dataclass(eq=False)
class Template:
    """A declared device, fabric or function: a body closed over its module's scope."""

    what: str  # "device" | "fabric" | "fn"
    decl: Any  # ast.DeviceDecl | ast.FabricDecl | ast.FnDecl
    scope: "Scope"

    @property
    def name(self) -> str:
        return self.decl.name

    @property
    def params(self) -> list[A.Param]:
        return self.decl.params or []


@dataclass(eq=False)
class Part:
    """A component of an elaborated device: a leaf kind, or a nested device (composition)."""

    local: str  # the name used in the language
    count: int
    kind: Kind | None = None
    device: "DeviceVal | None" = None
    docname: str = ""  # the name in the document (= the nested device's name for composition)
    attrs: dict[str, Any] = field(default_factory=dict)
    pos: A.Pos | None = None


@dataclass(eq=False)
class DeviceVal:
    """A device template instantiated with concrete arguments (one `Device` in the document)."""

    template: Template
    label: str  # e.g. "leaf(radix=32)" for messages
    base_name: str  # name derived from the template and its non-default arguments
    parts: dict[str, Part] = field(default_factory=dict)
    doc: Device | None = None
    attrs: dict[str, Any] = field(default_factory=dict)
    docname: str | None = None  # assigned when first used (see build.DocBuilder.name_device)
    index: int = -1  # position in the document's device list
    link_table: Any = None  # build.LinkTable of the links its edges use

    def part(self, local: str) -> Part | None:
        return self.parts.get(local)

    def single_leaf(self) -> Part | None:
        if len(self.parts) == 1:
            (p,) = self.parts.values()
            return p if p.device is None else None
        return None


@dataclass(eq=False)
class FabricCall:
    """A fabric template with its arguments, ready to be elaborated (root or `include`d)."""

    template: Template
    args: dict[str, Any]


@dataclass(eq=False)
class Module:
    name: str
    filename: str
    doc: str
    scope: "Scope"
    program: A.Program


@dataclass(eq=False)
class Namespace:
    """The instances of an included fabric, reached as `alias.instance` (from `include x as alias`)."""

    label: str
    names: dict[str, Any]


@dataclass(eq=False)
class InstanceSym:
    local: str
    docname: str
    count: int
    device: DeviceVal


# One path segment of an endpoint: which items of `count` are selected.
# sel is None (all), an int, or (start, stop, step) with 0 <= start, step > 0, all items < count.
Sel = Any


@dataclass(frozen=True)
class Seg:
    label: str  # the name as written, for messages
    docname: str
    count: int
    sel: Sel
    device: DeviceVal | None  # the device behind this segment, when one can walk into it

    def selected(self) -> int:
        if self.sel is None:
            return self.count
        if isinstance(self.sel, int):
            return 1
        start, stop, step = self.sel
        return len(range(start, stop, step))

    def text(self) -> str:
        """Document form: `name`, `name[3]`, `name[0:8]`, `name[0:8:2]`."""
        if self.sel is None:
            return self.docname
        if isinstance(self.sel, int):
            return f"{self.docname}[{self.sel}]"
        start, stop, step = self.sel
        return f"{self.docname}[{start}:{stop}]" if step == 1 else f"{self.docname}[{start}:{stop}:{step}]"

    def indices(self) -> range:
        if self.sel is None:
            return range(self.count)
        if isinstance(self.sel, int):
            return range(self.sel, self.sel + 1)
        return range(*self.sel)


@dataclass(frozen=True)
class EpRef:
    """An endpoint expression's value: a path of selected segments at fabric or device level."""

    level: str  # "fabric" (first segment is an instance) | "device"
    segs: tuple[Seg, ...]

    def count(self) -> int:
        n = 1
        for s in self.segs:
            n *= s.selected()
        return n

    def text(self) -> str:
        return ".".join(s.text() for s in self.segs)

    def __str__(self) -> str:
        return ".".join(s.label + ("" if s.sel is None else s.text()[len(s.docname):]) for s in self.segs)


@dataclass(frozen=True)
class EdgeSel:
    """`between(a, b)`: the edges joining two endpoint selections (for `annotate`)."""

    a: EpRef
    b: EpRef

    def __str__(self) -> str:
        return f"between({self.a}, {self.b})"


@dataclass(eq=False)
class Builtin:
    name: str
    fn: Callable[..., Any]
    doc: str


class Scope:
    """Variables: a dict with a parent. Lookups walk outwards; `let` binds in the innermost."""

    __slots__ = ("vars", "parent", "module")

    def __init__(self, parent: "Scope | None" = None, module: "Module | None" = None):
        self.vars: dict[str, Any] = {}
        self.parent = parent
        self.module = module if module is not None else (parent.module if parent else None)

    def lookup(self, name: str) -> tuple[bool, Any]:
        s: Scope | None = self
        while s is not None:
            v = s.vars.get(name, _MISSING)
            if v is not _MISSING:
                return True, v
            s = s.parent
        return False, None

    def names(self) -> set[str]:
        out: set[str] = set()
        s: Scope | None = self
        while s is not None:
            out.update(s.vars)
            s = s.parent
        return out


_MISSING = object()


class Poison:
    """Bound to a name whose definition failed: using it aborts silently (the cause was reported)."""


POISON = Poison()


# ----------------------------------------------------------------------------------- types ----

TYPE_NAMES = ("int", "float", "bool", "string", "bandwidth", "time", "size", "frequency", "list",
              "range", "link", "device", "fabric", "kind", "any")

_QUANTITY_TYPES = {"bandwidth": BANDWIDTH, "time": TIME, "size": INFORMATION, "frequency": RATE}


def type_of(v: Any) -> str:
    """The language's name for the type of `v` (used in messages)."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, Quantity):
        return DIM_NAMES.get(v.dim, "quantity").replace("data size", "size")
    if isinstance(v, list):
        return "list"
    if isinstance(v, range):
        return "range"
    if isinstance(v, LinkVal):
        return "link"
    if isinstance(v, (DeviceVal,)) or (isinstance(v, Template) and v.what == "device"):
        return "device"
    if isinstance(v, FabricCall) or (isinstance(v, Template) and v.what == "fabric"):
        return "fabric"
    if isinstance(v, Template):
        return "function"
    if isinstance(v, Kind):
        return "kind"
    if isinstance(v, EpRef):
        return "endpoint"
    if isinstance(v, EdgeSel):
        return "edge selection"
    if isinstance(v, InstanceSym):
        return "instance"
    if isinstance(v, Module):
        return "module"
    if isinstance(v, Builtin):
        return "function"
    if isinstance(v, AutoValue):
        return "auto"
    return type(v).__name__


def element_type(type_name: str) -> str | None:
    """`T` of a list type written `list[T]` (each element a T); None for any other type."""
    return type_name[5:-1] if type_name.startswith("list[") and type_name.endswith("]") else None


def misfit(v: Any, type_name: str) -> int | None:
    """For a list type `list[T]` and a list `v`: the index of the first element that is not a T."""
    elem = element_type(type_name)
    if elem is None or not isinstance(v, list):
        return None
    return next((i for i, x in enumerate(v) if not conforms(x, elem)[0]), None)


def conforms(v: Any, type_name: str) -> tuple[bool, Any]:
    """Whether `v` may be bound to a parameter of `type_name`, and the (converted) value."""
    elem = element_type(type_name)
    if elem is not None:
        if not isinstance(v, list):
            return False, v
        converted = [conforms(x, elem) for x in v]
        return all(ok for ok, _ in converted), [x for _, x in converted]
    if type_name == "any":
        return True, v
    if type_name == "float" and isinstance(v, int) and not isinstance(v, bool):
        return True, float(v)
    if type_name in _QUANTITY_TYPES:
        return isinstance(v, Quantity) and v.dim == _QUANTITY_TYPES[type_name], v
    return type_of(v) == type_name, v


def show(v: Any) -> str:
    """A value as the language would write it (for messages and names)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, Quantity):
        return format_quantity(v)
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, range):
        return f"{v.start}..{v.stop}" if v.step == 1 else f"range({v.start}, {v.stop}, {v.step})"
    if isinstance(v, LinkVal):
        return v.suggested_name()
    if isinstance(v, DeviceVal):
        return v.label
    if isinstance(v, Template):
        return v.name
    if isinstance(v, FabricCall):
        return v.template.name
    if isinstance(v, (Module, Builtin)):
        return v.name
    if isinstance(v, Namespace):
        return v.label
    if isinstance(v, InstanceSym):
        return v.local
    if isinstance(v, (Kind, EpRef, EdgeSel, AutoValue)):
        return str(v)
    return type_of(v)  # never a Python repr: an internal object's is kilobytes of syntax tree


BRIEF = 60  # characters of a value shown in a message


def brief(v: Any) -> str:
    """`show(v)` cut to about BRIEF characters for a message (a list says how long it is)."""
    text = show(v)
    if len(text) <= BRIEF:
        return text
    if isinstance(v, list):
        return f"{text[:BRIEF].rsplit(', ', 1)[0]}, …, {len(v)} elements]"
    return text[:BRIEF] + "…"


def with_article(word: str) -> str:
    """'an int', 'a fabric'."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


def a_value(v: Any) -> str:
    """'a fabric (clos)', 'a list ([0, 1, 2, …, 99 elements])': what a message says it got."""
    return f"{with_article(type_of(v))} ({brief(v)})"


def freeze(v: Any) -> Any:
    """A hashable key for a value (template arguments are memoized on it)."""
    if isinstance(v, list):
        return ("list",) + tuple(freeze(x) for x in v)
    if isinstance(v, (DeviceVal, Template, FabricCall, Module, Namespace)):
        return ("id", id(v))
    if isinstance(v, float) and v == int(v):
        return v  # 2.0 and 2 are the same argument
    return v
