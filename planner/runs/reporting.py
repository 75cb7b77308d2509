"""Report downloads of a run: its kind's body in the one report shell (the run's header rows,
its settings, the team's currency), laid out by the format; one place for the web page's
download links and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404
from django.utils.text import slugify

from planner.reports import FORMATS, report_content

from .kinds import get_kind
from .models import Run
from .selectors import run_results_lazy


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


def run_report(*, run: Run, fmt: str, baseline: str | None = None, currency: str = "$") -> Report:
    """The run's report as ``fmt`` (one of its kind's formats); 404 when it has no results.

    A run that failed or was cancelled after some parts finished reports those parts. Reads
    every result document of the run, their :attr:`~planner.runs.kinds.RunKind.large_result_keys`
    only if the report uses them (a CSV lists no job and draws no figure).
    """
    kind = get_kind(run.kind)
    if fmt not in kind.report_formats:
        raise Http404(f"Unknown report format {fmt!r}; formats: {', '.join(kind.report_formats) or 'none'}.")
    if not run.is_finished:
        raise Http404("This run has not finished yet.")
    results = run_results_lazy(run=run, large=kind.large_result_keys)
    if not results:
        raise Http404("This run has no results.")
    meta = {
        "run_name": run.name,
        "scenario_name": run.scenario_name,
        "created_at": run.created_at.isoformat(),
        "run_id": run.pk,
    }
    chosen = kind.baseline(list(results), run.options, baseline)
    body = kind.report(results=results, options=run.options, baseline=chosen, currency=currency)
    content = report_content(body, meta=meta, settings=kind.settings(run.options), currency=currency,
                             variants=list(results))
    fmt_ = FORMATS[fmt]
    return Report(fmt_.build(content), fmt_.content_type, report_filename(run, fmt_.extension))
