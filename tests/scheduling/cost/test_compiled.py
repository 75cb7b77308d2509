"""The compiled core (scheduling/compiled.py): the same documents as the source, and only a build
of the current source is ever imported.

Where no build exists (no C compiler), the tests that need one skip, unless
``SCHEDULING_REQUIRE_COMPILED=1`` (CI) makes them fail.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scheduling import compiled, parse_scenario, simulate
from scheduling.cost import simulator

ROOT = Path(__file__).resolve().parents[3]
SCHEDULERS = (
    "edf-bfd", "fifo-bfd", "morpheus-bfd", "edf-ilp", "edf-consolidate", "fifo-spread",
    "edf-bfd:billing_granularity_s=60,min_billed_s=300,boot_time_s=30",
    "edf-bfd:scheduling_interval_s=10,edf_backfill=true",
)


def needs_build() -> None:
    if compiled.built() is None or os.environ.get(compiled.OFF_VARIABLE, "") not in ("", "0"):
        if os.environ.get("SCHEDULING_REQUIRE_COMPILED") == "1":
            pytest.fail("the compiled core is not built for the current source: python -m scheduling compile")
        pytest.skip("the compiled core is not built here (python -m scheduling compile)")


def scenarios() -> dict[str, dict[str, Any]]:
    """Paper 003's high-load example, and the same with a reserved and two spot VMs of each type
    (spot VMs of every other type reclaimed: a Poisson process drawn from the seed)."""
    plain = json.loads((ROOT / "examples" / "paper003-high.json").read_text())
    markets = json.loads(json.dumps(plain))
    markets["version"] = 4
    for k, vm_type in enumerate(markets["vm_types"]):
        price = vm_type["price_per_hour"]
        vm_type["reserved"] = {"price_per_hour": round(price * 0.6, 4), "count": 1}
        vm_type["spot"] = {"price_per_hour": round(price * 0.3, 4), "count": 2,
                           "interruptions_per_hour": 0.5 * (k % 2)}
    return {"paper003-high": plain, "paper003-high-markets": markets}


def digests() -> dict[str, str]:
    """Each scheduler's whole result document on :func:`scenarios`, hashed, without the
    wall-clock scheduling delays."""
    out = {}
    for name, doc in scenarios().items():
        scenario = parse_scenario(doc)
        for spec in SCHEDULERS:
            result = simulate(scenario, scheduler=spec, seed=3).to_dict()
            result.pop("scheduling_delay", None)
            out[f"{name} {spec}"] = hashlib.sha256(json.dumps(result).encode()).hexdigest()
    return out


def test_the_engine_runs_compiled_where_it_is_built() -> None:
    needs_build()
    for name in compiled.MODULES:
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        assert compiled.is_compiled(module), name
    assert compiled.status()["running_compiled"] is True


def test_compiled_and_interpreted_engines_write_the_same_documents() -> None:
    needs_build()
    assert compiled.is_compiled(simulator)
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]);"
        "from tests.scheduling.cost.test_compiled import digests;"
        "from scheduling.cost import simulator; from scheduling.compiled import is_compiled;"
        "print(json.dumps({'compiled': is_compiled(simulator), 'digests': digests()}))"
    )
    env = {**os.environ, compiled.OFF_VARIABLE: "1"}
    out = subprocess.run([sys.executable, "-c", script, str(ROOT)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    interpreted = json.loads(out.stdout)
    assert interpreted["compiled"] is False
    mine = digests()
    assert len(mine) == 2 * len(SCHEDULERS)
    assert mine == interpreted["digests"]


def test_a_build_of_other_source_is_never_imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A build folder named for a digest that is not the current source's is not "built".
    monkeypatch.setattr(compiled, "STORE", tmp_path)
    (tmp_path / "0123456789abcdef").mkdir()
    assert compiled.built() is None
    (tmp_path / compiled.digest()).mkdir()
    assert compiled.built() == tmp_path / compiled.digest()


def test_the_digest_covers_every_compiled_module_and_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    before = compiled.digest()
    first = compiled.MODULES[0]
    monkeypatch.setattr(compiled, "MODULES", compiled.MODULES[1:])
    assert compiled.digest() != before
    monkeypatch.setattr(compiled, "MODULES", (*compiled.MODULES, first))
    assert compiled.digest() != before  # the order of the modules counts too: it is the build's
    monkeypatch.undo()
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert compiled.digest() != before


def test_the_finder_answers_only_for_the_compiled_modules(tmp_path: Path) -> None:
    finder = compiled._Finder(tmp_path)
    spec = finder.find_spec("scheduling.cost.simulator")
    assert spec is not None and spec.origin is not None
    assert Path(spec.origin).parent == tmp_path / "scheduling" / "cost"
    assert finder.find_spec("scheduling.cost.document") is None  # not compiled: the source
    assert finder.find_spec("numpy") is None


def test_the_cli_reports_the_build_as_json() -> None:
    out = subprocess.run([sys.executable, "-m", "scheduling", "compile", "--status"], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    status = json.loads(out.stdout)
    assert status["digest"] == compiled.digest()
    assert status["built"] is (compiled.built() is not None)
    assert status["modules"] == list(compiled.MODULES)
