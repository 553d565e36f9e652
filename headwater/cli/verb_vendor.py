"""`headwater taxonomy vendor <dir> --expect <digest>`."""

from __future__ import annotations

from pathlib import Path

from headwater.cli.output import Result
from headwater.errors import Refusal
from headwater.writes import vendor


def run(invocation) -> Result:
    directory = Path(invocation.args.directory)
    expect = invocation.args.expect
    vendor.require_directory(directory)  # before the digest, whose hint hashes its files
    if expect is None or not expect.strip():
        raise Refusal(f"`taxonomy vendor` takes `--expect <digest>`, the release digest the publisher "
                      f"printed; the files at {directory} hash to `{vendor.computed_digest(directory)}`")
    verified = vendor.plan(invocation.root, directory, expect.strip())
    return Result(vendor.report(vendor.install(invocation.root, directory, verified)))
