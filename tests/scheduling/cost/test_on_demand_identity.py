"""Scenarios with on-demand prices only give the result documents they gave before version 4, and
the same documents on every machine."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

from .on_demand_identity import FIXTURE, ROOT, digests


def test_on_demand_results_are_byte_identical_to_before_reserved_and_spot_prices() -> None:
    stored = json.loads(FIXTURE.read_text())
    assert digests() == stored


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS's x86 kernels")
def test_the_documents_do_not_depend_on_the_blas_kernel() -> None:
    # numpy's OpenBLAS picks its kernel by the processor; OPENBLAS_CORETYPE forces one. Sandy
    # Bridge's has no fused multiply-add, the kernels of today's processors do: a matrix product
    # rounds differently under each, and a BFD order that used one would change with it.
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]);"
        "from tests.scheduling.cost.on_demand_identity import digests; print(json.dumps(digests()))"
    )
    out = subprocess.run([sys.executable, "-c", script, str(ROOT)], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "OPENBLAS_CORETYPE": "Sandybridge"}, check=True)
    assert json.loads(out.stdout) == digests()
