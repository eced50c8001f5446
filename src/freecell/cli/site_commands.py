"""``freecell site``: the whole game as a static site, played in the browser with no server."""

from __future__ import annotations

from pathlib import Path

import click

from freecell.cli.options import fail
from freecell.site import PYODIDE_VERSION, SiteError, build_site


@click.command("site")
@click.argument("target", type=click.Path(path_type=Path))
@click.option(
    "--pyodide", "pyodide", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
    help=f"A folder with the files of the pyodide {PYODIDE_VERSION} npm package (default: npm pack, cached).",
)
def site_command(target: Path, pyodide: Path | None) -> None:
    """Build the game into TARGET as a static site that runs offline in the browser."""
    try:
        site = build_site(target, pyodide=pyodide)
    except (SiteError, OSError) as error:
        fail(str(error))
        return
    click.echo(
        f"Wrote the site to {site.path}: {len(site.files)} files, {site.size / 1e6:.1f} MB"
        f" (Pyodide {PYODIDE_VERSION}). Publish the folder on any static host, or try it with:"
        f" python3 -m http.server -d {site.path}"
    )
