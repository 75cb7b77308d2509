"""What a report holds, whatever the kind of run: :class:`ReportContent`.

Every format (CSV, XLSX, PDF) is ``build(content: ReportContent) -> bytes`` and only lays
the content out; a kind of run supplies its body (``RunKind.report``) and the one shell,
:func:`report_content`, adds the rest. Pure data, no database access.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scheduling.tables import Comparison

from .tables import Cell, Table

__all__ = ["VERDICT", "LazyFigures", "ReportBody", "ReportContent", "pick_figures", "report_content"]

#: The label of a details row that recommends a variant (the PDF prints it in bold): one
#: label, so every format and kind writes it alike.
VERDICT = "Recommendation"

#: A Plotly figure dict of :mod:`scheduling.charts`.
Figure = dict[str, Any]


class LazyFigures(Mapping[str, Figure]):
    """Figures drawn when a format first asks for one (the PDF, the XLSX's charts): a CSV draws
    none, so it never reads what they are drawn from (a big run's per-job columns).

    >>> drawn = []
    >>> figures = LazyFigures(lambda: drawn.append(1) or {"totals": {"data": []}})
    >>> len(drawn)
    0
    >>> list(figures), len(drawn)
    (['totals'], 1)
    """

    def __init__(self, draw: Callable[[], Mapping[str, Figure]]) -> None:
        self._draw = draw
        self._drawn: Mapping[str, Figure] | None = None

    def _figures(self) -> Mapping[str, Figure]:
        if self._drawn is None:
            self._drawn = self._draw()
        return self._drawn

    def __getitem__(self, key: str) -> Figure:
        return self._figures()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._figures())

    def __len__(self) -> int:
        return len(self._figures())


@dataclass(frozen=True)
class ReportContent:
    """A report of one run, ready to be laid out by any format.

    Attributes
    ----------
    title : str
        The run's name (the PDF's first heading, the XLSX's title).
    subtitle : str
        One line under it, e.g. what kind of run this is.
    details : list of (str, Cell)
        The run's description, label then value (run id, scenario, baseline, ...).
    comparison : Comparison
        The comparison table (:func:`scheduling.tables.comparison_table`, with
        ``detail=True``): the PDF's summary page, and the ``summary`` table of the files.
    tables : list of Table
        The tables of every format, in order; the first is the summary (files only: the
        PDF shows ``comparison`` instead).
    figures : mapping of str to Figure
        Figures the PDF draws, one per page, in order (:mod:`scheduling.charts` dicts, the
        same the page draws).
    sheet_charts : tuple of str
        Keys of ``figures`` the XLSX draws as native Excel charts on its summary sheet.
    records : callable, optional
        ``records(max_rows) -> Table``: the long per-item table (jobs), built only by the
        formats that include it (the XLSX always, the CSV on request).
    currency : str
        Symbol of money in labels and shown values (display only).
    keywords : str
        The PDF's keywords (e.g. the variants).
    """

    title: str
    subtitle: str
    details: list[tuple[str, Cell]]
    comparison: Comparison
    tables: list[Table]
    figures: Mapping[str, Figure] = field(default_factory=dict)
    sheet_charts: tuple[str, ...] = ()
    records: Callable[[int], Table] | None = None
    currency: str = "$"
    keywords: str = ""


@dataclass(frozen=True)
class ReportBody:
    """What a kind of run puts in its reports; the shell (:func:`report_content`) adds the rest.

    ``subtitle`` says what kind of run it is; ``details`` are rows the kind adds after its
    settings (the cost comparison's job count and units); the other attributes are
    :class:`ReportContent`'s.
    """

    subtitle: str
    comparison: Comparison
    tables: list[Table]
    figures: Mapping[str, Figure] = field(default_factory=dict)
    sheet_charts: tuple[str, ...] = ()
    records: Callable[[int], Table] | None = None
    details: list[tuple[str, Cell]] = field(default_factory=list)


def report_content(
    body: ReportBody,
    *,
    meta: Mapping[str, Any],
    settings: list[tuple[str, Cell]],
    currency: str,
    variants: list[str],
) -> ReportContent:
    """Every kind's report in one shell: the run's header rows (run, id, scenario, when), the
    kind's settings (the run page's rows), then its own rows; the team's currency; the
    variants as the PDF's keywords.

    ``meta``: ``run_name``, ``run_id``, ``scenario_name``, ``created_at`` (all optional).
    """
    run_id = meta.get("run_id")
    head: list[tuple[str, Cell]] = [
        ("Run", str(meta.get("run_name") or "")),
        ("Run id", run_id if isinstance(run_id, int) and not isinstance(run_id, bool) else str(run_id or "")),
        ("Scenario", str(meta.get("scenario_name") or "")),
        ("Created at", str(meta.get("created_at") or "")),
    ]
    return ReportContent(
        title=str(meta.get("run_name") or ""),
        subtitle=f"Cluster What-If Planner - {body.subtitle}",
        details=[*head, *settings, *body.details],
        comparison=body.comparison,
        tables=body.tables,
        figures=body.figures,
        sheet_charts=body.sheet_charts,
        records=body.records,
        currency=currency,
        keywords=", ".join(variants),
    )


def pick_figures(figures: Mapping[str, Figure], wanted: Sequence[str]) -> dict[str, Figure]:
    """The figures a report draws, in the order of ``wanted`` (keys, or prefixes ending ``:``:
    ``heatmap:`` is every variant's heatmap); other views (``key@raw``) stay on the page.

    >>> list(pick_figures({"heatmap:b": {}, "totals": {}, "heatmap:a": {}, "totals@raw": {}},
    ...                   ("totals", "heatmap:")))
    ['totals', 'heatmap:b', 'heatmap:a']
    """
    out: dict[str, Figure] = {}
    for want in wanted:
        for key, figure in figures.items():
            if "@" in key:
                continue
            if key == want or (want.endswith(":") and key.startswith(want)):
                out.setdefault(key, figure)
    return out
