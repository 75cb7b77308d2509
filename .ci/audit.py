"""Audit what production installs (requirements.lock) for known vulnerabilities.

1. The lock covers every runtime dependency of pyproject.toml, each pinned (``name==version``).
2. ``pip-audit`` on the lock, through PyPI's vulnerability data: any known vulnerability fails.
3. Where pip-audit cannot reach that data (PyPI's per-version JSON API; only the package
   registry is reachable from this project's machines, and its mirror may not serve that API),
   the equivalent from the project-level JSON the registry does serve: a pinned version that is
   the newest release fails on any vulnerability PyPI lists for it, and a pin behind a newer
   patch release of its own minor series (where security fixes land) is reported. Which of the
   two ran is printed, so a green audit never hides that it could not look.

Standard library only; network: the package registry (pypi.org), with timeouts.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    out = {}
    for line in LOCK.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if match is None:
            sys.exit(f"requirements.lock: not a pin: {line!r}")
        out[normalize(match.group(1))] = match.group(2)
    return out


def check_coverage(pinned: dict[str, str]) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    missing = []
    for requirement in project["dependencies"]:
        name = normalize(re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0])
        if name not in pinned:
            missing.append(name)
    return missing


def pip_audit() -> tuple[list[str], bool]:
    """(findings, whether pip-audit could look at every package)."""
    cmd = [sys.executable, "-m", "pip_audit", "-r", str(LOCK), "--no-deps", "--disable-pip",
           "--progress-spinner", "off", "-f", "json"]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"pip-audit did not run: {exc}")
        return [], False
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        print(f"pip-audit gave no report: {run.stderr.strip()[-500:]}")
        return [], False
    findings, skipped = [], 0
    for dep in report.get("dependencies", []):
        if dep.get("skip_reason"):
            skipped += 1
        for vuln in dep.get("vulns", []):
            findings.append(f"{dep['name']} {dep.get('version')}: {vuln['id']} (fixed in "
                            f"{', '.join(vuln.get('fix_versions') or ['-'])})")
    return findings, skipped == 0


def project_json(name: str) -> dict:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=30) as response:
        return json.loads(response.read())


def release_key(version: str) -> tuple[int, ...] | None:
    match = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?(?:\.post\d+)?", version)
    return None if match is None else tuple(int(g or 0) for g in match.groups())


def registry_audit(pinned: dict[str, str]) -> tuple[list[str], list[str]]:
    findings, behind = [], []
    for name, version in sorted(pinned.items()):
        try:
            data = project_json(name)
        except OSError as exc:
            findings.append(f"{name}: the registry did not answer ({exc})")
            continue
        latest = data["info"]["version"]
        if version == latest:
            for vuln in data.get("vulnerabilities") or []:
                if not vuln.get("withdrawn"):
                    fixed = ", ".join(vuln.get("fixed_in") or ["-"])
                    findings.append(f"{name} {version}: {vuln['id']} (fixed in {fixed})")
        mine = release_key(version)
        if mine is None:
            continue
        newer = [v for v in data.get("releases", {})
                 if (k := release_key(v)) is not None and k[:2] == mine[:2] and k > mine]
        if newer:
            behind.append(f"{name} {version}: newer patch release {max(newer, key=release_key)}")
    return findings, behind


def main() -> int:
    pinned = pins()
    missing = check_coverage(pinned)
    if missing:
        print(f"requirements.lock lacks runtime dependencies of pyproject.toml: {', '.join(missing)}")
        return 1
    print(f"requirements.lock: {len(pinned)} pinned packages, every runtime dependency covered")
    findings, complete = pip_audit()
    if complete:
        print("pip-audit (PyPI's vulnerability data): " + ("" if findings else "no known vulnerabilities"))
    else:
        print("pip-audit could not reach PyPI's per-version vulnerability data: "
              "the registry's project data instead")
        more, behind = registry_audit(pinned)
        findings += more
        for line in behind:
            print(f"  behind: {line}")
        if not more:
            print("registry audit: no vulnerability listed for the pinned versions that are the newest")
    for line in findings:
        print(f"VULNERABLE: {line}")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
