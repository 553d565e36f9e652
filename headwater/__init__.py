"""headwater: a documentation corpus, governed and checked like code."""

__version__ = "0.1.0"
TAGLINE = "a documentation corpus, governed and checked like code"
REPOSITORY = "https://github.com/headwater-ai/headwater-py"  # pyproject's project URLs say the same (a test holds it)
RULES_PAGE = "docs/rules.md"
