"""The compiled core: the cost engine's hot modules, compiled by mypyc from their own source.

The modules in :data:`MODULES` are ordinary typed Python, and they are the only implementation:
`mypyc <https://mypyc.readthedocs.io>`_ (part of mypy, a wheel from the package registry)
translates the same files to C extension modules, which simulate about twice as fast
(``benchmarks/RESULTS.md`` §21). Nothing is written twice; an engine that is not compiled runs
the same source under the interpreter, with the same results (``benchmarks/engine_identity.py``
compares whole result documents).

A build is kept under ``scheduling/_compiled/<digest>/``, where the digest covers the modules'
source, this module's (the recipe) and the interpreter's version. When :mod:`scheduling` is
imported, :func:`install` puts a finder of the *current* source's build in front of the import
system, if there is one: an edited module is never shadowed by a build of its old text, it runs
interpreted until the next build.
``SCHEDULING_INTERPRETED=1`` runs the source even when a build exists (a profiler that sees every
Python call, a debugger).

    python -m scheduling compile              # compile unless the current source is built (a
                                              # C compiler, about a minute); JSON status out
    python -m scheduling compile --status     # built or not, and where, without building
    python -m scheduling compile --warn-only  # as the first, but exit 0 when it cannot

``./dev`` runs ``compile --warn-only`` before the planner and the tests start, and the Docker
image builds it.

>>> len(digest()) == 16 and all(name.startswith("scheduling.") for name in MODULES)
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = [
    "MODULES", "build", "built", "describe", "digest", "install", "is_compiled", "source_module", "status",
    "switched_off",
]

# The hot path of a simulation (the event loop and everything it calls per event, the exact
# placement's knapsack, the result's columns) and of reading a workload (the RM importer, the
# scenario's job fields and the rules they are checked by), in dependency order. Adding a module
# here compiles it; it must pass ``mypy --strict``. A test that replaces one of their functions
# does it on :func:`source_module`'s copy.
MODULES = (
    "scheduling.numbers",
    "scheduling.metrics",
    "scheduling.scenario.checks",
    "scheduling.scenario.workload_fields",
    "scheduling.importers.registry",
    "scheduling.importers.rm_simulator",
    "scheduling.cost.billing",
    "scheduling.cost.job_table",
    "scheduling.cost.machine_index",
    "scheduling.cost.cluster",
    "scheduling.cost.timeline",
    "scheduling.cost.orderings",
    "scheduling.cost.placement.heuristics",
    "scheduling.cost.placement.knapsack",
    "scheduling.cost.placement.exact",
    "scheduling.cost.result_builder",
    "scheduling.cost.simulator",
)

OFF_VARIABLE = "SCHEDULING_INTERPRETED"
PACKAGE_DIR = Path(__file__).resolve().parent
STORE = PACKAGE_DIR / "_compiled"
_GROUP = "scheduling_engine"
_SHARED = f"{_GROUP}__mypyc"  # the shared library that the modules' shims load
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def source_file(module: str) -> Path:
    """The source file of one of :data:`MODULES`."""
    return PACKAGE_DIR.parent.joinpath(*module.split(".")).with_suffix(".py")


def digest() -> str:
    """What a build is of: the modules' source text, this recipe's and the interpreter's (16 hex
    digits)."""
    h = hashlib.sha256(f"{sys.implementation.cache_tag} {sys.version}".encode())
    h.update(Path(__file__).read_bytes())
    for module in MODULES:
        h.update(f"\0{module}\0".encode())
        h.update(source_file(module).read_bytes())
    return h.hexdigest()[:16]


def switched_off() -> bool:
    """Whether ``SCHEDULING_INTERPRETED`` asks for the source whatever is built."""
    return os.environ.get(OFF_VARIABLE, "") not in ("", "0")


def built() -> Path | None:
    """The folder of the build of the current source, if there is one."""
    folder = STORE / digest()
    return folder if folder.is_dir() else None


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the modules of one build: each of :data:`MODULES` and their shared library."""

    def __init__(self, folder: Path) -> None:
        self.files = {m: folder.joinpath(*m.split(".")).with_suffix(_SUFFIX) for m in MODULES}
        self.files[_SHARED] = (folder / _SHARED).with_suffix(_SUFFIX)

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        file = self.files.get(fullname)
        return None if file is None else importlib.util.spec_from_file_location(fullname, file)


