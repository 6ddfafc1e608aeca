"""The print path's speed-ups keep what is printed right: QR codes that scan, colours, the code cache."""

from __future__ import annotations

import dataclasses
import json
import random
import string
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from cardgen.render import qr
from cardgen.render.build import (
    BuildPlan,
    _HexColours,  # noqa: F401  (importing installs the colour names)
)


def _payloads(seed: int, lengths: list[int]) -> list[str]:
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + "/:.-_?=&%"
    return ["".join(rng.choice(alphabet) for _ in range(n)) for n in lengths]


# versions 1 to about 14 (7 and up carry version information), several payloads per length
PAYLOADS = _payloads(7, [1, 5, 14, 20, 26, 30, 41, 53, 62, 80, 100, 122, 150, 180, 230, 280, 340, 420, 520])
PAYLOADS += _payloads(8, list(range(10, 90, 3)))
PAYLOADS += [f"http://localhost:8000/c/fillory/{slug}" for slug in ("the-beast", "quentin", "fillory-and-further")]
# numeric and alphanumeric segments (qrcode splits out runs of 20 or more such characters)
PAYLOADS += ["12345678901234567890123", "0" * 41, "HTTP://EXAMPLE.ORG/ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123",
             "card " + "9" * 25 + " and " + "SPELLBOOK TABLE 42" * 3 + " end", "7" * 500]


@pytest.mark.parametrize("encode", [qr.encode_best_mask, qr.encode])
def test_too_much_data_is_refused(encode: object) -> None:
    from qrcode.exceptions import DataOverflowError
    with pytest.raises((DataOverflowError, ValueError)):  # qrcode says ValueError past version 40
        encode("x" * 3000)  # type: ignore[operator]


def _decoded(matrix: qr.QrMatrix) -> str:
    """What a scanner reads from the matrix, drawn 4 px a module with its quiet zone; the scanner must
    also read the level (M) and the fixed mask from the code's format information."""
    border, scale = qr.QUIET_ZONE_MODULES, 4
    side = (matrix.modules + 2 * border) * scale
    image = Image.new("L", (side, side), 255)
    pixels = image.load()
    for r, row in enumerate(matrix.rows):
        for c, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    for dx in range(scale):
                        pixels[(c + border) * scale + dx, (r + border) * scale + dy] = 0
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, f"{matrix.payload!r}: {len(found)} codes read"
    assert found[0].extra["ECLevel"] == "M" and found[0].extra["DataMask"] == qr.FIXED_MASK, found[0].extra
    return str(found[0].text)


@pytest.mark.parametrize("payload", PAYLOADS[::3])
def test_fixed_mask_codes_scan_back_to_their_payload(payload: str) -> None:
    ours, library_default = qr.encode(payload), qr.encode_best_mask(payload)
    assert ours.version == library_default.version  # the mask never changes the size
    assert _decoded(ours) == payload


def test_the_sample_covers_small_and_big_versions() -> None:
    versions = {qr.encode(p).version for p in PAYLOADS}
    assert min(versions) == 1 and max(versions) >= 10


@pytest.mark.parametrize("payload", PAYLOADS[::7])
def test_runs_read_from_row_text_match_runs_read_module_by_module(payload: str) -> None:
    encoded = qr.encode(payload)
    assert encoded._lines
    plain = qr.QrMatrix(encoded.payload, encoded.version, encoded.rows)  # no row text: the module loop
    assert encoded.runs() == plain.runs()


def test_drawn_path_has_one_rectangle_per_dark_run() -> None:
    matrix = qr.encode("http://localhost:8000/c/fillory/quentin")
    operators = matrix.path_operators().splitlines()
    assert len(operators) == len(matrix.runs())
    row, column, length = matrix.runs()[0]
    assert operators[0] == f"{column} {matrix.modules - 1 - row} {length} 1 re"
    canvas = Canvas("/dev/null")
    qr.draw_qr(canvas, matrix, 10, 10, 50, dark="#223344")
    page = canvas.getCurrentPageContent()
    assert operators[-1] in page and "\nf\n" in page + "\n"


