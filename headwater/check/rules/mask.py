"""The prose mask: what is not the author's own running prose, blanked to spaces, in time linear in
the text however its quotes, comments and tags are left open."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator

# What is not the author's own running prose: code spans, quoted strings, HTML (comments and
# tags), link destinations, a reference link's label (and a shortcut or collapsed reference's
# text, which is its label), bare URLs and paths. Each is blanked to spaces so every column stays
# where it was: a fix that rewrote any of them would break the link or the path, unreported.
#
# Their semantics is one leftmost-first regex, alternatives in this order (the property test holds
# the mask to it): a code span (`` (`+)[\s\S]*?\1 ``), `"[^"]*"`, a curly quotation, a comment, a
# tag, then `_SPANS` below, then a URL with a scheme, `www.`, a path from here, home or the top, and
# a path to a file (`_scheme_urls`, `_heads`). As one regex each failed attempt read on, to the end of the text
# or of a run with no space in it, from every position that could start one, so a long such run
# cost the square of its length (a code span's opening run of backticks, the cube). Here each is
# found by a search whose failures are not repeated; a found span that starts later than another
# is kept, not sought again, so no stretch of the text is read more than a bounded number of times.
_SPANS = re.compile("|".join((
    r'"[^"]*"',
    # an inline link's destination, one level of parentheses inside it (`Foo_(bar)`): never a run
    # across another `(`, which made a paragraph of unclosed `[a](` cost the square of its length
    r"(?<=\])\((?:[^()\s]|\([^()\s]*\))*\)",
    r"(?<=\])\[[^\]\n]*\]",  # a full reference's label
    r"\[[^\[\]\n]*\](?=\[\])|\[[^\[\]\n]*\](?![(\[])",  # a collapsed or shortcut reference
)))

# A URL or a path lies in a run with no space, bracket or angle (`_RUN`). It ends at the run's last
# character that is not the sentence's punctuation (`_KEPT`); a path to a file, after the run's last
# `.ext` (`_EXTENSION`). Both are facts of the run, read once for every start in it.
_RUN = re.compile(r"[^\s<>()\[\]]*")
_KEPT = re.compile(r"[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"]")
_EXTENSION = re.compile(r"[^\s<>()\[\]]*(\.\w+)")
# What starts one, in the regex's order: `www.`, a path from here, home or the top, a path's
# folders. A URL with a scheme (before them all) is found from its `://` instead: its scheme read
# from every letter of a run like `a.a.a…`.
_URL_HEADS = (re.compile(r"\bwww\."), re.compile(r"(?<![\w/.~-])(?:\.{1,2}/|~/|/(?=[\w.-]))"))
_PATH_HEAD = re.compile(r"(?<![\w/.~-])[\w.-]+/")
_HEAD = re.compile("|".join(head.pattern for head in (*_URL_HEADS, _PATH_HEAD)))
_PATH_CHARACTER = re.compile(r"[\w.~-]")  # what may stand between a head and the first `/` after it
_SCHEME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_SCHEME_START = re.compile(r"\b[A-Za-z]")

# A curly quotation (`“` to the next `”`), an HTML comment (`<!--` to the next `-->`), a tag (`<`
# to the next `>` on its line) and a code span are found by string search. No other alternative
# starts at `“`, `<` or a backtick, so merging the finders by position (and, for a URL and a path
# starting at one place, by the regex's order) gives the one regex's leftmost-first answer.
_OPENER = re.compile(r"[“<`]")
_BACKTICKS = re.compile(r"`+")

_NOT_NEWLINE = re.compile(r"[^\n]")

Span = tuple[int, int]
Finder = Callable[[int], "Span | None"]


def mask(text: str) -> str:
    """`text` with what is not prose blanked to spaces (newlines kept): every column stays put."""
    kept, at = [], 0
    for start, end in spans(text):
        kept += (text[at:start], _blank(text[start:end]))
        at = end
    kept.append(text[at:])
    return "".join(kept)


def spans(text: str) -> Iterator[Span]:
    """(start, end) of each stretch that is not prose, in order. Every search runs forward from
    where the last one stopped, so each stretch of text is read a bounded number of times."""
    # a finder none of whose spans' characters the text holds is not built: most prose holds none
    finders = [finder(text) for finder, needles in _FINDERS if any(needle in text for needle in needles)]
    found = [first(0) for first in finders]
    while any(found):
        # at one start the earlier finder wins, as the earlier alternative did
        span = min((span[0], order, span[1]) for order, span in enumerate(found) if span)
        yield span[0], span[2]
        # a found span that starts at or after the end is still the first from there: kept, not sought again
        found = [first(span[2]) if was and was[0] < span[2] else was for first, was in zip(finders, found, strict=True)]


def _regular(text: str) -> Finder:
    def first(pos: int) -> Span | None:
        found = _SPANS.search(text, pos)
        return found.span() if found else None
    return first


def _run(text: str) -> Callable[[int], tuple[int, int]]:
    """For a position in a run with no space, bracket or angle: where a URL from it ends and where
    a path to a file whose folders end there ends (-1 where none does). The run is read once,
    from the first position asked about in it, not again for every later one."""
    read = (0, -1, -1, -1, -1)  # from, run end, kept end, last `.ext` start, its end

    def ends(pos: int) -> tuple[int, int]:
        nonlocal read
        start, stop, kept, dot, extension = read
        if not start <= pos <= stop:
            kept_found, extension_found = _KEPT.match(text, pos), _EXTENSION.match(text, pos)
            read = start, stop, kept, dot, extension = (
                pos, _RUN.match(text, pos).end(), kept_found.end() if kept_found else -1,
                *(extension_found.span(1) if extension_found else (-1, -1)))
        return kept if kept > pos else -1, extension if dot >= pos else -1
    return ends


def _scheme_urls(text: str) -> Finder:
    """The first URL with a scheme starting at or after a position, found from its `://`: the
    scheme runs back from it to its first letter at a word's start."""
    run = _run(text)  # each finder its own run reader: each asks about positions that never go back

    def first(pos: int) -> Span | None:
        while (colon := text.find("://", pos)) >= 0:
            start = colon
            while start > pos and text[start - 1] in _SCHEME:
                start -= 1
            letter = _SCHEME_START.search(text, start, colon)
            if letter and (end := run(colon + 3)[0]) >= 0:
                return letter.start(), end
            pos = colon + 3
        return None
    return first


