"""Round-trip edits of YAML text: a file like `.headwater/taxonomy.yml`, or a document's front matter.

ruamel.yaml loads the text as a comment-keeping tree, the edit is made on that tree, and the
tree is dumped with the indentation the text already uses. Of the dump, only the changes inside
the edited entry are kept, token by token (`writes/splice.py`: ruamel respells `[A,B]` as
`[A, B]` and moves comments, and every byte it merely respelled stays as the author wrote it);
the spliced text must then load to exactly the edited tree, or the edit is refused naming the
line it would rewrite. So an author's comments, key order, quoting, spacing, tabs and line ends
(CRLF or LF, line by line) never move.

Addresses are tuples of mapping keys from the top: `("relations", "superseded_by")`.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from ruamel.yaml.tokens import CommentToken

from headwater.corpus.frontmatter import is_fence, split
from headwater.taxonomy.canonical import SAFE
from headwater.writes.splice import splice

Address = tuple[str, ...]
# What `str.splitlines` (and YAML, for U+000D, U+0085, U+2028 and U+2029) ends a line at and a
# split on "\n" does not: where one stands, readers disagree about which line is which.
STRAY_BREAK = re.compile("\r(?!\n)|[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
LONE_CR = re.compile("\r(?!\n)")  # a file's first line ending so: front matter would open with `---\r`
TAB_PAST_INDENT = re.compile(r"(?<=[^ \t\n])[^\n]*")  # a line's rest, from its first character that is no blank
COMMENT = re.compile(r"(?:^|[ \t])(#[^\r\n]*)", re.MULTILINE)  # or a `#` in a quoted value: counted alike
KEY_OPENS_BLOCK = re.compile(r"^( *)[^\s#-][^#]*:\s*(#.*)?$")
KEY_LINE = re.compile(r"^( *)[^\s#-][^#]*:(\s|$)")
DASH_LINE = re.compile(r"^( *)- ")


class UnsafeEdit(ValueError):
    """The edit cannot be made without disturbing bytes it does not mean to touch."""


def add_to_list(text: str, address: Address, value: str) -> str:
    """Append `value` to the list at `address`, creating the mappings and the list when absent.

    A single scalar already there becomes a list holding it and then `value`. A list (or scalar)
    that already holds `value` is left as it is: adding twice is adding once.
    """

    def edit(parent: CommentedMap, key: str) -> None:
        current = parent.get(key)
        if current is None:
            parent[key] = _block_list([_scalar(value)])
        elif isinstance(current, CommentedSeq):
            if value not in (str(item) for item in current if not isinstance(item, (CommentedMap, CommentedSeq))):
                current.append(_scalar(value))
        elif isinstance(current, CommentedMap):
            raise UnsafeEdit(f"`{'.'.join(address)}` is a mapping, not a list")
        elif str(current) != value:
            parent[key] = _after_its_comment_lines(parent, key, _block_list([current, _scalar(value)]))

    return _edit(text, address, edit)


def _after_its_comment_lines(parent: CommentedMap, key: str, seq: CommentedSeq) -> CommentedSeq:
    """`seq`, to replace the scalar at `key`, holding the comment and blank lines that followed the
    scalar: ruamel keeps them with the key, and so wrote them between the key and its new list.
    A comment on the scalar's own line stays on the key's."""
    slot = parent.ca.items.get(key)
    comment = slot[2] if slot and len(slot) > 2 else None
    if comment is not None:
        own, _, below = comment.value.partition("\n")
        if below:
            seq.ca.items[len(seq) - 1] = [CommentToken("\n" + below, comment.start_mark, comment.end_mark),
                                          None, None, None]
            if own:
                comment.value = own + "\n"
            else:
                slot[2] = None
    return seq


def set_scalar(text: str, address: Address, value: str) -> str:
    """Set the scalar at `address` to `value`, creating the mappings (and the key) when absent."""

    def edit(parent: CommentedMap, key: str) -> None:
        if isinstance(parent.get(key), (CommentedMap, CommentedSeq)):
            raise UnsafeEdit(f"`{'.'.join(address)}` holds a list or a mapping, not one value")
        parent[key] = _scalar(value)

    return _edit(text, address, edit)


def edit_front_matter(document: str, edit: Callable[[str], str]) -> str:
    """Apply a text edit (e.g. `lambda t: add_to_list(t, address, value)`) to a Markdown file's
    front matter; the body and the fences are kept as they are. A file without front matter
    gets one, its lines ended as the file's first line is."""
    lines = document.split("\n")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    if split(document).front is None:
        _refuse_stray_break(lines[0] if lines else "", 1, LONE_CR)
        return f"---{newline}" + _with_newline(edit(""), newline) + f"---{newline}" + document
    # where a stray line end closes it for the reader, no "\n" line does: the block runs on, and is refused
    close = next((i for i in range(1, len(lines)) if is_fence(lines[i], closing=True)), len(lines))
    block = "".join(lines[1:close])
    _refuse_stray_break(block, 2)
    edited = edit(block) if block else _with_newline(edit(""), newline)  # an empty block shows no line end
    return lines[0] + edited + "".join(lines[close:])


