"""One command that reproduces every table: each paper's claims, ours beside them, and a verdict.

A :class:`Claim` is one quantitative statement of a paper (a figure's value, a direction, an
order), declared once in its paper's package (``scheduling/<paper>/reproduce.py``, a function
``claims()``): what the paper printed, how to measure ours for one seed, the rule that says
whether ours *reproduces* it or follows its *direction only* (else it *differs*), and, where it
does not reproduce, why. :func:`reproduce` measures every claim over seeds 0..N-1 (deterministic:
the same table on every run); the table, the JSON document, the standalone page and
``docs/reproductions.md`` are all made from its :class:`Outcome` objects, so every number in the
document comes from this command and every reason from the one registry of claims.

>>> claim = Claim("000", "toy", "Table I", "tasks in all", "41", "tasks",
...               measure=lambda seed: 41.0 + seed % 2, reproduced=between(40.5, 42.5))
>>> [o.verdict for o in reproduce([claim], seeds=3)], reproduce([claim], seeds=3)[0].mean
(['reproduced'], 41.333333333333336)
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .numbers import finite
from .params import Param, read_params
from .tables import Column, DetailTable, Metric, detail_table, show

__all__ = [
    "PAPERS",
    "PAPER_PACKAGES",
    "PAPER_TITLES",
    "REPRODUCE_PARAMS",
    "REPRODUCTION_METRICS",
    "VERDICTS",
    "Claim",
    "Outcome",
    "all_claims",
    "at_least",
    "at_most",
    "between",
    "paper_intros",
    "reproduce",
    "reproduction_document",
    "reproduction_html",
    "reproduction_markdown",
    "reproduction_run",
    "reproduction_table",
    "within",
]

Verdict = Literal["reproduced", "direction only", "differs", "not measured"]
VERDICTS: tuple[Verdict, ...] = ("reproduced", "direction only", "differs", "not measured")

#: Which package of the library holds each paper's claims (``<package>.reproduce.claims()``).
PAPER_PACKAGES: Mapping[str, str] = {
    "000": "fairness", "001": "fairness", "002": "mrsu", "003": "cost", "004": "udrf",
}
PAPERS: tuple[str, ...] = tuple(PAPER_PACKAGES)
#: The papers as the pages name them.
PAPER_TITLES: Mapping[str, str] = {
    "000": "000: fairness on heterogeneous servers (Kesidis et al.)",
    "001": "001: fairness in Apache Mesos (Saha et al.)",
    "002": "002: multi-resource schedulable unit (Gutierrez-Estevez and Luo)",
    "003": "003: cost-efficient Spark scheduling on cloud VMs (Islam et al.)",
    "004": "004: UDRF for complex jobs (Tahir et al.)",
}

#: What a reproduction takes (the command line's flags, the planner's form and API schema).
REPRODUCE_PARAMS: tuple[Param, ...] = (
    Param("papers", "choices", "Papers", "The papers whose claims are measured.", default=list(PAPERS),
          choices=PAPERS, choice_labels=tuple(PAPER_TITLES[p] for p in PAPERS), min_items=1, flag="--paper"),
    Param("seeds", "integer", "Seeds", "Each seeded claim is measured with seeds 0 to N-1 (their mean and "
          "range are shown).", default=5, minimum=1, maximum=100, flag="--seeds"),
)


def reproduction_run(params: Mapping[str, Any]) -> dict[str, Any]:
    """A reproduction's options, read by :data:`REPRODUCE_PARAMS` (``papers[1]: must be one of ...``).

    >>> reproduction_run({"papers": "001", "seeds": 2})
    {'papers': ['001'], 'seeds': 2}
    """
    return read_params(REPRODUCE_PARAMS, params, what="a reproduction")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and how ours is measured and judged.

    Attributes
    ----------
    paper : str
        The paper's number, ``"000"`` to ``"004"``.
    key : str
        Unique among all claims (``"001-fig1-greedy"``).
    where : str
        Where the paper says it (``"§V-B, Figure 1"``).
    what : str
        What is measured, in words (``"Scylla's unfairness, Marathon answering greedily"``).
    paper_value : str
        The paper's value as printed (``"38 %"``, ``"67 % / 89 %"``, ``"rises, then falls"``).
    unit : str
        The unit of our value (:data:`scheduling.tables.UNITS`), for showing it.
    measure : callable
        ``measure(seed) -> float | None``: ours for one seed (``None``: undefined for that seed,
        e.g. no contention window). A claim that is not seeded ignores its seed.
    reproduced : callable
        ``reproduced(mean) -> bool``: whether our mean over the seeds agrees with the paper.
    direction : callable, optional
        ``direction(mean) -> bool``: whether it follows the paper's direction (or order) only.
    seeded : bool
        Whether ours depends on the seed (else it is measured once).
    reason : str
        Why ours does not reproduce the paper, or what its direction means: shown beside a
        verdict other than *reproduced*, and in ``docs/reproductions.md``.
    setup : str
        How to look at it more closely: a command or the planner's preset.
    """

    paper: str
    key: str
    where: str
    what: str
    paper_value: str
    unit: str
    measure: Callable[[int], float | None] = field(compare=False)
    reproduced: Callable[[float], bool] = field(compare=False)
    direction: Callable[[float], bool] | None = field(default=None, compare=False)
    seeded: bool = True
    reason: str = ""
    setup: str = ""


