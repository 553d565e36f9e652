"""Adoption replayed on the real archives as a team might keep them: the same records, in a shape
the archive does not have but a team's repository often does. Each unpacks its own copy."""

from __future__ import annotations

import re

from adoption_harness import NOW, headwater, unpack


def test_madr_records_carrying_madr_front_matter_adopt_with_the_supersession_their_status_names(tmp_path):
    """MADR's template puts `status` and `date` in front matter, and a replaced record's status
    names its successor (`superseded by ADR-0013`)."""
    root = unpack("madr", tmp_path)
    for record in sorted((root / "docs/decisions").glob("00*.md")):
        status = '"superseded by ADR-0013"' if record.name.startswith("0005-") else "accepted"
        text = record.read_text(encoding="utf-8")
        if not re.search(r"^status:", text, re.MULTILINE):  # 0003 keeps its own `on hold`
            text = text.replace("---\n", f"---\nstatus: {status}\ndate: 2023-05-01\n", 1)
        record.write_text(text, encoding="utf-8")
    init = headwater(root, "init")
    assert init.status == 0 and "superseded by" not in init.out, init.out
    assert "  facet date: the records carry `date`" in init.out
    adopted = headwater(root, "adopt", "--now", NOW)
    assert adopted.status == 0, adopted.err
    assert ("adopted docs/decisions/0005-use-dashes-in-filenames.md: status superseded (was `superseded by "
            "ADR-0013`), title, id ADR-0005, superseded_by ADR-0013\n") in adopted.out, adopted.out
    checked = headwater(root, "check", "--strict", "--now", NOW)
    assert checked.status == 0 and "\n  0 findings" in checked.out, checked.out
    assert "superseded_by" in headwater(root, "related", "ADR-0005").out


def test_log4brains_records_renamed_adr_nnn_keep_their_numbers_and_their_chain(tmp_path):
    """The log4brains records named `ADR-001-slug.md` in date order, their links following."""
    root = unpack("log4brains", tmp_path)
    adr = root / "docs/adr"
    dated = sorted(p.name for p in adr.glob("20*.md"))
    renamed = {name: f"ADR-{n:03d}-{name.split('-', 1)[1]}" for n, name in enumerate(dated, start=1)}
    for old, new in renamed.items():
        text = (adr / old).read_text(encoding="utf-8")
        for before, after in renamed.items():
            text = text.replace(f"({before})", f"({after})")
        (adr / new).write_text(text, encoding="utf-8")
        (adr / old).unlink()
    init = headwater(root, "init")
    assert init.status == 0, init.err
    assert "  shelf decisions: 9 records in `docs/adr`, numbered `ADR-NNN-slug.md`" in init.out, init.out
    adopted = headwater(root, "adopt", "--now", NOW)
    assert adopted.status == 0 and "id ADR-004, superseded_by ADR-006\n" in adopted.out, adopted.out
    checked = headwater(root, "check", "--strict", "--now", NOW)
    assert checked.status == 0 and "\n  0 findings" in checked.out, checked.out
    written = headwater(root, "new", "decision", "--title", "Adopt headwater", "--summary", "S.", "--now", NOW)
    assert written.status == 0 and written.out.startswith("wrote docs/adr/ADR-010-adopt-headwater.md\n"), written.out
