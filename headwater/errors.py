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
