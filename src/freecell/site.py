"""The static site: the whole game as a folder any static file host can serve.

``build_site(target)`` writes the page of ``freecell play`` (the same files), our
package's Python sources as ``freecell.zip``, and the Pyodide runtime, pinned to
:data:`PYODIDE_VERSION`. In the browser a Web Worker runs Pyodide, loads the package, and
answers the page's API with :mod:`freecell.web.service`, as the server does. Every URL
is relative, so the site works from any sub-path; a service worker keeps it offline.

The build lists what it wrote in :data:`BUILD_FILE`, and a rebuild removes only those
files: whatever else the publisher keeps in the folder (``CNAME``, a folder of their own)
stays as it is. A folder that is neither empty nor one of its builds is refused, and so is
a build that would write over a file it did not write.

The runtime comes from the ``pyodide`` npm package, fetched once with ``npm pack`` into
the user's cache (``$XDG_CACHE_HOME/freecell``), or from a folder given by the caller.
The tarball is checked against the registry's SHA-512 integrity, and every file copied
against the SHA-256 pinned here, taken from that verified tarball.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

from freecell.errors import InvalidInputError

PYODIDE_VERSION: Final = "314.0.7"
# ``npm view pyodide@314.0.7 dist.integrity``
PYODIDE_INTEGRITY: Final = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
# The runtime files the game needs (sqlite3 is built into this version's stdlib, so no
# package wheel is needed), with their SHA-256 in the verified tarball.
RUNTIME_FILES: Final = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}

PACKAGE: Final = Path(__file__).parent
STATIC: Final = PACKAGE / "web" / "static"
# The page reads which transport to use here: the server's copy says "server"; the site's
# (the build's manifest: its files and version) says "worker".
SITE_FILE: Final = "static/site.json"
SERVICE_WORKER: Final = "sw.js"
# The files a build wrote (it among them), so that the next build removes exactly those.
BUILD_FILE: Final = "freecell-build.json"
_BUILT_BY: Final = "freecell site"
# What the browser does not need of our package: the command line and the FastAPI layer.
_LEFT_OUT: Final = ("cli/", "web/static/", "web/app.py", "web/models.py", "web/security.py")
# What the site does not take of the page's folder: the server's service worker, login page
# and transport (the site has its own service worker, written at its top with the build's
# version, and its own manifest).
_SERVER_ONLY: Final = ("sw.js", "locked.html", Path(SITE_FILE).name)
_VERSION_LINE: Final = 'const VERSION = "dev";'


def _server_only(folder: str, names: list[str]) -> set[str]:
    """For ``shutil.copytree``: what to leave out of the site's copy of ``web/static``."""
    left_out = {name for name in names if name == "__pycache__"}
    if Path(folder) == STATIC:
        left_out |= {name for name in names if name in _SERVER_ONLY}
    if Path(folder) == STATIC / "js":
        left_out |= {SERVICE_WORKER}
    return left_out


class SiteError(InvalidInputError):
    """The site cannot be built: the runtime is missing or altered, or the folder is in use."""


@dataclass(frozen=True, slots=True)
class Site:
    """A built site: where it is, its files (relative paths) and their total size in bytes."""

    path: Path
    files: tuple[str, ...]
    size: int


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/freecell``, or ``~/.cache/freecell``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "freecell"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_runtime(folder: Path) -> Path:
    """The folder holding the pinned runtime files: ``folder`` itself or its ``package``
    subfolder (an unpacked npm tarball). Raises :class:`SiteError` naming a file that is
    missing or whose SHA-256 is not the pinned one."""
    for candidate in (folder, folder / "package"):
        if (candidate / "pyodide.asm.wasm").is_file():
            folder = candidate
            break
    for name, expected in RUNTIME_FILES.items():
        path = folder / name
        if not path.is_file():
            raise SiteError(f"{path} is missing: give the files of the pyodide {PYODIDE_VERSION} npm package")
        if _sha256(path) != expected:
            raise SiteError(f"{path} is not the file of pyodide {PYODIDE_VERSION} (its SHA-256 differs)")
    return folder


