"""The CSV report: sections, rounded numbers, units and currency in headers, formula injection."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

from planner.reports import build_csv
from planner.reports.tables import DANGEROUS_PREFIXES
from scheduling.cost.document import iter_jobs, job_count
from scheduling.tables import format_money

SECTIONS = ("Summary", "Cost per VM type", "Cost per framework", "Cost per hour")


def report_csv(
    report: Any, meta: Any, results: Any, baseline: str | None, *, currency: str = "$",
    include_jobs: bool = False,
) -> bytes:
    """A comparison's report as CSV, as a download builds it (no figures: the CSV draws none)."""
    content = report(meta, results, baseline, currency=currency, figures=())
    return build_csv(content, include_records=include_jobs)


def _parse(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # BOM: Excel reads the file as UTF-8
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _section(rows: list[list[str]], title: str) -> tuple[list[str], list[list[str]]]:
    """The header and data rows of the section ``title`` (its notes skipped)."""
    start = next(i for i, r in enumerate(rows) if r == [title])
    body = []
    for r in rows[start + 1 :]:
        if not r:
            break
        body.append(r)
    header_at = next(i for i, r in enumerate(body) if len(r) > 1)
    return body[header_at], body[header_at + 1 :]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_sections_and_totals(
    results: dict[str, dict[str, Any]], meta: dict[str, Any], report: Any
) -> None:
    rows = _parse(report_csv(report, meta, results, "fifo-spread"))
    for title in SECTIONS:
        assert [title] in rows
    header, summary = _section(rows, "Summary")
    assert header[:2] == ["Scheduler", "Total cost ($)"]
    totals = {r[0]: float(r[1]) for r in summary}
    # Rounded to cents: within half a cent of the document's cost.
    assert totals == pytest.approx({k: v["total_cost"] for k, v in results.items()}, abs=0.005)

    header, by_type = _section(rows, "Cost per VM type")
    cost = header.index("Cost ($)")
    sums: dict[str, float] = {}
    for r in by_type:
        sums[r[0]] = sums.get(r[0], 0.0) + float(r[cost])
    assert sums == pytest.approx(totals, abs=0.011)  # two rounded parts per scheduler

    header, by_fw = _section(rows, "Cost per framework")
    assert "(unused capacity)" in {r[1] for r in by_fw}
    sums = {}
    for r in by_fw:
        sums[r[0]] = sums.get(r[0], 0.0) + float(r[header.index("Cost ($)")])
    assert sums == pytest.approx(totals, abs=0.016)

    header, by_hour = _section(rows, "Cost per hour")
    assert header[2:] == [f"{spec} ($)" for spec in results]
    for j, spec in enumerate(results, start=2):
        assert sum(float(r[j]) for r in by_hour) == pytest.approx(totals[spec], abs=0.02)
    assert ["Jobs"] not in rows  # per-job rows only on request


def test_injection_is_neutralised(
    results: dict[str, dict[str, Any]], meta: dict[str, Any], report: Any, names: Any
) -> None:
    data = report_csv(report, {**meta, "run_name": names.run}, results, None, include_jobs=True)
    rows = _parse(data)
    cells = [c for r in rows for c in r]
    for evil in names.evil:
        assert "'" + evil in cells, evil
        assert evil not in cells, evil
    # No text cell may start a formula; only genuine numbers may start with "-" or "+".
    for c in cells:
        if c.startswith(DANGEROUS_PREFIXES):
            assert _is_number(c), repr(c)


def test_numbers_stay_numbers(
    results: dict[str, dict[str, Any]], meta: dict[str, Any], report: Any
) -> None:
    # Against the cheapest baseline every other scheduler has a negative saving.
    cheapest = min(results, key=lambda k: results[k]["total_cost"])
    data = report_csv(report, meta, results, cheapest)
    header, summary = _section(_parse(data), "Summary")
    saving = header.index(f"Money saved vs {cheapest} ($)")
    negatives = [r[saving] for r in summary if r[0] == "fifo-spread"]
    assert negatives and negatives[0].startswith("-") and float(negatives[0]) < 0
    # Written bare (no quote prefix, no quoting) so a spreadsheet reads a number.
    assert f",{negatives[0]}," in data.decode("utf-8-sig")
    for r in summary:
        assert _is_number(r[1]) and _is_number(r[header.index("Makespan (s)")])
        assert r[header.index("ILP fallbacks")] == ""  # not applicable: blank, not "None"
        # The baseline's own saving is "baseline", never 0.
        if r[0] == cheapest:
            assert r[saving] == "baseline" and r[header.index(f"Saving vs {cheapest} (%)")] == "baseline"


def test_sensible_precision_and_currency(
    results: dict[str, dict[str, Any]], meta: dict[str, Any], report: Any
) -> None:
    data = report_csv(report, meta, results, None, currency="€", include_jobs=True)
    rows = _parse(data)
    header, summary = _section(rows, "Summary")
    assert header[1] == "Total cost (€)" and "Lower bound (€)" in header
    shown = {row["label"]: {c["variant"]: c["shown"] for c in row["cells"]}
             for row in report(meta, results, None, currency="€", figures=()).comparison["rows"]}
    for r in summary:
        for label in ("Total cost (€)", "Lower bound (€)", "Money saved vs fifo-spread (€)"):
            # Issue 22: the file carries the precision the page shows (0.3436, not 0.34).
            page = shown[label.removesuffix(" (€)")][r[0]]
            assert re.fullmatch(r"-?\d+(\.\d{1,4})?|baseline", r[header.index(label)]), r
            if page != "baseline":
                assert format_money(float(r[header.index(label)]), "€") == page.lstrip("+"), r
        for label in ("Makespan (s)", "Mean completion time (s)", "Mean wait (s)"):
            assert re.fullmatch(r"\d+", r[header.index(label)]), r  # whole seconds
    spec = next(iter(results))
    assert float(summary[0][1]) == round(results[spec]["total_cost"], 4)
    header, jobs = _section(rows, "Jobs")
    assert re.fullmatch(r"\d+", jobs[0][header.index("Start (s)")])
    assert [
        "Units",
        "times in seconds from the scenario's start; money in the VM types' price unit (€)",
    ] in rows


def test_jobs_section(
    results: dict[str, dict[str, Any]], meta: dict[str, Any], report: Any, names: Any
) -> None:
    rows = _parse(report_csv(report, meta, results, None, include_jobs=True))
    header, jobs = _section(rows, "Jobs")
    assert len(jobs) == sum(job_count(r) for r in results.values())
    assert jobs[0][header.index("Job")] == "'" + names.job
    cost = next(iter_jobs(results["fifo-spread"]))["cost"]
    assert float(jobs[0][header.index("Cost ($)")]) == pytest.approx(cost, abs=0.005)
