"""The cheapest-cluster search's standalone page (``python -m scheduling cheapest --html``)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from ...html import detail_html, standalone_html
from .charts import all_figures
from .tables import answer_table, candidates_table, closest_table, frontier_table, pruned_table, tried_table

__all__ = ["answer_html"]


def answer_html(doc: Mapping[str, Any], *, title: str) -> str:
    """One offline page of an answer document: its tables, then its figures (every string escaped)."""
    tables = [
        answer_table(doc),
        candidates_table(doc),
        frontier_table(doc) if doc.get("answer") else closest_table(doc),
        pruned_table(doc),
        tried_table(doc),
    ]
    sections = [(t["title"], detail_html(t)) for t in tables]
    return standalone_html(title, html.escape(str(doc.get("certificate", ""))), sections, all_figures(doc))
