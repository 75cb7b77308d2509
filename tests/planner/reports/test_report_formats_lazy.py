"""The site starts without matplotlib and openpyxl: the PDF and XLSX formats import them on
their first report (issue 22: the first `./dev run` waited seconds for imports no page needs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_urls_and_the_worker_start_without_the_report_libraries() -> None:
    code = (
        "import os, sys, django; os.environ['DJANGO_SETTINGS_MODULE'] = 'planner.settings.test'; "
        "django.setup(); import planner.urls, planner.runs.tasks; "
        "print(sorted(m for m in ('matplotlib', 'openpyxl') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

