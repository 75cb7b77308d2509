"""``./dev``'s choice of the interpreter ``.venv`` is made from (its ``base_python``).

The function is read out of the script and run by bash alone: nothing here makes a venv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEM = Path("/usr/bin/python3.11")


def base_python(**env: str) -> str:
    """What ``base_python`` of ``./dev`` prints, with ``env`` added to the environment."""
    script = 'eval "$(sed -n "/^base_python() {/,/^}/p" dev)"; base_python'
    environment = {k: v for k, v in os.environ.items() if k != "PLANNER_PYTHON"} | env
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def usable_system_python() -> bool:
    if not (SYSTEM.is_file() and Path("/usr/include/python3.11/Python.h").is_file()):
        return False
    return subprocess.run([str(SYSTEM), "-c", "import venv"], capture_output=True).returncode == 0


def test_planner_python_chooses_the_interpreter(tmp_path: Path) -> None:
    link = tmp_path / "my-python"
    link.symlink_to(sys.executable)
    assert base_python(PLANNER_PYTHON=str(link)) == str(link)


def test_an_interpreter_that_is_not_there_is_named() -> None:
    with pytest.raises(subprocess.CalledProcessError) as failed:
        base_python(PLANNER_PYTHON="/nonexistent/python3.11")
    assert "PLANNER_PYTHON=/nonexistent/python3.11: no such interpreter" in failed.value.stderr


def test_the_system_interpreter_first_else_python3_on_the_path() -> None:
    expected = str(SYSTEM) if usable_system_python() else shutil.which("python3")
    assert base_python() == expected


def test_this_venv_was_made_from_the_chosen_interpreter() -> None:
    venv = ROOT / ".venv"
    if Path(sys.prefix).resolve() != venv.resolve() or os.environ.get("PLANNER_PYTHON"):
        pytest.skip("the tests run outside ./dev's .venv (or with an interpreter chosen by hand)")
    chosen = base_python()
    made_from = subprocess.run(
        [chosen, "-c", "import os, sys; print(os.path.realpath(sys.executable))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert os.path.realpath(venv / "bin" / "python") == made_from
