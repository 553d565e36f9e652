"""`headwater check`: the rule registry, instance generation, the runner and coverage.

Rules read the one snapshot; the runner records every instance's outcome (findings, a pass,
or a skip with its reason); renderers under `headwater.render` turn the report into bytes.
"""
