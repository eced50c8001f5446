"""The wheel's build hook: a wheel built where a C compiler is carries the compiled solver.

It compiles the modules ``freecell.solver.native.COMPILED`` names, as ``scripts/setup``
does beside the sources (``python -m freecell.solver.build_native --into``), and puts that
folder with its manifest in the wheel as ``freecell/solver/_compiled/``, where the installed
package finds it; the wheel is then tagged for this Python and platform (for example
``cp311-cp311-linux_x86_64``). Where the solver cannot be compiled (no C compiler, no
Python headers), or ``FREECELL_NO_COMPILE=1`` is set, the wheel is the pure-Python one
(``py3-none-any``), which runs the same sources. The sdist and editable installs compile
nothing here; an editable install compiles in place with ``build_native``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NO_COMPILE_VARIABLE = "FREECELL_NO_COMPILE"


class CompiledSolverHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled solver to a wheel, or leaves the wheel pure where it cannot."""

    def dependencies(self) -> list[str]:
        """What compiling needs in the build environment: the project's ``native`` extra."""
        if os.environ.get(NO_COMPILE_VARIABLE):
            return []
        return list(self.metadata.core.optional_dependencies["native"])

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or os.environ.get(NO_COMPILE_VARIABLE):
            return
        self._work = Path(tempfile.mkdtemp(prefix="freecell-wheel-"))
        compiled = self._work / "_compiled"
        environment = {**os.environ, "PYTHONPATH": str(Path(self.root, "src"))}  # the sources being built
        self.app.display_info("compiling the solver with mypyc (about a minute)")
        done = subprocess.run(
            [sys.executable, "-m", "freecell.solver.build_native", "--into", str(compiled)],
            env=environment,
            cwd=self.root,
            check=False,
        )
        if done.returncode != 0:
            self.app.display_warning("the solver was not compiled: this wheel is pure Python, and runs its sources")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in sorted(compiled.iterdir()):
            build_data["force_include"][str(path)] = f"freecell/solver/_compiled/{path.name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
