"""docs/traces.md states every trace importer's options as they are declared (one source: the Params)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scheduling.importers import IMPORTERS, Importer
from scheduling.params import Param, describe

DOC = (Path(__file__).resolve().parents[3] / "docs" / "traces.md").read_text()
TRACES = [i for i in IMPORTERS.values() if i.stream is not None]


def row(p: Param) -> str:
    flag = f" (`{p.flag}`)" if p.flag else ""
    return f"| `{p.name}`{flag} | {describe(p)} |"


def test_every_trace_format_has_its_section() -> None:
    assert {i.name for i in TRACES} == {"swim", "google-2011", "google-2019", "alibaba-2018"}
    for importer in TRACES:
        assert f"(`{importer.name}`)" in DOC


@pytest.mark.parametrize("importer", TRACES, ids=lambda i: i.name)
def test_every_option_is_documented_with_its_default(importer: Importer) -> None:
    rows = set(DOC.splitlines())
    missing = [row(p) for p in importer.options if row(p) not in rows]
    assert not missing, "docs/traces.md lacks (or states otherwise):\n" + "\n".join(missing)
