"""`headwater change`: the manifest of what moved since a base revision. The only code that runs git.

What it asks git (from the root, so every path is relative to the root, which may sit below
the repository's top):
- `git diff --name-status -z --find-renames --relative <base>`: added, modified, renamed and
  deleted files of the working tree against the base (submodules are not files, so ignored);
- `git ls-files -z --others --exclude-standard`: untracked files, which count as added;
- `git show <base>:./<path>`: the bytes a changed file had at the base.

A rename is a `prior` line at the new path holding the old path's bytes (so the change-scoped
rules compare the document with its own past), and a `prior` line at the old path, where nothing
stands now, as a deletion is (so `impact` sees the path the code or document left). Every
refusal is decided before anything is written, and the out-dir is built beside itself and
swapped in, so a reader sees the old manifest or the new one, never a mix. The format is `headwater.manifest`'s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.manifest import ADDED, HEADER, PRIOR, VERIFIED, line
from headwater.textsafe import shown

OURS = {"manifest", "prior"}  # what an out-dir holds after a run: all a rerun may replace


@frozen
class Manifest:
    added: tuple[str, ...]
    prior: tuple[tuple[str, bytes], ...]  # (path today, bytes at the base), in path order
    verified: tuple[str, ...]
    verified_edges: tuple[tuple[str, str], ...]

    def text(self) -> str:
        lines = [HEADER, *(line(ADDED, p) for p in self.added)]
        lines += [line(PRIOR, path, f"prior/{n}") for n, (path, _) in enumerate(self.prior, start=1)]
        lines += [line(VERIFIED, d) for d in self.verified]
        lines += [line(VERIFIED, d, t) for d, t in self.verified_edges]
        return "\n".join(lines) + "\n"


def _git(root: Path, *args: str) -> bytes:
    return run_git(root, "`change`", *args)


def run_git(root: Path, who: str, *args: str, stdin: bytes | None = None) -> bytes:
    """git's standard output for `args` run in `root` (`stdin` its input, where given); GitFailed
    on a non-zero status. `who` names the verb or flag that runs it, in the refusal when no git is
    installed."""
    try:
        ran = subprocess.run(["git", *args], cwd=root, input=stdin, capture_output=True, check=False, env=_git_env())
    except FileNotFoundError:
        raise Refusal(f"{who} runs git, and no `git` program is on the PATH") from None
    except NotADirectoryError:
        raise Refusal(f"`{root}` is not a directory") from None
    if ran.returncode != 0:
        raise GitFailed(ran.stderr.decode("utf-8", "replace").strip())
    return ran.stdout


# Every path headwater hands git is literal; a user's global pathspec setting would reread it, and
# git refuses `--literal-pathspecs` beside any of them.
PATHSPEC_SETTINGS = ("GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS", "GIT_LITERAL_PATHSPECS")


def _git_env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name not in PATHSPEC_SETTINGS}


class GitFailed(Exception):
    """git answered with a non-zero status; the caller knows which sentence that means."""


def _fields(output: bytes) -> list[str]:
    return [f for f in output.decode("utf-8", "surrogateescape").split("\0") if f]


def _moves(root: Path, base: str) -> tuple[list[str], dict[str, str]]:
    """(added paths, {path today, or a path left: path at the base}) from git's name-status
    against the base; a rename gives both its paths."""
    fields = _fields(_git(root, "diff", "--name-status", "-z", "--find-renames", "--relative",
                          "--ignore-submodules=all", base, "--"))
    added, prior, cursor = [], {}, 0
    while cursor < len(fields):
        status = fields[cursor][0]
        if status in "RC":
            old, new = fields[cursor + 1], fields[cursor + 2]
            cursor += 3
            if status == "R":
                prior[new] = prior[old] = old
            else:
                added.append(new)
            continue
        path = fields[cursor + 1]
        cursor += 2
        if status == "A":
            added.append(path)
        else:  # M, T, D and anything else git reports as changed
            prior[path] = path
    return added, prior


def _utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:  # a byte `_fields` kept as a lone surrogate
        return False
    return True


def _inside(path: str, directory: str | None) -> bool:
    return directory is not None and (path == directory or path.startswith(directory + "/"))


def _own_dir(root: Path, out_dir: Path) -> str | None:
    """The out-dir as a root-relative path when it lies inside the root (its files are not news)."""
    try:
        return os.path.relpath(out_dir.resolve(), root.resolve()).replace(os.sep, "/")
    except ValueError:
        return None


def collect(root: Path, base: str, out_dir: Path, verified: Sequence[str],
            verified_edges: Sequence[tuple[str, str]]) -> Manifest:
    """Everything the manifest will say, asked of git; refuses before anything is written."""
    try:
        _git(root, "rev-parse", "--show-prefix")
    except GitFailed:
        raise Refusal("this repository is in no git work tree, and `change` compares it with a git revision") from None
    try:
        _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{base}^{{commit}}")
    except GitFailed:
        raise Refusal(f"`{shown(base)}` names no commit of this repository (a shallow clone may lack it)") from None
    added, prior = _moves(root, base)
    added += _fields(_git(root, "ls-files", "-z", "--others", "--exclude-standard"))
    own = _own_dir(root, out_dir)
    added = sorted({p for p in added if not _inside(p, own)})
    for path in [*added, *prior]:
        if "\t" in path or "\n" in path:
            raise Refusal(f"`{path!r}` holds a tab or a line break, which a manifest line cannot carry")
        if not _utf8(path):  # git gives a name's bytes as they are; the manifest is UTF-8 text
            raise Refusal(f"`{path.encode('utf-8', 'surrogateescape')!r}` is a file name that is not UTF-8, "
                          "which a manifest line cannot carry")
    copies = tuple((path, _git(root, "show", f"{base}:./{old}")) for path, old in sorted(prior.items())
                   if not _inside(path, own))
    return Manifest(tuple(added), copies, tuple(verified), tuple(verified_edges))


def _refuse_foreign(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise Refusal(f"`{out_dir}` is a file, and `change` writes a directory there")
    if out_dir.is_dir():
        foreign = sorted(set(os.listdir(out_dir)) - OURS)
        if foreign:
            raise Refusal(f"`{out_dir}` holds `{foreign[0]}`, which `change` did not write; name an "
                          "empty or new directory")


def write(out_dir: Path, manifest: Manifest) -> Path:
    """Build the out-dir beside itself, then swap it in; returns the manifest's path."""
    _refuse_foreign(out_dir)
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    except OSError as error:
        raise Refusal(f"`{out_dir}` is not writable ({error.strerror or error})") from None
    try:
        (staging / "prior").mkdir()
        for number, (_, data) in enumerate(manifest.prior, start=1):
            (staging / "prior" / str(number)).write_bytes(data)
        (staging / "manifest").write_text(manifest.text(), encoding="utf-8")
        os.chmod(staging, 0o777 & ~_umask())
        _swap(staging, out_dir)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise Refusal(f"`{out_dir}` is not writable ({error.strerror or error})") from None
    return out_dir / "manifest"


def _swap(staging: Path, out_dir: Path) -> None:
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old.", dir=out_dir.parent))
    os.rename(out_dir, retired / "dir")
    try:
        os.rename(staging, out_dir)
    except OSError:
        os.rename(retired / "dir", out_dir)  # the old manifest stands again
        raise
    finally:
        shutil.rmtree(retired, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
