"""The shared comparison table (scheduling.tables): any kind of run brings its own metrics."""

from __future__ import annotations

from scheduling.tables import Metric, comparison_table, headline


def test_another_kind_of_run_brings_its_own_metrics() -> None:
    fairness = (
        Metric("unfairness", "Unfairness area", "count", ("unfairness_area",),
               lambda h, _b: h.get("unfairness_area"), "lower"),
    )
    table = comparison_table({"drf": {"unfairness_area": 12.0}, "tsf": {"unfairness_area": 30.0}},
                             metrics=fairness)
    assert [(r["key"], r["best"]) for r in table["rows"]] == [("unfairness", ["drf"])]
    assert headline({"unfairness_area": 1.0, "total_cost": 5.0}, fairness) == {"unfairness_area": 1.0}
