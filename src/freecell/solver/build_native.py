"""Build the compiled solver (see :mod:`freecell.solver.native`): ``python -m
freecell.solver.build_native [--if-stale | --into DIR]``. Needs mypyc (from mypy) and
setuptools (the ``native`` extra), and a C compiler with this Python's headers. The wheel's
build hook (``hatch_build.py``) builds with ``--into`` a folder it puts in the wheel."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Final

from freecell.solver import native

# mypyc names the library its modules share after this group.
_GROUP: Final = "freecell.solver.native"
# mypy's settings for the build, the same in every build: no configuration file (mypy
# would find the project's pyproject.toml above src/, in a checkout or an unpacked sdist,
# and its plugin for the web layer, pydantic's, which a wheel's build environment lacks),
# and the project's own strictness.
MYPY_OPTIONS: Final = ("--config-file=", "--strict")


def build(directory: Path = Path(native.COMPILED_DIR), *, for_wheel: bool = False) -> Path:
    """Compile :data:`~freecell.solver.native.COMPILED` with mypyc into ``directory``
    (replacing what was there) and write its manifest (a wheel's, ``for_wheel``: see
    :func:`~freecell.solver.native.manifest`); the C sources and objects go to a temporary
    folder. Raises ``ImportError`` without mypyc or setuptools, and
    ``RuntimeError`` when mypyc or the compiler fails."""
    from mypyc.build import mypycify
    from setuptools import Distribution
    from setuptools.errors import BaseError, CCompilerError

    manifest = native.manifest(for_wheel=for_wheel)
    with tempfile.TemporaryDirectory(prefix="freecell-native-") as work:
        sources = [os.path.join(native.PACKAGE_DIR, f"{name}.py") for name in native.COMPILED]
        here = os.getcwd()
        # mypyc names a module after its path from the folder it runs in.
        os.chdir(Path(native.PACKAGE_DIR).parent.parent)
        try:
            # No profile-guided build: 2-4% cheaper a position, not worth a second build
            # and a training run at every setup (see docs/solver.md).
            extensions = mypycify(
                [*MYPY_OPTIONS, *(os.path.relpath(source) for source in sources)],
                opt_level="3",
                group_name=_GROUP,
                target_dir=os.path.join(work, "c"),
                verbose=False,
            )
            distribution = Distribution({"name": "freecell-native", "ext_modules": extensions})
            command = distribution.get_command_obj("build_ext")
            command.build_lib = os.path.join(work, "lib")
            command.build_temp = os.path.join(work, "temp")
            command.ensure_finalized()
            command.run()
        except (BaseError, CCompilerError) as error:  # CCompilerError: no compiler, or it failed
            raise RuntimeError(f"the compiler failed: {error}") from error
        except SystemExit as error:  # mypyc's way of saying that it found type errors
            raise RuntimeError(f"mypyc failed (exit {error.code})") from error
        finally:
            os.chdir(here)
        built = sorted(Path(work, "lib").rglob(f"*{manifest['extension_suffix']}"))
        staging = Path(tempfile.mkdtemp(prefix="_compiled-", dir=directory.parent))
        try:
            for library in built:
                shutil.copy2(library, staging / library.name)
            (staging / native.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    # In place by renames, so that a process starting meanwhile finds the old build, none
    # (and runs the sources) or the new one, never a part of one (the old folder is moved
    # aside first: a rename cannot replace a folder that holds files).
    if directory.exists():
        retired = Path(tempfile.mkdtemp(prefix="_retired-", dir=directory.parent))
        directory.rename(retired / "old")
        shutil.rmtree(retired)
    staging.rename(directory)
    return directory


def main(arguments: list[str]) -> int:
    """``python -m freecell.solver.build_native [--if-stale | --into DIR]``: build, and say
    what was built (``--if-stale``: only when the build beside the sources is missing or not
    current; ``--into DIR``: into DIR instead, with a wheel's manifest). Exit 1 when it
    cannot be built."""
    for_wheel = len(arguments) == 2 and arguments[0] == "--into"
    if arguments in ([], ["--if-stale"]):
        directory = Path(native.COMPILED_DIR)
    elif for_wheel:
        directory = Path(arguments[1]).resolve()
    else:
        print("usage: python -m freecell.solver.build_native [--if-stale | --into DIR]", file=sys.stderr)
        return 2
    if arguments == ["--if-stale"] and native.is_current():
        print(f"compiled solver: current in {directory}")
        return 0
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        build(directory, for_wheel=for_wheel)
    except (ImportError, RuntimeError, OSError) as error:
        print(f"compiled solver: not built ({error}); the solver runs as pure Python", file=sys.stderr)
        return 1
    print(f"compiled solver: built {', '.join(native.COMPILED)} in {directory}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
