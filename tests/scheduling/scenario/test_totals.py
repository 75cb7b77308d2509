"""A cluster's totals (scheduling.scenario.totals): the cluster list's and editor's summary."""

from __future__ import annotations

from scheduling.scenario.totals import cluster_totals


def test_cluster_totals_count_every_machine_and_resource() -> None:
    totals = cluster_totals([({"cpu": 4, "mem": 16, "gpu": 1}, 1.5, 2), ({"cpu": 8}, 0.5, 0)])
    assert totals == {"machines": 2, "capacity": {"cpu": 8, "mem": 32, "gpu": 2}, "price_per_hour": 3.0}
