"""The overlay `init` infers from the records it found, with one sentence per line of it.

Every name comes from the package tree (the facet in the `state` role, the shelf laid out as
numbered records, the states relations set): nothing here names a facet, kind or shelf.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from headwater.adoption import forms
from headwater.adoption.infer import STATUS_ROLES, Inference, Record, RecordShelf
from headwater.frozen import frozen
from headwater.taxonomy.model import SUMMARY_ROLE

LIVE, INITIAL, TERMINAL = "live", "initial", "terminal-retained"


@frozen
class Inferred:
    add: dict
    override: dict
    remove: tuple[str, ...]
    exclusions: tuple[tuple[str, str], ...]  # (path, reason) for the declaration
    said: tuple[str, ...]
    scheme: str | None = None  # the identifier scheme of the records


@dataclass
class _Draft:
    """An `Inferred` being gathered, one inference at a time."""

    add: dict = field(default_factory=dict)
    override: dict = field(default_factory=dict)
    remove: list[str] = field(default_factory=list)
    exclusions: list[tuple[str, str]] = field(default_factory=list)
    said: list[str] = field(default_factory=list)


def facet_for_role(tree: dict, role: str) -> str | None:
    return next((name for name, facet in (tree.get("facets") or {}).items()
                 if isinstance(facet, dict) and facet.get("role") == role), None)


def _chain(tree: dict, kind: str) -> list[tuple[str, dict]]:
    kinds, out, seen = tree.get("kinds") or {}, [], set()
    while kind in kinds and kind not in seen:
        seen.add(kind)
        out.append((kind, kinds[kind]))
        kind = kinds[kind].get("is_a")
    return out


def record_shelf(tree: dict) -> tuple[str, dict] | None:
    """The package's shelf of numbered records: homogeneous, laid out with a sequence."""
    return next(((name, shelf) for name, shelf in (tree.get("shelves") or {}).items()
                 if isinstance(shelf, dict) and shelf.get("homogeneous") and "{seq" in str(shelf.get("layout", ""))),
                None)


def _carried(record: Record, facet: str, role: str) -> str | None:
    """A record's value for a facet: its front matter, else what its body form says."""
    if record.keys.get(facet):
        named = forms.named_successor(record.keys[facet]) if role == "state" else None
        return named[0] if named else record.keys[facet]
    return {"state": record.derived.status, "state_entered": record.derived.date}.get(role)


