"""What a census found: counts by verdict, percentiles of time and length, the hardest and
the unwinnable deals, as text, CSV, JSON, and a self-contained HTML page whose plots are
drawn with matplotlib and embedded as PNG images.
"""

from __future__ import annotations

import base64
import csv
import html
import importlib
import importlib.util
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

from freecell.census import DealRecord, verdict_text
from freecell.errors import InvalidInputError
from freecell.rules import cells_text
from freecell.solver import SolveStatus

PERCENTILES = (50, 90, 99, 100)
HARDEST = 10

N = TypeVar("N", int, float)


def percentile(values: Sequence[N], p: int) -> N:
    """The nearest-rank ``p``-th percentile of ``values`` (sorted or not; not empty).

    >>> percentile([5, 1, 4, 2, 3], 50)
    3
    """
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # ceiling without floats
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Summary:
    """The figures for the deals of one ruleset (with its cells)."""

    rules: str
    cells: int
    first: int
    last: int
    counts: dict[SolveStatus, int]
    seconds: dict[int, float]
    length: dict[int, int]
    mean_seconds: float
    mean_length: float | None
    hardest: tuple[DealRecord, ...]
    unsolvable: tuple[int, ...]
    limited: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def decided(self) -> bool:
        """Every deal solved or proven unsolvable."""
        return self.counts[SolveStatus.LIMIT_REACHED] == 0

    @classmethod
    def of(cls, records: Sequence[DealRecord]) -> Summary:
        """Summarise ``records``, which must all be of one ruleset and cell count."""
        if not records:
            raise InvalidInputError("there are no results to summarise")
        if len({(r.rules, r.cells) for r in records}) != 1:
            raise InvalidInputError("a summary covers one ruleset and cell count at a time")
        seconds = [r.seconds for r in records]
        lengths = [r.length for r in records if r.length is not None]
        decided = [r for r in records if r.decided]
        return cls(
            rules=records[0].rules,
            cells=records[0].cells,
            first=min(r.deal for r in records),
            last=max(r.deal for r in records),
            counts={v: sum(1 for r in records if r.verdict is v) for v in SolveStatus},
            seconds={p: percentile(seconds, p) for p in PERCENTILES},
            length={p: percentile(lengths, p) for p in PERCENTILES} if lengths else {},
            mean_seconds=sum(seconds) / len(seconds),
            mean_length=sum(lengths) / len(lengths) if lengths else None,
            hardest=tuple(sorted(decided, key=lambda r: -r.seconds)[:HARDEST]),
            unsolvable=tuple(r.deal for r in records if r.verdict is SolveStatus.UNSOLVABLE),
            limited=tuple(r.deal for r in records if r.verdict is SolveStatus.LIMIT_REACHED),
        )

    def lines(self) -> list[str]:
        """The summary as text, a few lines."""
        counts = self.counts
        out = [
            f"{self.rules} ({cells_text(self.cells)}), deals {self.first}-{self.last}: {self.total} deals, "
            f"{counts[SolveStatus.SOLVED]} solved, {counts[SolveStatus.UNSOLVABLE]} unsolvable, "
            f"{counts[SolveStatus.LIMIT_REACHED]} limit reached",
            "time:   " + _percentile_text({p: format_seconds(s) for p, s in self.seconds.items()})
            + f", mean {format_seconds(self.mean_seconds)}",
        ]
        if self.length:
            out.append(
                "length: " + _percentile_text({p: str(n) for p, n in self.length.items()})
                + f", mean {self.mean_length:.1f} moves not to a foundation"
            )
        if self.hardest:
            out.append("hardest: " + ", ".join(f"{r.deal} ({format_seconds(r.seconds)})" for r in self.hardest[:5]))
        if self.unsolvable:
            out.append("unsolvable: " + _deal_list(self.unsolvable))
        if self.limited:
            out.append("limit reached: " + _deal_list(self.limited))
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "cells": self.cells,
            "first": self.first,
            "last": self.last,
            "deals": self.total,
            "counts": {verdict_text(v): n for v, n in self.counts.items()},
            "seconds": {f"p{p}": s for p, s in self.seconds.items()} | {"mean": self.mean_seconds},
            "length": {f"p{p}": n for p, n in self.length.items()} | {"mean": self.mean_length},
            "hardest": [{"deal": r.deal, "seconds": r.seconds, "expanded": r.expanded} for r in self.hardest],
            "unsolvable": list(self.unsolvable),
            "limit_reached": list(self.limited),
        }


