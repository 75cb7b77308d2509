"""Selectors that read parts of large result documents."""

from __future__ import annotations

from typing import Any

import pytest

from planner.runs import services
from planner.runs.selectors import TIMELINE_KEYS, run_results, run_results_parts

pytestmark = pytest.mark.django_db


def test_results_parts_equal_the_full_documents(
    team: Any, owner: Any, scenario_doc: dict[str, Any], execute_run: Any
) -> None:
    run = services.run_start(
        user=owner, team=team, scenario=scenario_doc, schedulers=["fifo-spread", "edf-bfd"]
    )
    execute_run(run.pk)
    full = run_results(run=run)
    parts = run_results_parts(run=run)
    assert list(parts) == ["fifo-spread", "edf-bfd"]
    for name, doc in full.items():
        assert parts[name] == {k: doc[k] for k in TIMELINE_KEYS}
        assert isinstance(parts[name]["total_cost"], float)
