"""The solver's inner loop, compiled: the same Python, built by mypyc where a C compiler is.

A proof visits every position a deal can reach, and in pure Python that costs 20 to 70
µs a position; with one or two cells a lost deal needs from 75,000 to more than 600,000.
:data:`COMPILED` (the moves, the heuristic, the best-first search and the depth-first
proof) are the modules nearly all of that time goes to. ``transcript`` is compiled too:
every win is written out as moves (the rules engine, which replays them, is not); and
``searches``, which every solve begins a search through. ``python -m
freecell.solver.build_native`` compiles them with mypyc into :data:`COMPILED_DIR`,
beside a manifest of the sources they were built from, and ``freecell.solver`` puts
that folder first on its ``__path__`` (:func:`search_path`), so that importing
``freecell.solver.board`` loads the compiled module.

Nothing else changes: the compiled modules are built from these sources and searched by
the tests to give the very same searches (``tests/test_native.py``), the browser
(Pyodide) and any machine without a compiler run the sources, and a build whose sources
have changed since (the manifest tells), or that another Python made, is left unused.
``FREECELL_PURE_PYTHON=1`` leaves it unused too. A wheel built where a C compiler is
carries the same folder (``hatch_build.py``, through ``build_native --into``).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

# Every solve's process runs this module: paths are strings, with os.path (pathlib would
# add urllib.parse and ipaddress to each start-up), json is imported only where a build
# is checked (not in the browser, nor with FREECELL_PURE_PYTHON), and no hashlib.
PACKAGE_DIR: Final = os.path.dirname(os.path.realpath(__file__))
COMPILED: Final = (
    "board", "depth_first", "frontier", "rating", "search", "searches", "steps", "tables", "take_backs", "transcript",
    "twins",
)
COMPILED_DIR: Final = os.path.join(PACKAGE_DIR, "_compiled")
MANIFEST: Final = "SOURCES.json"
PURE_PYTHON_VARIABLE: Final = "FREECELL_PURE_PYTHON"
_ROOT: Final = os.path.dirname(PACKAGE_DIR)  # src/freecell


def sources_compiled_against() -> list[str]:
    """The sources a build depends on, relative to the ``freecell`` package: the modules
    compiled and every module of the package they import, however indirectly (mypyc
    reads their types, and may build their constants in)."""
    found: set[str] = set()
    waiting = [f"freecell.solver.{name}" for name in COMPILED]
    while waiting:
        module = waiting.pop()
        path = _module_path(module)
        if path is None or path in found:
            continue
        found.add(path)
        with open(os.path.join(_ROOT, path), encoding="utf-8") as source:
            tree = ast.parse(source.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                waiting.append(node.module)
                waiting.extend(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                waiting.extend(alias.name for alias in node.names)
    return sorted(found)


def _module_path(module: str) -> str | None:
    """The source of ``module`` relative to the package, if it is one of its modules."""
    parts = module.split(".")
    if parts[0] != "freecell":
        return None
    for candidate in ("/".join([*parts[1:], "__init__.py"]), "/".join(parts[1:]) + ".py"):
        if os.path.isfile(os.path.join(_ROOT, candidate)):
            return candidate
    return None


def manifest(sources: list[str] | None = None, *, for_wheel: bool = False) -> dict[str, object]:
    """What a build is valid for: this Python's extension suffix and build (two builds
    of one version share a suffix: a build made for one is not trusted in the other),
    the modules compiled, and the hash (:func:`_source_hash`) of each source it depends on
    (by default, as :func:`sources_compiled_against` finds them). A wheel's build (``for_wheel``) leaves
    out the Python build: pip installs a wheel only where its tags say its extensions
    load (``cp311-cp311-linux_x86_64``: any CPython 3.11 on x86-64 Linux), into one
    environment, where the build beside the sources may be shared by several."""
    listed = sources_compiled_against() if sources is None else sources
    # the first suffix is sysconfig's EXT_SUFFIX, without importing sysconfig
    found: dict[str, object] = {"extension_suffix": EXTENSION_SUFFIXES[0]}
    if not for_wheel:
        found["python"] = sys.version
    found["compiled"] = list(COMPILED)
    found["sources"] = {path: _source_hash(os.path.join(_ROOT, path)) for path in listed}
    return found


def _source_hash(path: str) -> str:
    """The hash CPython checks a hash-based ``.pyc`` against (PEP 552), of the file at
    ``path``: every solve's process checks some twenty sources, and hashlib alone
    would add some 3 ms to its start-up (it loads OpenSSL)."""
    with open(path, "rb") as source:
        return importlib.util.source_hash(source.read()).hex()


def is_current(directory: str | os.PathLike[str] = COMPILED_DIR) -> bool:
    """Whether ``directory`` holds a build of the sources as they are now, for this Python
    (for its build too, unless the manifest is a wheel's)."""
    import json

    try:
        with open(os.path.join(directory, MANIFEST), encoding="utf-8") as file:
            recorded = json.load(file)
        return bool(recorded == manifest(list(recorded["sources"]), for_wheel="python" not in recorded))
    except (OSError, ValueError, KeyError, TypeError):
        return False


def search_path(directory: str | os.PathLike[str] = COMPILED_DIR) -> list[str]:
    """The folders to search before the package's own for its modules: the compiled
    build when it is current and wanted, else none."""
    if os.environ.get(PURE_PYTHON_VARIABLE) or not is_current(directory):
        return []
    return [os.fspath(directory)]


def in_use() -> bool:
    """Whether this process runs the compiled modules."""
    from freecell.solver import board

    return not str(board.__file__).endswith(".py")