def _lifecycle(tree: dict, kind: str, shelf: RecordShelf, counts: Counter[str], state: str,
               inferred: _Draft) -> None:
    """The lifecycle of the team's own statuses: those its records carry and those its template
    offers, since a state no record has reached yet (MADR's `accepted`) is still one it writes."""
    regime = next((k.get("lifecycle") for _, k in _chain(tree, kind) if k.get("lifecycle")), None)
    values = (tree.get("facets") or {}).get(state, {}).get("values")
    if regime is None or not (counts or shelf.offered):
        return
    carried = _spelled(counts, inferred)
    spelling = _spellings(counts)  # a word as the records write it: `Accepted` where the template offers `accepted`
    statuses = list(dict.fromkeys(spelling.get(s.casefold(), s) for s in [*shelf.offered, *carried]))
    needed = {str((r.get("on_target") or {}).get("set_state")) for r in (tree.get("relations") or {}).values()
              if isinstance(r, dict) and (r.get("on_target") or {}).get("set_state")}
    roles = {s: STATUS_ROLES.get(s.casefold(), LIVE) for s in statuses}
    for relation, set_state in _successor_words(tree, counts):
        inferred.override[f"relations.{relation}.on_target.set_state"] = set_state
        inferred.said.append(f"relation {relation} sets `{set_state}`, the team's word for a record another "
                             "replaced")
        needed.discard(str(tree["relations"][relation]["on_target"]["set_state"]))
    own = dict(roles)  # what the records carry and the template offers, before anything is added
    held = {r.casefold() for r in roles}
    roles.update({s: TERMINAL for s in sorted(needed) if s.casefold() not in held})
    initial = next((s for s in statuses if roles[s] == INITIAL), None)
    if initial is None:
        initial = "proposed"
        roles = {initial: INITIAL, **roles}
    vocabulary = [{"value": value, "role": role} for value, role in roles.items()]
    terminal = [s for s, r in roles.items() if r.startswith("terminal")]
    moving = [s for s, r in roles.items() if not r.startswith("terminal")]
    transitions = {s: [t for t in roles if t != s and t != initial] for s in moving}
    if isinstance(values, str) and values.startswith("$vocabularies."):
        inferred.override[values.removeprefix("$")] = vocabulary
    else:
        inferred.override[f"facets.{state}.values"] = vocabulary
    inferred.override[f"facets.{state}.guidance"] = "the record's status, in the words this team already uses"
    inferred.override[f"regimes.lifecycle.{regime}.initial"] = initial
    inferred.override[f"regimes.lifecycle.{regime}.transitions"] = transitions
    listed = ", ".join(f"{s} ({r})" for s, r in own.items())
    source = f"the records use and {shelf.template} offers" if shelf.offered else "the records use"
    added = [f"{initial} ({INITIAL}), where a new record starts"] if initial not in own else []
    added += [f"{s} ({r}), which a relation sets on its target" for s, r in roles.items()
              if s not in own and s != initial]
    inferred.said.append(f"lifecycle {regime}: the statuses {source}, {listed}"
                         + (f"; and added {', and '.join(added)}" if added else "")
                         + f"; {', '.join(terminal) or 'none'} terminal")
    _invalid_pairs(tree, state, _package_roles(tree, values), roles, inferred)


def _package_roles(tree: dict, values: object) -> dict[str, str]:
    """The package's states and their roles, from the state facet's values or the vocabulary they name."""
    if isinstance(values, str) and values.startswith("$vocabularies."):
        values = (tree.get("vocabularies") or {}).get(values.removeprefix("$vocabularies."))
    return {str(v.get("value")): str(v.get("role")) for v in values or [] if isinstance(v, dict)}


def _invalid_pairs(tree: dict, state: str, package_roles: dict[str, str], roles: dict[str, str],
                   inferred: _Draft) -> None:
    """Each relation's `invalid_when` on the state, carried from the package's states onto the
    team's states of the same role (`current` → `accepted`): once the team's words are the
    lifecycle, a condition on the package's word could never hold and the rule would never fire."""
    for name, relation in (tree.get("relations") or {}).items():
        both = ((relation.get("invalid_when") or {}).get("both") or {}) if isinstance(relation, dict) else {}
        if not isinstance(both, dict) or state not in both:
            continue
        held = [str(v) for v in (both[state] if isinstance(both[state], list) else [both[state]])]
        meant = {package_roles.get(v) for v in held if v not in roles}
        ours = [s for s, r in roles.items() if s in held or r in meant]
        if set(ours) == set(held):
            continue
        package = ", ".join(f"`{v}`" for v in held)
        address = f"relations.{name}.invalid_when.both.{state}"
        if ours:
            inferred.override[address] = ours[0] if len(ours) == 1 else ours
            words = "word" if len(ours) == 1 else "words"
            inferred.said.append(f"relation {name}: two records it joins cannot both be {' or '.join(ours)}, the "
                                 f"team's {words} for the package's {package}")
        else:  # no status of the team plays that role: the condition could name nothing
            inferred.remove.append(f"relations.{name}.invalid_when" if len(both) == 1 else address)
            inferred.said.append(f"relation {name} reads no pair invalid: no status of the records stands for "
                                 f"the package's {package}")


SUCCESSOR_WORDS = ("superseded", "replaced")  # what teams call a record a later one replaced


