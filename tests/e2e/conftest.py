"""The end-to-end stack, started once per module.

Skipped when PostgreSQL or Redis is not reachable, unless ``PLANNER_REQUIRE_SERVICES=1`` (as
in CI), in which case a missing service fails the test. A module starts the stack its own
way by overriding :func:`stack_options`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.planner_stack import Stack, missing_services


@pytest.fixture(scope="module")
def stack_options() -> dict[str, Any]:
    """:class:`planner_stack.Stack`'s keyword arguments for the module's stack."""
    return {}


@pytest.fixture(scope="module")
def stack(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, stack_options: dict[str, Any]
) -> Iterator[Stack]:
    """The stack of the module, up for its tests and then stopped."""
    missing = missing_services()
    if missing:
        msg = f"{' and '.join(missing)} not reachable on 127.0.0.1"
        if os.environ.get("PLANNER_REQUIRE_SERVICES") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    s = Stack(tmp_path_factory.mktemp(Path(request.path).stem), **stack_options)
    try:
        s.up()
        yield s
    finally:
        s.down()
