"""Write the perft files of ``tests/test_perft.py``: ``python tests/data/make_perft.py``.

Run it only when a change to the rules is meant, and say so in the commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_perft import PERFT, STARTS, VARIANTS, perft, start_position, variant_rules

HEADER = """\
# perft for {variant}: one line per start (a deal number or a board in tests/data/boards),
# then the number of legal moves there, then the number of distinct positions (by Position
# equality) reached by exactly 2 and by exactly 3 moves (depth 3 left out where slow).
# Written by tests/data/make_perft.py; checked by tests/test_perft.py.
"""


def main() -> None:
    PERFT.mkdir(parents=True, exist_ok=True)
    for variant in VARIANTS:
        rules = variant_rules(variant)
        lines = [HEADER.format(variant=variant)]
        for start, depth in STARTS[variant]:
            counts = perft(start_position(start, rules), rules, depth)
            lines.append(" ".join([start, *map(str, counts)]) + "\n")
        (PERFT / f"{variant}.txt").write_text("".join(lines))
        print(variant, "".join(lines[1:]).strip().replace("\n", " | "))


if __name__ == "__main__":
    main()
