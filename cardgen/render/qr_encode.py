"""QR encoding, fast: the symbol laid out once, the eight masks scored on whole rows packed as integers.

``qrcode`` (the package) lays a symbol out nine times and scores each layout module by module, and
its bit buffer and Reed-Solomon code work a bit at a time; that made QR codes most of a deck's
build time. Here the segments still come from ``qrcode`` (``optimal_data_chunks``), while the
codewords are made a byte at a time (a table per error-correction length), placed with one
prepared look-up per row, and the masks applied and scored with big-integer operations and string
counts. The result is exactly the matrix ``qrcode`` makes, mask choice included (tests compare
them over versions 1 to 14 and every mask); about ten times faster (bench/bench_build.py).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable

from qrcode import base as qr_base
from qrcode import util as qr_util
from qrcode.constants import ERROR_CORRECT_M
from qrcode.exceptions import DataOverflowError

#: A symbol's rows, each an integer read left to right (column 0 is the most significant bit).
Rows = list[int]


@dataclass(frozen=True)
class _Layout:
    """Where a version's modules are (rows as integers) and the masks, packed for scoring.

    For scoring, a symbol's rows and then its columns are packed into one integer, each line of
    ``size`` bits followed by a zero bit that keeps runs and patterns from crossing lines.
    """

    size: int
    function: tuple[int, ...]              # per row: dark modules of the finder, timing and alignment patterns
    data: tuple[int, ...]                  # per row: bit set where a data module is
    reserved: tuple[int, ...]              # per row: format info, version info and the dark module
    masks: tuple[tuple[int, ...], ...]     # per mask pattern, per row: data modules the mask flips
    packed_masks: tuple[int, ...]          # per mask pattern: its rows and columns, packed
    lines: int                             # packed: every module bit (no separators)
    windows: int                           # packed: where an 11-module window fits inside its line
    blocks: int                            # packed: top-left corners of 2x2 blocks (row part)
    placement: tuple[Callable[[str], Any], ...]  # per row: picks that row's modules from the codeword bits
    sentinel: int                          # index of the light bit placement reads for non-data modules


def _bit(size: int, column: int) -> int:
    """Rows are integers read left to right: column 0 is the most significant of ``size`` bits."""
    return 1 << (size - 1 - column)


def _pack(rows: list[int] | tuple[int, ...], n: int) -> int:
    """Rows then columns of a symbol as one integer (see :class:`_Layout`)."""
    lines = [format(row, f"0{n}b") for row in rows]
    return int("0".join(lines + ["".join(column) for column in zip(*lines)]), 2)


@lru_cache(maxsize=40)
def _layout(version: int) -> _Layout:
    n = 4 * version + 17
    function = [[False] * n for _ in range(n)]
    dark = [[False] * n for _ in range(n)]

    def mark(row: int, column: int, is_dark: bool) -> None:
        if not function[row][column]:
            function[row][column], dark[row][column] = True, is_dark

    for top, left in ((0, 0), (0, n - 7), (n - 7, 0)):  # finder patterns with their light separators
        for r in range(-1, 8):
            for c in range(-1, 8):
                if 0 <= top + r < n and 0 <= left + c < n:
                    ring = (0 <= r <= 6 and c in (0, 6)) or (0 <= c <= 6 and r in (0, 6))
                    mark(top + r, left + c, ring or (2 <= r <= 4 and 2 <= c <= 4))
    centres = qr_util.pattern_position(version)
    for row in centres:  # alignment patterns, except where they would sit on a finder
        for column in centres:
            if function[row][column]:
                continue
            for r in range(-2, 3):
                for c in range(-2, 3):
                    mark(row + r, column + c, abs(r) == 2 or abs(c) == 2 or r == c == 0)
    for i in range(n):  # timing patterns
        mark(6, i, i % 2 == 0)
        mark(i, 6, i % 2 == 0)
    reserved = [[False] * n for _ in range(n)]
    for r, c in _format_positions(n):
        reserved[r][c] = True
    reserved[n - 8][8] = True  # the dark module
    if version >= 7:
        for i in range(18):
            reserved[i // 3][i % 3 + n - 11] = True
            reserved[i % 3 + n - 11][i // 3] = True

    def rows_of(grid: list[list[bool]]) -> tuple[int, ...]:
        return tuple(sum(_bit(n, c) for c in range(n) if grid[r][c]) for r in range(n))

    data_grid = [[not function[r][c] and not reserved[r][c] for c in range(n)] for r in range(n)]
    masks = []
    for pattern in range(8):
        flips = qr_util.mask_func(pattern)
        masks.append(rows_of([[data_grid[r][c] and flips(r, c) for c in range(n)] for r in range(n)]))
    order = _placement_order(n, data_grid)
    bits = 8 * sum(block.total_count for block in qr_base.rs_blocks(version, ERROR_CORRECT_M))
    index = [[bits] * n for _ in range(n)]  # a data module beyond the codewords reads a light bit
    for k, (r, c) in enumerate(order[:bits]):
        index[r][c] = k
    placement = tuple(itemgetter(*row) for row in index)
    stride, full = n + 1, (1 << n) - 1
    lines = sum(full << (slot * stride) for slot in range(2 * n))
    windows = sum(((1 << (n - 10)) - 1) << (slot * stride) for slot in range(2 * n))
    blocks = sum(((1 << (n - 1)) - 1) << (slot * stride) for slot in range(n, 2 * n - 1))  # rows are on top
    return _Layout(n, rows_of(dark), rows_of(data_grid), rows_of(reserved), tuple(masks),
                   tuple(_pack(mask, n) for mask in masks), lines, windows, blocks, placement, bits)


def _placement_order(n: int, data: list[list[bool]]) -> list[tuple[int, int]]:
    """Data modules in the order codeword bits fill them: two-column strips, zigzagging from the
    bottom right, skipping the vertical timing column (as ``qrcode``'s ``map_data``)."""
    order: list[tuple[int, int]] = []
    upwards = True
    for right in range(n - 1, 0, -2):
        if right <= 6:
            right -= 1
        rows = range(n - 1, -1, -1) if upwards else range(n)
        for r in rows:
            for c in (right, right - 1):
                if data[r][c]:
                    order.append((r, c))
        upwards = not upwards
    return order


def _format_positions(n: int) -> list[tuple[int, int]]:
    """The 15 format bits, least significant first, in both copies (as ``qrcode`` places them)."""
    vertical = [(i, 8) if i < 6 else (i + 1, 8) if i < 8 else (n - 15 + i, 8) for i in range(15)]
    horizontal = [(8, n - 1 - i) if i < 8 else (8, 7) if i == 8 else (8, 14 - i) for i in range(15)]
    return vertical + horizontal


def _format_rows(layout: _Layout, error_correction: int, pattern: int, version: int) -> list[int]:
    """Format information for the mask (both copies), the dark module and the version information."""
    n = layout.size
    rows = [0] * n
    bits = qr_util.BCH_type_info((error_correction << 3) | pattern)
    for i, (r, c) in enumerate(_format_positions(n)):
        if (bits >> (i % 15)) & 1:
            rows[r] |= _bit(n, c)
    rows[n - 8] |= _bit(n, 8)
    if version >= 7:
        number = qr_util.BCH_type_number(version)
        for i in range(18):
            if (number >> i) & 1:
                rows[i // 3] |= _bit(n, i % 3 + n - 11)
                rows[i % 3 + n - 11] |= _bit(n, i // 3)
    return rows


#: The two 1:1:3:1:1 finder-like patterns with 4 light modules on one side (mirror images).
_FINDER_LIKE = ("10111010000", "00001011101")


def penalty(packed: int, layout: _Layout) -> int:
    """The mask score ``qrcode`` uses (``util.lost_point``), on a packed symbol (a few big-integer steps).

    Runs of 5 or more modules of one colour score their length less 2; each finder-like pattern 40;
    each 2x2 block of one colour 3; and every 5 % that dark modules stray from half, 10.
    """
    n = layout.size
    light = ~packed & layout.lines
    score = 0
    for colour in (packed, light):
        fives = colour & (colour >> 1) & (colour >> 2) & (colour >> 3) & (colour >> 4)
        score += fives.bit_count() + 2 * (fives & ~(fives >> 1)).bit_count()  # (len - 4) + 2 per run
    for pattern in _FINDER_LIKE:
        found = layout.windows
        for shift, module in enumerate(pattern):
            found &= (packed if module == "1" else light) >> shift
        score += 40 * found.bit_count()
    same_below = ~(packed ^ (packed >> (n + 1)))
    same_beside = ~(packed ^ (packed >> 1))
    score += 3 * (same_below & (same_below >> 1) & same_beside & layout.blocks).bit_count()
    dark = (packed >> (n * (n + 1))).bit_count()
    return score + int(abs(float(dark) / (n * n) * 100 - 50) / 5) * 10


def segments_fit(payload: str) -> tuple[list[Any], int]:
    """``qrcode``'s segments for the payload and the smallest version that holds them at level M."""
    chunks = list(qr_util.optimal_data_chunks(payload, minimum=20))  # as QRCode.add_data does
    start = 1
    while True:
        needed = sum(len(_segment_bits(chunk, start)) for chunk in chunks)
        version = bisect_left(qr_util.BIT_LIMIT_TABLE[ERROR_CORRECT_M], needed, start)
        if version == 41:
            raise DataOverflowError()
        if qr_util.mode_sizes_for_version(start) is qr_util.mode_sizes_for_version(version):
            return chunks, version
        start = version  # a longer length field: check again from there, as qrcode's best_fit does


def _segment_bits(chunk: Any, version: int) -> str:
    mode, data = chunk.mode, chunk.data
    bits = format(mode, "04b") + format(len(data), f"0{qr_util.length_in_bits(mode, version)}b")
    if mode == qr_util.MODE_NUMBER:
        return bits + "".join(format(int(data[i:i + 3]), f"0{qr_util.NUMBER_LENGTH[len(data[i:i + 3])]}b")
                              for i in range(0, len(data), 3))
    if mode == qr_util.MODE_ALPHA_NUM:
        find = qr_util.ALPHA_NUM.find
        return bits + "".join(format(find(data[i]) * 45 + find(data[i + 1]), "011b") if i + 1 < len(data)
                              else format(find(data[i]), "06b") for i in range(0, len(data), 2))
    return bits + (format(int.from_bytes(data, "big"), f"0{8 * len(data)}b") if data else "")


@lru_cache(maxsize=64)
def _remainder_table(ec_count: int) -> tuple[int, ...]:
    """For each leading byte, the generator polynomial times it (as ``ec_count`` bytes in one integer)."""
    generator = [1]
    for i in range(ec_count):  # the product of (x + a^i)
        root = qr_base.gexp(i)
        generator = [a ^ (_times(b, root)) for a, b in zip(generator + [0], [0] + generator)]
    return tuple(0 if f == 0 else int.from_bytes(bytes(_times(g, f) for g in generator[1:]), "big")
                 for f in range(256))


def _times(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else qr_base.gexp(qr_base.glog(a) + qr_base.glog(b))


def _error_correction(data: bytes, ec_count: int) -> bytes:
    table, top, mask = _remainder_table(ec_count), 8 * (ec_count - 1), (1 << (8 * ec_count)) - 1
    remainder = 0
    for byte in data:
        remainder = ((remainder << 8) & mask) ^ table[(remainder >> top) ^ byte]
    return remainder.to_bytes(ec_count, "big")


def codeword_bits(chunks: list[Any], version: int) -> str:
    """The symbol's codewords (data with padding, then error correction, interleaved) as bits."""
    blocks = qr_base.rs_blocks(version, ERROR_CORRECT_M)
    limit = 8 * sum(block.data_count for block in blocks)
    bits = "".join(_segment_bits(chunk, version) for chunk in chunks)
    bits += "0" * min(limit - len(bits), 4)  # terminator
    bits += "0" * (-len(bits) % 8)
    data = int(bits, 2).to_bytes(len(bits) // 8, "big")
    data += bytes((qr_util.PAD0, qr_util.PAD1)[i % 2] for i in range((limit - len(bits)) // 8))
    data_blocks, ec_blocks, offset = [], [], 0
    for block in blocks:
        piece = data[offset:offset + block.data_count]
        offset += block.data_count
        data_blocks.append(piece)
        ec_blocks.append(_error_correction(piece, block.total_count - block.data_count))
    codewords = bytearray()
    for group in (data_blocks, ec_blocks):
        for i in range(max(len(b) for b in group)):
            codewords += bytes(b[i] for b in group if i < len(b))
    return format(int.from_bytes(codewords, "big"), f"0{8 * len(codewords)}b")


def encode_rows(payload: str) -> tuple[int, Rows]:
    """(version, rows) of the level-M code for ``payload``: the same matrix ``qrcode`` makes."""
    chunks, version = segments_fit(payload)
    layout = _layout(version)
    n = layout.size
    bits = codeword_bits(chunks, version) + "0"  # the light bit non-data modules read
    bits += "0" * (layout.sentinel + 1 - len(bits))
    plain = [int("".join(pick(bits)), 2) & data for pick, data in zip(layout.placement, layout.data)]
    fixed = list(layout.function)
    packed_fixed, packed_plain = _pack(fixed, n), _pack(plain, n)
    # scored as qrcode scores them: format and version bits still blank; the first best mask wins
    scores = [penalty(packed_fixed | (packed_plain ^ mask), layout) for mask in layout.packed_masks]
    best = scores.index(min(scores))
    extra = _format_rows(layout, ERROR_CORRECT_M, best, version)
    return version, [f | e | (d ^ m) for f, e, d, m in zip(fixed, extra, plain, layout.masks[best])]
