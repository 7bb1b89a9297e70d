"""The pre-commit hook's lean route: a commit of memories the hook already knows.

Editing a memory by hand and committing it makes the hook validate it, regenerate
the compiled files and stop the commit so that they are reviewed; the next `git
commit` brings the same memory and the regenerated files. `nothing_to_do` tells,
with the standard library alone, that the checks (memkit.githooks.checks.run_hook)
would find nothing in such a commit:

- `.memory/` is a folder, not a link (the store judges where a link leads);
- every staged memory file is one the hook validated with these very bytes
  (memkit.validity), and no other memory file has its name (ids are file names);
  nothing else under .memory/ is staged (no config, template or deletion);
- the compiled files are current (memkit.compile.current.is_current), with no
  staleness warning recorded (those need the staleness engine);
- no staged file is one a memory links to (the derived index).

Any other answer, or any error, means "not known": the checks run as always.
"""

from __future__ import annotations

import os

from memkit.cachedir import cache_dir
from memkit.githooks.index import Opener, Stamps, read_index, relevant
from memkit.walk import MEMORY_DIR


class _NeedsStaleness(Exception):
    pass


def _no_warnings() -> None:
    raise _NeedsStaleness  # is_current then answers False


def nothing_to_do(root: str, names: list[str], stamps: Stamps, opener: Opener) -> bool:
    """Whether the pre-commit checks would find nothing to say about the staged `names`
    (see the module docstring); False whenever that is not known."""
    if os.path.islink(os.path.join(root, MEMORY_DIR)):
        return False  # the store says whether it may be read (Store.require)
    touched = [n for n in names if n.startswith(MEMORY_DIR + "/")]
    if any(n not in stamps for n in touched):
        return False
    links, _ = read_index(root, stamps, opener)
    if any(not n.startswith(MEMORY_DIR + "/") for n in relevant(names, links)):
        return False
    if touched:
        mine = {n.rsplit("/", 1)[-1] for n in touched}
        if sum(rel.rsplit("/", 1)[-1] in mine for rel in stamps) != len(mine):
            return False  # a file name two memory files share: the store's load decides
        from memkit import validity

        sizes = {rel: stamps[rel][0] for rel in touched}
        if len(validity.known(root, touched, sizes, opener.key)) != len(touched):
            return False  # (the key is worked out only when the bytes matched)
    key = opener.key()
    if not key:
        return False
    from memkit.compile.current import is_current

    real = os.path.realpath(root)
    # today is in the key already: is_current needs no date of its own
    return is_current(real, cache_dir(real), "", _no_warnings, key=key, tree=opener.tree)