def _successor_words(tree: dict, counts: Counter[str]) -> list[tuple[str, str]]:
    """(relation, the team's word) where a relation sets a successor state and more of the
    team's records say another word for it (KEPs: 6 `replaced`, 1 `superseded`)."""
    found = []
    folded, spelling = Counter(s.casefold() for s in counts.elements()), _spellings(counts)
    for name, relation in (tree.get("relations") or {}).items():
        state = str(((relation or {}).get("on_target") or {}).get("set_state") or "")
        if state in SUCCESSOR_WORDS:
            word = spelling.get(max(SUCCESSOR_WORDS, key=lambda w: (folded[w], w == state)), state)
            if word != state:
                found.append((name, word))
    return found


def _spellings(counts: Counter[str]) -> dict[str, str]:
    """Each status word, case aside, as most of the records write it (`Accepted`, `accepted` → the commoner)."""
    spelled: dict[str, str] = {}
    for status, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        spelled.setdefault(status.casefold(), status)
    return spelled


def _spelled(counts: Counter[str], inferred: _Draft) -> list[str]:
    """The statuses, less a rare one a letter away from a status ten times as common: a typo the
    check should report on its record, not a state of the lifecycle (`imlpemented`, 1 record,
    beside `implemented`, 290)."""
    kept = []
    for status, count in counts.items():
        meant = next((other for other, many in counts.items() if count <= 2 and many >= 10 * count
                      and _one_edit(status, other)), None)
        if meant is None:
            kept.append(status)
        else:
            inferred.said.append(f"status {status} ({count} of the records) reads as a misspelling of {meant} "
                                 f"({counts[meant]}): not a state, so `check` reports it where it is written")
    return kept


def _one_edit(a: str, b: str) -> bool:
    """Whether two words differ by one letter changed, added, dropped, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        apart = [i for i in range(len(a)) if a[i] != b[i]]
        return len(apart) == 1 or (len(apart) == 2 and apart[1] == apart[0] + 1
                                   and a[apart[0]] == b[apart[1]] and a[apart[1]] == b[apart[0]])
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _date_key(tree: dict, shelf: RecordShelf, inferred: _Draft) -> str | None:
    """The state-entered facet under the team's own key (`date`) when its records use one."""
    entered = facet_for_role(tree, "state_entered")
    keys = Counter(k for r in shelf.records for k in r.keys)
    if entered is None or keys.get(entered) or not keys.get("date") or "date" in (tree.get("facets") or {}):
        return entered
    inferred.remove.append(f"facets.{entered}")
    inferred.add["facets.date"] = dict(tree["facets"][entered])
    inferred.said.append(f"facet date: the records carry `date`, so it is the date a record entered its status "
                         f"(the package calls it `{entered}`)")
    return "date"


def infer_overlay(tree: dict, inference: Inference, bare_numbers: bool) -> Inferred | None:
    """`bare_numbers`: the records' identifiers are `{namespace}-{seq:04d}` (ADR-0007), for a team
    that named no namespace of its own; otherwise the package's pattern stands."""
    shelf = inference.shelf
    found = record_shelf(tree)
    if shelf is None or found is None:
        return None
    name, declared = found
    kind = str(declared.get("kind"))
    inferred = _Draft()
    state = facet_for_role(tree, "state")
    entered = _date_key(tree, shelf, inferred)
    layout = shelf.layout.replace("{entered", "{" + str(entered))  # a dated name reads the entered date
    inferred.override[f"shelves.{name}.path"] = shelf.glob
    inferred.override[f"shelves.{name}.layout"] = layout
    records = f"{len(shelf.records)} record{'' if len(shelf.records) == 1 else 's'}"
    inferred.said.append(f"shelf {name}: {records} in `{shelf.folder}`, numbered "
                         f"`{shelf.numbering}`, so `new` writes `{layout}`{_where_new_writes(shelf, layout)}")
    if shelf.below:
        more = f" and {len(shelf.below) - 1} more" if len(shelf.below) > 1 else ""
        inferred.said.append(f"shelf {name}: `{shelf.glob}`, the files directly in `{shelf.folder}`, where the "
                             f"records lie: no shelf claims `{shelf.below[0]}`{more} in a folder below, so the "
                             "census reports it untyped rather than `adopt` numbering it as a record")
    scheme = next((k["identifier"]["scheme"] for _, k in _chain(tree, kind) if isinstance(k.get("identifier"), dict)),
                  None)
    if scheme and bare_numbers:
        pattern, source = _pattern(layout, shelf)
        inferred.override[f"identifier_schemes.{scheme}.pattern"] = pattern
        inferred.said.append(f"identifiers {scheme}: `{pattern}`, {source}")
    for page in shelf.pages:
        inferred.exclusions.append((page, "an index, template or README page beside the records, not a record"))
        inferred.said.append(f"exclude {page}: a page beside the records, not a record")
    counts = Counter(s for r in shelf.records if state and (s := _carried(r, state, "state")))
    if state:
        _lifecycle(tree, kind, shelf, counts, state, inferred)
    _requirements(tree, kind, shelf, state, entered, inferred)
    _voice(tree, kind, shelf, inferred)
    _sections(tree, kind, shelf, inferred)
    return Inferred(inferred.add, inferred.override, tuple(inferred.remove), tuple(inferred.exclusions),
                    tuple(inferred.said), scheme)


