"""Controls: each names a mechanism this engine carries, and what was observed of them reads."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.observations import OBSERVATIONS, read_observations
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import lock_hit, ticked
from headwater.taxonomy.assurance import PHASES


def _implemented(ctx: Context, prefix: str, named: str) -> bool:
    return named in (ctx.rule_ids if prefix == "check" else PHASES)


@rule("control.mechanism.unimplemented", 1, Scope.CORPUS, Severity.WARN,
      short="A control names a rule or an engine phase this engine does not carry.",
      full="A control's `mechanism` of the form `check:<rule id>` or `phase:<phase>` names "
           "something this engine lacks, so the obligation it claims to discharge is not "
           "discharged here. A mechanism with another prefix names something outside the "
           "engine and is not judged.",
      help="""
The register believes the control; a mistyped rule id claims coverage nobody has. Correct the
id (`headwater check --format json` lists every rule this engine carries), or give the
obligation a `gap` disposition until the rule exists.
""",
      tags=("register", "control"),
      reads=(Reads.SUBJECT,))
def control_mechanism_unimplemented(ctx: Context, _subject):
    hits = []
    for control in ctx.taxonomy.controls.values():
        prefix, named = control.prefix, control.named
        if prefix not in ("check", "phase") or _implemented(ctx, prefix, named):
            continue
        known = "this engine carries no rule" if prefix == "check" else f"the phases are {ticked(PHASES)}"
        hits.append(lock_hit(ctx, ("controls", control.id, "mechanism"),
                             f"`{control.id}` names `{control.mechanism}`, and {known} of that name",
                             "correct the mechanism, or give the obligations it discharges a `gap` "
                             "disposition", control.id))
    return hits


@rule("control.observation.invalid", 1, Scope.CORPUS, Severity.ERROR,
      short="`.headwater/observations.yml`, or one of its entries, does not read.",
      full="The observations file must hold `observations:`, a list of entries, each of kind "
           "`control` (naming a declared control and a commit) or `verification` (naming the "
           "verifying document, the criterion, the criterion's `sha256:` digest and a commit).",
      help="""
An observation that does not read observes nothing, and the register then counts a control
or a verification nobody can confirm. Correct the entry (its `kind`, the members that kind
needs, a 7–40 digit hex `commit`), or delete it.
""",
      tags=("register", "control"))
def control_observation_invalid(ctx: Context, _subject):
    observations = read_observations(ctx.snapshot.root)
    if observations.problem:
        return [Hit(OBSERVATIONS, observations.line, 1 if observations.line else 0, observations.problem,
                    "write `observations:` as a list of control and verification entries", "observations")]
    hits = []
    for entry in observations.entries:
        problem = entry.problem
        if problem is None and entry.kind == "control" and entry.fields["control"] not in ctx.taxonomy.controls:
            problem = f"`{entry.fields['control']}` is not a control the taxonomy declares"
        if problem:
            hits.append(Hit(OBSERVATIONS, entry.line, entry.column, problem,
                            "correct the entry, or delete it", entry.kind or "entry"))
    return hits


RULES = (control_mechanism_unimplemented, control_observation_invalid)
