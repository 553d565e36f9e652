"""An adr-tools repository: adr-tools reads a record's title off line 1, where `adopt` writes front
matter, so `init` says so before and `adopt` as it writes (HW-DR-0065)."""

from __future__ import annotations

import subprocess

import pytest
from adoption_harness import NOW, headwater, unpack

READERS = ("  `.adr-dir` names `doc/adr`, adr-tools' folder of records: `adr generate toc`, `adr generate graph`, "
           "`adr link` and `adr new -s`/`-l` read a record's title there with `head -1`\n")
INSTEAD = ("  instead: each title stays in the front matter's `title`; write links between records as `relations:` "
           "in front matter (`headwater new --relates` writes both ends, `headwater check` keeps them true), and "
           "after each `adr new` run `headwater adopt` (the new record's front matter and links), then "
           "`headwater check --fix` (the state of a record it superseded)\n")


def _written(verb: str) -> str:
    return (f"  {verb} front matter on line 1 of 9 records in `doc/adr`, so those commands then print `-` for "
            "their titles; `adr new` without `-s`/`-l` and `adr list` keep working\n")


def test_init_and_adopt_say_which_adr_tools_commands_read_the_line_front_matter_takes(tmp_path):
    top = unpack("adr-tools", tmp_path)
    (top / ".adr-dir").write_text("doc/adr\n")  # as the adr-tools repository itself keeps it
    first = top / "doc/adr/0001-record-architecture-decisions.md"
    assert first.read_text().startswith("# 1. Record architecture decisions\n")
    ran = headwater(top, "init")
    assert ran.status == 0, ran.err
    told = "\nadr-tools reads a record's title off its first line\n" + READERS
    assert told + _written("`headwater adopt` writes") + INSTEAD + "\nNext: run `headwater adopt`" in ran.out, ran.out
    dry = headwater(top, "adopt", "--dry-run", "--now", NOW)
    assert dry.status == 0 and told + _written("this run would write") + INSTEAD in dry.out, dry.out
    adopted = headwater(top, "adopt", "--now", NOW)
    assert adopted.status == 0, adopted.err
    assert "\nwrote front matter into 9 records" + told + _written("this run wrote") + INSTEAD in adopted.out
    assert first.read_text().split("\n")[0][2:] == "-"  # what `head -1 | cut -c 3-` now reads as the title
    again = headwater(top, "adopt", "--now", NOW)  # line 1 is front matter already: nothing more to say
    assert again.status == 0 and "adr-tools" not in again.out, again.out


def test_adr_tools_default_folder_is_named_as_its_default_when_no_adr_dir_names_one(tmp_path):
    top = unpack("adr-tools", tmp_path)
    ran = headwater(top, "init", "--dry-run")
    assert ran.status == 0, ran.err
    assert ("  `doc/adr` is adr-tools' folder of records where no `.adr-dir` names another: `adr generate toc`"
            in ran.out), ran.out


@pytest.mark.parametrize("layout", ["an .adr-dir naming another folder", "records outside doc/adr",
                                    "records not opening with adr-tools' title line"])
def test_records_adr_tools_does_not_read_get_no_word_about_it(tmp_path, layout):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    folder = "docs/decisions" if layout == "records outside doc/adr" else "doc/adr"
    (tmp_path / folder).mkdir(parents=True)
    numbered = layout != "records not opening with adr-tools' title line"
    for n in (1, 2, 3):
        title = f"{n}. Use thing {n}" if numbered else f"Use thing {n}"
        (tmp_path / folder / f"000{n}-use-thing-{n}.md").write_text(
            f"# {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n")
    if layout == "an .adr-dir naming another folder":
        (tmp_path / ".adr-dir").write_text("architecture/decisions\n")
    ran = headwater(tmp_path, "init")
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert ran.status == 0 and adopted.status == 0, ran.err + adopted.err
    assert "wrote front matter into 3 records" in adopted.out
    assert "adr-tools" not in ran.out + adopted.out


@pytest.mark.parametrize("mark", ["the team's template", ".adr-dir"])
def test_a_team_whose_template_writes_no_number_is_known_by_adr_tools_other_marks(tmp_path, mark):
    """`adr new` fills `templates/template.md` in the folder of records; one whose line 1 is `# TITLE`
    writes records opening `# Use thing 1`, whose titles adr-tools still reads off line 1."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "doc/adr/templates").mkdir(parents=True)
    for n in (1, 2, 3):
        (tmp_path / f"doc/adr/000{n}-use-thing-{n}.md").write_text(
            f"# Use thing {n}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n")
    if mark == ".adr-dir":
        (tmp_path / ".adr-dir").write_text("doc/adr\n")
    else:
        (tmp_path / "doc/adr/templates/template.md").write_text("# TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n")
    ran = headwater(tmp_path, "init")
    assert ran.status == 0, ran.err
    written = ("front matter on line 1 of 3 records in `doc/adr`, so those commands then print `-` for their titles; "
               "`adr new` without `-s`/`-l` and `adr list` keep working\n")
    assert "\nadr-tools reads a record's title off its first line\n" in ran.out, ran.out
    assert "  `headwater adopt` writes " + written + INSTEAD in ran.out, ran.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and "  this run wrote " + written in adopted.out, adopted.out
