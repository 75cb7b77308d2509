"""Summaries, comparison tables and per-framework rows of fairness studies, worked by hand.

The documents are in ``fairness_documents`` (paper 000's Table I set-up, and a two-framework
sharing timeline whose unfairness is computed there by hand).
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from scheduling.fairness.allocation_doc import allocation_document
from scheduling.fairness.html import render_fairness_html, write_fairness_html
from scheduling.fairness.tables import (
    ALLOCATION_CELL_COLUMNS,
    ALLOCATION_FRAMEWORK_COLUMNS,
    ALLOCATION_METRICS,
    ALLOCATION_RESOURCE_COLUMNS,
    FRAMEWORK_ROWS_COMPACT,
    SHARING_FRAMEWORK_COLUMNS,
    SHARING_METRICS,
    allocation_cell_rows,
    allocation_framework_rows,
    allocation_framework_table,
    allocation_metrics,
    allocation_resource_rows,
    allocation_summary,
    fairness_metrics,
    fairness_table,
    sharing_framework_rows,
    sharing_metrics,
    sharing_summary,
    summary,
)
from scheduling.tables import UNITS, comparison_table, file_value, headline, table_text
from tests.scheduling.fairness.fairness_documents import (
    EVIL,
    allocation_docs,
    renamed,
    rps_dsf,
    rrr_drf,
    sharing_doc,
    sharing_docs,
    table_one_problem,
)


def _rows(table: dict[str, Any]) -> dict[str, list[str]]:
    return {row["key"]: [c["shown"] for c in row["cells"]] for row in table["rows"]}


def _best(table: dict[str, Any]) -> dict[str, list[str]]:
    return {row["key"]: row["best"] for row in table["rows"]}


# --------------------------------------------------------------------------- allocation


def test_allocation_summary_by_hand() -> None:
    s = allocation_summary(rrr_drf())
    assert s["study"] == "allocation" and s["label"] == "RRR-DRF" and s["trials"] == 4
    assert s["frameworks"] == [{"name": "f1", "weight": 1.0}, {"name": "f2", "weight": 1.0}]
    assert s["resources"] == ["cpu", "mem"]
    assert s["tasks"] == {"f1": {"mean": 11.0, "std": pytest.approx(2.0)},
                          "f2": {"mean": 11.0, "std": pytest.approx(2.0)}}
    assert (s["total_tasks"], s["total_std"], s["task_efficiency"]) == (22.0, pytest.approx(4.0), 22.0)
    assert s["capacity"] == {"cpu": 130.0, "mem": 130.0}
    assert s["unallocated"] == s["stranded_total"] == {"cpu": 64.0, "mem": 64.0}
    assert s["stranded_fraction"]["cpu"] == pytest.approx(64 / 130)
    # 5,5/5,5 three times and 10,4/4,10 once: two distinct outcomes, the first in 3 trials.
    assert (s["distinct_outcomes"], s["top_outcome_trials"], s["outcomes_complete"]) == (2, 3, True)
    # DRF criterion at the mean allocation: 11 tasks x max(5/130, 1/130) = 11 x 5 / 130.
    assert s["lowest_dominant_share"] == pytest.approx(55 / 130)
    json.dumps(s, allow_nan=False)
    assert len(json.dumps(s)) < 2000

    r = allocation_summary(rps_dsf())
    assert r["stranded_total"] == {"cpu": 4.0, "mem": 4.0}  # (3, 1) on c1 and (1, 3) on c2
    assert r["utilisation"] == {"cpu": pytest.approx(126 / 130), "mem": pytest.approx(126 / 130)}
    assert r["distinct_outcomes"] == 1 and r["pf_inequality"] is None


def test_allocation_table_compact_and_detail() -> None:
    docs = allocation_docs()
    table = fairness_table({k: allocation_summary(d) for k, d in docs.items()})
    rows, best = _rows(table), _best(table)
    assert table["variants"] == ["RRR-DRF", "rPS-DSF"]
    assert rows["total_tasks"] == ["22.0 ± 4.0", "42.0"]  # one trial: no ± std
    assert best["total_tasks"] == ["rPS-DSF"] and best["task_efficiency"] == ["rPS-DSF"]
    assert rows["tasks:f1"] == ["11.0 ± 2.0", "21.0"] and best["tasks:f1"] == []  # no better direction
    assert rows["stranded_pct:cpu"] == ["49.2% (64 of 130)", "3.1% (4 of 130)"]
    assert best["stranded_pct:mem"] == ["rPS-DSF"]
    assert rows["utilisation:cpu"] == ["50.8%", "96.9%"]
    assert rows["lowest_dominant_share"][0] == "42.3% (f1)"
    assert "pf_inequality" not in rows  # no variant has one
    assert not {"total_std", "stranded:cpu", "distinct_outcomes"} & set(rows)  # files only
    full = _rows(fairness_table(docs, detail=True))
    assert full["stranded:cpu"] == ["64", "4"] and full["total_std"] == ["4.0", "0.0"]
    assert full["distinct_outcomes"] == ["2 (most frequent in 75% of 4 trials)", "1"]


def test_table_from_documents_summaries_or_stored_headlines_is_the_same() -> None:
    docs = allocation_docs()
    summaries = {k: allocation_summary(d) for k, d in docs.items()}
    metrics = fairness_metrics(summaries)
    heads = {k: headline(s, metrics) for k, s in summaries.items()}
    by_summary = fairness_table(summaries, detail=True)
    assert fairness_table(docs, detail=True) == by_summary
    assert comparison_table(heads, metrics=metrics, detail=True) == by_summary
    json.dumps(heads, allow_nan=False)
    # The per-framework tasks are read at the same path in the whole document.
    direct = comparison_table(docs, metrics=metrics)
    assert _rows(direct)["tasks:f2"] == _rows(by_summary)["tasks:f2"]


def test_pf_inequality_row_only_when_a_variant_has_one() -> None:
    docs = allocation_docs()
    docs["rPS-DSF"]["pf_inequality"] = -0.25
    rows = _rows(fairness_table(docs))
    assert rows["pf_inequality"] == ["—", "−0.25 (≤ 0: the PF allocation is not beaten)"]
    docs["rPS-DSF"]["pf_inequality"] = 0.5
    assert _rows(fairness_table(docs))["pf_inequality"][1] == "+0.50 (> 0: beats the PF allocation)"


def test_task_efficiency_weighs_tasks() -> None:
    doc = rps_dsf(weights=(2.0, 1.0))
    # eq. 10: 2 x 21 + 1 x 21 = 63 against 42 tasks.
    assert _rows(fairness_table({"w": doc}))["task_efficiency"] == ["63.0"]


def test_metric_lists() -> None:
    assert {m.unit for m in (*ALLOCATION_METRICS, *SHARING_METRICS)} <= set(UNITS)
    assert [m.key for m in ALLOCATION_METRICS if ":" in m.key] == [
        "utilisation:cpu", "utilisation:mem", "stranded_pct:cpu", "stranded_pct:mem", "stranded:cpu",
        "stranded:mem",
    ]
    many = [f"fw{k}" for k in range(FRAMEWORK_ROWS_COMPACT + 1)]
    assert all(m.detail for m in allocation_metrics(("cpu",), many) if m.key.startswith("tasks:"))
    assert not any(m.detail for m in allocation_metrics(("cpu",), many[:2]) if m.key.startswith("tasks:"))
    assert all(m.detail for m in sharing_metrics(("cpu",), many) if m.key.startswith("unfairness_pct:"))
    keys = [m.key for m in sharing_metrics(("gpu",), ["x"])]
    assert len(keys) == len(set(keys)) and "utilisation:gpu" in keys


def test_a_table_compares_one_study() -> None:
    with pytest.raises(ValueError, match="mixed"):
        fairness_table({"a": rps_dsf(), "s": sharing_doc()})
    with pytest.raises(ValueError, match="not a fairness document"):
        summary({"study": "cost"})
    with pytest.raises(ValueError, match="not an allocation document"):
        allocation_summary(sharing_doc())
    with pytest.raises(ValueError, match="not a sharing document"):
        sharing_summary(rps_dsf())


def test_allocation_rows_are_table_one() -> None:
    docs = allocation_docs()
    cells = [(r["framework"], r["machine"], r["tasks"], r["tasks_std"])
             for r in allocation_cell_rows(docs) if r["variant"] == "rPS-DSF"]
    assert cells == [("f1", "c1#1", 19.0, 0.0), ("f1", "c2#1", 2.0, 0.0),
                     ("f2", "c1#1", 2.0, 0.0), ("f2", "c2#1", 19.0, 0.0)]
    drf = [r for r in allocation_cell_rows(docs) if r["variant"] == "RRR-DRF"]
    assert [r["tasks"] for r in drf] == [6.25, 4.75, 4.75, 6.25]  # (3 x 5 + 10) / 4, (3 x 5 + 4) / 4
    assert drf[0]["tasks_std"] == pytest.approx(2.5)  # 5, 5, 5, 10: sqrt(3 x 1.25² + 3.75²) / sqrt(3)
    per_fw = allocation_framework_rows(docs)
    assert [(r["variant"], r["framework"], r["tasks"]) for r in per_fw] == [
        ("RRR-DRF", "f1", 11.0), ("RRR-DRF", "f2", 11.0), ("rPS-DSF", "f1", 21.0), ("rPS-DSF", "f2", 21.0)]
    assert per_fw[2]["dominant_share"] == pytest.approx(21 * 5 / 130 * 100)
    res = {(r["variant"], r["resource"]): r for r in allocation_resource_rows(docs)}
    assert res["rPS-DSF", "cpu"]["stranded"] == 4.0 and res["rPS-DSF", "cpu"]["capacity"] == 130.0
    assert res["rPS-DSF", "cpu"]["stranded_pct"] == pytest.approx(400 / 130)
    for columns, rows in ((ALLOCATION_CELL_COLUMNS, allocation_cell_rows(docs)),
                          (ALLOCATION_FRAMEWORK_COLUMNS, per_fw),
                          (ALLOCATION_RESOURCE_COLUMNS, allocation_resource_rows(docs))):
        assert [c[0] for c in columns] == list(rows[0])
        for row in rows:  # every value is one a file can write in its column's unit
            for key, _, unit in columns:
                if unit != "text":
                    file_value(row[key], unit)


def _criteria(table: Any, variant: str) -> dict[str, dict[str, Any]]:
    """The criteria table's cells of ``variant``, by framework and column key."""
    keys = [c["key"] for c in table["columns"]]
    return {row[1]: dict(zip(keys, row, strict=True)) for row in table["rows"] if row[0] == variant}


