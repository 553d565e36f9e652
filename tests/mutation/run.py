"""Mutation testing on demand: `python tests/mutation/run.py [module ...] [--show]`.

Each module is mutated by mutmut in its own scratch copy of the repository (so `mutants/`
never lands in the work tree) and checked only against the tests that exercise it, so a run
takes minutes. The report gives mutants, killed and survived per module; `--show` prints the
diff of every survivor. Not part of the default pytest run (this file is no test module).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The commit gate's tests but the two whose git hook or signal starts headwater in a process of its own
# (mutmut's trampolines fail there, outside its scratch folder)
STAGED_IN_PROCESS = ("tests/check/test_staged.py", "--deselect",
                     "tests/check/test_staged.py::test_a_hook_in_a_linked_work_tree_checks_the_index_each_kind_of_commit_writes",
                     "--deselect",
                     "tests/check/test_staged.py::test_a_gate_ended_by_sigterm_says_so_and_leaves_no_private_folder_behind")

# Each module, and the tests that exercise it in-process (a subprocess would import the
# unmutated engine, and every mutant would look like a survivor).
MODULES: dict[str, tuple[str, ...]] = {
    "headwater/atomic.py": ("tests/reliability/test_atomic_writes.py", "tests/reliability/test_write_faults.py",
                            "tests/check/test_fix.py", "tests/reliability/test_cache_dir.py",
                            "tests/writes/test_new_refusals.py::test_a_file_where_the_claims_folder_belongs_is_a_"
                            "refusal_and_no_document_is_written",
                            "tests/snapshot/test_resolve_and_lock.py::test_a_folder_where_the_lock_belongs_is_"
                            "refused_in_one_sentence_by_readers_and_writers"),
    "headwater/check/adoption_tasks.py": ("tests/adoption/test_adopt.py", "tests/adoption/test_adoption_tasks.py"),
    "headwater/check/fix.py": ("tests/check/test_fix.py", "tests/reliability/test_write_faults.py",
                               "tests/mcp/test_fix_seal.py", "tests/reliability/test_planted_cache.py"),
    "headwater/check/suppressions.py": ("tests/check/test_suppressions.py",),
    "headwater/cachekey.py": ("tests/reliability/test_cache_seal.py", "tests/reliability/test_planted_cache.py",
                              "tests/reliability/test_cache_key.py"),
    "headwater/check/links.py": ("tests/check/test_body_rules.py", "tests/check/test_cache.py",
                                 "tests/check/test_link_landing.py",
                                 "tests/perf/test_replay.py::test_a_file_created_where_a_link_found_nothing_is_not_replayed_over"),
    "headwater/inplace.py": ("tests/reliability/test_state_files_in_place.py", "tests/snapshot/test_census.py",
                             "tests/reliability/test_hostile_corpora.py", "tests/check/test_fix.py"),
    "headwater/reads/route/rank.py": ("tests/reads/test_route_rank.py", "tests/reads/test_route_rank_edges.py",
                                      "tests/reads/test_route.py", "tests/reads/test_route_scoring_loop.py",
                                      "tests/reads/test_route_acceptance.py", "tests/reads/test_route_deferred.py"),
    "headwater/reads/route/abstention.py": ("tests/reads/test_route_abstention.py", "tests/reads/test_route_rank.py",
                                            "tests/reads/test_route.py", "tests/reads/test_route_acceptance.py"),
    "headwater/taxonomy/overlay.py": ("tests/snapshot/test_overlay_operations.py",
                                      "tests/snapshot/test_resolve_and_lock.py", "tests/cli/test_init_and_kinds.py"),
    "headwater/check/patches.py": ("tests/check/test_fix.py", "tests/check/test_patches.py"),
    "headwater/corpus/fronts.py": ("tests/perf/test_fronts_file.py",),
    "headwater/graph.py": ("tests/snapshot/test_graph.py", "tests/check/test_reference_rules.py",
                           "tests/reads/test_governing_resolve_related.py", "tests/adoption/test_identifier_key.py"),
    "headwater/corpus/body.py": ("tests/snapshot/test_link_extraction.py", "tests/snapshot/test_body_inline_pass.py",
                                 "tests/check/test_body_rules.py", "tests/perf/test_parse_cache.py",
                                 "tests/snapshot/test_body_blocks.py"),
    "headwater/corpus/commonmark.py": ("tests/snapshot/test_body_inline_pass.py", "tests/snapshot/test_body_blocks.py",
                                     "tests/snapshot/test_link_extraction.py"),
    "headwater/paths.py": ("tests/snapshot/test_patterns_and_paths.py", "tests/reliability/test_properties.py",
                           "tests/reliability/test_confinement.py", "tests/writes/test_new_refusals.py"),
    "headwater/statefolder.py": ("tests/reliability/test_symlinked_state.py",
                                 "tests/reliability/test_state_files_in_place.py"),
    "headwater/cachedir.py": ("tests/reliability/test_cache_dir.py", "tests/reliability/test_cache_seal.py",
                              "tests/reliability/test_planted_cache.py",
                              "tests/reliability/test_atomic_writes.py", "tests/perf/test_fronts_file.py",
                              "tests/perf/test_parse_cache.py"),
    "headwater/writes/batch.py": ("tests/writes/test_batch.py", "tests/reliability/test_write_faults.py",
                                  "tests/check/test_fix.py"),
    "headwater/writes/placement.py": ("tests/writes/test_new.py", "tests/writes/test_new_refusals.py",
                                      "tests/adoption/test_identifier_key.py", "tests/adoption/test_adr_tools.py",
                                      "tests/check/test_identifier_remedies.py", "tests/taxonomy/test_full_dialect.py"),
    "headwater/writes/minting.py": ("tests/writes/test_new.py", "tests/writes/test_new_refusals.py",
                                    "tests/reliability/test_write_faults.py", "tests/check/test_identifier_remedies.py",
                                    "tests/mcp/test_writes.py", "tests/adoption/test_unclaimable_paths.py",
                                    "tests/check/test_fix.py", "tests/writes/test_minting.py"),
    "headwater/corpus/claims.py": ("tests/corpus/test_claim_store.py", "tests/perf/test_recording.py",
                                   "tests/check/test_identifier_remedies.py", "tests/check/test_reference_rules.py",
                                   "tests/reliability/test_symlinked_state.py", "tests/check/test_fix.py",
                                   "tests/adoption/test_unclaimable_paths.py", "tests/writes/test_new.py",
                                   "tests/check/test_quiet_defaults.py"),
    "headwater/writes/inputs.py": ("tests/mcp/test_writes.py", "tests/mcp/test_protocol.py",
                                   "tests/mcp/test_refusals_not_defects.py", "tests/writes/test_new.py",
                                   "tests/writes/test_new_refusals.py"),
    "headwater/textsafe.py": ("tests/check/test_hostile_values_are_escaped.py", "tests/check/test_ci_formats.py",
                              "tests/adoption/test_unclaimable_paths.py", "tests/cli/test_command_line_contract.py",
                              "tests/writes/test_new_refusals.py"),
    "headwater/corpus/walk.py": ("tests/snapshot/test_census.py", "tests/reliability/test_hostile_corpora.py"),
    # every load reaches the census: of the perf tests, only one each for the fronts file and the
    # parse cache (the whole files made a run of hours on two shared cores)
    "headwater/corpus/census.py": ("tests/snapshot/test_census.py", "tests/reliability/test_hostile_corpora.py",
                                   "tests/perf/test_fronts_file.py::test_every_front_of_a_warm_load_comes_from_the_"
                                   "fronts_file_and_equals_a_fresh_parse",
                                   "tests/perf/test_parse_cache.py::test_cold_warm_and_no_cache_checks_print_the_"
                                   "same_bytes"),
    "headwater/writes/roundtrip.py": ("tests/writes/test_far_half_edit.py", "tests/check/test_patches.py",
                                      "tests/writes/test_vendor.py", "tests/adoption/test_identifier_key.py",
                                      "tests/writes/test_new.py", "tests/check/test_fix.py",
                                      "tests/writes/test_roundtrip.py"),
    "headwater/writes/splice.py": ("tests/writes/test_splice.py", "tests/writes/test_roundtrip.py",
                                   "tests/writes/test_far_half_edit.py",
                                   "tests/check/test_patches.py", "tests/check/test_fix.py"),
    "headwater/writelock.py": ("tests/reliability/test_interrupts.py", "tests/writes/test_new_concurrency.py",
                               "tests/reliability/test_cache_dir.py", "tests/writes/test_new.py",
                               "tests/writes/test_minting.py", "tests/reliability/test_write_faults.py",
                               "tests/reliability/test_write_lock.py", *STAGED_IN_PROCESS),
    "headwater/writes/change_capture.py": ("tests/check/test_change.py", *STAGED_IN_PROCESS),
    "headwater/yaml/shallow.py": ("tests/perf/test_shallow_yaml.py", "tests/snapshot/test_strict_yaml.py"),
    "headwater/frozen.py": ("tests/perf/test_frozen.py",),
}
KILLED = {"killed", "timeout", "segfault", "caught by type check"}


@dataclass(frozen=True)
class Tally:
    module: str
    mutants: int
    killed: int
    survived: tuple[str, ...]
    other: tuple[str, ...]  # not checked, no tests, suspicious: neither a kill nor a survivor

    @property
    def percent(self) -> float:
        return 100.0 * self.killed / self.mutants if self.mutants else 100.0


def scratch_copy(into: Path, module: str, tests: tuple[str, ...]) -> None:
    """The repository's files as git lists them, with mutmut told what to mutate and run."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    for name in listed:
        source = REPO / name
        if source.is_file() and not name.startswith("mutants/"):
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    # only the tests named: the stats run (which test reaches which function) stays short
    config = {
        "source_paths": ["headwater"],
        "only_mutate": [module],
        "also_copy": ["corpus_fixtures", "taxonomy", "docs"],  # docs: the commit gate's tests read its guide
        "pytest_add_cli_args_test_selection": list(tests),
        "pytest_add_cli_args": ["-p", "no:randomly", "-x"],
    }
    lines = ["", "[tool.mutmut]", *(f"{key} = {json.dumps(value)}" for key, value in config.items())]
    with (into / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def tally(work: Path, module: str) -> Tally:
    from mutmut.stats import status_by_exit_code

    meta = json.loads((work / "mutants" / f"{module}.meta").read_text(encoding="utf-8"))
    statuses = {key: status_by_exit_code[code] for key, code in meta["exit_code_by_key"].items()}
    killed = sum(1 for s in statuses.values() if s in KILLED)
    survived = tuple(sorted(k for k, s in statuses.items() if s == "survived"))
    other = tuple(sorted(f"{k}: {s}" for k, s in statuses.items() if s not in KILLED and s != "survived"))
    return Tally(module, len(statuses), killed, survived, other)


def measure(module: str, children: int, show: bool) -> Tally:
    with tempfile.TemporaryDirectory(prefix="headwater-mutation-") as scratch:
        work = Path(scratch)
        scratch_copy(work, module, MODULES[module])
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        ran = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(children)],
                             cwd=work, env=env, capture_output=True, text=True)
        if ran.returncode != 0 or not (work / "mutants" / f"{module}.meta").is_file():
            sys.exit(f"mutmut failed on {module}:\n{ran.stdout[-3000:]}\n{ran.stderr[-3000:]}")
        result = tally(work, module)
        if show:
            for name in result.survived:
                diff = subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=work, env=env,
                                      capture_output=True, text=True).stdout
                print(diff)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="paths as in MODULES (default: all)")
    parser.add_argument("--children", type=int, default=2, help="parallel mutant runs (default 2)")
    parser.add_argument("--show", action="store_true", help="print the diff of every survivor")
    args = parser.parse_args()
    unknown = set(args.modules) - set(MODULES)
    if unknown:
        parser.error(f"not a measured module: {', '.join(sorted(unknown))}")
    print("| module | mutants | killed | survived | other | killed % |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for module in args.modules or list(MODULES):
        result = measure(module, args.children, args.show)
        print(f"| `{module}` | {result.mutants} | {result.killed} | {len(result.survived)} | "
              f"{len(result.other)} | {result.percent:.1f} |", flush=True)
        for line in (*result.survived, *result.other):
            print(f"<!-- {line} -->", file=sys.stderr)


if __name__ == "__main__":
    main()
