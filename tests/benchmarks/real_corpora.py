"""The real corpora the labelled route sets are written over, unpacked into a temporary directory.

Each archive in ../shared/corpora/ unpacks to one folder. For the documentation snapshots this
module lays the corpus's own taxonomy package (tests/route_sets/<name>/package) beside it,
declares it, and resolves the lock; the ADR repositories are bound as a team adopting headwater
binds them, by `headwater init` and `headwater adopt` (the taxonomy and front matter those write).
Either way the folder is a repository headwater can read. Nothing is written into the project tree.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

from headwater.taxonomy.declaration import LOCK
from headwater.taxonomy.resolve import resolve

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "tests" / "route_sets"
ARCHIVES = REPO.parent / "shared" / "corpora"


@dataclass(frozen=True)
class RealCorpus:
    name: str  # the archive's name, and the folder of its labels and package here
    package: str | None  # None: bound by `init` and `adopt`, as a team adopting headwater binds it
    corpus_root: str = ""
    exclude: tuple[tuple[str, str], ...] = ()  # (pattern, reason)
    sidecars: bool = False  # KEP metadata lives in kep.yaml beside each README

    @property
    def archive(self) -> Path:
        return ARCHIVES / f"{self.name}.tar.gz"

    @property
    def labels(self) -> dict:
        return self.labels_in("labels.yml")

    def labels_in(self, file: str) -> dict:
        return YAML(typ="safe").load((HERE / self.name / file).read_text(encoding="utf-8"))


DAPR = RealCorpus("dapr-docs", "dapr/docs", "daprdocs/content/en")
KEPS = RealCorpus("kubernetes-enhancements", "kubernetes/keps", "keps",
                  exclude=(("keps/NNNN-kep-template/**", "the blank KEP template, not a proposal"),
                           ("keps/sig-cloud-provider/providers/0000-cloud-provider-template/**",
                            "the blank cloud provider template, not a proposal")),
                  sidecars=True)
REAL = (DAPR, KEPS)
ADOPTED = (RealCorpus("madr", None), RealCorpus("adr-tools", None), RealCorpus("log4brains", None))
ADOPTED_ON = "2026-11-01"  # the run date `adopt` reads the records on, so no measurement depends on the day


@dataclass(frozen=True)
class LabelledSet:
    """One labelled set over a real corpus, and how it stands to the tuning: `tuned` (route's
    constants were chosen on it), `seen` (looked at while route was improved, so no longer a
    test) or `held out` (written and committed before any system ran over it, never tuned on)."""

    key: str
    corpus: RealCorpus
    file: str
    standing: str

    @property
    def labels(self) -> dict:
        return self.corpus.labels_in(self.file)


SETS = (LabelledSet("dapr-docs", DAPR, "labels.yml", "tuned"),
        LabelledSet("dapr-docs-held-out", DAPR, "held-out.yml", "seen"),
        LabelledSet("kubernetes-enhancements", KEPS, "labels.yml", "seen"),
        LabelledSet("kubernetes-enhancements-held-out", KEPS, "held-out.yml", "seen"),
        LabelledSet("kubernetes-enhancements-third", KEPS, "third.yml", "seen"),
        LabelledSet("dapr-docs-third", DAPR, "third.yml", "seen"),
        LabelledSet("kubernetes-enhancements-fourth", KEPS, "fourth.yml", "seen"),
        LabelledSet("dapr-docs-fourth", DAPR, "fourth.yml", "seen"),
        LabelledSet("kubernetes-enhancements-fifth", KEPS, "fifth.yml", "seen"),
        LabelledSet("dapr-docs-fifth", DAPR, "fifth.yml", "seen"),
        LabelledSet("kubernetes-enhancements-sixth", KEPS, "sixth.yml", "seen"),
        LabelledSet("dapr-docs-sixth", DAPR, "sixth.yml", "seen"),
        LabelledSet("kubernetes-enhancements-seventh", KEPS, "seventh.yml", "seen"))
ADOPTED_SETS = (*(LabelledSet(corpus.name, corpus, "labels.yml", "seen") for corpus in ADOPTED),
                *(LabelledSet(f"{corpus.name}-second", corpus, "second.yml", "seen") for corpus in ADOPTED),
                *(LabelledSet(f"{corpus.name}-third", corpus, "third.yml", "seen") for corpus in ADOPTED),
                *(LabelledSet(f"{corpus.name}-fourth", corpus, "fourth.yml", "held out") for corpus in ADOPTED))


def unpack(corpus: RealCorpus, into: Path) -> Path:
    """Unpack the archive under `into` and make it a repository with a resolved lock; its root."""
    with tarfile.open(corpus.archive) as archive:
        # The "data" filter exists from Python 3.11.4; the archives are ours, so older 3.11s unpack plainly.
        extra = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(into, **extra)
    root = into / corpus.name
    if corpus.package is None:
        return _adopted(root)
    shutil.copytree(HERE / corpus.name / "package", root / ".headwater" / "packages" / corpus.name)
    overlay = HERE / corpus.name / "overlay.yml"
    if overlay.is_file():
        shutil.copyfile(overlay, root / ".headwater" / "overlay.yml")
    exclude = "".join(f"    - {{path: \"{p}\", reason: \"{r}\"}}\n" for p, r in corpus.exclude)
    declared = (f"taxonomy:\n  package: {corpus.package}\n  version: 1.0.0\n  bundles: []\n"
                + ("  overlay: .headwater/overlay.yml\n" if overlay.is_file() else "")
                + f"corpus:\n  root: {corpus.corpus_root}\n" + (f"  exclude:\n{exclude}" if exclude else ""))
    (root / ".headwater" / "taxonomy.yml").write_text(declared, encoding="utf-8")
    if corpus.sidecars:
        kep_sidecars_to_front_matter(root)
    resolution = resolve(root)
    assert not resolution.problems, resolution.problems
    (root / LOCK).write_text(resolution.lock_text(), encoding="utf-8")
    return root


def _adopted(root: Path) -> Path:
    for verb in (("init",), ("adopt", "--now", ADOPTED_ON)):
        ran = subprocess.run([sys.executable, "-m", "headwater", *verb, "--root", str(root)],
                             capture_output=True, text=True, timeout=300)
        assert ran.returncode == 0, ran.stdout + ran.stderr
    return root


def kep_sidecars_to_front_matter(root: Path) -> None:
    """Stand-in until the census reads sidecars itself: each KEP's kep.yaml title, status,
    number and `replaces` written as front matter of the README beside it (the `## Summary`
    section stays in the body)."""
    yaml = YAML(typ="base")  # every scalar a string: some kep.yaml dates are not dates
    for sidecar in sorted(root.glob("keps/**/kep.yaml")):
        readme = sidecar.parent / "README.md"
        meta = yaml.load(sidecar.read_text(encoding="utf-8")) or {}
        if not readme.is_file() or not isinstance(meta, dict) or not meta.get("kep-number"):
            continue
        front = {"id": f"KEP-{meta.get('kep-number')}", "title": str(meta.get("title") or ""),
                 "status": str(meta.get("status") or "").split("#")[0].strip()}
        replaced = [f"KEP-{_number(path)}" for path in meta.get("replaces") or [] if _number(path)]
        lines = ["---"] + [f"{key}: {_quoted(value)}" for key, value in front.items()]
        if replaced:
            lines += ["relations:", "  replaces:"] + [f"    - {target}" for target in replaced]
        body = readme.read_text(encoding="utf-8")
        readme.write_text("\n".join(lines + ["---", ""]) + body, encoding="utf-8")


def _number(path) -> str:
    """`/keps/sig-network/536-topology-aware-routing` → `536`."""
    return str(path).rstrip("/").rsplit("/", 1)[-1].split("-", 1)[0]


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