def test_criteria_table_by_hand_on_table_one() -> None:
    # rPS-DSF: x = 19, 2 / 2, 19, so x_1 = x_2 = 21 (paper 000, Table I; notes §1):
    # DRF  21 max(5/130, 1/130) = 105/130;  TSF  21 / (min(100/5, 30/1) + min(30/5, 100/1)) = 21/26.
    # PS-DSF f1: c1 21 max(5/100, 1/30) = 1.05, c2 21 max(5/30, 1/100) = 3.5 -> 1.05 on c1#1 (f2: c2#1).
    # rPS-DSF on the residuals c1 (3, 1), c2 (1, 3): f1 c1 21 max(5/3, 1/1) = 35, c2 21 max(5/1, 1/3)
    # = 105 -> 35 on c1#1 (f2 by symmetry 35 on c2#1).
    table = allocation_framework_table(allocation_docs())
    rps = _criteria(table, "rPS-DSF")
    for fw, best in (("f1", "c1#1"), ("f2", "c2#1")):
        assert rps[fw]["tasks"] == 21.0 and rps[fw]["weight"] == 1.0
        assert rps[fw]["dominant_share"] == pytest.approx(105 / 130 * 100)
        assert rps[fw]["tsf"] == pytest.approx(21 / 26 * 100)
        assert rps[fw]["psdsf_min"] == pytest.approx(105.0) and rps[fw]["psdsf_min_machine"] == best
        assert rps[fw]["rpsdsf_min"] == pytest.approx(3500.0) and rps[fw]["rpsdsf_min_machine"] == best
    shown = {row[1]: row[5:] for row in table["shown"] if row[0] == "rPS-DSF"}
    assert shown["f1"] == ["80.8%", "80.8%", "105.0%", "c1#1", "3,500.0%", "c1#1"]
    # RRR-DRF at its mean allocation 6.25, 4.75 / 4.75, 6.25 (x_n = 11). c1 holds (70, 0) free after
    # 5, 5 and (46, 0) after 10, 4: mean residual (64, 0), c2 (0, 64) by symmetry. Each framework
    # needs both resources, so rPS-DSF is undefined on both servers: —.
    drf = _criteria(table, "RRR-DRF")
    assert drf["f1"]["dominant_share"] == pytest.approx(55 / 130 * 100)
    assert drf["f1"]["psdsf_min"] == pytest.approx(11 * 5 / 100 * 100)  # 11 max(5/100, 1/30) on c1
    assert drf["f1"]["rpsdsf_min"] is None and drf["f1"]["rpsdsf_min_machine"] is None
    assert "—" in [row[9] for row in table["shown"] if row[0] == "RRR-DRF"]


