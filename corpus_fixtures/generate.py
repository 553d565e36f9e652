"""Write a deterministic governed repository of N documents on the embedded package.

    python corpus_fixtures/generate.py --docs 10000 --seed 1 /tmp/corpus-10k

The tree binds `headwater/standard` with the `diataxis` and `requirements` bundles and an
overlay giving every scheme a namespace; the lock is resolved in-process. Documents are
decisions in `supersedes` chains (both halves written, states consistent), specifications that
`governs` files under a generated `src/` tree, guides (`doc_type` picks the kind) that
`traces_to` a current decision or specification, and requirements paired with acceptance
criteria through `verified_by` / `verifies`. Every document carries its required sections,
relative links with `#fragments` to other documents, and a summary from a word bank; every
identifier has its claim file.

About 2% of the documents carry one deliberate defect each, cycling through the rule
families (see DEFECTS). `generator.json` at the root lists them, so a test can count them.

Same `--docs` and `--seed` give a byte-identical tree: one seeded random stream drives every
choice, and nothing reads the clock.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import posixpath
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

NAMESPACE = "GEN"
TODAY = dt.date(2026, 10, 1)  # the date the corpus is fresh on; pass `--now 2026-10-01`
DEFECT_RATE = 0.02
SCHEMES = ("decision_id", "specification_id", "requirement_id", "acceptance_criterion_id")
# kind → (share of the corpus, shelf directory, id infix or None)
KINDS = {
    "decision": (0.25, "docs/decisions", "DR"),
    "specification": (0.20, "docs/specifications", "SPEC"),
    "guide": (0.25, "docs/guides", None),
    "requirement": (0.15, "docs/requirements", "REQ"),
    "acceptance_criterion": (0.15, "docs/acceptance-criteria", "AC"),
}
SECTIONS = {
    "decision": ("Context", "Decision", "Consequences"),
    "specification": ("Scope", "Behavior"),
    "tutorial": ("What you will build", "Steps"),
    "how_to": ("Steps",),
    "reference": ("Overview",),
    "explanation": ("Background",),
    "requirement": ("Requirement", "Rationale"),
    "acceptance_criterion": ("Fit criterion", "Method"),
}
DOC_TYPES = ("tutorial", "how_to", "reference", "explanation")
DEFECTS = (
    "missing_facet",        # a required facet (`summary`) is absent
    "bad_enum_value",       # `status` takes a value the vocabulary does not admit
    "missing_section",      # a required section heading is absent
    "unresolved_target",    # a relation names an identifier no document carries
    "missing_far_half",     # a `supersedes` / `verified_by` pair with one half dropped
    "broken_link",          # a relative link to a file that does not exist
    "broken_fragment",      # a relative link to a heading the target does not have
    "retired_term",         # the body says `whitelist`
    "stale_last_verified",  # `last_verified` long before TODAY
)

AREAS = (
    "ingest", "queue", "billing", "auth", "search", "export", "scheduler", "cache", "storage",
    "gateway", "notifications", "reporting", "audit", "identity", "payments", "catalog",
    "inventory", "pricing", "shipping", "ledger", "metrics", "tracing", "config", "webhooks",
    "sessions", "uploads", "thumbnails", "mailer", "tenancy", "quotas", "backups", "replication",
)
OBJECTS = (
    "retry budget", "rate limit", "delivery attempt", "tenant quota", "session token", "audit record",
    "price table", "shipping label", "ledger entry", "webhook signature", "upload chunk", "cache key",
    "backup snapshot", "replica lag", "search index", "export batch", "schedule window", "config value",
    "trace span", "metric sample", "invoice line", "payment intent", "catalog item", "stock level",
)
VERBS = (
    "validates", "stores", "retries", "orders", "expires", "signs", "batches", "throttles",
    "deduplicates", "partitions", "compresses", "indexes", "reconciles", "forwards", "records",
)
CONDITIONS = (
    "a downstream service times out", "two writers race for the same row", "a tenant exceeds its quota",
    "the clock of a replica drifts", "a message arrives twice", "the payload is larger than one page",
    "a credential expires mid-request", "the disk is almost full", "a region is unreachable",
)
QUALITIES = (
    "bounded", "idempotent", "ordered", "durable", "observable", "auditable", "reversible", "cheap",
)
SENTENCES = (
    "The {area} service {verb} each {obj} before it leaves the process.",
    "Every {obj} carries the tenant it belongs to, so the {area} service never mixes tenants.",
    "When {cond}, the {area} service keeps the {obj} and answers with a clear error.",
    "The {obj} stays {quality}, which keeps operators able to reason about the {area} service.",
    "Operators read the {obj} from the {area} dashboard and act on it within one shift.",
    "The {area} service {verb} the {obj} in one transaction with the record it describes.",
)


@dataclass
class Doc:
    index: int
    kind: str  # the kind written in front matter terms (a guide's kind is its doc_type)
    path: str
    title: str
    area: str
    identifier: str | None = None
    doc_type: str | None = None
    status: str = "current"
    status_since: dt.date = TODAY
    last_verified: dt.date = TODAY
    summary: str = ""
    warrant: str = "asserted"
    relations: dict[str, list] = field(default_factory=dict)
    sections: list[str] = field(default_factory=list)
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (path, fragment, title)
    defect: str | None = None
    retired_term: bool = False


# -- planning ---------------------------------------------------------------------------------


def counts(total: int) -> dict[str, int]:
    shares = {kind: int(total * spec[0]) for kind, spec in KINDS.items()}
    shares["decision"] += total - sum(shares.values())
    return shares


def slugify(title: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in title.lower()).split())


def github_slug(heading: str) -> str:
    kept = "".join(c for c in heading.strip().lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


class Planner:
    def __init__(self, total: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.total = total
        self.areas = AREAS[: max(4, min(len(AREAS), total // 40))]
        self.modules: dict[str, list[str]] = {}
        self.docs: list[Doc] = []

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def sentence(self, area: str) -> str:
        return self.pick(SENTENCES).format(area=area, verb=self.pick(VERBS), obj=self.pick(OBJECTS),
                                           cond=self.pick(CONDITIONS), quality=self.pick(QUALITIES))

    def dates(self) -> tuple[dt.date, dt.date]:
        since = TODAY - dt.timedelta(days=self.rng.randrange(30, 400))
        age = (TODAY - since).days
        return since, TODAY - dt.timedelta(days=self.rng.randrange(0, min(150, age)))

    def new_doc(self, kind: str, seq: int) -> Doc:
        area = self.pick(self.areas)
        obj = self.pick(OBJECTS)
        title = f"{self.pick(QUALITIES).capitalize()} {area} {obj} {seq}"
        _, shelf, infix = KINDS[kind]
        doc_type = self.pick(DOC_TYPES) if kind == "guide" else None
        if kind in ("guide", "specification"):
            path = f"{shelf}/{area}/{slugify(title)}.md"
        else:
            path = f"{shelf}/{seq:04d}-{slugify(title)}.md"
        identifier = f"{NAMESPACE}-{infix}-{seq:04d}" if infix else None
        since, verified = self.dates()
        doc = Doc(len(self.docs), doc_type or kind, path, title, area, identifier, doc_type,
                  status_since=since, last_verified=verified)
        verb, cond = self.pick(VERBS), self.pick(CONDITIONS)
        doc.summary = f"How the {area} service {verb} each {obj}, and what happens when {cond}."
        doc.sections = list(SECTIONS[doc.kind])
        if self.rng.random() < 0.3:
            doc.warrant = "accepted"
        return doc

    def plan(self) -> list[Doc]:
        by_kind: dict[str, list[Doc]] = {}
        for kind, number in counts(self.total).items():
            by_kind[kind] = [self.new_doc(kind, seq) for seq in range(1, number + 1)]
            for doc in by_kind[kind]:
                doc.index = len(self.docs)
                self.docs.append(doc)
        self.chain_decisions(by_kind["decision"])
        self.govern(by_kind["specification"])
        self.pair(by_kind["requirement"], by_kind["acceptance_criterion"])
        live = [d for d in by_kind["decision"] + by_kind["specification"] if d.status == "current"]
        for doc in by_kind["guide"] + by_kind["specification"]:
            if live and (doc.kind != "specification" or self.rng.random() < 0.5):
                target = self.pick(live)
                if target is not doc:
                    cue = f"why the {target.area} service behaves this way"
                    doc.relations.setdefault("traces_to", []).append({"to": target.identifier, "cue": cue})
        for doc in self.docs:
            for _ in range(self.rng.randrange(1, 4)):
                target = self.pick(self.docs)
                if target is not doc:
                    doc.links.append((target.path, github_slug(self.pick(target.sections)), target.title))
        self.plant_defects()
        return self.docs

    def chain_decisions(self, decisions: list[Doc]) -> None:
        position = 0
        while position < len(decisions):
            length = min(self.pick((1, 1, 1, 2, 2, 3, 4)), len(decisions) - position)
            chain = decisions[position : position + length]
            for older, newer in zip(chain, chain[1:], strict=False):
                older.status = "superseded"
                newer.relations.setdefault("supersedes", []).append(older.identifier)
                older.relations.setdefault("superseded_by", []).append(newer.identifier)
                newer.status_since = max(newer.status_since, older.status_since)
            position += length

    def govern(self, specifications: list[Doc]) -> None:
        for spec in specifications:
            modules = self.modules.setdefault(spec.area, [])
            module = f"src/{spec.area}/{slugify(self.pick(OBJECTS)).replace('-', '_')}_{len(modules)}.py"
            modules.append(module)
            entry: str | list[str] = f"src/{spec.area}/**" if self.rng.random() < 0.2 else [module]
            if self.rng.random() < 0.3:  # stamped: `relation.target.suspect` hashes what it matches
                entry = {"to": entry, "verified_revision": None}
            spec.relations["governs"] = [entry]

    def pair(self, requirements: list[Doc], criteria: list[Doc]) -> None:
        for requirement, criterion in zip(requirements, criteria, strict=True):
            requirement.relations["verified_by"] = [criterion.identifier]
            criterion.relations["verifies"] = [requirement.identifier]

    def plant_defects(self) -> None:
        """About DEFECT_RATE of the documents, one defect each, the families in turn."""
        wanted = max(len(DEFECTS), round(self.total * DEFECT_RATE)) if self.total >= 50 else 0
        paired = [d.index for d in self.docs if {"superseded_by", "verifies"} & d.relations.keys()]
        taken: set[int] = set()
        for number in range(wanted):
            family = DEFECTS[number % len(DEFECTS)]
            pool = paired if family == "missing_far_half" else range(len(self.docs))
            index = self.pick(pool)
            while index in taken:
                index = self.pick(pool)
            taken.add(index)
            self.docs[index].defect = family
            self.apply(self.docs[index])

    def apply(self, doc: Doc) -> None:
        if doc.defect == "missing_far_half":
            half = "superseded_by" if "superseded_by" in doc.relations else "verifies"
            del doc.relations[half]
        elif doc.defect == "unresolved_target":
            doc.relations.setdefault("traces_to", []).append(
                {"to": f"{NAMESPACE}-DR-{self.total * 10 + doc.index:04d}", "cue": "a decision that was never written"})
        elif doc.defect == "missing_section":
            doc.sections = doc.sections[:-1] if len(doc.sections) > 1 else []
        elif doc.defect == "stale_last_verified":
            doc.last_verified = TODAY - dt.timedelta(days=400 + doc.index % 50)
            doc.status_since = min(doc.status_since, doc.last_verified)
        elif doc.defect == "broken_link":
            doc.links.append((posixpath.dirname(doc.path) + "/no-such-document.md", "", "a missing page"))
        elif doc.defect == "broken_fragment":
            target = self.docs[(doc.index + 1) % len(self.docs)]
            doc.links.append((target.path, "no-such-heading", target.title))
        elif doc.defect == "retired_term":
            doc.retired_term = True


# -- rendering --------------------------------------------------------------------------------


def quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def front_matter(doc: Doc) -> str:
    lines = ["---"]
    if doc.identifier:
        lines.append(f"id: {doc.identifier}")
    if doc.doc_type:
        lines.append(f"doc_type: {doc.doc_type}")
    status = "currnet" if doc.defect == "bad_enum_value" else doc.status
    lines += [f"status: {status}", f"status_since: {doc.status_since.isoformat()}"]
    if doc.defect != "missing_facet":
        lines.append(f"summary: {quoted(doc.summary)}")
    lines += [f"last_verified: {doc.last_verified.isoformat()}", f"title: {quoted(doc.title)}"]
    if doc.warrant == "accepted":
        lines.append("provenance: {warrant: accepted, accepted_by: a.reviewer}")
    else:
        lines.append("provenance: {warrant: asserted}")
    if doc.relations:
        lines.append("relations:")
        for name in sorted(doc.relations):
            lines.append(f"  {name}:")
            for entry in doc.relations[name]:
                lines.extend(_entry(entry))
    lines.append("---")
    return "\n".join(lines) + "\n"


def _entry(entry) -> list[str]:
    if isinstance(entry, dict):
        lines = [f"    - to: {_target(entry['to'])}"]
        return lines + [f"      {key}: {quoted(value)}" for key, value in entry.items() if key != "to"]
    return [f"    - {_target(entry)}"]


def _target(target: str | list[str]) -> str:
    return f"[{', '.join(target)}]" if isinstance(target, list) else target


def body(doc: Doc, planner: Planner) -> str:
    out = [f"\n# {doc.title}\n"]
    links = list(doc.links)
    for heading in doc.sections or ["Notes"]:
        sentences = [planner.sentence(doc.area) for _ in range(planner.rng.randrange(2, 5))]
        if links:
            path, fragment, title = links.pop()
            href = posixpath.relpath(path, posixpath.dirname(doc.path)) + (f"#{fragment}" if fragment else "")
            sentences.append(f"See [{title}]({href}) for the neighbouring rule.")
        if doc.retired_term and heading == (doc.sections or ["Notes"])[0]:
            sentences.append("Callers on the whitelist skip the check.")
        out.append(f"\n## {heading}\n\n" + " ".join(sentences) + "\n")
    for path, fragment, title in links:
        href = posixpath.relpath(path, posixpath.dirname(doc.path)) + (f"#{fragment}" if fragment else "")
        out.append(f"\nRelated: [{title}]({href}).\n")
    return "".join(out)


# -- writing ----------------------------------------------------------------------------------


class Writer:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: set[str] = set()

    def write(self, path: str, text: str) -> None:
        parent = posixpath.dirname(path)
        if parent not in self.made:
            (self.root / parent).mkdir(parents=True, exist_ok=True)
            self.made.add(parent)
        (self.root / path).write_bytes(text.encode("utf-8"))


def binding() -> dict[str, str]:
    declaration = (
        "taxonomy:\n  package: headwater/standard\n  version: 1.0.0\n"
        "  bundles: [diataxis, requirements]\n  overlay: .headwater/overlay.yml\n"
        "corpus:\n  root: docs\n  exclude:\n"
        '    - {path: "docs/archive/**", reason: "frozen material nobody governs"}\n'
    )
    overlay = "add:\n" + "".join(f"  identifier_schemes.{s}.namespace: {NAMESPACE}\n" for s in SCHEMES)
    return {".headwater/taxonomy.yml": declaration, ".headwater/overlay.yml": overlay}


def resolve_lock(root: Path) -> None:
    """Write the lock exactly as `headwater taxonomy resolve` would."""
    from headwater import atomic
    from headwater.taxonomy.declaration import LOCK
    from headwater.taxonomy.resolve import resolve

    resolution = resolve(root)
    if resolution.problems:
        raise SystemExit("generate: the generated taxonomy does not resolve: " + "; ".join(resolution.problems))
    atomic.write_bytes(root / LOCK, resolution.lock_text().encode("utf-8"), root=root)


def stamp_revisions(root: Path, docs: list[Doc]) -> None:
    """Record today's revision on stamped `governs` edges, as a re-read would."""
    from headwater.corpus.tree import SourceTree

    tree = SourceTree(root, ())
    for doc in docs:
        for entry in doc.relations.get("governs", []):
            if isinstance(entry, dict):
                patterns = entry["to"] if isinstance(entry["to"], list) else [entry["to"]]
                entry["verified_revision"] = tree.revision(tuple(m for p in patterns for m in tree.matches(p)))


