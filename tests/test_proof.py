"""``cardgen proof`` (issue 26): a contact sheet per deck, the back first, every card with its number and id."""

from __future__ import annotations

import math
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.catalog import content
from cardgen.cli import main


def test_a_contact_sheet_per_deck_names_every_card(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["proof", "--game", "mandragora", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "mandragora").iterdir())
    assert names == ["proof-items.pdf", "proof-spells.pdf"]
    cards = content("mandragora").cards
    for deck, ids in (("items", [c.id for c in cards if c.kind != "spell"]),
                      ("spells", [c.id for c in cards if c.kind == "spell"])):
        reader = PdfReader(tmp_path / "mandragora" / f"proof-{deck}.pdf")
        per_page = 20
        assert len(reader.pages) == math.ceil((len(ids) + 1) / per_page)
        text = "\n".join(page.extract_text() for page in reader.pages)
        assert "back\n" in text or text.count("back") >= 1
        for n, card_id in enumerate(ids, 1):
            assert f"{n} · {card_id}" in text, card_id