def test_criteria_table_skips_servers_where_a_criterion_is_undefined() -> None:
    # The paper's PS-DSF row, 19, 0 / 2, 20 (x_1 = 19, x_2 = 22). Residuals: c1 (100 - 97, 30 - 29)
    # = (3, 1); c2 (30 - 20, 100 - 100) = (10, 0): no mem left, so rPS-DSF is undefined there for
    # both frameworks and the minimum is c1's: f1 19 max(5/3, 1/1) = 95/3, f2 22 max(1/3, 5/1) = 110.
    # PS-DSF: f1 19 max(5/100, 1/30) = 0.95 on c1; f2 22 max(1/30, 5/100) = 1.1 on c2.
    doc = allocation_document(table_one_problem(), np.array([[[19, 0], [2, 20]]], dtype=float),
                              meta={"label": "PS-DSF"})
    rows = _criteria(allocation_framework_table({"PS-DSF": doc}), "PS-DSF")
    assert doc["criteria"]["f1"]["rpsdsf"]["c2#1"] is None
    assert (rows["f1"]["psdsf_min"], rows["f1"]["psdsf_min_machine"]) == (pytest.approx(95.0), "c1#1")
    assert (rows["f2"]["psdsf_min"], rows["f2"]["psdsf_min_machine"]) == (pytest.approx(110.0), "c2#1")
    assert (rows["f1"]["rpsdsf_min"], rows["f1"]["rpsdsf_min_machine"]) == (pytest.approx(9500 / 3), "c1#1")
    assert (rows["f2"]["rpsdsf_min"], rows["f2"]["rpsdsf_min_machine"]) == (pytest.approx(11000.0), "c1#1")
    assert rows["f2"]["dominant_share"] == pytest.approx(22 * 5 / 130 * 100)
    assert rows["f2"]["tsf"] == pytest.approx(22 / 26 * 100)


