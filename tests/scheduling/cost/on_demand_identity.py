"""The result documents of scenarios with on-demand prices only, as digests (issue 18).

Reserved and spot prices (scenario version 4) must leave every result of a scenario without them
byte for byte as it was: :func:`digests` runs the paper-003 examples under every ordering and
placement (and a few billing options) and hashes each result document's JSON text, without its
wall-clock ``scheduling_delay``. ``python -m tests.scheduling.cost.on_demand_identity`` writes
the digests to :data:`FIXTURE`, and ``test_on_demand_identity.py`` checks the current code
against them.

They were first written by the code before version 4. On 2026-11-27 they were written again,
when RA and RD_job stopped going through BLAS (:func:`scheduling.numbers.weighted_sum`): BLAS's
kernel is chosen by the processor, and with it the last bit of those sums, so the old digests
held only on a processor like the one that wrote them (before that change, the code before
version 4 and the code after it gave the same 30 digests on the new machine, and other ones
than the old machine's). The digests are now the same on every machine
(``test_the_documents_do_not_depend_on_the_blas_kernel``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from scheduling import load_scenario_json, simulate

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "fixtures" / "on-demand-results.json"
EXAMPLES = ("paper003-light.json", "paper003-high.json")
SCHEDULERS = (
    *(f"{o}-{p}" for o in ("fifo", "edf", "morpheus") for p in ("bfd", "ilp", "consolidate", "spread")),
    "edf-bfd:billing_granularity_s=60,min_billed_s=300,boot_time_s=30",
    "fifo-spread:billing_granularity_s=3600",
    "edf-ilp:scheduling_interval_s=10,edf_backfill=true",
)


def digest(document: dict[str, object]) -> str:
    """SHA-256 of the document's JSON text (key order kept), without ``scheduling_delay``."""
    kept = {k: v for k, v in document.items() if k != "scheduling_delay"}
    return hashlib.sha256(json.dumps(kept).encode()).hexdigest()


def digests() -> dict[str, str]:
    out = {}
    for example in EXAMPLES:
        scenario = load_scenario_json((ROOT / "examples" / example).read_text())
        for spec in SCHEDULERS:
            out[f"{example} {spec}"] = digest(simulate(scenario, scheduler=spec, seed=0).to_dict())
    return out


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(digests(), indent=1) + "\n")
