"""The daily deal: one deal a day for each preset, the same for every player, with no server.

The deal of a day is found from the date and the preset alone, by a pure function:

1. a SHA-256 hash of ``freecell daily <date> <preset> <cells>`` seeds a sequence of
   candidate deal numbers (each the hash of the seed and the candidate's index, taken
   into 1 to :data:`DAILY_NUMBERS`);
2. the candidates are solved in that order under :data:`DAILY_LIMIT`, a limit of
   positions only, with nothing remembered from other solves, and the first one the
   solver wins is the day's deal;
3. its grade (:func:`~freecell.advisor.grade`) comes from the winning line's length and
   the positions the search expanded.

A limit of positions only reads neither the clock nor the memory, so the solver's course,
and so the deal and its grade, is the same on every machine, compiled or pure Python, in
the server and in the static site's Pyodide (``docs/daily.md`` says why each number is
what it is, and what ``bench/daily.py`` measured). The preset's own number of cells is
used: one deal a day per preset.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass
from typing import Final

from freecell.advisor import Analysis, Difficulty, Solver, grade
from freecell.deals import Deal
from freecell.errors import InvalidInputError, UnavailableError
from freecell.position import Position
from freecell.replay import replay
from freecell.rules import Rules, find_rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus, solve

# Deal numbers 1 to a million: every program that deals Microsoft's deals opens them
# (Windows 7's FreeCell stops at 1,000,000), so a player can check a daily deal elsewhere.
DAILY_NUMBERS: Final = 1_000_000
DAILY_LIMIT: Final = SearchLimit(positions=20_000)
MAX_CANDIDATES: Final = 40
FIRST_DAY: Final = datetime.date(2000, 1, 1)
LAST_DAY: Final = datetime.date(9999, 12, 31)


class InvalidDayError(InvalidInputError):
    """A date that is not a day written as YYYY-MM-DD, or one that is not open."""


class NoDailyDealError(UnavailableError):
    """None of the day's candidates was won within the limit (never seen: see docs/daily.md)."""


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """The deal of ``day`` under ``deal.rules``: its winning line (replayed by the rules
    engine), the positions the search expanded, its grade, and the candidates tried."""

    day: datetime.date
    deal: Deal
    line: tuple[str, ...]
    expanded: int
    difficulty: Difficulty
    tries: int


def parse_day(text: str) -> datetime.date:
    """A day written ``YYYY-MM-DD`` (ISO 8601). Raises :class:`InvalidDayError`.

    >>> parse_day("2026-12-06")
    datetime.date(2026, 12, 6)
    """
    stripped = text.strip()
    if not (len(stripped) == 10 and stripped[4] == "-" and stripped[7] == "-" and stripped.isascii()):
        raise InvalidDayError(f"not a day: {text[:20]!r} (write it as YYYY-MM-DD, like 2026-12-06)")
    try:
        day = datetime.date.fromisoformat(stripped)
    except ValueError:
        raise InvalidDayError(f"there is no day {stripped!r}") from None
    if day < FIRST_DAY:
        raise InvalidDayError(f"daily deals begin on {FIRST_DAY.isoformat()}, not {stripped}")
    return day


def candidates(day: datetime.date, rules: Rules) -> list[Deal]:
    """The day's candidate deals under ``rules``, in the order they are tried."""
    seed = hashlib.sha256(f"freecell daily {day.isoformat()} {rules.name} {rules.cells}".encode()).digest()
    deals = []
    for index in range(MAX_CANDIDATES):
        digest = hashlib.sha256(seed + index.to_bytes(4, "big")).digest()
        deals.append(Deal(rules, 1 + int.from_bytes(digest[:8], "big") % DAILY_NUMBERS))
    return deals


def _solve_repeatably(position: Position, rules: Rules, limit: SearchLimit) -> SolveResult:
    return solve(position, rules, limit=limit, remember=False)


def daily_deal(
    day: datetime.date, rules: Rules, *, limit: SearchLimit = DAILY_LIMIT, solver: Solver = _solve_repeatably
) -> DailyDeal:
    """The deal of ``day`` under ``rules`` (see the module's docstring). ``solver`` must
    solve as :func:`~freecell.solver.solve` does with ``remember=False`` and no helper (in
    a worker, say). Raises :class:`NoDailyDealError` if no candidate is won within
    ``limit``, and ``ValueError`` for a limit that counts anything but positions (the deal
    would depend on the machine)."""
    if limit.positions is None or limit.seconds is not None or limit.memory_mb is not None:
        raise ValueError("the daily deal is chosen under a limit of positions only, so that it is the same everywhere")
    for tries, deal in enumerate(candidates(day, rules), start=1):
        result = solver(deal.position(), rules, limit)
        if result.status is SolveStatus.SOLVED:
            analysis = Analysis(SolveStatus.SOLVED, result.moves, result.expanded)
            return DailyDeal(day, deal, result.moves, result.expanded, grade(analysis, rules), tries)
    raise NoDailyDealError(f"no daily {rules.name} deal was found for {day.isoformat()}: try another preset")


def daily_text(chosen: DailyDeal) -> str:
    """``chosen`` as JSON text, to cross from one of the static site's workers to another."""
    return json.dumps(
        {
            "day": chosen.day.isoformat(),
            "rules": chosen.deal.rules.name,
            "number": chosen.deal.number,
            "line": list(chosen.line),
            "expanded": chosen.expanded,
            "tries": chosen.tries,
        }
    )


def read_daily(text: str) -> DailyDeal:
    """The daily deal written by :func:`daily_text`, once checked: the deal is the day's
    candidate it says it is, its line wins it (replayed by the rules engine) and the grade
    is made again here. Raises :class:`~freecell.errors.InvalidInputError` otherwise."""
    try:
        found = json.loads(text)
        day, rules = parse_day(found["day"]), find_rules(found["rules"])
        tries, line, expanded = int(found["tries"]), tuple(map(str, found["line"])), int(found["expanded"])
    except (ValueError, KeyError, TypeError) as error:
        raise InvalidInputError(f"not a daily deal: {error}") from None
    deals = candidates(day, rules)
    if not 1 <= tries <= len(deals) or deals[tries - 1].number != found["number"]:
        raise InvalidInputError(f"deal {found['number']} is not the daily deal's candidate {tries} of {day}")
    deal = deals[tries - 1]
    if not replay(deal.position(), rules, line).is_won():
        raise InvalidInputError(f"the line given does not win the daily deal of {day}")
    difficulty = grade(Analysis(SolveStatus.SOLVED, line, expanded), rules)
    return DailyDeal(day, deal, line, expanded, difficulty, tries)


def open_day(text: str | None, now: float) -> datetime.date:
    """The day a player asks for (``YYYY-MM-DD``, their own calendar's), or without one the
    local day of ``now`` (seconds since the epoch). A day is open while it is the day
    somewhere on Earth: from the day before the UTC date to the day after (time zones run
    from UTC-12 to UTC+14), so no one plays tomorrow's deal early nor an old one late, and
    a streak counts days played on the day. Raises :class:`InvalidDayError`."""
    if text is None:
        return datetime.datetime.fromtimestamp(now).date()
    day = parse_day(text)
    utc = datetime.datetime.fromtimestamp(now, tz=datetime.UTC).date()
    if abs((day - utc).days) > 1:
        raise InvalidDayError(
            f"the daily deal of {day.isoformat()} is not open: daily deals are played on their day,"
            f" and it is {utc.isoformat()} (UTC) now"
        )
    return day
