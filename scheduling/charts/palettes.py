"""The colours of things: one colour-blind-safe palette per kind of thing, stable names.

Every chart, the run page's swatches, the CLI's HTML report and the PDF take their colours
from here, so a scheduler, a framework, a VM type or a deadline outcome has the same colour
wherever it is drawn.

* **One palette per kind**, and no colour in two palettes: schedulers are drawn in the
  saturated Okabe-Ito colours (lines), VM types in Paul Tol's *muted* scheme (stacked areas
  and bars), frameworks in Tol's *light* scheme (Gantt bars, fairness), deadline outcomes in
  Tol's *high-contrast* blue and red, the RDUCs of a UDRF dependency graph in Tol's *vibrant*
  scheme. Two different things in one chart never share a
  colour, whatever kinds the chart mixes (e.g. scheduler-coloured tick labels under bars
  coloured by VM type).
* **A name keeps its colour across runs and pages.** The named schedulers have fixed
  colours; any other name gets the palette colour at a stable hash of the name (BLAKE2b of
  its UTF-8 text, not Python's salted ``hash``), so ``etl`` has the same colour in every run
  and on every page, unless a chart holds a name that hashes to the same colour (below).
* **No clash in one chart.** When two names of one call land on the same colour, the name
  that sorts later takes the next free colour of the palette (fixed names first, then the
  others in sorted order, so the outcome does not depend on the order the names are given).
  Only a chart with more names of one kind than its palette has colours repeats one.
* **Variants of a fairness study** (allocation policies, sharing configurations) are the
  schedulers being compared and take the ``scheduler`` palette; amounts drawn as colour
  (the allocation heatmap) take the sequential :data:`HEAT` scale, outside every palette.

>>> colours("scheduler", ["edf-bfd", "fifo-spread"])
{'edf-bfd': '#D55E00', 'fifo-spread': '#0072B2'}
>>> colours("outcome", ["Met", "Missed"])
{'Met': '#004488', 'Missed': '#BB5566'}
>>> a = colours("framework", ["etl", "analytics"])
>>> a == colours("framework", ["analytics", "etl"]) and a["etl"] != a["analytics"]
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "GREY",
    "HEAT",
    "LOWER_BOUND",
    "PALETTES",
    "UNUSED",
    "Kind",
    "Palette",
    "colour",
    "colours",
]

#: The kinds of things that have a palette.
Kind = Literal["scheduler", "framework", "vm_type", "outcome", "rduc"]

#: Neutral colours, outside every palette: the lower bound, unused capacity, VMs that are on.
LOWER_BOUND = "#444444"
UNUSED = "#C8C8C8"
GREY = "#A0A0A0"

#: The sequential scale of amounts drawn as colour (the allocation heatmap): Paul Tol's
#: YlOrBr, from near-white for nothing to dark brown for the most; readable by colour-blind
#: people and in grey print. Stops as (fraction, colour).
HEAT: tuple[tuple[float, str], ...] = tuple(
    (round(k / 8, 6), c) for k, c in enumerate((
        "#FFFFE5", "#FFF7BC", "#FEE391", "#FEC44F", "#FB9A29", "#EC7014", "#CC4C02", "#993404", "#662506",
    ))
)


@dataclass(frozen=True)
class Palette:
    """The colours of one kind of thing, and the names that always get one of them."""

    colours: tuple[str, ...]
    fixed: Mapping[str, str] = field(default_factory=dict)

    def free(self) -> tuple[str, ...]:
        """The colours no fixed name holds, in palette order (tried first for other names)."""
        taken = set(self.fixed.values())
        return tuple(c for c in self.colours if c not in taken)


PALETTES: dict[Kind, Palette] = {
    # Okabe & Ito (2008), yellow left out (unreadable on white), wine from Tol's muted scheme
    # as an eighth colour.
    "scheduler": Palette(
        colours=("#0072B2", "#56B4E9", "#009E73", "#D55E00", "#CC79A7", "#E69F00", "#000000", "#882255"),
        fixed={
            "fifo-spread": "#0072B2",
            "fifo-consolidate": "#56B4E9",
            "morpheus": "#009E73",
            "edf-bfd": "#D55E00",
            "edf-ilp": "#CC79A7",
        },
    ),
    # Paul Tol's muted scheme, wine left to the schedulers.
    "vm_type": Palette(
        colours=("#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#AA4499"),
    ),
    # Paul Tol's light scheme, keeping six that differ from each other and read on white
    # (light yellow, light cyan and olive left out), with a light purple: lighter than the
    # schedulers' colours, so a framework never reads as a scheduler.
    "framework": Palette(
        colours=("#EE8866", "#BBCC33", "#77AADD", "#C2A5CF", "#FFAABB", "#44BB99"),
    ),
    # Paul Tol's high-contrast scheme: blue and red differ in lightness too.
    "outcome": Palette(
        colours=("#004488", "#BB5566", "#DDAA33"),
        fixed={"Met": "#004488", "Missed": "#BB5566", "No deadline": "#DDAA33"},
    ),
    # Paul Tol's vibrant scheme, grey left out: the RDUCs of a UDRF dependency graph (paper 004),
    # groups of users rather than users, so a colour of their own.
    "rduc": Palette(
        colours=("#EE7733", "#0077BB", "#33BBEE", "#EE3377", "#CC3311", "#009988"),
    ),
}


def _slot(name: str, size: int) -> int:
    """A stable position for ``name`` in a palette of ``size`` colours."""
    # Any stable hash would do; this one puts the usual tenant names (etl, analytics, batch,
    # ml) on four different colours of the framework palette.
    digest = hashlib.blake2b(name.encode("utf-8", "surrogatepass")).digest()[:8]
    return int.from_bytes(digest, "big") % size


def colours(kind: Kind, names: Iterable[str]) -> dict[str, str]:
    """The colour of each name of one kind, in the order given, no two alike (see the module).

    Parameters
    ----------
    kind : {"scheduler", "framework", "vm_type", "outcome", "rduc"}
    names : iterable of str
        The names drawn together (one chart, one table); duplicates are ignored.

    Examples
    --------
    >>> colours("scheduler", ["morpheus", "edf-bfd:rut.cpu=0.5"])["morpheus"]
    '#009E73'
    """
    palette = PALETTES[kind]
    wanted = [str(n) for n in dict.fromkeys(names)]
    out: dict[str, str] = {n: palette.fixed[n] for n in wanted if n in palette.fixed}
    used = set(out.values())
    # Other names: their own slot among the colours no fixed name holds, then any colour this
    # call has not used yet, then (a chart with more names than colours) their own slot again.
    free = palette.free() or palette.colours
    held = tuple(c for c in palette.colours if c not in free)
    for name in sorted(n for n in wanted if n not in out):
        k = _slot(name, len(free))
        candidates = (*free[k:], *free[:k], *held)
        pick = next((c for c in candidates if c not in used), free[k])
        out[name] = pick
        used.add(pick)
    return {n: out[n] for n in wanted}


def colour(kind: Kind, name: str) -> str:
    """The colour of one name drawn on its own (its fixed colour, else its hashed slot).

    >>> colour("scheduler", "fifo-spread")
    '#0072B2'
    """
    return colours(kind, [name])[name]
