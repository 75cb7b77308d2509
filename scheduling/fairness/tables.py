"""The tables of fairness studies: headline summaries, comparison rows and per-framework tables.

A fairness study compares *variants*: allocation policies of a static allocation study
(paper 000, Section IV; one allocation document each) or configurations of an online
sharing study (paper 001; one sharing document each). Both documents are described in
docs/results.md and the issue 8 contract. This module turns them into what every view
shows, once:

* :func:`allocation_summary` and :func:`sharing_summary`: the headline values of one
  document (small, JSON-ready: what a run stores per variant). A summary keeps the
  document's own small sections where the document has them (``tasks``, ``utilisation``,
  ``fairness.frameworks``, ``completion``, ``offers``), so a metric reads the same path in a
  summary and in the whole document; the values it derives (stranded capacity in totals,
  the worst unfairness, the mean wait, mean utilisation) sit beside them.
* :data:`ALLOCATION_METRICS` and :data:`SHARING_METRICS`: the rows of the comparison table
  as :class:`scheduling.tables.Metric` data, for the default resources (cpu, mem);
  :func:`allocation_metrics` and :func:`sharing_metrics` build them for other resources and
  with a row per framework, and :func:`fairness_table` picks them from the summaries, so
  ``fairness_table(summaries)`` is the table of the CLI, the planner's page and the CSV,
  XLSX and PDF reports (:func:`scheduling.tables.comparison_table` underneath).
* Per-framework detail (:func:`allocation_framework_rows`, :func:`allocation_cell_rows`,
  :func:`allocation_resource_rows`, :func:`sharing_framework_rows`): plain row dicts, their
  columns declared by the ``*_COLUMNS`` tuples of :class:`scheduling.tables.Column` (key,
  label, unit of :data:`scheduling.tables.UNITS`) for the reports.

Each study's summary, metrics and tables live in :mod:`scheduling.fairness.allocation_tables`
and :mod:`scheduling.fairness.sharing_tables` (what both read a document by, in
:mod:`scheduling.fairness.tables_common`); this module is their front door, re-exporting them,
and holds what spans both studies: :func:`summary`, :func:`fairness_metrics`,
:func:`fairness_table`; :func:`scheduling.tables.comparison_text` prints it.

>>> doc = {"study": "allocation", "label": "rPS-DSF", "trials": 1, "resources": ["cpu", "mem"],
...        "machines": [{"id": "c1#1", "vm_type": "c1", "capacity": {"cpu": 100, "mem": 30}}],
...        "frameworks": [{"name": "f1", "weight": 1}], "tasks": {"f1": {"mean": 19.0, "std": 0.0}},
...        "total_tasks": 19.0, "total_std": 0.0, "task_efficiency": 19.0,
...        "stranded": {"c1#1": {"cpu": 5.0, "mem": 11.0}}, "utilisation": {"cpu": 0.95, "mem": 0.63}}
>>> s = allocation_summary(doc)
>>> s["stranded_total"], s["stranded_fraction"]["cpu"]
({'cpu': 5.0, 'mem': 11.0}, 0.05)
>>> rows = {r["key"]: r for r in fairness_table({"rPS-DSF": s})["rows"]}
>>> [rows[k]["cells"][0]["shown"] for k in ("total_tasks", "utilisation:cpu", "stranded_pct:cpu")]
['19.0', '95.0%', '5.0% (5 of 100)']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..numbers import finite
from ..scenario.limits import DEFAULT_RESOURCES
from ..tables import Column, Comparison, Metric, comparison_table
from .allocation_tables import (
    ALLOCATION_CELL_COLUMNS,
    ALLOCATION_FRAMEWORK_COLUMNS,
    ALLOCATION_FRAMEWORK_NOTES,
    ALLOCATION_METRICS,
    ALLOCATION_RESOURCE_COLUMNS,
    allocation_cell_rows,
    allocation_framework_rows,
    allocation_framework_table,
    allocation_metrics,
    allocation_resource_rows,
    allocation_summary,
    stranded_totals,
)
from .sharing_tables import (
    SHARING_FRAMEWORK_COLUMNS,
    SHARING_METRICS,
    mean_utilisation,
    sharing_framework_rows,
    sharing_metrics,
    sharing_summary,
)
from .tables_common import FRAMEWORK_ROWS_COMPACT, Doc, _union, framework_names, resource_names, study_of

__all__ = [
    "ALLOCATION_CELL_COLUMNS",
    "ALLOCATION_FRAMEWORK_COLUMNS",
    "ALLOCATION_FRAMEWORK_NOTES",
    "ALLOCATION_METRICS",
    "ALLOCATION_RESOURCE_COLUMNS",
    "FRAMEWORK_ROWS_COMPACT",
    "SHARING_FRAMEWORK_COLUMNS",
    "SHARING_METRICS",
    "Column",
    "allocation_cell_rows",
    "allocation_framework_rows",
    "allocation_framework_table",
    "allocation_metrics",
    "allocation_resource_rows",
    "allocation_summary",
    "fairness_metrics",
    "fairness_table",
    "framework_names",
    "mean_utilisation",
    "resource_names",
    "sharing_framework_rows",
    "sharing_metrics",
    "sharing_summary",
    "stranded_totals",
    "study_of",
    "summary",
]


def summary(doc: Doc) -> dict[str, Any]:
    """The summary of either study's document (:func:`allocation_summary` or :func:`sharing_summary`)."""
    return allocation_summary(doc) if study_of(doc) == "allocation" else sharing_summary(doc)


# --------------------------------------------------------------------------- the comparison table


def fairness_metrics(summaries: Mapping[str, Doc]) -> tuple[Metric, ...]:
    """The metrics of these summaries (or documents): their study's, for their resources and
    frameworks (united, in order); the PF inequality row only when one of them has a value.

    >>> m = fairness_metrics({"a": {"study": "sharing", "resources": ["gpu"], "frameworks": ["x"]}})
    >>> [k.key for k in m if ":" in k.key]
    ['unfairness_pct:x', 'unfairness_area:x', 'last_finish:x', 'utilisation:gpu']
    """
    docs = list(summaries.values())
    studies = {study_of(d) for d in docs}
    if len(studies) > 1:
        raise ValueError("a table compares one study: allocation and sharing documents are mixed")
    resources = _union(resource_names(d) for d in docs) or list(DEFAULT_RESOURCES)
    frameworks = _union(framework_names(d) for d in docs)
    if studies == {"sharing"}:
        return sharing_metrics(resources, frameworks)
    pf = any(finite(d.get("pf_inequality")) is not None for d in docs)
    return allocation_metrics(resources, frameworks, pf_inequality=pf)


def fairness_table(
    summaries: Mapping[str, Doc], *, baseline: str | None = None, currency: str = "$", detail: bool = False
) -> Comparison:
    """The comparison table of a fairness study (:func:`scheduling.tables.comparison_table`).

    ``summaries``: per variant (column order), its summary (:func:`summary`) or its document
    (a document is summarised first). ``detail=True`` gives the files' full table.
    """
    heads = {
        str(k): (summary(v) if "timeline" in v or "mean" in v else v) for k, v in summaries.items()
    }
    if not heads:
        return comparison_table({}, metrics=ALLOCATION_METRICS)
    return comparison_table(
        heads, baseline=baseline, currency=currency, metrics=fairness_metrics(heads), detail=detail
    )


# --------------------------------------------------------------------------- per-framework tables