def test_disk_cache_serves_codes_without_encoding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / ".cache" / "qr-codes.json"
    payloads = ["http://a.example/c/g/one", "http://a.example/c/g/two"]
    qr.qr_matrix.cache_clear()  # type: ignore[attr-defined]
    with qr.disk_cache(path):
        first = [qr.qr_matrix(p) for p in payloads]
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["encoder"] == qr.ENCODER_ID and sorted(saved["codes"]) == sorted(payloads)

    qr.qr_matrix.cache_clear()  # type: ignore[attr-defined]

    def refuse(payload: str) -> qr.QrMatrix:
        raise AssertionError(f"encoded {payload} although it was cached")
    monkeypatch.setattr(qr, "encode", refuse)
    with qr.disk_cache(path):
        again = [qr.qr_matrix(p) for p in payloads[:1]]
    assert again == first[:1]
    assert sorted(json.loads(path.read_text(encoding="utf-8"))["codes"]) == payloads[:1]  # unused codes dropped


def test_deferred_codes_are_encoded_at_first_use_and_equal_the_encoded_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    payload = "http://a.example/c/g/deferred"
    qr.qr_matrix.cache_clear()  # type: ignore[attr-defined]
    encoded: list[str] = []
    real_encode = qr.encode

    def counting(payload: str) -> qr.QrMatrix:
        encoded.append(payload)
        return real_encode(payload)
    monkeypatch.setattr(qr, "encode", counting)
    with qr.deferred_codes():
        later = qr.qr_matrix(payload)
    assert encoded == [] and later.payload == payload
    assert later.path_operators() == real_encode(payload).path_operators()  # drawn: encoded now, once
    assert encoded == [payload]
    assert later == real_encode(payload) and later.modules == real_encode(payload).modules
    assert hash(later) == hash(real_encode(payload))
    assert qr.qr_matrix(payload) is not later and encoded == [payload]  # the memory holds the real one


@pytest.mark.parametrize("spoiled", ["not json", json.dumps({"encoder": "old", "codes": {}}),
                                     json.dumps({"encoder": qr.ENCODER_ID,
                                                 "codes": {"http://x/c/g/1": {"version": 1, "rows": ["zz"]}}})])
def test_unusable_disk_cache_is_ignored_and_replaced(tmp_path: Path, spoiled: str) -> None:
    path = tmp_path / "qr-codes.json"
    path.write_text(spoiled, encoding="utf-8")
    qr.qr_matrix.cache_clear()  # type: ignore[attr-defined]
    with qr.disk_cache(path):
        matrix = qr.qr_matrix("http://x/c/g/1")
    assert matrix == qr.encode("http://x/c/g/1")
    assert json.loads(path.read_text(encoding="utf-8"))["encoder"] == qr.ENCODER_ID


def test_failed_block_does_not_write_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "qr-codes.json"
    with pytest.raises(RuntimeError):
        with qr.disk_cache(path):
            qr.qr_matrix("http://x/c/g/2")
            raise RuntimeError("build failed")
    assert not path.exists()


@pytest.mark.parametrize("text", ["#1A2B3C", "#ffffff", "#000000"])
def test_hex_colours_read_as_reportlab_reads_them(text: str) -> None:
    assert colors.toColor(text) == colors.HexColor(text)
    assert isinstance(colors.toColor.extraColorsNS, _HexColours)


def test_other_colour_forms_still_work() -> None:
    assert colors.toColor("red") == colors.red
    assert colors.toColor("#FFF") == colors.HexColor("#FFF")  # short forms take ReportLab's own path
    with pytest.raises(ValueError):
        colors.toColor("not a colour")


# -- builds split over processes ---------------------------------------------------------------------

def _plan_with(tmp_path: Path, renders: dict[str, object], work: int = 100, one_game: bool = False) -> BuildPlan:
    """Fake documents, each of its own game (named after the document) unless ``one_game``."""
    from cardgen.catalog import content
    from cardgen.render import BuildOptions, plan_build
    from cardgen.render.build import PlannedDocument
    from cardgen.render.registry import Document

    resolved = plan_build(BuildOptions(out_dir=tmp_path, documents=("score-pad",))).resolved
    documents = tuple(
        PlannedDocument("fillory" if one_game else f"game-{name}",
                        Document(name, f"{name}.pdf", name, work=lambda c: work, render=render),  # type: ignore[arg-type]
                        content("fillory"), tmp_path / "fillory" / f"{name}.pdf", work)
        for name, render in renders.items())
    return BuildPlan(resolved, documents)