def _with_newline(text: str, newline: str) -> str:
    return text.replace("\n", newline) if newline != "\n" else text


def _refuse_stray_break(text: str, first_line: int, stray: re.Pattern[str] = STRAY_BREAK) -> None:
    """Refuse text holding a line end only some readers see: lines would be counted, and kept, wrong."""
    found = stray.search(text)
    if found:
        line = first_line + text.count("\n", 0, found.start())
        raise UnsafeEdit(f"line {line} holds U+{ord(found.group()):04X}, which some readers take for a line end and "
                         "others do not; replace it with a space, or end the line with LF or CRLF there")


def _as_ruamel_reads(text: str) -> str:
    """The text ruamel is given: LF line ends, and a tab past a line's indentation as a space:
    ruamel's scanner refuses `status: current\t# why`, which YAML and headwater's reader take. A tab
    that indents stays, and is refused as YAML refuses it. Lines outside the edit keep their tabs;
    `_edit` refuses to lose one in a line it rewrites."""
    return TAB_PAST_INDENT.sub(lambda found: found.group().replace("\t", " "), text.replace("\r\n", "\n"))


def _scalar(value: str):
    return value if SAFE.match(value) else DoubleQuotedScalarString(value)


def _block_list(items: list) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_block_style()
    return seq


def _edit(text: str, address: Address, edit: Callable[[CommentedMap, str], None]) -> str:
    if not address:
        raise UnsafeEdit("an edit needs the address of a key")
    _refuse_stray_break(text, 1)
    plain_text = _as_ruamel_reads(text)
    yaml = _yaml(plain_text)
    tree = _load(yaml, plain_text)
    lines = plain_text.splitlines()
    zone = _widened(_zone(tree, address, len(lines)), lines)
    # comments and blank lines alone: ruamel loads no mapping, so it has no entry to keep them by
    blank = all(not line.strip() or line.lstrip().startswith("#") for line in lines)
    parent = tree
    for depth, key in enumerate(address[:-1]):
        child = parent.get(key)
        if child is None:
            child = parent[key] = CommentedMap()
        if not isinstance(child, CommentedMap):
            raise UnsafeEdit(f"`{'.'.join(address[: depth + 1])}` is not a mapping")
        parent = child
    edit(parent, address[-1])
    out = io.StringIO()
    yaml.dump(tree, out)
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"  # a line the edit writes ends so
    if blank:
        result, held = _after_all(text, out.getvalue(), newline), None
    else:
        spliced = splice(text, _with_newline(out.getvalue(), newline), zone)
        result, held = spliced.text, spliced.held_line
    if not _reads_as(yaml, result, tree):
        if held is None:
            raise UnsafeEdit(f"`{'.'.join(address)}` cannot be written without rewriting lines around it")
        line = text.split("\n")[held].strip()
        raise UnsafeEdit(f"`{'.'.join(address)}` cannot be written without rewriting the line `{line}`")
    if result.count("\t") < text.count("\t"):  # ruamel writes none: a line holding one was rewritten
        raise UnsafeEdit(f"`{'.'.join(address)}` cannot be written without rewriting a line that holds a tab")
    lost = Counter(COMMENT.findall(text)) - Counter(COMMENT.findall(result))
    if lost:  # ruamel drops a comment inside a flow mapping it rewrites (`{a: 1,  # why`)
        raise UnsafeEdit(f"`{'.'.join(address)}` cannot be written without dropping the comment `{min(lost)}`")
    return result


