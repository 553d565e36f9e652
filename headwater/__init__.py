"""headwater: a documentation corpus, governed and checked like code."""

__version__ = "0.1.0"
TAGLINE = "a documentation corpus, governed and checked like code"