def _writes(text: str) -> object:
    def render(content: object, resolved: object, path: Path, progress: object) -> None:
        path.write_text(text, encoding="utf-8")
        progress(3)  # type: ignore[operator]
    return render


@pytest.fixture
def only_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in the CLI: no other thread runs (earlier tests in the session may have left one)."""
    import threading
    monkeypatch.setattr(threading, "active_count", lambda: 1)


def test_documents_go_to_processes_biggest_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       only_thread: None) -> None:
    from cardgen.render import BuildOptions, plan_build
    from cardgen.render.build import parallel_groups

    monkeypatch.setattr("os.cpu_count", lambda: 2)
    kit = plan_build(BuildOptions(out_dir=tmp_path, game="fillory"))
    assert [[kit.documents[i].document.name for i in group] for group in parallel_groups(kit)] == [
        ["deck"], ["reference", "score-pad"]]  # one game: its deck beside its sheets
    assert len(parallel_groups(plan_build(BuildOptions(out_dir=tmp_path, game="fillory", documents=("deck",))))) == 1
    renders = {name: _writes(name) for name in ("a", "b", "c")}
    one_game = _plan_with(tmp_path, renders, one_game=True)
    one_game = dataclasses.replace(one_game, documents=(
        one_game.documents[0], dataclasses.replace(one_game.documents[1], work=190), one_game.documents[2]))
    assert parallel_groups(one_game) == [[1], [0, 2]]  # the biggest document alone, the others together
    sheets = _plan_with(tmp_path, {name: _writes(name) for name in "abcdef"}, work=1, one_game=True)
    assert parallel_groups(sheets) == [[0, 2, 4], [1, 3, 5]]  # six sheets cost as much as 90 cards: three each
    assert len(parallel_groups(_plan_with(tmp_path, {"a": _writes("a"), "b": _writes("b")}, work=1, one_game=True))) == 1
    three = _plan_with(tmp_path, renders)
    assert parallel_groups(three) == [[0, 2], [1]]  # three documents, two cores: least loaded first
    assert len(parallel_groups(_plan_with(tmp_path, renders, work=10))) == 1  # too little work to repay a fork
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert len(parallel_groups(three)) == 1


def test_a_threaded_process_never_forks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from cardgen.render.build import parallel_groups

    monkeypatch.setattr("os.cpu_count", lambda: 4)
    plan = _plan_with(tmp_path, {"a": _writes("a"), "b": _writes("b")})
    with monkeypatch.context() as alone:
        alone.setattr(threading, "active_count", lambda: 1)
        assert len(parallel_groups(plan)) == 2
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert len(parallel_groups(plan)) == 1
    finally:
        stop.set()
        other.join()


def test_documents_written_by_other_processes_come_back_in_plan_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      only_thread: None) -> None:
    from cardgen.render.build import parallel_groups, run_build

    monkeypatch.setattr("os.cpu_count", lambda: 3)
    plan = _plan_with(tmp_path, {"a": _writes("first"), "b": _writes("second"), "c": _writes("third")})
    assert len(parallel_groups(plan)) == 3
    steps: list[int] = []
    paths = run_build(plan, steps.append)
    assert [p.read_text(encoding="utf-8") for p in paths] == ["first", "second", "third"]
    assert steps == [3, 3, 3]


def test_a_failure_in_another_process_is_raised_here_and_leaves_no_partial_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, only_thread: None) -> None:
    from cardgen.render.build import parallel_groups, run_build

    def explode(content: object, resolved: object, path: Path, progress: object) -> None:
        path.write_text("half", encoding="utf-8")
        raise RuntimeError("renderer broke")

    monkeypatch.setattr("os.cpu_count", lambda: 2)
    plan = _plan_with(tmp_path, {"good": _writes("fine"), "boom": explode})
    assert len(parallel_groups(plan)) == 2
    with pytest.raises(RuntimeError, match="^renderer broke$"):
        run_build(plan)
    assert sorted(p.name for p in (tmp_path / "fillory").iterdir()) == ["good.pdf"]
