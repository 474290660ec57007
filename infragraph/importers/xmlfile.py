"""XML input with located errors: every element remembers its line and column.

ElementTree drops positions after parsing, so the expat parser feeds a tree builder and records
its position for each element as it is created; importers then report a bad attribute at the line
of its element. Nesting deeper than MAX_XML_DEPTH is refused (the readers recurse). Entity declarations are refused outright (none of the formats read here uses
them), so a hostile file can neither expand entities without bound nor point at external ones.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import xml.parsers.expat as expat
from dataclasses import dataclass, field

from ..errors import Diagnostic, InfraGraphError, Location


@dataclass
class XmlTree:
    root: ET.Element
    file: str
    _where: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)

    def at(self, element: ET.Element) -> Location:
        line, column = self._where.get(id(element), (None, None))
        return Location(self.file, line, column)

    def error(self, element: ET.Element, message: str, hint: str | None = None) -> InfraGraphError:
        return InfraGraphError(Diagnostic(message, self.at(element), hint))

    def require_unique(self, elements, attribute: str, what: str) -> None:
        """Refuse two elements with the same (case-insensitive) `attribute`: the importers key devices by
        it, so a repeat would silently merge two devices into one or drop one."""
        first: dict[str, ET.Element] = {}
        for element in elements:
            key = (element.get(attribute) or "").strip().lower()
            if not key:
                continue
            if key in first:
                at = self.at(first[key])
                raise self.error(element, f"duplicate {what} {element.get(attribute)} (first at line {at.line})",
                                 f"each {what} may appear once in a topology")
            first[key] = element


MAX_XML_DEPTH = 256  # element nesting refused beyond this (real hwloc/NCCL/GraphML files nest under 30 deep)


class _EntityDeclared(Exception):
    pass


class _TooDeep(Exception):
    def __init__(self, line: int, column: int):
        super().__init__(line, column)
        self.line, self.column = line, column


def _refuse_entity(*_args) -> None:
    raise _EntityDeclared


def local(tag: str) -> str:
    """A tag without its namespace or prefix (`{http://graphml...}node`, `y:node` -> `node`)."""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1]


def parse_xml(text: str, filename: str, root: str | None = None) -> XmlTree:
    """The parsed tree; malformed XML, an entity declaration, or a root element other than `root`
    is a located error."""
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    where: dict[int, tuple[int, int]] = {}
    depth = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        if depth > MAX_XML_DEPTH:  # the readers walk the tree recursively: refuse before they overflow
            raise _TooDeep(parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        where[id(builder.start(tag, attrs))] = (parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        builder.end(tag)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = builder.data
    parser.EntityDeclHandler = _refuse_entity  # no entities: no "billion laughs", no external fetches
    try:
        parser.Parse(text, True)
        element = builder.close()
    except expat.ExpatError as e:
        message = expat.errors.messages.get(e.code, str(e)) if hasattr(e, "code") else str(e)
        raise InfraGraphError(Diagnostic(f"invalid XML: {message}", Location(filename, e.lineno, e.offset + 1))) \
            from None
    except _EntityDeclared:
        raise InfraGraphError(Diagnostic("XML entity declarations are not accepted",
                                         Location(filename, parser.CurrentLineNumber,
                                                  parser.CurrentColumnNumber + 1))) from None
    except _TooDeep as e:
        raise InfraGraphError(Diagnostic(f"XML nested too deeply: more than {MAX_XML_DEPTH} levels of elements",
                                         Location(filename, e.line, e.column))) from None
    tree = XmlTree(element, filename, where)
    if root is not None and local(element.tag) != root:
        raise tree.error(element, f"expected a <{root}> document, found <{local(element.tag)}>")
    return tree
