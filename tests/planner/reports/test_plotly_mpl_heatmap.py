"""The PDF's drawing of a heatmap (the allocation study's framework x server figure)."""

from __future__ import annotations

from matplotlib.collections import QuadMesh
from matplotlib.figure import Figure

from planner.reports.plotly_mpl import draw_figure
from scheduling.fairness.charts import allocation_heatmap_figure
from tests.scheduling.fairness.fairness_documents import rps_dsf


def test_a_heatmap_is_drawn_with_its_cells_values_and_colour_bar() -> None:
    fig = Figure(figsize=(8, 5))
    axes = draw_figure(fig, allocation_heatmap_figure(rps_dsf()), (0.1, 0.2, 0.8, 0.6))
    ax = axes[0]
    meshes = [c for c in ax.collections if isinstance(c, QuadMesh)]
    assert len(meshes) == 1 and meshes[0].get_array().reshape(2, 2).tolist() == [[19.0, 2.0], [2.0, 19.0]]
    assert sorted(t.get_text() for t in ax.texts) == ["19", "19", "2", "2"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["c1#1", "c2#1"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["f1", "f2"]
    assert ax.yaxis_inverted()  # frameworks from the top, as on the page
    assert len(fig.axes) == 2  # the plot and its colour bar


def test_the_pdfs_heatmap_prints_the_standard_deviation_of_each_cell() -> None:
    """Issue 22: paper cannot hover, so the cells print mean ± standard deviation."""
    from tests.scheduling.fairness.fairness_documents import rrr_drf

    fig = Figure(figsize=(8, 5))
    ax = draw_figure(fig, allocation_heatmap_figure(rrr_drf()), (0.1, 0.2, 0.8, 0.6))[0]
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts[0].startswith("4.75 ± ") and all(" ± " in t for t in texts)
