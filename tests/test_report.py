"""The census report: figures, the HTML page with its embedded plots, CSV and JSON."""

from __future__ import annotations

import base64
import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from freecell.batch import check_record
from freecell.census import Census, DealRecord
from freecell.cli import main
from freecell.report import Summary, html_report, percentile, summaries
from freecell.rules import find_rules
from freecell.solver import SolveStatus

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def record(
    deal: int, verdict: SolveStatus, seconds: float, length: int | None = None, rules: str = "standard"
) -> DealRecord:
    solution = tuple(["1h"] * 10 + ["23"] * (length or 0)) if verdict is SolveStatus.SOLVED else ()
    return DealRecord(rules, 4, deal, verdict, length, expanded=deal * 10, generated=deal * 40, seconds=seconds,
                      solution=solution)


# Ten deals: seven solved (lengths 30..36), two unsolvable, one at the limit.
RECORDS = [
    *(record(d, SolveStatus.SOLVED, seconds=d / 1000, length=29 + d) for d in range(1, 8)),
    record(8, SolveStatus.UNSOLVABLE, seconds=2.0),
    record(9, SolveStatus.LIMIT_REACHED, seconds=10.0),
    record(10, SolveStatus.UNSOLVABLE, seconds=0.5),
]


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 101))
    assert [percentile(values, p) for p in (1, 50, 90, 99, 100)] == [1, 50, 90, 99, 100]
    assert percentile([7.5], 50) == 7.5
    assert percentile([3, 1, 2], 50) == 2


def test_summary_counts_percentiles_and_lists() -> None:
    summary = Summary.of(RECORDS)
    assert summary.counts == {SolveStatus.SOLVED: 7, SolveStatus.UNSOLVABLE: 2, SolveStatus.LIMIT_REACHED: 1}
    assert (summary.first, summary.last, summary.total, summary.decided) == (1, 10, 10, False)
    assert summary.length == {50: 33, 90: 36, 99: 36, 100: 36}
    assert summary.mean_length == 33.0
    assert summary.seconds == {50: 0.005, 90: 2.0, 99: 10.0, 100: 10.0}
    assert summary.unsolvable == (8, 10) and summary.limited == (9,)
    assert [r.deal for r in summary.hardest[:3]] == [8, 10, 7]  # decided deals, slowest first
    lines = summary.lines()
    assert lines[0] == "standard (4 cells), deals 1-10: 10 deals, 7 solved, 2 unsolvable, 1 limit reached"
    assert lines[1] == "time:   p50 5.0 ms, p90 2.00 s, p99 10.00 s, max 10.00 s, mean 1.25 s"
    assert lines[2] == "length: p50 33, p90 36, p99 36, max 36, mean 33.0 moves not to a foundation"
    assert lines[3:] == [
        "hardest: 8 (2.00 s), 10 (500.0 ms), 7 (7.0 ms), 6 (6.0 ms), 5 (5.0 ms)",
        "unsolvable: 8 10",
        "limit reached: 9",
    ]


def test_a_summary_is_of_one_ruleset() -> None:
    with pytest.raises(ValueError, match="one ruleset"):
        Summary.of([RECORDS[0], record(1, SolveStatus.UNSOLVABLE, 0.1, rules="bakers-game")])
    with pytest.raises(ValueError, match="no results"):
        Summary.of([])
    mixed = summaries([*RECORDS, record(1, SolveStatus.UNSOLVABLE, 0.1, rules="bakers-game")])
    assert [(s.rules, s.total) for s in mixed] == [("bakers-game", 1), ("standard", 10)]


def images(page: str) -> list[bytes]:
    return [base64.b64decode(data) for data in re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


def test_the_html_page_holds_the_counts_and_three_plots() -> None:
    page = html_report(RECORDS, title="Deals 1 to 10")
    assert page.startswith("<!DOCTYPE html>") and "<title>Deals 1 to 10</title>" in page
    assert '<td class="total">10</td><td class="solved">7</td>' in page
    assert '<td class="unsolvable">2</td><td class="limit">1</td>' in page
    assert "<h3>Unwinnable deals (2)</h3>" in page and '<p class="deals">8 10</p>' in page
    pictures = images(page)
    assert len(pictures) == 3 and all(p.startswith(PNG_MAGIC) for p in pictures)
    markup = re.sub(r"base64,[A-Za-z0-9+/=]+", "", page)
    assert not re.search(r"(src|href)=\"(?!data:)", markup)  # self-contained: nothing fetched


def test_report_command_writes_html_csv_and_json(tmp_path: Path) -> None:
    db = tmp_path / "census.db"
    with Census(db) as census:
        census.store(RECORDS)
    page, table, document = tmp_path / "r.html", tmp_path / "r.csv", tmp_path / "r.json"
    result = CliRunner().invoke(
        main, ["report", str(db), "--html", str(page), "--csv", str(table), "--json", str(document)]
    )
    assert result.exit_code == 0, result.output
    assert "10 deals, 7 solved, 2 unsolvable, 1 limit reached" in result.output
    assert len(images(page.read_text())) == 3
    with table.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(int(r["deal"]), r["verdict"], r["length"]) for r in rows[6:9]] == [
        (7, "solved", "36"), (8, "unsolvable", ""), (9, "limit", "")
    ]
    data = json.loads(document.read_text())
    assert data["summaries"][0]["counts"] == {"solved": 7, "unsolvable": 2, "limit": 1}
    assert data["summaries"][0]["unsolvable"] == [8, 10]
    assert len(data["deals"]) == 10 and data["deals"][0]["moves"][:2] == ["1h", "1h"]


def test_report_refuses_a_missing_or_empty_store(tmp_path: Path) -> None:
    missing = CliRunner().invoke(main, ["report", str(tmp_path / "none.db")])
    assert missing.exit_code == 2 and "no such census store" in missing.output
    assert not (tmp_path / "none.db").exists()
    Census(tmp_path / "empty.db").close()
    empty = CliRunner().invoke(main, ["report", str(tmp_path / "empty.db")])
    assert empty.exit_code == 2 and "holds no results for standard with 4 cells" in empty.output


def test_a_solved_range_reports_end_to_end(tmp_path: Path) -> None:
    db, page = tmp_path / "census.db", tmp_path / "report.html"
    runner = CliRunner()
    assert runner.invoke(main, ["range", "1-5", "--jobs", "1", "--db", str(db)]).exit_code == 0
    with Census(db) as census:
        for stored in census.records():
            check_record(stored, find_rules("standard"))
    result = runner.invoke(main, ["report", str(db), "--html", str(page)])
    assert result.exit_code == 0 and "5 deals, 5 solved, 0 unsolvable, 0 limit reached" in result.output
    text = page.read_text()
    assert '<td class="solved">5</td>' in text and len(images(text)) == 3
