"""Cost reports of a run, built from its results (``planner.reports``): one place for the
web page's download links and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404
from django.utils.text import slugify

from planner.reports import REPORT_FORMATS

from .models import Run
from .selectors import run_results


@dataclass(frozen=True)
class Report:
    body: bytes
    content_type: str
    filename: str


def report_filename(run: Run, extension: str) -> str:
    """``run-12-nightly-what-if.pdf``: ASCII, no path separators or quotes.

    >>> from types import SimpleNamespace
    >>> report_filename(SimpleNamespace(pk=12, name='../Nightly "what-if" ✓'), ".pdf")
    'run-12-nightly-what-if.pdf'
    """
    slug = slugify(str(run.name))[:60].strip("-")
    return f"run-{run.pk}{'-' + slug if slug else ''}{extension}"


def run_report(*, run: Run, fmt: str, baseline: str | None = None) -> Report:
    """The run's cost report as ``fmt`` (csv, xlsx or pdf); 404 when it has no results."""
    if fmt not in REPORT_FORMATS:
        raise Http404(f"Unknown report format {fmt!r}; formats: {', '.join(REPORT_FORMATS)}.")
    if run.status != Run.Status.SUCCEEDED:
        raise Http404("This run has no results (yet).")
    results = run_results(run=run)
    if baseline not in results:
        baseline = run.baseline if run.baseline in results else None
    build, content_type, extension = REPORT_FORMATS[fmt]
    meta = {
        "run_name": run.name,
        "scenario_name": run.scenario_name,
        "created_at": run.created_at.isoformat(),
        "run_id": run.pk,
    }
    return Report(build(meta, results, baseline), content_type, report_filename(run, extension))
