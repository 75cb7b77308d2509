"""Filters and tags of the pages: money, durations, status badges, query strings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.timesince import timesince

from scheduling.charts import format_duration, format_money
from scheduling.glossary import TERMS

from ..views.base import plotly_version

register = template.Library()


@register.filter
def money(value: Any) -> str:
    """``1,234.5700`` / ``0.0400`` / ``—`` (scheduling.tables.format_money)."""
    try:
        return format_money(None if value is None or value == "" else float(value))
    except (TypeError, ValueError):
        return "—"


@register.filter
def duration(value: Any) -> str:
    try:
        return format_duration(None if value is None or value == "" else float(value))
    except (TypeError, ValueError):
        return "—"


@register.filter
def pct(value: Any, digits: int = 1) -> str:
    try:
        return f"{float(value) * 100:.{int(digits)}f}%"
    except (TypeError, ValueError):
        return "—"


@register.filter
def number(value: Any) -> str:
    """A quantity: thousands separators, no needless decimals (``1,200``, ``0.5``)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"{int(x):,}" if x.is_integer() else f"{x:,.3f}".rstrip("0").rstrip(".")


@register.filter
def ago(value: Any) -> str:
    """``just now``, ``5 minutes ago``, ``2 days, 3 hours ago``."""
    if not value:
        return ""
    if timezone.now() - value < timedelta(minutes=1):
        return "just now"
    return f"{timesince(value)} ago"


@register.filter
def in_sentence(value: Any) -> str:
    """A title-case label for the middle of a sentence: "Sharing study" -> "sharing study",
    while an acronym keeps its capitals ("MRSU sizing")."""
    text = str(value)
    first = text.split(" ", 1)[0]
    return text if first[:2].isupper() else text[:1].lower() + text[1:]


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def cell(item: Any, path: str) -> Any:
    """``job|cell:"executor.cpu"``: a value of a JSON object by a dotted path ("" when absent).

    >>> cell({"id": "j1", "executor": {"cpu": 2}}, "executor.cpu"), cell({"id": "j1"}, "deadline_s")
    (2, '')
    """
    for key in path.split("."):
        if not isinstance(item, dict) or key not in item:
            return ""
        item = item[key]
    return "" if item is None else item


@register.filter
def bound_field(form: Any, name: str) -> Any:
    """``form|bound_field:"counts.m1.large"``: a field whose name a template cannot spell."""
    try:
        return form[name]
    except KeyError:
        return ""


@register.filter
def detail_rows(table: Any) -> list[dict[str, Any]]:
    """A library detail table's rows for a template (``scheduling.tables.detail_table``):
    each with ``key`` (its first cell), ``marked`` and ``cells`` (``text``, ``numeric``)."""
    columns = table.get("columns") or []
    numeric = [c.get("unit") != "text" for c in columns]
    marked = table.get("marked") or []
    return [
        {
            "key": row[0] if row else "",
            "marked": bool(marked[i]) if i < len(marked) else False,
            "cells": [{"text": text, "numeric": num} for text, num in zip(row, numeric, strict=False)],
        }
        for i, row in enumerate(table.get("shown") or [])
    ]


@register.filter
def html_id(key: Any) -> str:
    """A key (``advisor_vm_types``) as an HTML id fragment (``advisor-vm-types``)."""
    return str(key).replace("_", "-").replace(" ", "-")


@register.simple_tag
def status_badge(status: str, label: str | None = None) -> str:
    return format_html('<span class="badge badge-{}">{}</span>', status, label or status)


@register.simple_tag(takes_context=True)
def query(context: Any, **changes: Any) -> str:
    """The current query string with ``changes`` applied (``None`` removes a key)."""
    params = context["request"].GET.copy()
    for key, value in changes.items():
        if value is None:
            params.pop(key, None)
        else:
            params[key] = value
    encoded = params.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.simple_tag
def glossary_links() -> dict[str, Any]:
    """What app.js needs to link every use of a glossary term to its entry: the page's URL and,
    per term, its anchor and the ways pages write it (``scheduling.glossary``)."""
    return {
        "url": reverse("web:glossary"),
        "terms": [{"key": t.key, "written": list(t.written), "meaning": t.meaning} for t in TERMS],
    }


@register.simple_tag
def plotly_src() -> str:
    return reverse("web:plotly-js", args=[plotly_version()])


@register.simple_tag
def start_links(query: str = "") -> list[dict[str, str]]:
    """``[{"label", "url", "name", "question"}]``: the start page of every registered run kind that
    has one, in the registry's order (the first is the primary action), with ``query`` appended."""
    from planner.runs.kinds import all_kinds

    return [
        {"label": kind.label, "url": f"{reverse(kind.start_url)}{query}",
         "name": kind.start_url.split(":", 1)[-1],
         "question": kind.question or f"New {kind.label[:1].lower()}{kind.label[1:]}"}
        for kind in all_kinds()
        if kind.start_url
    ]


@register.simple_tag
def kind_pages() -> list[dict[str, str]]:
    """``[{"label", "url", "name"}]``: the kinds' other pages (the comparison's runs side by side)."""
    from planner.runs.kinds import all_kinds

    return [
        {"label": label, "url": reverse(name), "name": name.split(":", 1)[-1]}
        for kind in all_kinds()
        for label, name in kind.pages
    ]


@register.simple_tag
def start_query(key: str, pk: Any) -> str:
    """``?cluster=3``: a start page's query that fills in a stored object."""
    return f"?{key}={int(pk)}"
