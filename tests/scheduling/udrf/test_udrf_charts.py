"""Figures, tables and the HTML report of a UDRF study, from the library's documents.

The offline document is the real one (the paper's Fig. 1 and a synthetic cluster big enough
to be capped); the online one is the hand-made fixture ``tests/fixtures/udrf-online.json``,
in the shape the online simulation writes, whole or cut into one document per policy.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from scheduling.charts.palettes import PALETTES
from scheduling.fairness.charts import variant_colours
from scheduling.scenario import load_scenario_json, parse_scenario
from scheduling.udrf.charts import (
    MAX_TIMELINE_USERS,
    allocation_bars_figure,
    completion_cdf_figure,
    dependency_graph_figure,
    reduction_figure,
    share_timelines_figure,
    udrf_figures,
    waste_figure,
    wasted_timeline_figure,
)
from scheduling.udrf.html import render_udrf_html
from scheduling.udrf.offline_doc import offline_document
from scheduling.udrf.online import online_document
from scheduling.udrf.synthetic import synthetic_scenario
from scheduling.udrf.tables import (
    combine_online,
    reduction_rows,
    udrf_summary,
    udrf_table,
    udrf_tables,
    user_rows,
)

ROOT = Path(__file__).resolve().parents[3]
ONLINE = json.loads((ROOT / "tests" / "fixtures" / "udrf-online.json").read_text())


@pytest.fixture(scope="module")
def fig1() -> dict[str, Any]:
    return offline_document(load_scenario_json((ROOT / "examples" / "paper004-fig1.json").read_text()))


def _plain(fig: dict[str, Any]) -> None:
    json.dumps(fig, allow_nan=False)


def _per_policy(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {**{k: v for k, v in doc.items() if k != "comparison"}, "policies": {p: doc["policies"][p]}}
        for p in doc["policies"]
    ]


def synthetic(users: int, classes: int, seed: int = 0) -> dict[str, Any]:
    """A version-3 scenario: ``classes`` machine classes, each user with two jobs on one or
    two random classes (so most users depend on others)."""
    rng = random.Random(seed)
    vm_types = [
        {
            "name": f"c{k}",
            "machine_class": f"c{k}",
            "capacity": {"cpu": 16, "mem": 64},
            "price_per_hour": 0,
            "count": 4,
        }
        for k in range(classes)
    ]
    frameworks = []
    for u in range(users):
        jobs = []
        for j in range(2):
            picked = rng.sample(range(classes), rng.choice([1, 2]))
            jobs.append(
                {
                    "id": f"j{j}",
                    "tasks": [
                        {
                            "machine_class": f"c{c}",
                            "demand": {"cpu": rng.randint(1, 4), "mem": rng.randint(1, 16)},
                        }
                        for c in picked
                    ],
                }
            )
        frameworks.append({"name": f"user-{u}", "complex_jobs": jobs})
    return {
        "version": 3,
        "name": "synthetic",
        "resources": ["cpu", "mem"],
        "vm_types": vm_types,
        "frameworks": frameworks,
    }


def test_the_papers_example_draws_its_rducs_bars_and_waste(fig1: dict[str, Any]) -> None:
    figures = udrf_figures([fig1])
    assert list(figures) == ["graph", "allocation", "waste"]
    for fig in figures.values():
        _plain(fig)
    graph = figures["graph"]
    edges, *rducs = graph["data"]
    assert [t["text"] for t in rducs] == [["u1", "u2", "u3"], ["u4"]]
    assert edges["x"].count(None) == 2  # u1-u2 and u2-u3
    assert {t["marker"]["color"] for t in rducs} <= set(PALETTES["rduc"].colours)
    assert (
        "u1" in rducs[0]["hovertext"][0] and "UDRF: dominant share 50.0%, 36 jobs" in rducs[0]["hovertext"][0]
    )
    bars = allocation_bars_figure(fig1)
    jobs = {t["name"]: t["y"] for t in bars["data"] if t.get("yaxis") == "y2"}
    assert jobs == {"UDRF": [36.0, 8.0, 10.0, 32.0], "DRF": [16.0, 8.0, 10.0, 32.0]}
    colours = variant_colours(["UDRF", "DRF"])
    assert {t["name"]: t["marker"]["color"] for t in bars["data"]} == colours
    waste = waste_figure(fig1)
    cpu = {t["name"]: t["y"] for t in waste["data"] if t.get("yaxis", "y") == "y"}
    assert cpu == {
        "UDRF": [28.0, 0.0, 6.0, 0.0],
        "DRF": [48.0, 0.0, 6.0, 0.0],
    }  # hadoop's cpu: Fig. 2's waste
    assert {t.get("yaxis", "y") for t in waste["data"]} == {"y", "y2"}  # a panel per resource kind


def test_a_big_graph_is_drawn_capped_and_says_so() -> None:
    # the synthetic trace's shape: a handful of RDUCs of tens of users, and users alone
    doc = offline_document(synthetic_scenario(users=200, jobs=600, classes=300, seed=3))
    users = sum(len(g["users"]) for g in doc["rducs"])
    fig = dependency_graph_figure(doc, max_nodes=60, max_edges=40)
    _plain(fig)
    drawn = sum(len(t["x"]) for t in fig["data"][1:])
    assert 0 < drawn <= 60
    assert fig["data"][0]["x"].count(None) <= 40
    words = fig["layout"]["annotations"][0]["text"]
    assert f"Drawn: {drawn:,} of {users:,} users" in words and "edges listed" in words
    # whole RDUCs, in the document's order, as many as fit
    drawn_groups = [t["text"] for t in fig["data"][1:]]
    groups = [g["users"] for g in doc["rducs"]]
    assert all(g in groups for g in drawn_groups)
    assert [groups.index(g) for g in drawn_groups] == sorted(groups.index(g) for g in drawn_groups)
    numbers = [int(t["name"].split()[1]) for t in fig["data"][1:]]
    assert numbers == [groups.index(g) + 1 for g in drawn_groups]  # the tables' numbers
    left = [g for g in groups if g not in drawn_groups]
    assert left and all(len(g) > 60 - drawn for g in left)
    # names are written beside few nodes only
    assert fig["data"][1]["mode"] == "markers"
    # one RDUC larger than the cap is cut to it
    one = {
        "users": [],
        "rducs": [{"users": [f"u{k}" for k in range(500)]}],
        "edges": [[f"u{k}", f"u{k + 1}"] for k in range(499)],
        "policies": {},
    }
    fig = dependency_graph_figure(one, max_nodes=100, max_edges=30)
    assert len(fig["data"][1]["x"]) == 100 and fig["data"][0]["x"].count(None) == 30
    assert "100 of 500 users" in fig["layout"]["annotations"][0]["text"]


def test_more_rducs_than_colours_differ_by_shape() -> None:
    """Twenty RDUCs on six colours: every drawn RDUC has a colour and shape no other has, and
    the PDF draws the same shapes."""
    from planner.reports.plotly_mpl import _marker

    doc = {"users": [], "rducs": [{"users": [f"u{k}"]} for k in range(20)], "edges": [], "policies": {}}
    traces = dependency_graph_figure(doc)["data"][1:]
    looks = [(t["marker"]["color"], t["marker"]["symbol"]) for t in traces]
    assert len(traces) == 20 and len(set(looks)) == 20
    assert {c for c, _ in looks} == set(PALETTES["rduc"].colours)
    assert len({(c, _marker(s)) for c, s in looks}) == 20  # the PDF tells them apart too
    # six or fewer: all circles, as before
    few = dependency_graph_figure({**doc, "rducs": doc["rducs"][:6]})["data"][1:]
    assert {t["marker"]["symbol"] for t in few} == {"circle"}


def test_bars_and_waste_keep_the_most_telling_users_and_classes() -> None:
    doc = offline_document(parse_scenario(synthetic(80, 60, seed=1)))
    bars = allocation_bars_figure(doc, max_users=10)
    assert len(bars["data"][0]["x"]) == 10 and "10 of 80 users" in bars["layout"]["annotations"][0]["text"]
    rows = {r["user"]: r for r in user_rows(doc)}
    gain = sorted((abs(r["jobs_total:udrf"] - r["jobs_total:drf"]) for r in rows.values()), reverse=True)
    shown = [abs(rows[u]["jobs_total:udrf"] - rows[u]["jobs_total:drf"]) for u in bars["data"][0]["x"]]
    assert min(shown) == pytest.approx(gain[9])
    waste = waste_figure(doc, max_classes=12)
    assert (
        len(waste["data"][0]["x"]) == 12 and "12 of 60 classes" in waste["layout"]["annotations"][0]["text"]
    )


def test_online_figures_from_one_document_or_one_per_policy() -> None:
    whole = udrf_figures([ONLINE])
    assert list(whole) == ["shares", "wasted", "cdf", "reduction:classes", "reduction:runs"]
    joined = combine_online(_per_policy(ONLINE))
    assert joined is not None and list(joined["policies"]) == ["udrf", "drf"]
    assert [g["reduction_pct"] for g in joined["comparison"]["by_classes"]] == pytest.approx(
        [g["reduction_pct"] for g in ONLINE["comparison"]["by_classes"]], abs=1e-3
    )
    parts = udrf_figures(_per_policy(ONLINE))
    assert list(parts) == list(whole)
    for fig in parts.values():
        _plain(fig)
    cdf = completion_cdf_figure(ONLINE)
    for trace in cdf["data"]:
        assert trace["y"][-1] == 1.0 and trace["y"] == sorted(trace["y"]) and trace["x"] == sorted(trace["x"])
    wasted = wasted_timeline_figure(ONLINE)
    assert [(t["name"], t.get("yaxis", "y")) for t in wasted["data"]] == [
        ("UDRF", "y"),
        ("DRF", "y"),
        ("UDRF", "y2"),
        ("DRF", "y2"),
    ]
    shares = share_timelines_figure(ONLINE, max_users=2)
    assert {t["name"] for t in shares["data"]} == {"u1", "u4"}  # the largest mean shares
    assert "2 of 4 users" in shares["layout"]["annotations"][0]["text"]
    by_runs = reduction_figure(ONLINE, "runs")
    assert by_runs["data"][0]["x"] == ["1", "2-5"] and "10b" in by_runs["layout"]["annotations"][0]["text"]
    assert [r["group"] for r in reduction_rows(ONLINE)] == ["1 class", "2 classes", "1 run", "2-5 runs"]
    # one policy only: no reduction to draw
    assert "reduction:runs" not in udrf_figures(_per_policy(ONLINE)[:1])


def test_joined_parts_compare_as_the_online_module_does() -> None:
    scenario = parse_scenario(
        synthetic(12, 5, seed=2)
        | {
            "frameworks": [
                {
                    **f,
                    "complex_jobs": [
                        {**j, "runs": 1 + k % 7, "duration_s": 10 + 5 * k, "arrival_s": 2 * k}
                        for k, j in enumerate(f["complex_jobs"])
                    ],
                }
                for f in synthetic(12, 5, seed=2)["frameworks"]
            ]
        }
    )
    whole = online_document(scenario, interval_s=1.0, seed=4)
    parts = [online_document(scenario, policies=(p,), interval_s=1.0, seed=4) for p in ("udrf", "drf")]
    joined = combine_online(parts)
    assert joined is not None and whole["comparison"]["by_runs"]
    assert joined["comparison"] == whole["comparison"]
    assert joined["policies"] == whole["policies"]


def test_the_table_joins_offline_and_online_per_policy(fig1: dict[str, Any]) -> None:
    docs = {
        "offline": fig1,
        **{f"online {p}": d for p, d in zip(("udrf", "drf"), _per_policy(ONLINE), strict=True)},
    }
    summaries = {k: udrf_summary(d, rows=2) for k, d in docs.items()}
    assert summaries["offline"]["row_counts"] == {"users": 4, "below_drf": 0, "classes": 8, "rducs": 2,
                                                  "properties": 4}
    assert len(summaries["offline"]["rows"]["users"]) == 2
    for table in (udrf_table(docs), udrf_table(summaries)):
        rows = {r["key"]: r for r in table["rows"]}
        assert table["variants"] == ["UDRF", "DRF"] and table["baseline"] == "DRF"
        assert [c["shown"] for c in rows["completion_reduction_pct"]["cells"]] == ["+33.3%", "baseline"]
        assert rows["mean_completion_s"]["best"] == ["UDRF"]
        assert rows["offline_wasted_pct:cpu"]["best"] == ["UDRF"]


def test_the_html_report_holds_tables_and_figures(fig1: dict[str, Any]) -> None:
    page = render_udrf_html([fig1, ONLINE], title="Fig. 1 & <online>")
    assert "Fig. 1 &amp; &lt;online&gt;" in page and "<online>" not in page
    for heading in (
        "UDRF against DRF",
        "Per user: UDRF against DRF",
        "Per job",
        "Per machine class",
        "RDUCs (connected components of the dependency graph)",
        "Online simulation",
        "Per user over the online run: UDRF against DRF",
        "Completion time reduced by UDRF",
    ):
        assert f">{heading}<" in page
    assert 'data-figure="graph"' in page and 'data-figure="cdf"' in page
    with pytest.raises(ValueError):
        render_udrf_html([], title="nothing")


def test_an_online_document_draws_its_mean_waste_per_class() -> None:
    doc = online_document(synthetic_scenario(users=8, jobs=24, classes=6, seed=2), max_points=100)
    figures = udrf_figures([doc])
    assert "waste:online" in figures
    figure = figures["waste:online"]
    assert figure["layout"]["title"]["text"].startswith("Mean wasted capacity per machine class")
    cpu = {t["name"]: t["y"] for t in figure["data"] if t.get("yaxis", "y") == "y"}
    for policy, label in (("udrf", "UDRF"), ("drf", "DRF")):
        expected = [c["wasted"]["cpu"] for c in doc["policies"][policy]["classes"]]
        assert cpu[label] == pytest.approx(expected, rel=1e-3, abs=1e-6)


def test_the_global_share_is_a_second_view_of_the_share_timelines_and_stays_bounded() -> None:
    doc = online_document(synthetic_scenario(users=60, jobs=150, classes=12, seed=1), max_points=300)
    figures = udrf_figures([doc], max_points=200)
    assert list(figures)[:3] == ["shares", "shares:global", "wasted"]
    rduc, glob = figures["shares"], figures["shares:global"]
    assert glob["layout"]["title"]["text"] == "Global dominant share per user over time"
    assert "whole cluster" in glob["layout"]["annotations"][0]["text"]
    # The same users in both views (the largest mean RDUC-wise shares), at most 12 a panel.
    assert [t["name"] for t in glob["data"]] == [t["name"] for t in rduc["data"]]
    assert len(glob["data"]) <= 2 * MAX_TIMELINE_USERS
    assert "12 of 60 users" in glob["layout"]["annotations"][0]["text"]
    assert all(len(t["x"]) <= 200 + 2 + 4 * MAX_TIMELINE_USERS for t in glob["data"])
    _plain(glob)
    # Global shares pool every class: never above the RDUC-wise share (weights are 1).
    for p in ("udrf", "drf"):
        for u in doc["policies"][p]["users"]:
            assert all(g <= s + 1e-6 for g, s in zip(u["global_share"], u["share"], strict=True))
    with pytest.raises(ValueError, match="measure"):
        share_timelines_figure(doc, measure="pooled")


def test_the_per_user_online_table_from_documents_or_from_summaries() -> None:
    scenario = synthetic_scenario(users=8, jobs=24, classes=6, seed=2)
    whole = online_document(scenario, max_points=100)
    parts = [online_document(scenario, policies=(p,), max_points=100) for p in ("udrf", "drf")]
    from_docs = next(t for t in udrf_tables([whole]) if t["key"] == "online_users")
    from_parts = next(t for t in udrf_tables(parts) if t["key"] == "online_users")
    summaries = [udrf_summary(d, rows=3) for d in parts]
    assert summaries[0]["row_counts"]["online_users"] == 8
    from_summaries = next(t for t in udrf_tables(summaries) if t["key"] == "online_users")
    assert from_docs["shown"] == from_parts["shown"] and from_summaries["shown"] == from_docs["shown"][:3]
    assert any("The first 3 of 8 rows" in n for n in from_summaries["notes"])
    labels = [c["label"] for c in from_docs["columns"]]
    assert labels[:3] == ["User", "Mean dominant share (UDRF)", "Mean dominant share (DRF)"]
    assert "Mean wasted, its part (DRF)" in labels
