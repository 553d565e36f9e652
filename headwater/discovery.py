"""Finding the governed root from where a verb was started, the way git finds its repository.

The nearest ancestor holding `.headwater/taxonomy.yml` is the root; without one, the nearest
holding `.git`; without either, the working directory itself. `--root` bypasses all of it.
"""

from __future__ import annotations

from pathlib import Path

from headwater.errors import Refusal
from headwater.statefolder import DECLARATION


def _ancestors(start: Path) -> list[Path]:
    start = Path(start).absolute()
    return [start, *start.parents]


def governed_root(start: Path) -> Path | None:
    """The nearest directory at or above `start` that a declaration binds."""
    return next((d for d in _ancestors(start) if (d / DECLARATION).is_file()), None)


def git_top(start: Path) -> Path | None:
    return next((d for d in _ancestors(start) if (d / ".git").exists()), None)


def place_in_work_tree(root: Path) -> str:
    """The root's folder within the git work tree holding it, ending in `/`; empty where the root
    is that tree's top or lies in none. GitHub reads a SARIF location and an annotation's `file`
    from the repository's top, so a root in a monorepo's folder writes its paths after this."""
    top = git_top(root)
    here = Path(root).absolute()
    return "" if top is None or top == here else here.relative_to(top).as_posix() + "/"


def discover(start: Path) -> Path:
    """The root a verb started in `start` reads: governed, else the git top level, else `start`."""
    return governed_root(start) or git_top(start) or Path(start)


def init_root(start: Path) -> Path:
    """Where `init` binds: refused inside a governed repository's subdirectory, since a second
    `.headwater/` there would split one corpus in two."""
    bound = governed_root(start)
    here = Path(start).absolute()
    if bound is not None and bound != here:
        raise Refusal(f"this directory is inside the repository governed at {bound}; "
                      f"run headwater from there, or pass `--root` to bind another")
    return bound or git_top(start) or Path(start)
