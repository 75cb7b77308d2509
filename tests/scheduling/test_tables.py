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


def test_resource_amounts_carry_their_units_in_the_udrf_and_mrsu_tables() -> None:
    """Issue 22: UDRF waste and MRSU over-allocation were shown without units."""
    from scheduling.mrsu.tables import advisor_framework_rows
    from scheduling.tables import amounts_text
    from scheduling.udrf.online_tables import online_columns

    assert amounts_text({"cpu": 1.5, "mem": 4.0}) == "cpu 1.5 cores, mem 4 GB"
    labels = [c.label for c in online_columns(["cpu", "mem"])]
    assert "Mean wasted cpu (cores)" in labels and "Mean wasted mem (GB)" in labels
    doc = {"candidates": {"gcd": {"frameworks": {"etl": {"over_allocated": {"cpu": 0.5, "mem": 2.0}}}}}}
    assert advisor_framework_rows(doc)[0]["over_allocated"] == "cpu 0.5 cores, mem 2 GB"
