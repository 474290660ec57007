"""lint/model.py: grouping like problems into one finding, capping findings per rule, and the
excerpt of node names a finding's message carries."""

from __future__ import annotations

from infragraph.lint.model import LintContext, LintOptions, grouped, node_list


def test_grouped_keeps_first_seen_order_of_keys_and_values():
    pairs = [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)]
    assert grouped(pairs) == [("b", [1, 3]), ("a", [2, 5]), ("c", [4])]
    assert grouped(iter(())) == []


def test_capped_stops_at_the_limit_of_kept_findings_and_counts_the_rest():
    ctx = LintContext(g=None, facts=None, locate=None, doc=None, options=LintOptions(max_per_rule=2))
    seen = []
    for item in ctx.capped("IG002", ["x", "y", "z", "w"]):
        seen.append(item)
        ctx.kept["IG002"] = ctx.kept.get("IG002", 0) + (item != "x")  # "x" was suppressed: it uses no budget
    assert seen == ["x", "y", "z"] and ctx.omitted == {"IG002": 1}


def test_node_list_shows_four_and_the_total():
    assert node_list(["a", "b"]) == "a, b"
    assert node_list([f"n{i}" for i in range(4)], total=12) == "n0, n1, n2, n3, … (12 in all)"
    assert node_list("abcdef") == "a, b, c, d, … (6 in all)"
