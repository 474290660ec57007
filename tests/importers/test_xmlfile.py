"""importers/xmlfile.py: XML whose every element knows its line and column, with entity
declarations and runaway nesting refused before the importers walk the tree."""

from __future__ import annotations

import pytest

from infragraph.errors import InfraGraphError
from infragraph.importers.xmlfile import MAX_XML_DEPTH, local, parse_xml
from tests.helpers import one_diagnostic


def test_every_element_knows_where_it_is():
    tree = parse_xml('<a><b/>\n  <c x="1"/></a>', "f.xml", root="a")
    assert [(e.tag, tree.at(e).line, tree.at(e).column) for e in tree.root.iter()] == [("a", 1, 1), ("b", 1, 4),
                                                                                       ("c", 2, 3)]
    assert str(tree.error(tree.root.find("c"), "bad x")).startswith("f.xml:2:3: error: bad x")


@pytest.mark.parametrize("text, message, column", [
    ('<!DOCTYPE a [<!ENTITY % p "x">]><a/>', "XML entity declarations are not accepted", 27),  # parameter entity
    ('<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>',  # external: never fetched
     "XML entity declarations are not accepted", 52),
    ("<a>&e;</a>", "invalid XML: undefined entity", 4),
    ("<a><b></a>", "invalid XML: mismatched tag", 9),
    ("<a>" * (MAX_XML_DEPTH + 1) + "</a>" * (MAX_XML_DEPTH + 1),
     f"XML nested too deeply: more than {MAX_XML_DEPTH} levels of elements", 3 * MAX_XML_DEPTH + 1),
])
def test_hostile_or_malformed_xml_is_a_located_error(text, message, column):
    d = one_diagnostic(parse_xml, text, "f.xml")
    assert (d.message, d.location.file, d.location.line, d.location.column) == (message, "f.xml", 1, column)


def test_the_root_element_is_checked_without_its_namespace():
    assert local(parse_xml('<g:graphml xmlns:g="urn:x"/>', "f.xml", root="graphml").root.tag) == "graphml"
    with pytest.raises(InfraGraphError, match=r"^f.xml:1:1: error: expected a <a> document, found <b>"):
        parse_xml("<b/>", "f.xml", root="a")


@pytest.mark.parametrize("tag, name", [("{http://graphml.graphdrawing.org/xmlns}node", "node"), ("y:node", "node"),
                                       ("node", "node")])
def test_local_drops_namespace_and_prefix(tag, name):
    assert local(tag) == name


def test_require_unique_names_the_first_place():
    text = ('<t>\n<pci busid="0000:0A:00.0"/>\n<pci busid="0000:0B:00.0"/>\n<pci busid="0000:0a:00.0"/>\n'
            '<pci/>\n<pci/>\n</t>')
    tree = parse_xml(text, "f.xml")
    # bus ids compare without case
    d = one_diagnostic(tree.require_unique, tree.root.iter("pci"), "busid", "PCI busid")
    assert d.message == "duplicate PCI busid 0000:0a:00.0 (first at line 2)"
    assert (d.location.line, d.location.column) == (4, 1)
    tree.require_unique(tree.root.iter("pci"), "missing", "x")  # elements without the attribute are skipped
