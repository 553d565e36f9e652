"""The fixtures of the rules read from the reference engine's registry (run by `fixtures.py`).

Each pair is written like every other rule's; `BRIEFS` and `BRIEF_FILES` are what `check-all`
adds so that it trips these rules too: a `brief` kind under a controlled language regime, a
participation expectation, a second state-setting relation, a consumer surface, an obligation
with no disposition, a control naming no rule, and an observations file.
"""

from __future__ import annotations

import hashlib

from fixtures import decision, doc, fixture

NEXT = "docs/decisions/0002-next.md"
THIRD = "docs/decisions/0003-third.md"
EXPECT = """\
  kinds.decision.relations:
    expect:
      - id: decision-constrains
        relation: constrains
        to_kind: decision
        when: {status: current}
        within: 30d
        since: state_entered
        severity: warn
        rationale: a decision that constrains nothing decided nothing
"""
RETIRES = """\
  relations.retires:
    family: succession
    from: [governed_document]
    to: [governed_document]
    on_target: {set_state: deprecated}
"""
SURFACE = """\
  surface:
    adopter_documents: ["docs/decisions/**"]
    local_roots: [tools/dev]
    commands: [headwater, git]
"""
OBLIGATION = """\
  obligations.OB-1:
    statement: Every required section is a heading
    rationale: A missing section is an unanswered question
    class: cohesion
    prevents: content.incomplete
    severity: high
"""
CONTROL = """\
  controls.CT-1:
    mechanism: {mechanism}
    discharges: [OB-1]
    trigger: pull_request
    posture: advisory
    acts: detective
"""
REGISTER = OBLIGATION + CONTROL.format(mechanism="check:section.required.missing")
TRACE = "  traces_to: [ACME-DR-0002]"
NOT_RELIANCE = "\n  conflicts_with: [ACME-DR-0003]\n  traced_by: [ACME-DR-0003]"
EVIDENCED = "{warrant: asserted, evidence_basis: evidenced}"
CONTROL_SEEN = "observations:\n  - {kind: control, control: CT-1, commit: 3f2a9c1}\n"
CONTROLLED = "  regimes.language.default.controlled: ASD-STE100\n  regimes.language.default.profile: house\n"
SOURCE_FORM = "  regimes.language.default.source_form: one_line_per_block\n"
OUTSIDE = "  regimes.language.default.outside_root: [README.md]\n"


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def verified(digest: str) -> str:
    return ("observations:\n  - kind: verification\n    document: ACME-DR-0001\n    criterion: ACME-DR-0002\n"
            f"    criterion_digest: \"{digest}\"\n    commit: 3f2a9c1\n")


def _pair(fail: dict, pass_: dict) -> dict:
    return {"fail": fail, "pass": pass_}


