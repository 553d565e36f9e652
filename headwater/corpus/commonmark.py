"""markdown-it-py as the body parse runs it: CommonMark, blocks only, each rule tried only where
the character it starts at stands.

markdown-it tries every block rule, in order, at each block's first line, and every rule that may
end a paragraph, a reference, a quote or a list at each of that block's next lines; and every
inline rule at each character that ends a run of text (`-`, `:`, `=` as much as `[`). Most rules
first read one character and return False on any other (a block rule after logging its entry).
Here one rule per chain tries, in the same order, only the rules the character could start, and a
paragraph is read for a setext underline only where a line could be one: the same rules run
wherever they could match, so the tokens are the stock parser's (the tests compare every token).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# The first character (after the line's indent) each block rule needs: markdown-it's rules named
# here return False on any other one. A rule not named (`code`, `lheading`, `paragraph`, one a
# plugin adds) is tried on every line.
OPENS = {"fence": "`~", "blockquote": ">", "hr": "*-_", "list": "*-+0123456789", "reference": "[",
         "html_block": "<", "heading": "#"}
# The same for inline rules, at the position tried (`text` fails by itself where a run of text ends).
INLINE_OPENS = {"newline": "\n", "escape": "\\", "backticks": "`", "strikethrough": "~", "emphasis": "_*",
                "link": "[", "image": "!", "autolink": "<", "html_inline": "<", "entity": "&"}
# The major release of markdown-it-py the tables above were read off; under any other the stock
# chains run, slower and never wrong.
READ_OFF = "4"
# What a setext heading's underline opens with.
UNDERLINES = "=-"

RuleTable = tuple[dict[str, tuple[Callable[..., bool], ...]], tuple[Callable[..., bool], ...],
                  tuple[Callable[..., bool], ...]]


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    # imported on first parse: reads that never open a body (route, explain, mcp) and a check
    # served from the parse cache do not pay markdown-it's import
    from markdown_it import MarkdownIt, __version__

    made = MarkdownIt("commonmark")
    # blocks only: `body.parse` reads each block's inline children as it reaches the block, then
    # lets them go, so a long page never holds every block's inline tokens at once (they were half
    # of a 10 MB page's peak memory)
    made.core.ruler.disable(["inline", "text_join"])
    if __version__.split(".")[0] == READ_OFF:  # another release may start a rule elsewhere: stock chains
        _guard_setext_headings(made)
        _dispatch_blocks(made)
        _dispatch_inline(made)
    # a link's destination normalized once per process: a corpus links the same URLs again and
    # again (a third as many distinct as written, on the KEPs), and each costs a URL parse
    made.normalizeLink = lru_cache(maxsize=4096)(made.normalizeLink)  # type: ignore[method-assign]
    return made


def _by_character(rules: list, opens: dict[str, str]) -> RuleTable:
    """The rules to try, in order: where each character `opens` names stands, where any other
    stands (those `opens` does not name), and where none does (all)."""
    every = tuple(rule.fn for rule in rules)
    others = tuple(rule.fn for rule in rules if rule.name not in opens)
    by_character = {character: tuple(rule.fn for rule in rules
                                     if rule.name not in opens or character in opens[rule.name])
                    for rule in rules for character in opens.get(rule.name, "")}
    return by_character, others, every


def _block_guard(rules: list) -> Callable[..., bool]:
    by_character, others, every = _by_character(rules, OPENS)

    def by_first_character(state, line: int, end: int, silent: bool) -> bool:
        at = state.bMarks[line] + state.tShift[line]
        for rule in by_character.get(state.src[at], others) if at < state.eMarks[line] else every:
            if rule(state, line, end, silent):
                return True
        return False
    return by_first_character


def _dispatch_blocks(made: MarkdownIt) -> None:
    """One guard for the main chain, first in it, and one for each chain of rules that may end a
    block. The rules stay enabled under their names (a parse reads which are, `code`'s above all),
    so they stay in the main chain too, behind its guard, which ends every line (its `paragraph`
    always matches); each leaves the other chains to their guards."""
    ruler = made.block.ruler
    rules = [rule for rule in ruler.__rules__ if rule.enabled]
    chains = {chain: _block_guard([rule for rule in rules if chain in rule.alt])
              for chain in sorted({chain for rule in rules for chain in rule.alt})}
    for rule in rules:
        ruler.at(rule.name, rule.fn, {"alt": []})
    ruler.before(rules[0].name, "by_first_character", _block_guard(rules))
    for chain, guard in chains.items():
        ruler.push(f"by_first_character_{chain}", guard, {"alt": [chain]})


def _guard_setext_headings(made: MarkdownIt) -> None:
    """markdown-it's `lheading` reads each paragraph to its end for a `=` or `-` line under it,
    trying every rule that may end a paragraph on each line, and then `paragraph` reads it again.
    It runs only where a line before the next blank one opens with one within three columns of
    the block's indent; elsewhere it fails as it would, leaving what its failure leaves (the
    state's `parentType` set to "paragraph")."""
    ruler = made.block.ruler
    setext = next((rule.fn for rule in ruler.__rules__ if rule.name == "lheading" and rule.enabled), None)
    if setext is None:
        return

    def lheading(state, line: int, end: int, silent: bool) -> bool:
        src, indent = state.src, state.blkIndent
        below = line + 1
        while below < end and (at := state.bMarks[below] + state.tShift[below]) < state.eMarks[below]:
            if src[at] in UNDERLINES and 0 <= state.sCount[below] - indent <= 3:
                return setext(state, line, end, silent)
            below += 1
        if not state.is_code_block(line):
            state.parentType = "paragraph"
        return False

    ruler.at("lheading", lheading)


def _dispatch_inline(made: MarkdownIt) -> None:
    """One rule in place of the inline chain. No inline rule's name is read by a parse, so the
    rules it holds are disabled; where none of them matches it fails, and the parser takes the
    character as text, as it did."""
    ruler = made.inline.ruler
    rules = [rule for rule in ruler.__rules__ if rule.enabled]
    by_character, others, every = _by_character(rules, INLINE_OPENS)

    def by_character_at(state, silent: bool) -> bool:
        at = state.pos
        for rule in by_character.get(state.src[at], others) if at < state.posMax else every:
            if rule(state, silent):
                return True
        return False

    ruler.disable([rule.name for rule in rules])
    ruler.push("by_character", by_character_at)