@dataclass(frozen=True)
class Outcome:
    """A claim measured: ours per seed, their mean and range, and the verdict."""

    claim: Claim
    values: tuple[float | None, ...]
    verdict: Verdict

    @property
    def known(self) -> list[float]:
        return [v for v in self.values if v is not None and math.isfinite(v)]

    @property
    def mean(self) -> float | None:
        known = self.known
        return sum(known) / len(known) if known else None

    @property
    def low(self) -> float | None:
        return min(self.known) if self.known else None

    @property
    def high(self) -> float | None:
        return max(self.known) if self.known else None

    def ours_text(self, currency: str = "$") -> str:
        """Ours as shown: the mean, and the range over seeds when it varies."""
        unit = self.claim.unit
        if self.mean is None:
            return "undefined"
        text = show(self.mean, unit, currency)
        if self.low is not None and self.high is not None and self.high - self.low > 1e-12:
            text += f" ({show(self.low, unit, currency)} to {show(self.high, unit, currency)})"
        return text

    def to_dict(self) -> dict[str, Any]:
        c = self.claim
        return {
            "paper": c.paper, "key": c.key, "where": c.where, "what": c.what, "paper_value": c.paper_value,
            "unit": c.unit, "seeded": c.seeded, "values": list(self.values), "mean": self.mean,
            "low": self.low, "high": self.high, "ours": self.ours_text(), "verdict": self.verdict,
            "reason": c.reason if self.verdict != "reproduced" else "", "setup": c.setup,
        }


# --------------------------------------------------------------------------- rules


def between(low: float, high: float) -> Callable[[float], bool]:
    """``low <= x <= high``.

    >>> between(30, 45)(37.0), between(30, 45)(54.0)
    (True, False)
    """
    return lambda x: low <= x <= high


def within(value: float, *, abs_tol: float = 0.0, rel_tol: float = 0.0) -> Callable[[float], bool]:
    """Within ``abs_tol`` or ``rel_tol`` (a fraction of ``value``) of ``value``.

    >>> within(41, abs_tol=1)(42.0), within(100, rel_tol=0.05)(94.0)
    (True, False)
    """
    return lambda x: abs(x - value) <= max(abs_tol, rel_tol * abs(value))


def at_least(value: float) -> Callable[[float], bool]:
    """``x >= value``."""
    return lambda x: x >= value


def at_most(value: float) -> Callable[[float], bool]:
    """``x <= value``."""
    return lambda x: x <= value


