"""Write the page's icons (PNG at the sizes a manifest and a phone ask for, and the
favicon) into src/freecell/web/static/icons/, drawn here without any image library: a
cream card with a red heart on the felt's green. Run it again only to change the icons."""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "src" / "freecell" / "web" / "static" / "icons"
FELT = (28, 107, 63)
CARD = (255, 253, 247)
EDGE = (185, 178, 162)
HEART = (192, 24, 43)


def _inside_rounded(x: float, y: float, left: float, top: float, right: float, bottom: float, r: float) -> bool:
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _in_heart(x: float, y: float) -> bool:
    """The heart curve (x² + y² - 1)³ - x² y³ <= 0, in a box from -1.3 to 1.3."""
    return (x * x + y * y - 1) ** 3 - x * x * y ** 3 <= 0


def pixel(u: float, v: float, *, full_bleed: bool) -> tuple[int, int, int, int]:
    """The colour at (u, v) in the unit square."""
    if not full_bleed and not _inside_rounded(u, v, 0.0, 0.0, 1.0, 1.0, 0.2):
        return (0, 0, 0, 0)
    if _inside_rounded(u, v, 0.2, 0.1, 0.8, 0.9, 0.07):
        inner = _inside_rounded(u, v, 0.21, 0.11, 0.79, 0.89, 0.06)
        hx, hy = (u - 0.5) / 0.22, (0.52 - v) / 0.22
        if inner and _in_heart(hx, hy):
            return (*HEART, 255)
        return (*(CARD if inner else EDGE), 255)
    return (*FELT, 255)


def png(size: int, *, full_bleed: bool = False) -> bytes:
    """A PNG of the icon, ``size`` pixels square, each pixel the mean of 3×3 samples."""
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            samples = [
                pixel((i + (a + 0.5) / 3) / size, (j + (b + 0.5) / 3) / size, full_bleed=full_bleed)
                for a in range(3) for b in range(3)
            ]
            alpha = sum(s[3] for s in samples)
            colour = [sum(s[k] * s[3] for s in samples) // alpha if alpha else 0 for k in range(3)]
            row += bytes([*colour, alpha // 9])
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(
        b"IEND", b""
    )


def ico(image: bytes, size: int) -> bytes:
    """An .ico file holding one PNG image."""
    return struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(image), 22) + image


def main() -> int:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512, 180):
        (ICONS / f"icon-{size}.png").write_bytes(png(size, full_bleed=size == 180))
    (ICONS / "maskable-512.png").write_bytes(png(512, full_bleed=True))
    (ICONS.parent / "favicon.ico").write_bytes(ico(png(32), 32))
    return 0


if __name__ == "__main__":
    sys.exit(main())
