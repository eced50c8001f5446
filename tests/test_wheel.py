"""The wheel (``hatch_build.py``): built where a C compiler is, it carries the compiled
solver and is tagged for this Python and platform; built with ``FREECELL_NO_COMPILE=1``
or without a compiler, it is pure Python. Each wheel is installed into a new environment
away from the checkout and run there: its third-party dependencies come from this
environment (a ``.pth`` file, so that the test needs no network), ``freecell`` itself
only from the wheel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import pytest

from freecell.solver import native
from serving import start

ROOT = Path(__file__).resolve().parent.parent
NO_COMPILE_VARIABLE = "FREECELL_NO_COMPILE"  # what hatch_build.py honours
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")

# Run in the new environment: where freecell and its solver's modules come from, and a
# solve replayed through the rules.
_CHECK = r"""
import importlib, json, sys
import freecell
from freecell import Deal, find_rules
from freecell.replay import replay
from freecell.solver import native, solve_deal

rules = find_rules("standard")
result = solve_deal(Deal(rules, 617))
json.dump({
    "package": freecell.__file__,
    "compiled": native.in_use(),
    "modules": {name: importlib.import_module(f"freecell.solver.{name}").__file__ for name in native.COMPILED},
    "status": result.status.value,
    "won": replay(Deal(rules, 617).position(), rules, result.moves).is_won(),
}, sys.stdout)
"""


def _environment(**changes: str) -> dict[str, str]:
    """This process's environment without what would choose the build or the sources."""
    left_out = (NO_COMPILE_VARIABLE, native.PURE_PYTHON_VARIABLE, "PYTHONPATH")
    return {**{key: value for key, value in os.environ.items() if key not in left_out}, **changes}


def _build(out: Path, *options: str, **environment: str) -> tuple[Path, str]:
    """Build with ``python -m build OPTIONS`` (offline: no build isolation) into ``out``;
    return the wheel and what the build printed."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), *options, str(ROOT)],
        env=_environment(**environment),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("*.whl")
    return wheel, done.stdout + done.stderr


def _install(wheel: Path, where: Path) -> Path:
    """A new environment in ``where`` with ``wheel`` installed; its Python."""
    venv.create(where, with_pip=False)
    python = where / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        env=_environment(),
        check=True,
        timeout=300,
    )
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True
    ).stdout.strip()
    (Path(site) / "_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return python


def _run(python: Path, *arguments: str, cwd: Path) -> str:
    done = subprocess.run(
        [python, *arguments], env=_environment(), cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _check_installed(python: Path, where: Path) -> dict[str, Any]:
    """What the installed package reports, after checking that it is the wheel's, that a
    solve replays to a win and that ``python -m freecell --version`` and the ``freecell``
    command run there."""
    found: dict[str, Any] = json.loads(_run(python, "-c", _CHECK, cwd=where))
    package = where / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages" / "freecell"
    assert found["package"] == str(package / "__init__.py")
    assert found["status"] == "solved" and found["won"] is True
    expected = f"version {version('freecell')}"
    assert expected in _run(python, "-m", "freecell", "--version", cwd=where)
    assert expected in _run(where / "bin" / "freecell", "--version", cwd=where)
    return found


def _compiled_in(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {Path(name).name for name in archive.namelist() if name.startswith("freecell/solver/_compiled/")}


def _root_is_purelib(wheel: Path) -> bool:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/WHEEL")]
        return "Root-Is-Purelib: true" in archive.read(name).decode()


@pytest.mark.slow
def test_a_wheel_built_with_a_compiler_carries_the_compiled_solver_and_runs_it_where_installed(tmp_path: Path) -> None:
    # Built as a publisher does (the sdist, then the wheel from it), without the checkout's
    # own build of the solver.
    wheel, _ = _build(tmp_path / "dist")
    python_tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform_tag = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name == f"freecell-{version('freecell')}-{python_tag}-{python_tag}-{platform_tag}.whl"
    assert not _root_is_purelib(wheel)
    # Each module native.COMPILED names, the library they share, and the manifest.
    assert _compiled_in(wheel) == {
        *(f"{name}{SUFFIX}" for name in native.COMPILED),
        f"native__mypyc{SUFFIX}",
        native.MANIFEST,
    }

    where = tmp_path / "installed"
    python = _install(wheel, where)
    found = _check_installed(python, where)
    assert found["compiled"] is True
    # (mypyc names the file of a module first imported by another as if in a package
    # below the library they share: freecell/solver/_compiled/freecell/solver/....)
    compiled = Path(found["package"]).parent / "solver" / "_compiled"
    modules = {name: Path(path) for name, path in found["modules"].items()}
    assert set(modules) == set(native.COMPILED)
    assert all(path.is_relative_to(compiled) and path.name == f"{name}{SUFFIX}" for name, path in modules.items())

    served = start(tmp_path, python=str(python), cwd=where, env=_environment())
    try:
        page = httpx.get(served.url, follow_redirects=True, timeout=10)
        assert page.status_code == 200 and "<title>FreeCell" in page.text
        assert httpx.get(f"{served.base}/api/rules", headers=served.headers, timeout=10).status_code == 200
    finally:
        served.stop()


def test_a_wheel_built_with_the_compile_turned_off_is_pure_python_and_runs_the_sources(tmp_path: Path) -> None:
    # From the checkout itself, whose own build of the solver must not leak into the wheel.
    assert native.is_current()
    wheel, _ = _build(tmp_path / "dist", "--wheel", **{NO_COMPILE_VARIABLE: "1"})
    assert wheel.name == f"freecell-{version('freecell')}-py3-none-any.whl"
    assert _root_is_purelib(wheel) and not _compiled_in(wheel)

    where = tmp_path / "installed"
    found = _check_installed(_install(wheel, where), where)
    assert found["compiled"] is False
    solver = Path(found["package"]).parent / "solver"
    assert found["modules"] == {name: str(solver / f"{name}.py") for name in native.COMPILED}


@pytest.mark.slow
def test_a_wheel_built_where_there_is_no_c_compiler_is_pure_python(tmp_path: Path) -> None:
    wheel, printed = _build(tmp_path / "dist", "--wheel", CC=str(tmp_path / "no-such-compiler"))
    assert "the solver was not compiled" in printed
    assert wheel.name == f"freecell-{version('freecell')}-py3-none-any.whl"
    assert _root_is_purelib(wheel) and not _compiled_in(wheel)