def reference_cases() -> dict[str, dict[str, dict]]:
    second = decision("ACME-DR-0002")
    return {
        "identifier.claim.stale": _pair(
            fixture({".headwater/ids/decision_id/ACME-DR-0001": "docs/decisions/0001-old-name.md\n"}),
            fixture({".headwater/ids/decision_id/ACME-DR-0007": "docs/decisions/0007-deleted.md\n"})),
        "relation.participation.overdue": _pair(
            fixture({"docs/decisions/0001-base.md": decision(since="2026-06-01")}, overlay_extra=EXPECT),
            fixture({"docs/decisions/0001-base.md": decision(since="2026-06-01",
                                                             relations="  constrains: [ACME-DR-0002]"),
                     NEXT: decision("ACME-DR-0002", since="2026-10-20")}, overlay_extra=EXPECT)),
        "relation.target.verification.suspect": _pair(
            fixture({"docs/decisions/0001-base.md": decision(relations=TRACE), NEXT: second,
                     ".headwater/observations.yml": verified("sha256:" + "0" * 64)}),
            fixture({"docs/decisions/0001-base.md": decision(relations=TRACE), NEXT: second,
                     ".headwater/observations.yml": verified(sha(second))})),
        "warrant.evidence.unsupported": _pair(
            fixture({"docs/decisions/0001-base.md": decision(relations=TRACE, warrant=EVIDENCED), NEXT: second}),
            fixture({"docs/decisions/0001-base.md": decision(relations=TRACE, warrant=EVIDENCED),
                     NEXT: decision("ACME-DR-0002", warrant="{warrant: transcribed}")})),
        "lifecycle.dependency.on_initial": _pair(
            fixture({"docs/decisions/0001-base.md": decision(relations=TRACE),
                     NEXT: decision("ACME-DR-0002", "draft")}),
            # what is no reliance on the draft: an association, and an inverse half (the draft traces to 0001)
            fixture({"docs/decisions/0001-base.md": decision(relations=TRACE + NOT_RELIANCE), NEXT: second,
                     THIRD: decision("ACME-DR-0003", "draft")})),
        "lifecycle.state.set_twice": _pair(
            fixture({"docs/decisions/0001-base.md": decision(relations="  supersedes: [ACME-DR-0003]"),
                     NEXT: decision("ACME-DR-0002", relations="  retires: [ACME-DR-0003]"),
                     THIRD: decision("ACME-DR-0003", "superseded")}, overlay_extra=RETIRES),
            fixture({"docs/decisions/0001-base.md": decision(relations="  supersedes: [ACME-DR-0003]"),
                     NEXT: decision("ACME-DR-0002", relations="  supersedes: [ACME-DR-0003]"),
                     THIRD: decision("ACME-DR-0003", "superseded")}, overlay_extra=RETIRES)),
        "language.controlled.not_met": _pair(
            fixture({"docs/decisions/0001-base.md": decision(
                prose="The check doesn't stop; the colour of a finding shows its weight.")}, overlay_extra=CONTROLLED),
            fixture({"docs/decisions/0001-base.md": decision(
                prose="The check does not stop. The color of a finding shows its weight.")}, overlay_extra=CONTROLLED)),
        "language.source_form.not_met": _pair(
            fixture({"docs/decisions/0001-base.md": decision(prose="This paragraph runs on\nacross two lines.")},
                    overlay_extra=SOURCE_FORM),
            fixture({"docs/decisions/0001-base.md": decision(prose="This paragraph stays on one line.")},
                    overlay_extra=SOURCE_FORM)),
        "language.outside_root.refused": _pair(
            fixture({}, overlay_extra=OUTSIDE),
            fixture({"README.md": "# The project\n\nIt keeps its decisions in docs.\n"}, overlay_extra=OUTSIDE)),
        "surface.local_path.instructed": _pair(
            fixture({"docs/decisions/0001-base.md": decision(prose="Run `tools/dev/lint.sh` before a commit.")},
                    overlay_extra=SURFACE),
            fixture({"docs/decisions/0001-base.md": decision(prose="Run `headwater check` before a commit.")},
                    overlay_extra=SURFACE)),
        "surface.command.undeclared": _pair(
            fixture({"docs/decisions/0001-base.md": decision(prose="```sh\nmake docs\n```")}, overlay_extra=SURFACE),
            fixture({"docs/decisions/0001-base.md": decision(
                prose="```console\n$ headwater check --strict\n0 findings\n```")}, overlay_extra=SURFACE)),
        "obligation.disposition.not_one": _pair(
            fixture({}, overlay_extra=OBLIGATION),
            fixture({}, overlay_extra=OBLIGATION + "    disposition:\n      gap: {owner: the docs team}\n")),
        "control.mechanism.unimplemented": _pair(
            fixture({}, overlay_extra=OBLIGATION + CONTROL.format(mechanism="check:section.heading.missing")),
            fixture({}, overlay_extra=REGISTER)),
        "control.observation.invalid": _pair(
            fixture({".headwater/observations.yml": "observations:\n  - {kind: probe, control: CT-1, commit: 3f2a9c1}\n"
                     "  - {kind: control, control: CT-9, commit: 3f2a9c1}\n"}, overlay_extra=REGISTER),
            fixture({".headwater/observations.yml": CONTROL_SEEN}, overlay_extra=REGISTER)),
    }


BRIEFS = """\
  regimes.language.plain:
    tag: en-US
    controlled: ASD-STE100
    source_form: one_line_per_block
    outside_root: [MISSING.md]
  kinds.brief:
    is_a: governed_document
    purpose: rationale
    identifier: {scheme: decision_id}
    language: plain
    relations:
      expect:
        - id: brief-traced
          relation: traces_to
          to_kind: specification
          when: {status: current}
          within: 30d
          since: state_entered
          rationale: a brief that traces to no specification informs nothing built
  shelves.briefs:
    path: docs/briefs/**
    homogeneous: true
    kind: brief
""" + RETIRES + SURFACE.replace("docs/decisions/**", "docs/briefs/**").replace(", git", "") + """\
  obligations.OB-1:
    statement: Every brief is read by its team
    rationale: An unread brief changes nothing
    class: cohesion
    prevents: process.maintenance
    severity: medium
""" + OBLIGATION.replace("OB-1", "OB-2") + CONTROL.format(mechanism="check:section.heading.missing").replace(
    "[OB-1]", "[OB-2]")


def _brief(id: str, status: str = "current", **more) -> str:
    return doc("brief", id, status, **more)


BRIEF_FILES = {
    "docs/briefs/evidenced.md": _brief(
        "ACME-DR-0018", since="2026-06-01", warrant=EVIDENCED, relations="  traces_to: [ACME-DR-0019]",
        prose="The brief doesn't wait\nfor the draft.\n\nRun `tools/dev/sync.sh` first.\n\n```sh\nmake brief\n```"),
    "docs/briefs/draft.md": _brief("ACME-DR-0019", "draft", prose="The draft is being written."),
    "docs/briefs/successor.md": _brief("ACME-DR-0020", relations="  supersedes: [ACME-DR-0022]"),
    "docs/briefs/retirer.md": _brief("ACME-DR-0021", relations="  retires: [ACME-DR-0022]"),
    "docs/briefs/old.md": _brief("ACME-DR-0022", "superseded"),
    ".headwater/ids/decision_id/ACME-DR-0019": "docs/briefs/renamed-draft.md\n",
    ".headwater/observations.yml": verified("sha256:" + "0" * 64).replace("ACME-DR-0001", "ACME-DR-0018").replace(
        "ACME-DR-0002", "ACME-DR-0019") + "  - {kind: probe, control: CT-1, commit: 3f2a9c1}\n",
}