def format_seconds(seconds: float) -> str:
    """A duration in milliseconds under a second, else in seconds.

    >>> format_seconds(0.0123), format_seconds(2.5)
    ('12.3 ms', '2.50 s')
    """
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _percentile_text(values: dict[int, str]) -> str:
    return ", ".join(f"{'max' if p == 100 else f'p{p}'} {text}" for p, text in values.items())


def _deal_list(deals: Sequence[int], most: int = 20) -> str:
    shown = " ".join(str(d) for d in deals[:most])
    return shown + (f" … and {len(deals) - most} more" if len(deals) > most else "")


def summaries(records: Iterable[DealRecord]) -> list[Summary]:
    """One summary for each ruleset and cell count in ``records``."""
    groups: dict[tuple[str, int], list[DealRecord]] = {}
    for record in records:
        groups.setdefault((record.rules, record.cells), []).append(record)
    return [Summary.of(group) for _, group in sorted(groups.items())]


CSV_FIELDS = ("rules", "cells", "deal", "verdict", "length", "moves", "expanded", "generated", "seconds", "solution")


def write_csv(records: Iterable[DealRecord], out: TextIO) -> int:
    """One row per deal (with a header) to ``out``; returns the number of rows."""
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    rows = 0
    for r in records:
        writer.writerow(
            (r.rules, r.cells, r.deal, verdict_text(r.verdict), _blank(r.length), _blank(r.moves),
             r.expanded, r.generated, f"{r.seconds:.6f}", " ".join(r.solution))
        )
        rows += 1
    return rows


def _blank(value: int | None) -> str | int:
    return "" if value is None else value


def write_json(found: Sequence[Summary], records: Iterable[DealRecord], out: TextIO) -> None:
    """The summaries and every deal's result as one JSON document, written deal by deal."""
    out.write('{"summaries": ' + json.dumps([s.as_json() for s in found], indent=1) + ',\n"deals": [')
    for index, r in enumerate(records):
        deal = {"rules": r.rules, "cells": r.cells, "deal": r.deal, "verdict": verdict_text(r.verdict),
                "length": r.length, "moves": list(r.solution), "expanded": r.expanded, "generated": r.generated,
                "seconds": r.seconds}
        out.write(("\n" if index == 0 else ",\n") + json.dumps(deal))
    out.write("\n]}\n")


def can_plot() -> bool:
    """Whether matplotlib, which draws :func:`plots`, is installed (the ``cluster`` extra)."""
    return importlib.util.find_spec("matplotlib") is not None


def plots(records: Sequence[DealRecord]) -> dict[str, bytes]:
    """PNG images: histograms of solution length and solve time, and solve time against
    deal number. Needs matplotlib (the ``cluster`` extra)."""
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    pyplot: Any = importlib.import_module("matplotlib.pyplot")
    colours = {
        SolveStatus.SOLVED: "tab:blue", SolveStatus.UNSOLVABLE: "tab:red", SolveStatus.LIMIT_REACHED: "tab:orange",
    }
    images: dict[str, bytes] = {}

    figure, axes = pyplot.subplots(figsize=(7, 3.5))
    lengths = [r.length for r in records if r.length is not None]
    if lengths:
        axes.hist(lengths, bins=range(min(lengths), max(lengths) + 2), color=colours[SolveStatus.SOLVED])
    axes.set(title="Solution length", xlabel="moves not to a foundation", ylabel="deals")
    images["length"] = _png(figure, pyplot)

    figure, axes = pyplot.subplots(figsize=(7, 3.5))
    milliseconds = [max(r.seconds * 1000, 1e-3) for r in records]
    low, high = min(milliseconds), max(milliseconds)
    bins = [low * (high / low) ** (i / 40) for i in range(41)] if high > low else 10
    axes.hist(milliseconds, bins=bins, color="tab:gray")
    axes.set(title="Solve time", xlabel="milliseconds (log scale)", ylabel="deals", xscale="log")
    images["time"] = _png(figure, pyplot)

    figure, axes = pyplot.subplots(figsize=(7, 3.5))
    for verdict, colour in colours.items():
        chosen = [r for r in records if r.verdict is verdict]
        if chosen:
            axes.plot([r.deal for r in chosen], [max(r.seconds * 1000, 1e-3) for r in chosen], ".",
                      markersize=2 if len(records) > 2000 else 4, color=colour, label=verdict_text(verdict),
                      rasterized=True)
    axes.set(title="Solve time by deal", xlabel="deal", ylabel="milliseconds (log scale)", yscale="log")
    axes.legend(loc="best", fontsize="small")
    images["by-deal"] = _png(figure, pyplot)
    return images