# --------------------------------------------------------------------------- measuring


def all_claims(papers: Iterable[str] | None = None) -> list[Claim]:
    """Every claim of ``papers`` (default: all), in paper order, as their packages declare them.

    Raises ``ValueError`` for an unknown paper or two claims of one key.
    """
    wanted = list(papers) if papers is not None else list(PAPERS)
    unknown = [p for p in wanted if p not in PAPER_PACKAGES]
    if unknown:
        raise ValueError(f"unknown paper {', '.join(unknown)} (papers: {', '.join(PAPERS)})")
    out: list[Claim] = []
    for package in dict.fromkeys(PAPER_PACKAGES[p] for p in wanted):
        module = importlib.import_module(f"scheduling.{package}.reproduce")
        out.extend(c for c in module.claims() if c.paper in wanted)
    keys = [c.key for c in out]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"claims declared twice: {', '.join(twice)}")
    return sorted(out, key=lambda c: PAPERS.index(c.paper))


def paper_intros(papers: Iterable[str]) -> dict[str, str]:
    """Each paper's introduction of its set-ups (its package's ``reproduce.INTRO``), for the document."""
    out: dict[str, str] = {}
    wanted = list(papers)
    for package in dict.fromkeys(PAPER_PACKAGES[p] for p in wanted):
        intro: Mapping[str, str] = importlib.import_module(f"scheduling.{package}.reproduce").INTRO
        out.update({p: text for p, text in intro.items() if p in wanted})
    return out


def _verdict(claim: Claim, values: Sequence[float | None]) -> Verdict:
    known = [v for v in values if v is not None and math.isfinite(v)]
    if not known:
        return "not measured"
    mean = sum(known) / len(known)
    if claim.reproduced(mean):
        return "reproduced"
    if claim.direction is not None and claim.direction(mean):
        return "direction only"
    return "differs"


def reproduce(
    claims: Sequence[Claim], *, seeds: int = 5, progress: Callable[[float], None] | None = None
) -> list[Outcome]:
    """Measure every claim over seeds ``0..seeds-1`` (once for a claim that is not seeded).

    ``progress(fraction)`` is called after each claim (it may raise to stop). Deterministic.
    """
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 1 <= seeds <= 1000:
        raise ValueError("seeds must be a whole number from 1 to 1,000")
    out: list[Outcome] = []
    for k, claim in enumerate(claims):
        runs = range(seeds) if claim.seeded else range(1)
        values = tuple(_finite(claim.measure(seed)) for seed in runs)
        out.append(Outcome(claim, values, _verdict(claim, values)))
        if progress is not None:
            progress((k + 1) / len(claims))
    return out


def _finite(value: float | None) -> float | None:
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


# --------------------------------------------------------------------------- showing

REPRODUCTION_COLUMNS = (
    Column("paper", "Paper"),
    Column("where", "Where"),
    Column("what", "Claim"),
    Column("paper_value", "Paper's value"),
    Column("ours", "Ours (mean, range over seeds)"),
    Column("verdict", "Verdict"),
    Column("reason", "Why it differs"),
)


def reproduction_table(outcomes: Sequence[Outcome]) -> DetailTable:
    """The reproduction table every view shows (the CLI, the page, the document)."""
    rows = [{k: v for k, v in o.to_dict().items()} for o in outcomes]
    return detail_table("reproductions", "Reproductions", REPRODUCTION_COLUMNS, rows)


def _count(verdict: str) -> Callable[[Mapping[str, Any], Mapping[str, Any] | None], float | None]:
    return lambda h, _base: finite((h.get("counts") or {}).get(verdict))


