"""Stable identities for findings that survive edits to unrelated prose.

GitHub code scanning matches alerts across runs by `partialFingerprints`. Ours hash the rule,
the document's identity (its `id`, else its path) and the key or target the finding is about,
never the line text or the line number, so moving prose does not reopen an alert.
"""

from __future__ import annotations

from headwater.check.finding import Finding
from headwater.hashing import sha256_hex


def primary_hashes(findings: tuple[Finding, ...], identity: dict[str, str]) -> list[str]:
    """One `primaryLocationLineHash` per finding, in order; repeats are numbered `:2`, `:3`…"""
    seen: dict[str, int] = {}
    hashes = []
    for finding in findings:
        who = identity.get(finding.path, finding.path)
        base = sha256_hex("\0".join((finding.rule, who, finding.subject)).encode("utf-8"))[:16]
        seen[base] = seen.get(base, 0) + 1
        hashes.append(f"{base}:{seen[base]}")
    return hashes
