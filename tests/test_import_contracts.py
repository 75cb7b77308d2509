"""The layering rules are import-linter contracts (``pyproject.toml``), checked by ``lint-imports``
in CI; this test shows that they hold on the tree and that each one breaks on a bad import.

A copy of the packages gets one deliberately bad import per contract: the library importing
Django, one paper importing another, shared library code importing a paper, shared planner code
importing a run kind, one run kind importing another. ``lint-imports`` must then report every
contract broken, and keep every one on the unchanged copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scheduling", "planner", "celery_app")

#: (module file to create, its one line, the contract it must break)
BAD_IMPORTS = (
    ("scheduling/fairness/_bad.py", "import django\n", "The library never imports Django or planner"),
    ("scheduling/mrsu/_bad.py", "import scheduling.udrf.model\n",
     "The papers' packages do not import each other"),
    ("scheduling/charts/_bad.py", "import scheduling.cost.simulator\n",
     "Shared library code imports no paper"),
    ("scheduling/sweep/_bad.py", "import scheduling.fairness.model\n",
     "Sweeps build on the cost engine alone"),
    ("scheduling/cost/_bad.py", "import scheduling.sweep.axes\n", "No paper imports the sweeps"),
    ("planner/web/_bad.py", "import planner.kinds.compare.kind\n", "Shared planner code imports no run kind"),
    ("planner/kinds/sharing/_bad.py", "import planner.kinds.allocation.report\n",
     "Run kinds do not import each other"),
)


def _copy(tmp_path: Path) -> Path:
    work = tmp_path / "tree"
    for name in PACKAGES:
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__", "static",
                                                                              "templates"))
    shutil.copy(ROOT / "pyproject.toml", work / "pyproject.toml")
    return work


def _lint(work: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(work)}
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                               "sys.exit(lint_imports_command())", "--no-cache"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600, check=False,
    )


def _verdicts(output: str) -> dict[str, str]:
    names = {contract for _, _, contract in BAD_IMPORTS}
    out = {}
    for line in output.splitlines():
        for name in names:
            if line.startswith(name) and line.rstrip().endswith(("KEPT", "BROKEN")):
                out[name] = line.rstrip().rsplit(" ", 1)[1]
    return out


def test_every_contract_holds_and_breaks_on_a_bad_import(tmp_path: Path) -> None:
    pytest.importorskip("importlinter")
    work = _copy(tmp_path)
    clean = _lint(work)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert set(_verdicts(clean.stdout).values()) == {"KEPT"}
    assert len(_verdicts(clean.stdout)) == len(BAD_IMPORTS)

    for path, line, _ in BAD_IMPORTS:
        (work / path).write_text(line, encoding="utf-8")
    bad = _lint(work)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert _verdicts(bad.stdout) == {contract: "BROKEN" for _, _, contract in BAD_IMPORTS}