def _where_new_writes(shelf: RecordShelf, layout: str) -> str:
    """Where records in folders of their own lie in several folders below the shelf's and none in it
    (a KEP per SIG), the folder `new` needs told: by default it writes into the shelf's own folder."""
    depth = layout.count("/") + 1
    holders = Counter(r.path.rsplit("/", depth)[0] for r in shelf.records)
    if len(holders) < 2 or shelf.folder in holders:
        return ""
    example = holders.most_common(1)[0][0]
    return (f" in the folder `--directory` names (`new --directory {example}`): the records lie in "
            f"{len(holders)} folders below `{shelf.folder}` and none directly in it, where `new` writes without one")


def _pattern(layout: str, shelf: RecordShelf) -> tuple[str, str]:
    """The records' identifier pattern and where it comes from: the number each name carries, as
    wide as the names; or, for dated names (log4brains' `20201016-use-slugs.md`), the name itself
    under the namespace, as those tools identify a record by its name: a date is no sequence, and
    numbering the records would bring back the merge conflicts dated names exist to avoid."""
    if "{seq}" in layout:
        return "{namespace}-{seq}", "the number each file name carries"
    if "{seq" in layout:  # as wide as the names write it: `ADR-001-x.md` is ADR-001
        width = re.search(r"\{seq:0?(\d+)d\}", layout)
        return f"{{namespace}}-{{seq:0{width.group(1) if width else 4}d}}", "the number each file name carries"
    example = shelf.records[0].path.rsplit("/", 1)[-1].removesuffix(".md") if shelf.records else "the name"
    return "{namespace}-{slug}", (f"the namespace and each record's file name less `.md` (`{example}`): dated "
                                  "names carry no number, and a record is known by its name")


def _requirements(tree: dict, kind: str, shelf: RecordShelf, state: str | None, entered: str | None,
                  inferred: _Draft) -> None:
    """Require only the facets every record already carries (in front matter or its body form)."""
    for name, declared in _chain(tree, kind):
        required = ((declared.get("facets") or {}).get("require")) or []
        if not required:
            continue
        renamed = [entered if f == facet_for_role(tree, "state_entered") else f for f in required]
        roles = {state: "state", entered: "state_entered"}
        kept = [f for f in renamed if all(_carried(r, f, roles.get(f, "")) for r in shelf.records)]
        if kept != required:
            inferred.override[f"kinds.{name}.facets.require"] = kept
            dropped = [f for f in renamed if f not in kept]
            inferred.said.append(f"kind {name} requires {', '.join(kept) or 'no facet'}: "
                                 f"not every record carries {', '.join(dropped)}")


VOICE_SHARE = 4  # a construction in one record of four or more is the team's voice, not a slip