def test_criteria_table_divides_by_the_weight() -> None:
    doc = rps_dsf(weights=(2.0, 1.0))
    rows = _criteria(allocation_framework_table({"w": doc}), "w")
    assert rows["f1"]["weight"] == 2.0
    assert rows["f1"]["psdsf_min"] == pytest.approx(105.0 / 2)
    assert rows["f2"]["psdsf_min"] == pytest.approx(105.0)
    assert rows["f1"]["rpsdsf_min"] == pytest.approx(3500.0 / 2)


def test_criteria_table_is_the_same_from_documents_and_summaries() -> None:
    docs = allocation_docs()
    summaries = {k: allocation_summary(d) for k, d in docs.items()}
    table = allocation_framework_table(docs)
    assert allocation_framework_table(summaries) == table
    assert allocation_framework_table(json.loads(json.dumps(summaries))) == table  # as stored
    assert table["key"] == "frameworks" and table["notes"]
    text = table_text(table)
    assert "PS-DSF (min over servers)" in text and "rPS-DSF (min over servers)" in text
    # A summary stored before the minima were kept shows them as missing, not as an error.
    old = {k: {**s, "criteria": {fw: {"drf": c["drf"], "tsf": c["tsf"]} for fw, c in s["criteria"].items()},
               "frameworks": [f["name"] for f in s["frameworks"]]} for k, s in summaries.items()}
    assert {row[7] for row in allocation_framework_table(old)["shown"]} == {"—"}


