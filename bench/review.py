"""Figures for the game review on the server: how long a review of a ~30-move game takes
to complete, and whether a player's moves meanwhile wait for it.

Starts ``freecell play`` (default limits) on a new database. For each deal, a game of
``--moves`` moves is made through the API (``POST /api/games`` with ``moves``), of one of
three kinds: the first moves of the solver's own solution (a game still winnable: its
review needs the start judged, then little); two thirds of them, then moves chosen at
random with a fixed seed among the legal ones (a player gone astray late: the review
bisects for the move that lost it); or random moves from the start (a game that often
has no move left before the end). Then the review is asked for every 0.2 s, as the page does, until it is
complete, while another game on the same server plays a move and takes it back again
and again; the moves' latencies are compared with the same moves' with no review running.

It prints, for each kind, the median, minimum and maximum seconds to a complete review,
the verdicts it showed, and the plain moves' median and p99 alone and during reviews.

    python bench/review.py
    python bench/review.py --deals 1-10 --moves 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from load import PLAIN_DEAL, PLAIN_MOVE, Address, start_server

from freecell.deals import Deal
from freecell.position import PlaceKind
from freecell.rules import find_rules
from freecell.solver import SearchLimit, solve

STANDARD = find_rules("standard")
POLL = 0.2  # seconds between the review's requests
REVIEW_TIMEOUT = 600.0


def solver_moves(number: int, count: int) -> list[str]:
    return list(solve(Deal(STANDARD, number).position(), STANDARD, limit=SearchLimit(seconds=60)).moves[:count])


def astray_moves(number: int, count: int) -> list[str]:
    """Two thirds of ``count`` moves of the solver's line, then random ones."""
    line = solver_moves(number, 2 * count // 3)
    return line + random_moves(number, count - len(line), line)


def random_moves(number: int, count: int, before: list[str] | None = None) -> list[str]:
    """``count`` legal moves chosen at random (seeded by the deal) after ``before``,
    never a card from home."""
    chooser = random.Random(number)
    position = Deal(STANDARD, number).position()
    for text in before or []:
        position = position.apply_unchecked(position.parse_move(text, STANDARD))
    played = []
    for _ in range(count):
        moves = [move for move in position.legal_moves(STANDARD) if move.source.kind is not PlaceKind.FOUNDATION]
        if not moves:
            break
        move = chooser.choice(moves)
        played.append(position.notation(move))
        position = position.apply_unchecked(move)
    return played


def review_seconds(client: httpx.Client, game_id: str) -> tuple[float, Counter[str], int]:
    """Seconds from the first request of the review to a complete one, its steps' verdicts,
    and how many requests it took."""
    began = time.perf_counter()
    asked = 0
    while True:
        response = client.get(f"/api/games/{game_id}/review")
        asked += 1
        if response.status_code == 200 and response.json()["complete"]:
            review = response.json()
            return time.perf_counter() - began, Counter(step["verdict"] for step in review["steps"]), asked
        if time.perf_counter() - began > REVIEW_TIMEOUT:
            raise SystemExit(f"review.py: the review of {game_id} did not complete in {REVIEW_TIMEOUT:.0f} s")
        time.sleep(POLL)


def plain_moves(address: Address, game_id: str, stop: threading.Event, times: list[float]) -> None:
    """Play PLAIN_MOVE and take it back until ``stop``, timing each request."""
    with address.client() as client:
        while not stop.is_set():
            for action, body in (("moves", {"move": PLAIN_MOVE}), ("undo", None)):
                began = time.perf_counter()
                client.post(f"/api/games/{game_id}/{action}", json=body).raise_for_status()
                times.append(time.perf_counter() - began)


def plain_for(address: Address, game_id: str, seconds: float, times: list[float]) -> None:
    stop = threading.Event()
    runner = threading.Thread(target=plain_moves, args=(address, game_id, stop, times))
    runner.start()
    time.sleep(seconds)
    stop.set()
    runner.join()


def new_game(client: httpx.Client, deal: int, moves: list[str] | None = None) -> str:
    response = client.post("/api/games", json={"rules": "standard", "deal": deal, "moves": moves or []})
    response.raise_for_status()
    return str(response.json()["id"])


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-6", help="a range of standard deals, e.g. 1-10")
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--port", type=int, default=8765)
    options = parser.parse_args()
    first, _, last = options.deals.partition("-")
    deals = range(int(first), int(last or first) + 1)

    with tempfile.TemporaryDirectory() as directory:
        server = start_server(Path(directory) / "games.db", options.port)
        try:
            with server.address.client() as client:
                alone: list[float] = []
                mover = new_game(client, PLAIN_DEAL)
                warm_up: list[float] = []
                plain_for(server.address, mover, 2.0, warm_up)
                plain_for(server.address, mover, 5.0, alone)
                during: list[float] = []
                kinds = (("solver's line", solver_moves), ("astray", astray_moves), ("random moves", random_moves))
                for kind, made in kinds:
                    seconds, verdicts, requests = [], Counter[str](), []
                    for number in deals:
                        reviewed = new_game(client, number, made(number, options.moves))
                        mover = new_game(client, PLAIN_DEAL)  # the game played meanwhile
                        stop = threading.Event()
                        runner = threading.Thread(target=plain_moves, args=(server.address, mover, stop, during))
                        runner.start()
                        took, shown, asked = review_seconds(client, reviewed)
                        stop.set()
                        runner.join()
                        seconds.append(took)
                        verdicts += shown
                        requests.append(asked)
                    print(
                        f"{kind:<14} {len(seconds)} games of {options.moves} moves: review complete in median "
                        f"{statistics.median(seconds):.1f} s (min {min(seconds):.1f}, max {max(seconds):.1f}); "
                        f"{statistics.median(requests):.0f} requests; steps {dict(verdicts)}"
                    )
                ms_alone = [1000 * t for t in alone]
                ms_during = [1000 * t for t in during]
                print(
                    f"plain moves alone: median {statistics.median(ms_alone):.1f} ms, p99 "
                    f"{percentile(ms_alone, 0.99):.1f} ms ({len(ms_alone)}); during reviews: median "
                    f"{statistics.median(ms_during):.1f} ms, p99 {percentile(ms_during, 0.99):.1f} ms "
                    f"({len(ms_during)})"
                )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
