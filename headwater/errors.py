"""The three outcomes that are not answers: refusals are sentences, defects are bugs."""


class Refusal(Exception):
    """A request headwater will not carry out: one sentence on stderr, nothing on stdout, exit 1.

    The sentence is the whole message; the CLI prefixes it with `headwater: `.
    """

    def __init__(self, sentence: str, *details: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.details = details
