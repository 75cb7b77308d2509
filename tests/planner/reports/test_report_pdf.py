"""The PDF report: pages, metadata, determinism, hostile text, timeline downsampling."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from planner.reports import run_report_pdf
from planner.reports.pdf_report import CREATOR, pdf_page_count, step_windows


def _pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


@pytest.fixture(scope="module")
def pdf(results: dict[str, dict[str, Any]]) -> bytes:
    meta = {"run_name": "Nightly what-if run", "scenario_name": "tiny", "created_at": "2026-11-22T10:00:00Z"}
    return run_report_pdf(meta, results, "fifo-spread")


def test_pdf_pages_and_metadata(pdf: bytes, results: dict[str, dict[str, Any]]) -> None:
    assert pdf.startswith(b"%PDF")
    assert pdf.rstrip().endswith(b"%%EOF")
    # Summary, cost over time, utilisation, active VMs, cost breakdown, deadlines/completion.
    assert _pages(pdf) == 6 == pdf_page_count(results)
    assert b"Run report: Nightly what-if run" in pdf  # the /Title entry
    assert CREATOR.encode() in pdf
    assert b"/CreationDate" not in pdf


def test_pdf_is_deterministic(pdf: bytes, results: dict[str, dict[str, Any]]) -> None:
    meta = {"run_name": "Nightly what-if run", "scenario_name": "tiny", "created_at": "2026-11-22T10:00:00Z"}
    assert run_report_pdf(meta, results, "fifo-spread") == pdf


def test_more_schedulers_add_pages(run_schedulers: Callable[[list[str]], dict[str, dict[str, Any]]]) -> None:
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
    data = run_report_pdf({"run_name": "seven"}, res, None)
    # 7 schedulers: 2 summary pages and 2 pages of active-VM panels.
    assert _pages(data) == pdf_page_count(res) == 8


def test_hostile_text_renders(results: dict[str, dict[str, Any]], names: Any) -> None:
    res = copy.deepcopy(results)
    for r in res.values():  # "$" would start matplotlib mathtext; unbalanced it fails to parse
        r["cost_by_framework"] = {f"cost ${k} ^_{{": v for k, v in r["cost_by_framework"].items()}
    meta = {"run_name": "a $b_{c ^ $", "scenario_name": names.scenario, "created_at": names.run}
    data = run_report_pdf(meta, res, None)
    assert _pages(data) == 6


def test_empty_run_is_one_page() -> None:
    data = run_report_pdf({"run_name": "empty"}, {}, None)
    assert data.startswith(b"%PDF") and _pages(data) == 1 == pdf_page_count({})


def test_long_timeline_renders(results: dict[str, dict[str, Any]]) -> None:
    # A 20,000-point timeline, as a 10,000-job run has, goes through the windowed path.
    res = copy.deepcopy({"edf-bfd": results["edf-bfd"]})
    tl = res["edf-bfd"]["timeline"]
    n = 20_000
    rng = np.random.default_rng(0)
    tl["t"] = np.linspace(0, 400_000, n).tolist()
    tl["utilisation"] = {k: rng.random(n).tolist() for k in tl["utilisation"]}
    tl["utilisation_of_on"] = {k: rng.random(n).tolist() for k in tl["utilisation_of_on"]}
    tl["active_vms"] = {k: rng.integers(0, 3, n).tolist() for k in tl["active_vms"]}
    tl["cumulative_cost"] = np.linspace(0, res["edf-bfd"]["total_cost"], n).tolist()
    assert _pages(run_report_pdf({"run_name": "long"}, res, None)) == 6


def test_step_windows_keep_the_area() -> None:
    rng = np.random.default_rng(1)
    t = np.sort(rng.uniform(0, 1000, 5000))
    y = rng.uniform(0, 10, 5000)
    tt, (yy,) = step_windows(t, [y], max_steps=100)
    assert tt.size == yy.size == 101
    assert tt[0] == t[0] and tt[-1] == t[-1]
    area = float(np.sum(y[:-1] * np.diff(t)))
    assert float(np.sum(yy[:-1] * np.diff(tt))) == pytest.approx(area)
    short_t, (short_y,) = step_windows(t[:50], [y[:50]], max_steps=100)
    assert short_t is t[:50] or np.array_equal(short_t, t[:50])
    assert np.array_equal(short_y, y[:50])
