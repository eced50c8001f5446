"""CI runs the suite through ``scripts/isolated``: no other ``freecell`` on PATH, and an
empty data directory, so that a stray install or an old database cannot make it green."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = 'command -v freecell || echo "no freecell"; echo "$XDG_DATA_HOME"; ls -A "$XDG_DATA_HOME" | wc -l'


def test_ci_runs_the_tests_isolated() -> None:
    run = (ROOT / ".ci" / "run").read_text()
    assert "scripts/isolated scripts/test" in run


def test_another_freecell_on_path_is_left_out_and_the_data_directory_is_new(tmp_path: Path) -> None:
    stray = tmp_path / "stray-bin"
    stray.mkdir()
    (stray / "freecell").write_text("#!/bin/sh\necho stray\n")
    (stray / "freecell").chmod(0o755)
    old_data = tmp_path / "old-data"
    (old_data / "freecell").mkdir(parents=True)
    (old_data / "freecell" / "freecell.db").write_text("an old database")
    env = {**os.environ, "PATH": f"{stray}:/usr/bin:/bin", "XDG_DATA_HOME": str(old_data), "TMPDIR": str(tmp_path)}
    answer = subprocess.run(
        [str(ROOT / "scripts" / "isolated"), "sh", "-c", PROBE],
        capture_output=True, text=True, env=env, check=True, timeout=60,
    )
    which, data_home, entries = answer.stdout.split("\n")[:3]
    assert which == "no freecell"
    assert Path(data_home).parent == tmp_path and Path(data_home) != old_data
    assert entries.strip() == "0"
    assert f"{stray} is left out of PATH" in answer.stderr
    assert not Path(data_home).exists()  # removed when the command ends


def test_the_python_chosen_for_the_environment_is_the_one_asked_for_or_debians() -> None:
    choose = str(ROOT / "scripts" / "choose-python")
    asked = {**os.environ, "PYTHON": "/opt/python-asked-for"}
    assert subprocess.run([choose], capture_output=True, text=True, env=asked, check=True).stdout == (
        "/opt/python-asked-for\n"
    )
    unasked = {key: value for key, value in os.environ.items() if key != "PYTHON"}
    chosen = subprocess.run([choose], capture_output=True, text=True, env=unasked, check=True).stdout.strip()
    new_enough = "import sys; sys.exit(sys.version_info < (3, 11))"
    assert subprocess.run([chosen, "-c", new_enough], check=False).returncode == 0
    debian = Path("/usr/bin/python3")
    debians_will_do = debian.exists() and subprocess.run([debian, "-c", new_enough], check=False).returncode == 0
    assert (chosen == str(debian)) == debians_will_do