def _voice(tree: dict, kind: str, shelf: RecordShelf, inferred: _Draft) -> None:
    """Admit the constructions the team's records use as a matter of course."""
    voice = next((k.get("voice") for _, k in _chain(tree, kind) if k.get("voice")), None)
    forbid = ((tree.get("regimes") or {}).get("voice") or {}).get(voice, {}).get("forbid") or []
    if not forbid or not shelf.records:
        return
    used = Counter(c for r in shelf.records for c in r.voices)
    admitted = [c for c in forbid if used[c] * VOICE_SHARE >= len(shelf.records)]
    if admitted:
        inferred.override[f"regimes.voice.{voice}.forbid"] = [c for c in forbid if c not in admitted]
        shares = ", ".join(f"{c} ({used[c]} of {len(shelf.records)} records)" for c in admitted)
        inferred.said.append(f"voice {voice} admits {shares}: the records speak this way")


def _sections(tree: dict, kind: str, shelf: RecordShelf, inferred: _Draft) -> None:
    """Require the second-level headings every record has, as the records spell them, and read as
    the records' summary the section their kind declares for it, as they spell it."""
    declared = next(((name, k) for name, k in _chain(tree, kind) if (k.get("sections") or {}).get("require")), None)
    if declared is None or not shelf.records:
        return
    name, k = declared
    spelled = Counter(h for r in shelf.records for h in dict.fromkeys(r.headings))
    every = [h for h, n in spelled.items() if n == len(shelf.records)]
    required = k["sections"]["require"]
    if {h.casefold() for h in required} != {h.casefold() for h in every}:  # the team's template, as it spells it
        inferred.override[f"kinds.{name}.sections.require"] = required = every
        inferred.said.append(f"kind {name} requires the sections {', '.join(every)}: the headings every record has"
                             if every else f"kind {name} requires no section: no heading is in every record")
    _summary_section(tree, kind, spelled, required, inferred, len(shelf.records))


SUMMARY_HEADING = "Summary"  # the heading that names the role itself, where no record has the package's


def _summary_section(tree: dict, kind: str, spelled: Counter, required: list[str], inferred: _Draft,
                     records: int) -> None:
    """The section the kind declares for the summary role (route reads it where a record has no
    summary facet), as the records spell it: that name or a longer heading opening with it
    ("Context and Problem Statement" for "Context"); where no record has it, a `Summary` section
    most records have (a proposal's, as a KEP writes it). Admitted where it is not already."""
    owner = next(((name, k) for name, k in _chain(tree, kind) if ((k.get("sections") or {}).get("roles") or {})
                  .get(SUMMARY_ROLE)), None)
    if owner is None:
        return
    name, k = owner
    section, admitted = k["sections"]["roles"][SUMMARY_ROLE], k["sections"].get("optional") or []
    if not isinstance(section, str) or not isinstance(admitted, list):
        return  # a package the validator will refuse: nothing to read off the records for it
    ours = _spelling(section, spelled)
    if ours is None:
        summary = _spelling(SUMMARY_HEADING, spelled)
        ours = summary if summary is not None and 2 * spelled[summary] > records else None
    if ours is None:
        return  # no record has it: a record's lead stays its first paragraph
    admit = ours.casefold() not in {str(h).casefold() for h in (*required, *admitted)}
    if ours == section and not admit:
        return
    if ours != section:
        inferred.override[f"kinds.{name}.sections.roles.{SUMMARY_ROLE}"] = ours
    if admit:
        into = inferred.override if "optional" in k["sections"] else inferred.add
        into[f"kinds.{name}.sections.optional"] = [*admitted, ours]
    inferred.said.append(f"kind {name} reads `{ours}` as a record's summary where it has none")


def _spelling(section: str, spelled: Counter) -> str | None:
    """The heading most records have that is `section` or opens with it, if any has."""
    folded = section.casefold()
    return next((h for h, _ in spelled.most_common()
                 if h.casefold() == folded or h.casefold().startswith(folded + " ")), None)
