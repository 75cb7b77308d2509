"""A standalone HTML report of a UDRF study (paper 004), for ``python -m scheduling udrf --html``.

The page is the cost report's (:func:`scheduling.html.standalone_html`): offline,
plotly.js inlined, figures embedded as JSON with ``<``, ``>`` and ``&`` escaped, every
user-supplied string escaped. It holds the comparison table UDRF against DRF
(:func:`scheduling.udrf.tables.udrf_table`), the detail tables of
:func:`scheduling.udrf.tables.udrf_tables` and every figure of :func:`scheduling.udrf.charts.udrf_figures`,
from an offline document, an online one, or both.

>>> import tempfile, pathlib
>>> from scheduling.scenario import load_scenario_json
>>> from scheduling.udrf.offline_doc import offline_document
>>> doc = offline_document(load_scenario_json(open("examples/paper004-fig1.json").read()))
>>> with tempfile.TemporaryDirectory() as d:
...     path = pathlib.Path(d, "udrf.html")
...     write_udrf_html(path, [doc], title="Fig. 1 <UDRF>")
...     page = path.read_text(encoding="utf-8")
>>> "Fig. 1 &lt;UDRF&gt;" in page and "RDUCs" in page and "job1 28, job2 8" in page
True
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..html import (
    MAX_DETAIL_ROWS,
    comparison_html,
    detail_html,
    standalone_html,
    write_text_atomically,
)
from .charts import policy_colours, udrf_figures
from .doc_reading import ONLINE, policies_of, policy_label
from .online_tables import combine_online
from .tables import udrf_table, udrf_tables

__all__ = ["MAX_ROWS", "detail_html", "render_udrf_html", "udrf_sections", "write_udrf_html"]

Doc = Mapping[str, Any]

#: A detail table is written up to this many rows (a note says when it is cut).
MAX_ROWS = MAX_DETAIL_ROWS


def _documents(docs: Sequence[Doc] | Mapping[str, Doc]) -> list[Doc]:
    return list(docs.values()) if isinstance(docs, Mapping) else list(docs)


def udrf_sections(docs: Sequence[Doc] | Mapping[str, Doc]) -> list[tuple[str, str]]:
    """The report's sections as ``(heading, HTML)``: the comparison, then every detail table of
    :func:`scheduling.udrf.tables.udrf_tables` (per user, per job, per machine class, the
    RDUCs, the online summary and the reductions)."""
    items = _documents(docs)
    offline = next((d for d in items if d.get("kind") == "udrf-offline"), None)
    online = combine_online(items)
    every = policies_of({"policies": {p: 1 for d in (offline, online) if d for p in policies_of(d)}})
    table = udrf_table({str(k): d for k, d in enumerate(items)})
    colours = {policy_label(p): c for p, c in policy_colours(every).items()}
    sections: list[tuple[str, str]] = [("UDRF against DRF", comparison_html(table, colours))]
    sections += [(t["title"], detail_html(t)) for t in udrf_tables(items, detail=True)]
    return sections


def _meta(items: list[Doc]) -> str:
    first = items[0] if items else {}
    offline = next((d for d in items if d.get("kind") == "udrf-offline"), None)
    parts = ["UDRF study (paper 004)"]
    if first.get("scenario"):
        parts.append(html.escape(str(first["scenario"])))
    if offline is not None:
        parts += [
            f"{len(offline.get('users') or []):,} users",
            f"{len(offline.get('classes') or []):,} machine classes",
            f"{len(offline.get('rducs') or []):,} RDUCs",
        ]
    online = next((d for d in items if d.get("kind") == ONLINE), None)
    if online is not None:
        parts.append(
            f"online: one decision every {online.get('interval_s')} s, "
            f"seed {html.escape(str(online.get('seed')))}"
        )
    return " · ".join(parts)


def render_udrf_html(
    docs: Sequence[Doc] | Mapping[str, Doc], *, title: str, max_points: int | None = None
) -> str:
    """The report as one HTML string (see :func:`write_udrf_html`)."""
    items = _documents(docs)
    if not items:
        raise ValueError("a UDRF report needs an offline or an online document")
    return standalone_html(
        title,
        _meta(items),
        udrf_sections(items),
        udrf_figures(items, max_points=max_points),
        views_label="Charts",
    )


def write_udrf_html(
    path: str | os.PathLike[str],
    docs: Sequence[Doc] | Mapping[str, Doc],
    *,
    title: str,
    max_points: int | None = None,
) -> None:
    """Write ONE standalone HTML file with a UDRF study's tables and every figure.

    Parameters
    ----------
    path : str or path-like
        The file to write (UTF-8); it is replaced atomically.
    docs : sequence (or mapping) of dict
        The offline document, the online document (or one per policy), or both.
    title : str
        Page title, typically the scenario's name (escaped).
    max_points : int, optional
        Points per timeline trace of the online figures.

    Raises
    ------
    ValueError
        If no document is given.
    """
    write_text_atomically(path, render_udrf_html(docs, title=title, max_points=max_points))