def _check_tarball(path: Path) -> None:
    algorithm, _, expected = PYODIDE_INTEGRITY.partition("-")
    digest = hashlib.new(algorithm, path.read_bytes()).digest()
    if base64.b64encode(digest).decode() != expected:
        raise SiteError(f"{path} does not match the npm registry's integrity for pyodide {PYODIDE_VERSION}")


def fetch_runtime(cache: Path | None = None) -> Path:
    """The pinned runtime in the cache, fetched with ``npm pack`` if it is not there yet.
    Raises :class:`SiteError` when npm is missing or fails, or a file does not check."""
    folder = (cache or cache_dir()) / f"pyodide-{PYODIDE_VERSION}"
    try:
        return check_runtime(folder)
    except SiteError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    tarball = folder / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise SiteError("npm is not installed (scripts/setup --dev installs it), and no --pyodide folder was given")
        done = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent", "--pack-destination", str(folder)],
            capture_output=True, text=True, timeout=600, check=False,
        )
        if done.returncode != 0 or not tarball.is_file():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise SiteError(f"npm pack pyodide@{PYODIDE_VERSION} failed: {last}")
    try:
        _check_tarball(tarball)
    except SiteError:
        tarball.unlink()  # a bad download is not kept: the next build fetches it again
        raise
    with tarfile.open(tarball) as archive:
        for name in RUNTIME_FILES:
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise SiteError(f"{tarball} has no package/{name}")
            (folder / name).write_bytes(member.read())
    return check_runtime(folder)