def install() -> Path | None:
    """Import :data:`MODULES` from the build of their current source, if there is one.

    Run when this module is imported, which :mod:`scheduling` does first (before any module of
    the engine), unless ``SCHEDULING_INTERPRETED`` is set; the build's folder, or ``None``.
    """
    if switched_off():
        return None
    folder = built()
    if folder is not None and not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(folder))
    return folder


def is_compiled(module: object) -> bool:
    """Whether an imported module is a compiled extension rather than its source."""
    return not str(getattr(module, "__file__", "") or "").endswith(".py")


def source_module(module: str) -> ModuleType:
    """A fresh copy of one of :data:`MODULES` run from its source, beside the imported one.

    Compiled functions call each other directly, so replacing a function of the imported module
    changes nothing when it is compiled. A test that replaces one (a clock, a limit) patches and
    calls this copy instead: its functions look each other up in its own namespace, as the
    interpreter always does. The copy imports the other modules as usual.
    """
    if module not in MODULES:
        raise ValueError(f"{module} is not one of the compiled modules")
    package, _, leaf = module.rpartition(".")
    spec = importlib.util.spec_from_file_location(f"{package}._source_of_{leaf}", source_file(module))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the source of {module}")
    copy = importlib.util.module_from_spec(spec)
    copy.__package__ = package
    sys.modules[spec.name] = copy  # as an import would (dataclasses look their module up)
    spec.loader.exec_module(copy)
    return copy


class BuildError(Exception):
    """The build could not be made (no compiler, no mypy, a type error mypyc refuses)."""


def build(*, quiet: bool = False) -> Path:
    """Compile :data:`MODULES` into ``STORE/<digest>`` unless that build exists; its folder.

    The build is made in a temporary folder and renamed into place whole, so a process never
    sees half a build, and two builds at once cost time but no harm. Older builds are removed.
    """
    import shutil  # (here: a process that only imports the engine needs neither)
    import tempfile

    key = digest()
    target = STORE / key
    if target.is_dir():
        return target
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as e:  # pragma: no cover - the dev and run environments install both
        raise BuildError(f"mypyc or setuptools is not installed ({e})") from e
    STORE.mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=STORE))
    try:
        config = work / "mypy.ini"  # not the project's: no Django plugins, the library alone
        config.write_text("[mypy]\npython_version = 3.11\nignore_missing_imports = True\n")
        here = Path.cwd()
        os.chdir(PACKAGE_DIR.parent)  # mypyc names modules by their paths from here
        try:
            sources = [str(source_file(m).relative_to(PACKAGE_DIR.parent)) for m in MODULES]
            extensions = mypycify(
                [f"--config-file={config}", *sources],
                opt_level="3",
                target_dir=str(work / "c"),
                group_name=_GROUP,
            )
            for extension in extensions:  # never a fused multiply-add: the same floats as the source
                extension.extra_compile_args = [*extension.extra_compile_args, "-ffp-contract=off"]
            dist = Distribution({"ext_modules": extensions, "script_name": "scheduling.compiled"})
            dist.script_args = [
                *(["--quiet"] if quiet else []),
                "build_ext", "--build-lib", str(work / "lib"), "--build-temp", str(work / "obj"),
                "--parallel", str(max(1, os.cpu_count() or 1)),
            ]
            dist.parse_command_line()
            dist.run_commands()
        except SystemExit as e:  # setuptools reports a compiler's failure by exiting
            raise BuildError(f"the C compiler failed ({e})") from e
        except Exception as e:
            raise BuildError(f"{type(e).__name__}: {e}") from e
        finally:
            os.chdir(here)
        if digest() != key:
            raise BuildError("the source changed while it was being compiled; build again")
        try:
            (work / "lib").rename(target)
        except OSError:
            if not target.is_dir():  # another build that finished first is as good
                raise
        for old in STORE.iterdir():
            if old.is_dir() and old.name != key and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
        return target
    finally:
        shutil.rmtree(work, ignore_errors=True)


def describe() -> str:
    """How a new process runs the engine here: compiled (which build) or interpreted (why)."""
    if switched_off():
        return f"interpreted ({OFF_VARIABLE} is set)"
    folder = built()
    if folder is None:
        return "interpreted (no build of the current source)"
    return f"compiled by mypyc (build {folder.name})"


def status() -> dict[str, object]:
    """Whether the current source is built, where, and whether this process runs the build."""
    folder = built()
    engine = sys.modules.get("scheduling.cost.simulator")
    return {
        "digest": digest(),
        "built": folder is not None,
        "folder": str(folder) if folder else None,
        "running_compiled": engine is not None and is_compiled(engine),
        "modules": list(MODULES),
    }


install()
