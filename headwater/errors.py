"""Refusals. A run ends in one of three outcomes: an answer (findings are part of it), a refusal
(this module: one sentence, decided before anything is written) or a defect (any other exception,
a bug, which the CLI names as one instead of showing a traceback)."""


class Refusal(Exception):
    """A request headwater will not carry out: one sentence on stderr, nothing on stdout, exit 1.

    The sentence is the whole message; the CLI prefixes it with `headwater: `.
    """

    def __init__(self, sentence: str, *details: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.details = details


class ArgumentRefused(Refusal):
    """A refusal of one input, carrying that input as the caller names it (`--rule` on the command
    line, `rules` over MCP): the MCP server reports it as the error's `rejected_field`, so a client
    knows which argument to change without reading the sentence."""

    def __init__(self, field: str, sentence: str) -> None:
        super().__init__(sentence)
        self.field = field
