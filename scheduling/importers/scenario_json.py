"""A scenario document (JSON, version 1) as an importer: the format the library writes.

Its paths need no translation: errors point into the document (``jobs[3].executor.cpu``).

>>> imported = read_scenario_json(['{"vm_types": [], ', '"jobs": []}'], {})
>>> sorted(imported.document), imported.origins
(['jobs', 'vm_types'], ())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import ScenarioError
from ..scenario import read_json_text
from .registry import Imported, Importer, bounded_lines, register

__all__ = ["read_scenario_json"]


def read_scenario_json(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
    """The document of JSON text lines (no ``NaN`` literals; at most the size limit)."""
    doc = read_json_text("".join(bounded_lines(lines, "")))
    if not isinstance(doc, dict):
        raise ScenarioError.single("", "the scenario must be a JSON object")
    return Imported(document=doc)


def _looks_like_json(first_line: str) -> bool:
    return first_line.lstrip("\ufeff \t").startswith("{")


IMPORTER = register(
    Importer(
        name="scenario-json",
        label="Scenario document (JSON, version 1)",
        file_types=(".json",),
        read=read_scenario_json,
        detect=_looks_like_json,
        help="A scenario document as the library writes it: VM types, frameworks, jobs and options.",
    )
)
