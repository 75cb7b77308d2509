"""Fixtures of the report tests: real results of a small scenario with hostile names, and
``report``: a scheduler comparison's report content, the sample content of the formats' tests.

Tests reach the constants through the ``names`` fixture (never ``from conftest import``:
another directory's conftest module could shadow this one).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from planner.reports import ReportContent, report_content
from scheduling import compare, parse_scenario

#: Names a spreadsheet would run as formulas if written raw.
EVIL_VM = '=HYPERLINK("http://x")'
EVIL_FRAMEWORKS = ("@SUM(1)", "+1")
EVIL_JOB = "-2+3"
EVIL_SCENARIO = "=cmd|' /C calc'!A0"
EVIL_RUN = "\t=1"

SCHEDULERS = ["fifo-spread", "morpheus", "edf-bfd"]


def small_scenario() -> dict[str, Any]:
    """2 VM types, 2 frameworks, 10 jobs over about 2 hours, some deadlines impossible to meet."""
    jobs = []
    for i in range(10):
        jobs.append(
            {
                "id": EVIL_JOB if i == 0 else f"job-{i}",
                "framework": EVIL_FRAMEWORKS[i % 2],
                "arrival_s": i * 700,
                "executors": 1 + i % 3,
                "executor": {"cpu": 2, "mem": 4 + 2 * (i % 2)},
                "duration_s": 900 + 100 * i,
                # Every third job has a deadline shorter than its run time: always missed.
                "deadline_s": 600 if i % 3 == 0 else 4000,
            }
        )
    return {
        "name": EVIL_SCENARIO,
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
            {"name": EVIL_VM, "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.5, "count": 2},
        ],
        "frameworks": [{"name": EVIL_FRAMEWORKS[0], "weight": 2}, {"name": EVIL_FRAMEWORKS[1], "weight": 1}],
        "jobs": jobs,
    }


def run(schedulers: list[str]) -> dict[str, dict[str, Any]]:
    scenario = parse_scenario(small_scenario())
    return {k: v.to_dict() for k, v in compare(scenario, schedulers=schedulers).items()}


@pytest.fixture(scope="session")
def results() -> dict[str, dict[str, Any]]:
    """Results of :data:`SCHEDULERS` on the small scenario (shared: do not mutate; deep-copy)."""
    return run(SCHEDULERS)


@pytest.fixture(scope="session")
def run_schedulers() -> Callable[[list[str]], dict[str, dict[str, Any]]]:
    """Results of the given schedulers on the small scenario."""
    return run


@pytest.fixture(scope="session")
def names() -> SimpleNamespace:
    return SimpleNamespace(
        vm=EVIL_VM,
        frameworks=EVIL_FRAMEWORKS,
        job=EVIL_JOB,
        scenario=EVIL_SCENARIO,
        run=EVIL_RUN,
        schedulers=list(SCHEDULERS),
        evil=[EVIL_VM, *EVIL_FRAMEWORKS, EVIL_JOB, EVIL_SCENARIO, EVIL_RUN],
    )


@pytest.fixture
def meta() -> dict[str, Any]:
    return {
        "run_name": "Nightly what-if run",
        "scenario_name": EVIL_SCENARIO,
        "created_at": "2026-11-22T10:00:00Z",
        "run_id": 12,
    }


@pytest.fixture(scope="session")
def report() -> Callable[..., ReportContent]:
    """``report(meta, results, baseline=None, *, currency="$", figures=<the PDF's>)``: a scheduler
    comparison's content in the one report shell, as a run's download builds it (its kind's
    body, the header rows of ``meta``, the kind's settings rows, the currency)."""
    from planner.kinds.compare.report import PDF_FIGURES, comparison_report
    from planner.runs.kinds import get_kind

    def make(
        meta: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]], baseline: str | None = None, *,
        currency: str = "$", figures: Collection[str] = (*PDF_FIGURES, "fairness:"),
    ) -> ReportContent:
        options = {"schedulers": list(results), "baseline": baseline, "seed": 0, "options": None}
        body = comparison_report(results, baseline=baseline, currency=currency, figures=figures)
        return report_content(body, meta=meta, settings=get_kind("compare").settings(options) or [],
                              currency=currency, variants=list(results))

    return make