def scheme_of(doc: Doc) -> str | None:
    if doc.identifier is None:
        return None
    return {"decision": "decision_id", "specification": "specification_id", "requirement": "requirement_id",
            "acceptance_criterion": "acceptance_criterion_id"}[doc.kind]


def generate(total: int, seed: int, out: Path) -> dict:
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"generate: {out} exists and is not empty; give a fresh directory")
    planner = Planner(total, seed)
    docs = planner.plan()
    writer = Writer(out)
    for path, text in binding().items():
        writer.write(path, text)
    for area, modules in sorted(planner.modules.items()):
        for module in modules:
            writer.write(module, f'"""The {area} {posixpath.basename(module)[:-3]} module."""\n\nNAME = "{module}"\n')
    stamp_revisions(out, docs)
    for doc in docs:
        writer.write(doc.path, front_matter(doc) + body(doc, planner))
        scheme = scheme_of(doc)
        if scheme:
            writer.write(f".headwater/ids/{scheme}/{doc.identifier}", doc.path + "\n")
    writer.write("docs/archive/old-notes.md", "# Old notes\n\nNothing here is governed.\n")
    resolve_lock(out)
    manifest = {
        "docs": total, "seed": seed, "today": TODAY.isoformat(),
        "defects": [{"path": d.path, "defect": d.defect} for d in docs if d.defect],
    }
    writer.write("generator.json", json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, required=True, help="how many documents")
    parser.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    parser.add_argument("out", type=Path, help="a fresh directory to write the repository into")
    args = parser.parse_args(argv)
    if args.docs < 1:
        parser.error("--docs takes a whole number of 1 or more")
    manifest = generate(args.docs, args.seed, args.out)
    sys.stdout.write(f"wrote {args.docs} documents ({len(manifest['defects'])} with a planted defect) "
                     f"to {args.out}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
