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

import pytest

from scheduling import compiled, parse_scenario, simulate
from scheduling.cost import simulator

ROOT = Path(__file__).resolve().parents[3]


def needs_build() -> None:
    if compiled.built() is None or compiled.switched_off():
        if os.environ.get("SCHEDULING_REQUIRE_COMPILED") == "1":
            pytest.fail("the compiled core is not built for the current source: python -m scheduling compile")
        pytest.skip("the compiled core is not built here (python -m scheduling compile)")


def digests() -> dict[str, str]:
    """The identity benchmark's documents on the shipped examples, with and without reserved and
    spot VMs (spot VMs reclaimed), under each of its schedulers, hashed (wall-clock delays left
    out): ``benchmarks/engine_identity.py --quick --markets`` without the authors' CSVs."""
    from benchmarks.engine_identity import comparable, workloads

    out = {}
    for name, (doc, schedulers) in workloads(quick=True, markets=True).items():
        if not name.startswith("paper003-"):
            continue
        scenario = parse_scenario(doc)
        for spec in schedulers:
            result = comparable(simulate(scenario, scheduler=spec, seed=3).to_dict())
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
    assert len(mine) >= 40  # 4 workloads, 13 schedulers each
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


def test_a_source_copy_of_a_module_runs_its_own_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a test replaces in the source copy is what the copy calls, compiled or not."""
    source = compiled.source_module("scheduling.cost.machine_index")
    assert not compiled.is_compiled(source)
    assert source.resource_availability((4.0, 16.0), (16.0, 64.0), (0.5, 0.5)) == 0.25
    monkeypatch.setattr(source, "weighted_sum", lambda values, weights: -1.0)
    assert source.resource_availability((4.0, 16.0), (16.0, 64.0), (0.5, 0.5)) == -1.0
    with pytest.raises(ValueError, match="not one of the compiled modules"):
        compiled.source_module("scheduling.cli")