# --------------------------------------------------------------------------- sharing


def test_sharing_summary_by_hand() -> None:
    s = sharing_summary(sharing_doc())
    assert s["fairness"]["frameworks"]["a"]["unfairness_area"] == pytest.approx(3.0)
    assert (s["worst_unfairness_pct"], s["worst_unfairness_framework"]) == (pytest.approx(20.0), "a")
    assert (s["worst_unfairness_area"], s["worst_area_framework"]) == (pytest.approx(3.0), "a")
    assert s["total_unfairness_area"] == pytest.approx(3.0)
    assert s["fairness"]["contention_s"] == 30.0
    # Mean wait over every finished task: (3 x 5 + 1 x 1) / 4 = 4.
    assert s["mean_wait_s"] == 4.0 and s["max_wait_s"] == 30.0
    assert (s["tasks"], s["finished"]) == (8.0, 4.0)
    # cpu: (1 x 10 + 0.875 x 10 + 1 x 10 + 0 x 10) / 40.
    assert s["utilisation"] == {"cpu": pytest.approx(0.71875), "mem": pytest.approx(0.35)}
    assert (s["offers_made"], s["offers_declined"], s["offers_declined_pct"]) == (20.0, 12.0, 60.0)
    assert "timeline" not in s
    json.dumps(s, allow_nan=False)


def test_sharing_summary_prefers_the_documents_own_counts_and_means() -> None:
    doc = sharing_doc()
    doc["completion"]["a"]["launched"] = 4
    doc["completion"]["b"]["launched"] = 1
    doc["utilisation_stats"] = {"cpu": {"mean": 0.9, "std": 0.1}}  # over the busy time
    s = sharing_summary(doc)
    assert s["mean_wait_s"] == pytest.approx((5 * 4 + 1 * 1) / 5)  # means over launched tasks
    assert s["utilisation"] == {"cpu": 0.9, "mem": pytest.approx(0.35)}
    assert sharing_framework_rows({"c": doc})[0]["launched"] == 4.0


def test_sharing_summary_without_offers_or_contention() -> None:
    doc = sharing_doc()
    doc["mode"] = "characterized"
    del doc["offers"]
    doc["fairness"] = {"contention_s": 0.0, "window": None,
                       "frameworks": {"a": {"unfairness_pct": None, "unfairness_area": 0.0},
                                      "b": {"unfairness_pct": None, "unfairness_area": 0.0}}}
    s = sharing_summary(doc)
    assert s["offers"] is None and s["offers_declined_pct"] is None
    assert s["worst_unfairness_pct"] is None and s["worst_unfairness_framework"] is None
    rows = _rows(fairness_table({"c": s}, detail=True))
    assert rows["worst_unfairness_pct"] == ["—"] and rows["offers_declined_pct"] == ["—"]
    assert rows["worst_unfairness_area"] == ["0.00 share·s"]  # no "(a)" on a zero


