"""Link extraction is one pass over a block: 16,000 links on one line cost no more than reading them.

It took 50 s before (every link's target was searched for from the start of its block). The guard
against a hang is a subprocess with a generous limit; the assertions are about where each link is.
"""

from __future__ import annotations

import json
import subprocess
import sys

from headwater.corpus.body import parse

PROGRAM = """
import json, sys
from headwater.corpus.body import parse
count = int(sys.argv[1])
line = " ".join(f"[l{i}](docs/t{i}.md)" for i in range(count))
print(json.dumps([[link.href, link.line, link.column] for link in parse(line + "\\n", 5).links]))
"""


def test_sixteen_thousand_links_on_one_line_are_each_found_where_they_are_written():
    count = 16_000
    ran = subprocess.run([sys.executable, "-c", PROGRAM, str(count)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    line = " ".join(f"[l{i}](docs/t{i}.md)" for i in range(count))
    expected, at = [], 0
    for i in range(count):
        at = line.index("](", at) + 2
        expected.append([f"docs/t{i}.md", 5, at])
    assert json.loads(ran.stdout) == expected


def test_two_links_to_one_target_each_get_their_own_column():
    body = parse("See [a](x.md) and then [b](x.md), then [c](<x.md>).\n", 1)
    assert [(link.text, link.column) for link in body.links] == [("a", 8), ("b", 27), ("c", 43)]
