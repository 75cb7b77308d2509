"""Fixtures of the security tests."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from planner.kinds.sharing import kind as sharing_kind
from tests.scheduling.fairness.fairness_documents import sharing_docs


@pytest.fixture
def fake_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sharing kind's ``share`` answering with a hand-made document whatever the label."""
    doc = next(iter(sharing_docs().values()))

    def share(scenario: Any, *, progress: Any = None, **kwargs: Any) -> Any:
        if progress is not None:
            progress(1.0)
        return SimpleNamespace(to_dict=lambda: doc | {"label": kwargs["label"]})

    monkeypatch.setattr(sharing_kind, "share", share)