#: The comparison table of reproductions, one column per paper: how many claims got each verdict.
REPRODUCTION_METRICS: tuple[Metric, ...] = (
    Metric("reproduced", "Reproduced", "count", ("counts",), _count("reproduced"), better="higher",
           note="Ours agrees with the paper's value (the claim's rule, on our mean over the seeds)."),
    Metric("direction", "Direction only", "count", ("counts",), _count("direction only"),
           note="Ours follows the paper's direction or order, not its value."),
    Metric("differs", "Differs", "count", ("counts",), _count("differs"), better="lower",
           note="Ours does not follow the paper: each claim says why."),
    Metric("not_measured", "Not measured", "count", ("counts",), _count("not measured"),
           note="Ours is undefined for every seed (e.g. no contention window)."),
)


def reproduction_document(outcomes: Sequence[Outcome], *, seeds: int) -> dict[str, Any]:
    """The JSON document of a reproduction: every outcome, and the count of each verdict."""
    counts = {v: sum(o.verdict == v for o in outcomes) for v in VERDICTS}
    return {
        "kind": "reproductions",
        "seeds": seeds,
        "papers": sorted({o.claim.paper for o in outcomes}),
        "counts": counts,
        "claims": [o.to_dict() for o in outcomes],
    }


def reproduction_html(outcomes: Sequence[Outcome], *, seeds: int) -> str:
    """A standalone page of the reproduction table, one section per paper (offline, escaped)."""
    from .html import detail_html, standalone_html  # plotly's page only when asked for

    sections = []
    for paper in PAPERS:
        mine = [o for o in outcomes if o.claim.paper == paper]
        if mine:
            sections.append((f"Paper {PAPER_TITLES[paper]}", detail_html(reproduction_table(mine))))
    counts = {v: sum(o.verdict == v for o in outcomes) for v in VERDICTS}
    meta = ", ".join(f"{n} {v}" for v, n in counts.items() if n) + f"; seeds 0-{seeds - 1}"
    return standalone_html("Reproductions of the papers' tables and figures", meta, sections, {})


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def reproduction_markdown(outcomes: Sequence[Outcome], *, seeds: int, command: str,
                          intro: Mapping[str, str] | None = None) -> str:
    """``docs/reproductions.md``: per paper, every claim with the paper's value, ours and the
    verdict, then the reasons; ``intro`` (paper -> text) is each paper's set-up, from its package."""
    lines = [
        "# Reproductions",
        "",
        "What the papers report next to what this code gives, generated by the command below from",
        "the claims each paper's package declares (`scheduling/<paper>/reproduce.py`): every number",
        "here is the command's, and every reason the registry's. Seeded and deterministic: the same",
        "table on every run. `../shared/ALGORITHM-NOTES.md` settles what the papers leave open.",
        "",
        f"    {command}",
        "",
    ]
    counts = {v: sum(o.verdict == v for o in outcomes) for v in VERDICTS}
    lines.append(", ".join(f"{n} {v}" for v, n in counts.items() if n) + f" ({len(outcomes)} claims, "
                 f"seeds 0-{seeds - 1}).")
    for paper in PAPERS:
        mine = [o for o in outcomes if o.claim.paper == paper]
        if not mine:
            continue
        lines += ["", f"## Paper {paper}", ""]
        if intro and intro.get(paper):
            lines += [intro[paper], ""]
        lines += ["| where | claim | paper | ours | verdict |", "| --- | --- | --- | --- | --- |"]
        lines += [f"| {_cell(o.claim.where)} | {_cell(o.claim.what)} | {_cell(o.claim.paper_value)} | "
                  f"{_cell(o.ours_text())} | {o.verdict} |" for o in mine]
        notes = [o for o in mine if o.verdict != "reproduced" and o.claim.reason]
        if notes:
            lines += ["", "Where ours differs, and why:", ""]
            lines += [f"* **{o.claim.where}, {o.claim.what}** ({o.verdict}). {o.claim.reason}" for o in notes]
        setups = [o for o in mine if o.claim.setup]
        if setups:
            lines += ["", "To look closer: " + "; ".join(
                dict.fromkeys(f"`{o.claim.setup}`" for o in setups)) + "."]
    return "\n".join(lines) + "\n"
