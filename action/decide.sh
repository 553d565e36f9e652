#!/usr/bin/env bash
# The action's last step: fail the job, after the SARIF upload, when the inputs ask for it.
#   STRICT=true          and ERRORS > 0          → exit 1
#   FAIL_ON_IMPACT=true  and NOT_REVERIFIED > 0  → exit 1
set -euo pipefail
if [ "${STRICT:-false}" = "true" ] && [ "${ERRORS:-0}" -gt 0 ]; then
  echo "headwater: $ERRORS live errors remain" >&2
  exit 1
fi
if [ "${FAIL_ON_IMPACT:-false}" = "true" ] && [ "${NOT_REVERIFIED:-0}" -gt 0 ]; then
  echo "headwater: $NOT_REVERIFIED governed documents this change touches were not re-verified" >&2
  exit 1
fi
