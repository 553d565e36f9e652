"""The rule reference, from the registry: one rule's page (`headwater rule <id>`), the list
(`--list`), the whole page `docs/rules.md`, and the address SARIF's `helpUri` gives each rule.

`headwater rule --all > docs/rules.md` regenerates the page; a test holds the file to it.
"""

from __future__ import annotations

from headwater import REPOSITORY, RULES_PAGE
from headwater.check.rule import Rule
from headwater.corpus.body import github_slug

VERSION = "1.0"  # of the `rule --json` document's shape

PAGE_HEAD = """# headwater rules

Every rule this engine carries, in report order, generated from the rule registry by
`headwater rule --all > docs/rules.md` (a test fails when this page and the registry differ).
`headwater rule <id>` prints one of these sections; `headwater rule --list` lists them.
Severity is the usual one: a finding may carry another. Precision says how often a finding is a
true problem; GitHub code scanning sorts alerts by it.
"""


def help_uri(rule: Rule) -> str:
    return f"{REPOSITORY}/blob/main/{RULES_PAGE}#{github_slug(rule.id)}"


def facts(rule: Rule) -> str:
    fix = "a mechanical patch (`--fix`)" if rule.patch else "by hand"
    change = "; needs `--change`" if rule.needs_change else ""
    return (f"`{rule.name}` · {rule.severity.value} · {rule.scope.value} scope · version {rule.version} · "
            f"precision {rule.precision.value} · fixed {fix}{change} · tags {', '.join(rule.tags)}")


def section(rule: Rule, level: int = 1) -> str:
    """One rule as markdown: heading, facts, short and full description, help."""
    return (f"{'#' * level} {rule.id}\n\n{facts(rule)}\n\n**{rule.short}**\n\n{rule.full}\n\n{rule.help}\n")


def listing(rules: tuple[Rule, ...]) -> str:
    width = max(len(r.id) for r in rules)
    return "".join(f"{r.id.ljust(width)}  {r.severity.value:<5}  {r.short}\n" for r in rules)


def page(rules: tuple[Rule, ...]) -> str:
    return PAGE_HEAD + "".join("\n" + section(r, 2) for r in rules)


def document(rules: tuple[Rule, ...]) -> dict:
    """`rule --json`'s document, one shape for one rule, `--list` and `--all`: a rule's own
    `version` (its behaviour's) sits in its entry, so the top level names the document's shape."""
    return {"version": VERSION, "rules": [as_json(r) for r in rules]}


def as_json(rule: Rule) -> dict:
    return {"rule": rule.id, "name": rule.name, "severity": rule.severity.value, "scope": rule.scope.value,
            "version": rule.version, "precision": rule.precision.value, "fixable": rule.patch,
            "needs_change": rule.needs_change, "tags": list(rule.tags), "short": rule.short, "full": rule.full,
            "help": rule.help, "help_uri": help_uri(rule)}
