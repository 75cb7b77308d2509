from __future__ import annotations

import ast
import doctest
import importlib
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.doctest import (
    DoctestItem,
    DoctestModule,
    _get_checker,
    _get_continue_on_failure,
    _get_runner,
    get_optionflags,
)

from scheduling import compiled

# Modules that pytest's doctest collection must not import: entry points that act on import,
# and settings modules that need a production environment.
collect_ignore = ["scheduling/__main__.py", "manage.py", "planner/wsgi.py", "planner/asgi.py"]
collect_ignore_glob = ["planner/settings/*", "planner/*/migrations/*", "benchmarks/*"]

_COMPILED_SOURCES = {compiled.source_file(m): m for m in compiled.MODULES}


class _CompiledDoctestModule(DoctestModule):
    """The doctests of a module of the compiled core, run on the module that ``import`` gives.

    A compiled module keeps no docstrings, and pytest refuses to import a file whose module's
    ``__file__`` is another (a compiled one's is its extension in ``scheduling/_compiled``): the
    docstrings are read from the source, as doctest finds them (the module, its classes, their
    functions and methods), and their examples run in the imported module's namespace, compiled
    when it is built.
    """

    def _getobj(self) -> Any:
        return importlib.import_module(_COMPILED_SOURCES[self.path])

    def collect(self) -> Iterator[DoctestItem]:
        name = _COMPILED_SOURCES[self.path]
        module = self.obj
        self.session._fixturemanager.parsefactories(self)
        runner = _get_runner(
            verbose=False,
            optionflags=get_optionflags(self.config),
            checker=_get_checker(),
            continue_on_failure=_get_continue_on_failure(self.config),
        )
        parser = doctest.DocTestParser()
        tests = []
        for qualname, node in _documented(ast.parse(self.path.read_text(encoding="utf-8")), name):
            text = ast.get_docstring(node, clean=False)
            line = node.body[0].lineno - 1
            test = parser.get_doctest(text or "", dict(vars(module)), qualname, str(self.path), line)
            if test.examples:
                tests.append(test)
        for test in sorted(tests, key=lambda t: t.name):
            yield DoctestItem.from_parent(self, name=test.name, runner=runner, dtest=test)


_Documented = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def _documented(node: _Documented, qualname: str) -> Iterator[tuple[str, _Documented]]:
    """``node`` and the classes and functions in it (not those inside functions), by name."""
    yield qualname, node
    if isinstance(node, ast.Module | ast.ClassDef):
        for child in node.body:
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                yield from _documented(child, f"{qualname}.{child.name}")


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Generator[None, Any, Any]:
    collected = yield
    if file_path not in _COMPILED_SOURCES:
        return collected
    # Its doctests from the source; no test module (a path named on the command line is one),
    # which would import the file by its path.
    return [
        _CompiledDoctestModule.from_parent(parent, path=file_path) if type(c) is DoctestModule else c
        for c in collected
        if type(c) is not pytest.Module
    ]