def test_sharing_table() -> None:
    docs = sharing_docs()
    table = fairness_table(docs)
    rows, best = _rows(table), _best(table)
    assert rows["worst_unfairness_pct"] == ["20.0% (a)", "20.0% (b)"] and best["worst_unfairness_pct"] == []
    assert rows["unfairness_pct:a"] == ["20.0%", "0.0%"] and best["unfairness_pct:a"] == ["refuse 1 s"]
    assert rows["unfairness_pct:b"] == ["0.0%", "20.0%"]
    assert rows["worst_unfairness_area"] == ["3.00 share·s (a)", "3.00 share·s (b)"]
    assert rows["makespan_s"] == ["40.0 s", "35.0 s"] and best["makespan_s"] == ["refuse 1 s"]
    assert rows["mean_wait_s"] == ["4.0 s", "4.0 s"]
    assert rows["utilisation:cpu"] == ["71.9%", "71.9%"]
    assert "unfairness_area:a" not in rows and "offers_declined_pct" not in rows
    full = _rows(fairness_table(docs, detail=True))
    assert full["unfairness_area:b"] == ["0.00 share·s", "3.00 share·s"]
    assert full["offers_declined_pct"] == ["12 / 20 (60.0%)"] * 2
    assert full["finished"] == ["4 / 8"] * 2 and full["last_finish:a"] == ["40.0 s"] * 2


def test_sharing_framework_rows() -> None:
    rows = sharing_framework_rows(sharing_docs())
    assert [(r["configuration"], r["framework"], r["unfairness_pct"]) for r in rows] == [
        ("refuse 5 s", "a", pytest.approx(20.0)), ("refuse 5 s", "b", 0.0),
        ("refuse 1 s", "a", 0.0), ("refuse 1 s", "b", pytest.approx(20.0))]
    first = rows[0]
    assert (first["received_pct"], first["tasks"], first["finished"], first["offers_declined"]) == (
        pytest.approx(80.0), 4.0, 3.0, 6.0)
    assert [c[0] for c in SHARING_FRAMEWORK_COLUMNS] == list(first)


# --------------------------------------------------------------------------- HTML report


def _payload(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="figures-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize("study", ["allocation", "sharing"])
def test_fairness_html_is_standalone_with_table_and_every_figure(study: str, tmp_path: Any) -> None:
    from scheduling.fairness.charts import allocation_figures, sharing_figures

    docs = allocation_docs() if study == "allocation" else sharing_docs()
    path = tmp_path / "f.html"
    write_fairness_html(path, docs, title="Table I & co")
    page = path.read_text(encoding="utf-8")
    assert "<title>Table I &amp; co</title>" in page and not re.search(r"<script[^>]+src=", page)
    figures = allocation_figures(docs) if study == "allocation" else sharing_figures(docs)
    data = _payload(page)
    assert data["figures"] == json.loads(json.dumps(figures))
    assert [c["key"] for c in data["charts"]] == [k for k in figures if "@" not in k]
    assert len(re.findall(r'<div class="chart" id="chart-\d+"', page)) == len(data["charts"])
    for row in fairness_table(docs)["rows"]:
        assert f'<th scope="row">{row["label"]}</th>' in page
        for cell in row["cells"]:
            cls = ' class="best"' if cell["best"] else ""
            assert f"<td{cls}>{cell['shown']}</td>" in page
    if study == "sharing":
        assert 'data-view="overlay"' in page and 'data-view="multiples"' in page
        assert "Sharing study" in page
    else:
        assert "<td>19.0</td>" in page and "Allocation study" in page and "data-view" not in page
        criteria = allocation_framework_table(docs)
        assert f"<h2>{criteria['title']}</h2>" in page or criteria["title"] in page
        for shown in criteria["shown"]:
            assert "<tr>" + "".join(f"<td>{c}</td>" for c in shown) + "</tr>" in page


def test_fairness_html_escapes_names() -> None:
    doc = renamed(rrr_drf(), "f1", EVIL)
    page = render_fairness_html({EVIL: doc}, title=EVIL)
    assert EVIL not in page
    assert "<title>&lt;b&gt;x&lt;/b&gt;</title>" in page
    # Keys are looked up, never shown; in the figures themselves, names are escaped for Plotly.
    figures = json.dumps(list(_payload(page)["figures"].values()), ensure_ascii=False)
    assert EVIL not in figures and "&lt;b&gt;x&lt;/b&gt;" in figures
    sharing = render_fairness_html({"s": renamed(sharing_doc(), "a", EVIL)}, title="t")
    assert EVIL not in sharing
    with pytest.raises(ValueError, match="one study"):
        render_fairness_html({"a": rps_dsf(), "s": sharing_doc()}, title="t")