def _heads(text: str) -> Finder:
    """The first `www.` URL or path starting at or after a position; where one starts but its run
    ends it at once (or holds no `.ext` after a path's folders), the regex's next alternative."""
    run, head_at = _run(text), _head_starts(text)

    def first(pos: int) -> Span | None:
        while (at := head_at(pos)) is not None:
            for url_head in _URL_HEADS:
                if (found := url_head.match(text, at)) and (end := run(found.end())[0]) >= 0:
                    return at, end
            if (found := _PATH_HEAD.match(text, at)) and (end := run(found.end())[1]) >= 0:
                return at, end
            pos = at + 1
        return None
    return first


def _head_starts(text: str) -> Callable[[int], int | None]:
    """Where the first `www.` URL or path head stands at or after a position (None if nowhere), for
    positions that never go back. A head stands at a `www.`, or where the run of path characters
    before a `/` starts (inside the run the heads' look-behind fails), so only those places are
    tried, not every word; a place tried and rejected is never a head for a later position."""
    slash_after, www_after = _next(text, "/"), _next(text, "www.")
    slash_from = www_from = 0
    walked = (-1, -1)  # the last slash whose run was walked back, and where the run starts

    def run_start(slash: int) -> int:
        nonlocal walked
        if slash == len(text):
            return slash
        if walked[0] != slash:
            start = slash
            while start and _PATH_CHARACTER.match(text, start - 1):
                start -= 1
            walked = slash, start
        return walked[1]

    def at_or_after(pos: int) -> int | None:
        nonlocal slash_from, www_from
        slash_from, www_from = max(slash_from, pos), max(www_from, pos)
        while True:
            slash, www = slash_after(slash_from), www_after(www_from)
            if (start := run_start(slash)) < pos:  # the run began before: no head at this slash
                slash_from = slash + 1
                continue
            if (at := min(start, www)) == len(text):
                return None
            if _HEAD.match(text, at):
                return at
            if at == start:
                slash_from = slash + 1
            if at == www:
                www_from = www + 1
    return at_or_after


def _opened(text: str) -> Finder:
    """The first curly quotation, comment, tag or code span that starts at or after a position
    (which never goes back), or None."""
    quote_close, comment_close = _next(text, "”"), _next(text, "-->")
    tag_close, line_end = _next(text, ">"), _next(text, "\n")
    code = _code_spans(text)

    def first(pos: int) -> Span | None:
        for found in _OPENER.finditer(text, pos):
            at = found.start()
            if found.group() == "`":
                if span := code(at):
                    return span
                continue
            if found.group() == "“":
                if (close := quote_close(at + 1)) < len(text):
                    return at, close + 1
                continue
            if text.startswith("<!--", at) and (close := comment_close(at + 4)) < len(text):
                return at, close + 3
            if (close := tag_close(at + 1)) < line_end(at + 1):
                return at, close + 1
        return None
    return first


def _code_spans(text: str) -> Callable[[int], Span | None]:
    r"""The code span `(`+)[\s\S]*?\1` matches from a backtick, without its backtracking: the
    longest opening of `n` backticks (at most the run from there) that `n` backticks close, and
    the first such close. A later run at least `n` long closes it; so does the rest of its own run,
    when that holds `n` more."""
    runs = [found.span() for found in _BACKTICKS.finditer(text)]
    longest_after = [0] * len(runs)  # the longest run after each
    for index in range(len(runs) - 2, -1, -1):
        start, end = runs[index + 1]
        longest_after[index] = max(longest_after[index + 1], end - start)

    def span(at: int) -> Span | None:
        index = bisect_right(runs, (at, len(text))) - 1
        own = runs[index][1] - at
        opening = max(min(own, longest_after[index]), own // 2)
        if not opening:
            return None
        if 2 * opening <= own:
            return at, at + 2 * opening
        # the first later run at least `opening` long: every run passed lies inside the span
        index += 1
        while runs[index][1] - runs[index][0] < opening:
            index += 1
        return at, runs[index][0] + opening
    return span


# Each finder, in the regex's order, with the characters one of its spans must hold one of.
_FINDERS: tuple[tuple[Callable[[str], Finder], tuple[str, ...]], ...] = (
    (_opened, ("“", "<", "`")), (_regular, ('"', "]")), (_scheme_urls, ("://",)), (_heads, ("/", "www.")))


def _next(text: str, needle: str) -> Callable[[int], int]:
    """Where `needle` first stands at or after a position (`len(text)` if nowhere), for positions
    that never go back: the last answer holds until the position passes it, so no stretch of the
    text is searched twice."""
    found = -1

    def at_or_after(pos: int) -> int:
        nonlocal found
        if found < pos:
            found = text.find(needle, pos)
            found = len(text) if found < 0 else found
        return found
    return at_or_after


def _blank(text: str) -> str:
    # most spans hold no newline: one multiplication, not a substitution
    return " " * len(text) if "\n" not in text else _NOT_NEWLINE.sub(" ", text)
