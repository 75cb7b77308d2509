"""The PDF report: pages, metadata, determinism, hostile text, and that it draws the page's figures."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.table import Table

from planner.reports.pdf_report import _RC, CREATOR, build_pdf, pdf_page_count, pdf_pages
from scheduling.charts import scheduler_colours
from scheduling.cost.charts import all_figures


def _pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


META = {"run_name": "Nightly what-if run", "scenario_name": "tiny", "created_at": "2026-11-22T10:00:00Z"}


@pytest.fixture(scope="module")
def pdf(results: dict[str, dict[str, Any]], report: Any) -> bytes:
    return build_pdf(report(META, results, "fifo-spread"))


def _table_texts(page: Figure) -> dict[str, list[str]]:
    """The summary table of a page as {row label: [cell texts]}."""
    table = next(child for ax in page.axes for child in ax.get_children() if isinstance(child, Table))
    cells = table.get_celld()
    rows: dict[str, list[str]] = {}
    for (r, c), cell in sorted(cells.items()):
        if r == 0:
            continue
        label = cells[(r, -1)].get_text().get_text().replace("\n", " ")
        if c >= 0:
            rows.setdefault(label, []).append(cell.get_text().get_text().replace("\n", " "))
    return rows


def test_pdf_pages_and_metadata(pdf: bytes, results: dict[str, dict[str, Any]], report: Any) -> None:
    assert pdf.startswith(b"%PDF")
    assert pdf.rstrip().endswith(b"%%EOF")
    content = report(META, results, "fifo-spread")
    # The summary, then one page per figure: the page's figures and each scheduler's fairness.
    assert _pages(pdf) == pdf_page_count(content) == 1 + len(content.figures)
    assert [k for k in content.figures if k.startswith("fairness:")] == [f"fairness:{s}" for s in results]
    assert b"Run report: Nightly what-if run" in pdf  # the /Title entry
    assert CREATOR.encode() in pdf
    assert b"/CreationDate" not in pdf


def test_pdf_is_deterministic(pdf: bytes, results: dict[str, dict[str, Any]], report: Any) -> None:
    assert build_pdf(report(META, results, "fifo-spread")) == pdf


def test_more_schedulers_add_summary_pages(
    run_schedulers: Callable[[list[str]], dict[str, dict[str, Any]]], report: Any,
) -> None:
    specs = [
        "fifo-spread",
        "fifo-consolidate",
        "fifo-bfd",
        "edf-spread",
        "edf-consolidate",
        "edf-bfd",
        "morpheus",
    ]
    res = run_schedulers(specs)
    content = report({"run_name": "seven"}, res)
    data = build_pdf(content)
    # 7 schedulers: 2 summary pages.
    assert _pages(data) == pdf_page_count(content) == 2 + len(content.figures)


def test_hostile_text_renders(results: dict[str, dict[str, Any]], names: Any, report: Any) -> None:
    res = copy.deepcopy(results)
    for r in res.values():  # "$" would start matplotlib mathtext; unbalanced it fails to parse
        r["cost_by_framework"] = {f"cost ${k} ^_{{": v for k, v in r["cost_by_framework"].items()}
    meta = {"run_name": "a $b_{c ^ $", "scenario_name": names.scenario, "created_at": names.run}
    data = build_pdf(report(meta, res, None))
    assert _pages(data) == pdf_page_count(report(meta, res))


def test_empty_run_is_one_page(report: Any) -> None:
    data = build_pdf(report({"run_name": "empty"}, {}, None))
    assert data.startswith(b"%PDF") and _pages(data) == 1 == pdf_page_count(report({}, {}))


def test_long_timeline_renders(results: dict[str, dict[str, Any]], report: Any) -> None:
    # A 20,000-point timeline, as a 10,000-job run has.
    res = copy.deepcopy({"edf-bfd": results["edf-bfd"]})
    tl = res["edf-bfd"]["timeline"]
    n = 20_000
    rng = np.random.default_rng(0)
    tl["t"] = np.linspace(0, 400_000, n).tolist()
    tl["utilisation"] = {k: rng.random(n).tolist() for k in tl["utilisation"]}
    tl["utilisation_of_on"] = {k: rng.random(n).tolist() for k in tl["utilisation_of_on"]}
    tl["active_vms"] = {k: rng.integers(0, 3, n).tolist() for k in tl["active_vms"]}
    tl["cumulative_cost"] = np.linspace(0, res["edf-bfd"]["total_cost"], n).tolist()
    content = report({"run_name": "long"}, res)
    assert _pages(build_pdf(content)) == pdf_page_count(content)


def test_long_run_name_stays_on_the_page(results: dict[str, dict[str, Any]], report: Any) -> None:
    name = "Nightly what-if of the high-load workload on the enlarged cluster, " * 6
    content = report({"run_name": name}, results, figures=())
    with rc_context(_RC):
        page = pdf_pages(content)[0]
        renderer = FigureCanvasAgg(page).get_renderer()
        width = page.bbox.width
        for text in page.texts:
            box = text.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= width, text.get_text()[:60]
        title = page.texts[0].get_text()
        assert title.startswith("Run report: Nightly") and "\n" in title


def test_summary_table_is_the_presenters(results: dict[str, dict[str, Any]], report: Any) -> None:
    content = report({"run_name": "t"}, results, "morpheus", currency="€")
    with rc_context(_RC):
        rows = _table_texts(pdf_pages(content)[0])
    # Units in labels match the values: no "(s)" label, durations read as durations.
    assert not any(label.endswith("(s)") for label in rows)
    assert all(re.fullmatch(r"(\d+ (h|min|d) \d+ (min|s|h)|\d+\.\d s)", v) for v in rows["Makespan"])
    # The baseline's own saving is "baseline", in both saving rows; money has the currency.
    morpheus = list(results).index("morpheus")
    assert rows["Saving vs morpheus"][morpheus] == "baseline"
    assert rows["Money saved vs morpheus"][morpheus] == "baseline"
    assert all(v.startswith("€") for v in rows["Total cost"])
    for row in content.comparison["rows"]:
        assert rows[row["label"]] == [c["shown"] for c in row["cells"]]


def _lines(page: Figure) -> list[tuple[str, list[float]]]:
    return [
        (to_hex(line.get_color()).upper(), [float(v) for v in line.get_ydata()])  # type: ignore[union-attr]
        for ax in page.axes
        for line in ax.get_lines()
    ]


def test_pdf_draws_the_pages_figures(results: dict[str, dict[str, Any]], report: Any) -> None:
    content = report({"run_name": "t"}, results)
    figures = all_figures(results)
    keys = list(content.figures)
    with rc_context(_RC):
        pages = pdf_pages(content)[1:]
    for key in ("cumulative_cost", "utilisation", "active_vms"):
        assert content.figures[key] == figures[key]
        drawn = _lines(pages[keys.index(key)])
        for trace in figures[key]["data"]:
            y = [float("nan") if v is None else float(v) for v in trace["y"]]
            assert (trace["line"]["color"].upper(), y) in drawn, (key, trace["name"])
    # Utilisation against the whole cluster, as on the page, and the page says so.
    title = pages[keys.index("utilisation")].texts[0].get_text()
    assert "of the whole cluster" in title
    # Each scheduler in its colour of the palette.
    colours = scheduler_colours(results)
    drawn_colours = {c for c, _ in _lines(pages[keys.index("cumulative_cost")])}
    assert {c.upper() for c in colours.values()} <= drawn_colours


def test_cover_labels_never_overlap_their_values(results: dict[str, dict[str, Any]], report: Any) -> None:
    """Issue 22: "PF reference (eq. 9):none" on the sharing report's cover."""
    import dataclasses

    content = report({"run_name": "t"}, results, "morpheus", figures=())
    content = dataclasses.replace(
        content, details=[*content.details, ("PF reference (eq. 9)", "none"), ("Long " * 12, "x")]
    )
    with rc_context(_RC):
        page = pdf_pages(content)[0]
        renderer = FigureCanvasAgg(page).get_renderer()
        texts = [t for t in page.texts if t.get_text().endswith(":")]
        labels = {round(t.get_position()[1], 6): t for t in texts}
        values = [t for t in page.texts if t not in texts and round(t.get_position()[1], 6) in labels]
        assert len(values) == len(content.details)
        for value in values:
            label = labels[round(value.get_position()[1], 6)]
            ends, starts = label.get_window_extent(renderer).x1, value.get_window_extent(renderer).x0
            assert ends < starts, label.get_text()
    # The recommendation (deadline misses first, then cost) is on the cover, in bold.
    verdict = next(t for t in page.texts if t.get_text().startswith(("cheapest", "fewest")))
    assert verdict.get_fontweight() == "bold"
