"""Scenarios with on-demand prices only give the result documents they gave before version 4."""

from __future__ import annotations

import json

from .on_demand_identity import FIXTURE, digests


def test_on_demand_results_are_byte_identical_to_before_reserved_and_spot_prices() -> None:
    stored = json.loads(FIXTURE.read_text())
    assert digests() == stored