def _png(figure: Any, pyplot: Any) -> bytes:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100)
    pyplot.close(figure)
    return buffer.getvalue()


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: right; }
th { background: #f3f3f3; }
img { max-width: 100%; display: block; margin: 0.5rem 0; }
.deals { font-family: monospace; word-wrap: break-word; }
"""


def html_report(records: Sequence[DealRecord], *, title: str = "FreeCell census") -> str:
    """A self-contained HTML page: each ruleset's summary, tables and plots (inline PNG)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    groups: dict[tuple[str, int], list[DealRecord]] = {}
    for record in records:
        groups.setdefault((record.rules, record.cells), []).append(record)
    if not groups:
        parts.append("<p>The store holds no results.</p>")
    for group in (groups[key] for key in sorted(groups)):
        parts.extend(_section(Summary.of(group), group))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _section(summary: Summary, records: Sequence[DealRecord]) -> list[str]:
    e = html.escape
    counts = summary.counts
    rows = [
        f"<h2>{e(summary.rules)}, {cells_text(summary.cells)}: deals {summary.first} to {summary.last}</h2>",
        "<table><tr><th>deals</th><th>solved</th><th>unsolvable</th><th>limit reached</th></tr>",
        f'<tr><td class="total">{summary.total}</td><td class="solved">{counts[SolveStatus.SOLVED]}</td>'
        f'<td class="unsolvable">{counts[SolveStatus.UNSOLVABLE]}</td>'
        f'<td class="limit">{counts[SolveStatus.LIMIT_REACHED]}</td></tr>'
        "</table>",
        "<table><tr><th></th>" + "".join(f"<th>{'max' if p == 100 else f'p{p}'}</th>" for p in PERCENTILES)
        + "<th>mean</th></tr>",
        "<tr><th>time</th>" + "".join(f"<td>{format_seconds(summary.seconds[p])}</td>" for p in PERCENTILES)
        + f"<td>{format_seconds(summary.mean_seconds)}</td></tr>",
    ]
    if summary.length:
        rows.append(
            "<tr><th>length</th>" + "".join(f"<td>{summary.length[p]}</td>" for p in PERCENTILES)
            + f"<td>{summary.mean_length:.1f}</td></tr>"
        )
    rows.append("</table>")
    rows.append("<h3>Hardest deals</h3><table><tr><th>deal</th><th>verdict</th><th>time</th><th>expanded</th>"
                "<th>length</th></tr>")
    rows.extend(
        f"<tr><td>{r.deal}</td><td>{verdict_text(r.verdict)}</td><td>{format_seconds(r.seconds)}</td><td>{r.expanded}</td>"
        f"<td>{_blank(r.length)}</td></tr>"
        for r in summary.hardest
    )
    rows.append("</table>")
    rows.append(f'<h3>Unwinnable deals ({len(summary.unsolvable)})</h3><p class="deals">'
                + (" ".join(str(d) for d in summary.unsolvable) or "none") + "</p>")
    if summary.limited:
        rows.append(f'<h3>Limit reached ({len(summary.limited)})</h3><p class="deals">'
                    + " ".join(str(d) for d in summary.limited) + "</p>")
    for name, png in plots(records).items():
        data = base64.b64encode(png).decode("ascii")
        rows.append(f'<img alt="{name}" src="data:image/png;base64,{data}">')
    return rows


def write_report(records: Sequence[DealRecord], path: Path, *, title: str = "FreeCell census") -> None:
    """Write :func:`html_report` to ``path``."""
    path.write_text(html_report(records, title=title), encoding="utf-8")