def _reads_as(yaml: YAML, text: str, tree: CommentedMap) -> bool:
    try:
        return _load(yaml, _as_ruamel_reads(text)) == tree
    except UnsafeEdit:  # a splice that does not load is one that does not read as the edit
        return False


def _load(yaml: YAML, text: str) -> CommentedMap:
    try:
        tree = yaml.load(text) if text.strip() else None
    except YAMLError as error:
        raise UnsafeEdit(f"the YAML does not load ({error.__class__.__name__})") from None
    if tree is None:
        return CommentedMap()
    if not isinstance(tree, CommentedMap):
        raise UnsafeEdit("the YAML is not a mapping")
    return tree


def _yaml(text: str) -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 20  # never fold a long line
    mapping, sequence, offset = _indentation(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    return yaml


def _indentation(text: str) -> tuple[int, int, int]:
    """(mapping, sequence, offset) as the text already writes them; 2, 4, 2 when it does not say."""
    mapping, offset = None, None
    lines = [line for line in text.split("\n") if line.strip() and not line.lstrip().startswith("#")]
    for above, line in zip(lines, lines[1:], strict=False):
        opener = KEY_OPENS_BLOCK.match(above)
        if not opener:
            continue
        base = len(opener.group(1))
        dash = DASH_LINE.match(line)
        key = KEY_LINE.match(line)
        if dash and offset is None and len(dash.group(1)) >= base:
            offset = len(dash.group(1)) - base
        elif key and mapping is None and len(key.group(1)) > base:
            mapping = len(key.group(1)) - base
    mapping = mapping or 2
    offset = 2 if offset is None else offset
    return mapping, offset + 2, offset


def _zone(tree: CommentedMap, address: Address, total: int) -> tuple[int, int]:
    """The lines [start, end) the edit may change: the deepest entry of `address` that exists.

    Where the next key is absent, the zone is the end of its parent: only an insertion there
    (or, for a mapping written on one line, a change of that line) is the edit.
    """
    start, end = 0, total
    node = tree
    for key in address:
        if not isinstance(node, CommentedMap) or key not in node:
            # a mapping written on one line, `{a: 1}` or `{}`, or a null, `key: ~`, changes that line
            one_line = node is None or isinstance(node, CommentedMap) and (node.fa.flow_style() or not node)
            return (start, end) if one_line else (end, end)
        keys = list(node.keys())
        line = node.lc.key(key)[0]
        later = [node.lc.key(k)[0] for k in keys[keys.index(key) + 1 :]]
        start, end = line, max(later[0] if later else end, line + 1)
        node = node[key]
    return start, end


def _widened(zone: tuple[int, int], lines: list[str]) -> tuple[int, int]:
    """An insertion point, with the comment and blank lines just above it: ruamel writes a new
    key ahead of the comments that trail its parent's last entry (`tags: [a, b]` then `# note`),
    which stay as they are, after it."""
    start, end = zone
    if start != end:
        return zone
    while start > 0 and (not lines[start - 1].strip() or lines[start - 1].lstrip().startswith("#")):
        start -= 1
    return start, end


def _after_all(before: str, after: str, newline: str) -> str:
    """`before` whole, its last line ended, then `after`: the text held comments and blank lines
    alone, which ruamel, loading no mapping, would have dropped."""
    ended = before if not before or before.endswith("\n") else before + newline
    return ended + _with_newline(after, newline)
