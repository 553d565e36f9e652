#!/usr/bin/env bash
# The logic of the headwater GitHub Action (action.yml), kept here so a test can run it against a
# temporary repository. It reads its inputs from the environment:
#   HEADWATER_ROOT               the repository to check (default: .)
#   HEADWATER_SARIF              where to write the SARIF log for code scanning (empty: no SARIF)
#   HEADWATER_BASE               the pull request's base commit (empty: no impact report)
#   HEADWATER_SUMMARY_MAX_BYTES  the bound of the step summary (default 60000: it also fits a PR comment)
#   HEADWATER_CHECK_ARGS         more `headwater check` flags, e.g. `--rule facet` (split on spaces)
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP   as GitHub Actions sets them
# It writes annotations (workflow commands) on stdout, the SARIF log, the step summary, and the
# outputs `errors` (live errors), `sarif`, `category` (code scanning's, one for each root),
# `impacted` and `not-reverified`. It exits 0 whatever it finds: the action's last step decides
# whether the job fails, after the SARIF is uploaded.
set -euo pipefail

root="${HEADWATER_ROOT:-.}"
max_bytes="${HEADWATER_SUMMARY_MAX_BYTES:-60000}"
work="$(mktemp -d "${RUNNER_TEMP:-/tmp}/headwater.XXXXXX")"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
outputs="${GITHUB_OUTPUT:-/dev/null}"
read -r -a extra <<< "${HEADWATER_CHECK_ARGS:-}"

check() { headwater check --root "$root" "${extra[@]}" "$@"; }

# count FILE: the step outputs a JSON report holds (live errors, or impacted and not re-verified documents).
count() {
  python3 - "$1" <<'PY'
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
if "findings" in report:
    print(f"errors={sum(1 for f in report['findings'] if f['escape'] == 'none' and f['severity'] == 'error')}")
else:
    print(f"impacted={len(report['impacted'])}")
    print(f"not-reverified={sum(1 for d in report['impacted'] if not d['reverified'])}")
PY
}

impact_bytes=0
if [ -n "${HEADWATER_BASE:-}" ]; then
  # A shallow checkout may lack the base commit: fetch just that one.
  if ! git -C "$root" cat-file -e "${HEADWATER_BASE}^{commit}" 2>/dev/null; then
    git -C "$root" fetch --quiet --no-tags --depth=1 origin "$HEADWATER_BASE"
  fi
  headwater change --root "$root" "$HEADWATER_BASE" "$work/change" > /dev/null
  manifest="$work/change/manifest"
  headwater impact --root "$root" "$manifest" --format github
  headwater impact --root "$root" "$manifest" --format json > "$work/impact.json"
  # The impact section takes at most a third of the summary; the check report gets the rest.
  headwater impact --root "$root" "$manifest" --format markdown --max-bytes "$((max_bytes / 3))" > "$work/impact.md"
  impact_bytes="$(( $(wc -c < "$work/impact.md") + 1 ))"
  count "$work/impact.json" >> "$outputs"
fi

# Annotations on the diff, one per live finding, after the impact's: GitHub shows only the first
# 10 warnings and 10 errors of a step. This first check also fills the cache the others read.
check --format github

if [ -n "${HEADWATER_SARIF:-}" ]; then
  check --format sarif > "$HEADWATER_SARIF"
  echo "sarif=$HEADWATER_SARIF" >> "$outputs"
  # Code scanning keeps one analysis per category and commit: a second root of the same
  # repository uploaded under the same category would close the first one's alerts.
  place="$(git -C "$root" rev-parse --show-prefix 2>/dev/null || true)"
  echo "category=headwater${place:+/${place%/}}" >> "$outputs"
fi

check --format json > "$work/check.json"
count "$work/check.json" >> "$outputs"

check --format markdown --max-bytes "$((max_bytes - impact_bytes))" > "$work/check.md"
{
  if [ -f "$work/impact.md" ]; then cat "$work/impact.md"; echo; fi
  cat "$work/check.md"
} >> "$summary"