def _package_zip(target: Path) -> None:
    """Our package's Python sources (and its data files), without what only the server
    and the command line use. Fixed timestamps keep the zip the same from build to build."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(PACKAGE.rglob("*")):
            relative = path.relative_to(PACKAGE).as_posix()
            if not path.is_file() or "__pycache__" in relative or relative.startswith(_LEFT_OUT):
                continue
            if path.suffix not in (".py", ".txt", ".typed"):
                continue
            info = zipfile.ZipInfo(f"freecell/{relative}", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())


def build_site(target: Path, *, pyodide: Path | None = None) -> Site:
    """Write the site into ``target`` (created if missing; it must be empty or hold an
    earlier build, whose files are replaced: nothing else in it is touched). The runtime
    comes from ``pyodide`` (a folder) or the npm cache. Raises :class:`SiteError`."""
    runtime = check_runtime(pyodide) if pyodide is not None else fetch_runtime()
    earlier = earlier_build(target)
    target.mkdir(parents=True, exist_ok=True)
    # Built beside the files it replaces, then moved in: a build that fails to write leaves the last one whole.
    staging = Path(tempfile.mkdtemp(prefix=".freecell-site-", dir=target))
    try:
        built = _write_site(staging, runtime)
        files = _move_in(staging, target, built.files, earlier)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Site(target, files, built.size + (target / BUILD_FILE).stat().st_size)


def _write_site(target: Path, runtime: Path) -> Site:
    """Write the site into the empty folder ``target``."""
    # Copied without the sources' times: a file's time is its Last-Modified, from which
    # browsers guess how long it stays fresh and whether it changed, so each build's files
    # carry the build's time.
    shutil.copytree(STATIC, target / "static", ignore=_server_only, copy_function=shutil.copyfile)
    shutil.copyfile(STATIC / "index.html", target / "index.html")
    (target / "pyodide").mkdir()
    for name in RUNTIME_FILES:
        shutil.copyfile(runtime / name, target / "pyodide" / name)
    _package_zip(target / "freecell.zip")
    files = sorted(
        path.relative_to(target).as_posix() for path in target.rglob("*") if path.is_file()
    )
    # The service worker sits at the top, so that its scope is the whole site; it carries
    # the build's version, so that a browser installs the new one with a new build.
    worker = (STATIC / "js" / SERVICE_WORKER).read_text()
    digest = hashlib.sha256(worker.encode())
    for name in files:
        digest.update(name.encode() + b"\0" + _sha256(target / name).encode())
    version = digest.hexdigest()[:16]
    versioned = worker.replace(_VERSION_LINE, f'const VERSION = "{version}";')
    if versioned == worker:
        raise SiteError(f"js/{SERVICE_WORKER} has no line {_VERSION_LINE!r} to write the version in")
    (target / SERVICE_WORKER).write_text(versioned)
    files.append(SERVICE_WORKER)
    manifest = {
        "transport": "worker",
        "version": version,
        "pyodide": "pyodide/",
        "pyodide_version": PYODIDE_VERSION,
        "package": "freecell.zip",
        "files": files,
    }
    (target / SITE_FILE).write_text(json.dumps(manifest, indent=1) + "\n")
    files.append(SITE_FILE)
    size = sum((target / name).stat().st_size for name in files)
    return Site(target, tuple(sorted(files)), size)


def earlier_build(target: Path) -> frozenset[str]:
    """The files (relative paths) that the build in ``target`` wrote, from its
    :data:`BUILD_FILE`; none for a folder that is missing or empty. Raises
    :class:`SiteError` for a file, or a folder that holds anything but a build."""
    if target.exists() and not target.is_dir():
        raise SiteError(f"{target} is a file, not a folder")
    listing = target / BUILD_FILE
    if not listing.is_file():
        if target.is_dir() and any(target.iterdir()):
            raise SiteError(f"{target} is not empty and holds no earlier build: choose a new folder")
        return frozenset()
    try:
        recorded = json.loads(listing.read_text(encoding="utf-8"))
        names = recorded["files"] if recorded.get("built_by") == _BUILT_BY else None
    except (ValueError, TypeError, AttributeError, KeyError, OSError):
        names = None
    if not isinstance(names, list) or not all(isinstance(name, str) and _is_inside(name) for name in names):
        raise SiteError(f"{listing} is not the list of files of a build of {_BUILT_BY}: the folder is left as it is")
    return frozenset(names) | {BUILD_FILE}


def _is_inside(name: str) -> bool:
    """Whether the relative path ``name`` stays inside its folder."""
    path = PurePosixPath(name)
    return bool(path.parts) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


def _move_in(staging: Path, target: Path, files: Iterable[str], earlier: frozenset[str]) -> tuple[str, ...]:
    """Replace the files of the build ``earlier`` in ``target`` by the new build's
    ``files``, written in ``staging``, and list them in :data:`BUILD_FILE`; the files
    written, sorted. Raises :class:`SiteError`, with nothing changed, when a new file
    would replace, or be written through, something that the earlier build did not write."""
    names = sorted({*files, BUILD_FILE})
    in_the_way = [name for name in names if not _free_for(target, name, earlier)]
    if in_the_way:
        raise SiteError(
            f"{target / in_the_way[0]} was not written by the earlier build, and this one would write over it:"
            " move it away, or choose a new folder"
        )
    # Until the last file is in, the list names the earlier build's files too: a build
    # stopped half-way is still one whose files the next build knows.
    _list_files(staging, target, sorted({*earlier, *names}))
    _remove(target, earlier - {BUILD_FILE})
    for name in files:
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / name, destination)
    _list_files(staging, target, names)
    return tuple(names)


def _list_files(staging: Path, target: Path, names: list[str]) -> None:
    """Write :data:`BUILD_FILE` into ``target`` at once (made in ``staging``, then moved)."""
    listing = staging / BUILD_FILE
    listing.write_text(json.dumps({"built_by": _BUILT_BY, "files": names}, indent=1) + "\n", encoding="utf-8")
    os.replace(listing, target / BUILD_FILE)


def _free_for(target: Path, name: str, earlier: frozenset[str]) -> bool:
    """Whether the build may write ``name`` into ``target``: nothing is there but a file
    of the earlier build, and each folder on the way is a folder, not a link."""
    parts = PurePosixPath(name).parts
    for depth in range(1, len(parts)):
        folder = target.joinpath(*parts[:depth])
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            return False
    path = target / name
    return not (path.exists() or path.is_symlink()) or (name in earlier and _is_plain_file(path))


def _is_plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _remove(target: Path, earlier: frozenset[str]) -> None:
    """Remove the files of the build ``earlier`` from ``target`` (those still there as
    they were written: plain files, in folders that are not links), then the folders
    that this leaves empty."""
    folders: set[Path] = set()
    for name in earlier:
        path = target / name
        if _free_for(target, name, earlier) and _is_plain_file(path):
            path.unlink()
            folders.update(path.parents[: len(PurePosixPath(name).parts) - 1])
    for folder in sorted(folders, key=lambda folder: len(folder.parts), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
