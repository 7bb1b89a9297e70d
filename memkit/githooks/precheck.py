"""The hook script's own check, before Python starts: most commits end there.

Starting Python is most of what the pre-commit hook costs on a commit with nothing to
do (about 12 of 21 ms at 1,000 memories). So the script memkit.githooks.install writes
first asks, with `git`, `find` and `awk` alone:

    { cd ROOT && git diff --cached --name-only ... && echo &&
      find .memory/ -printf '%C@ %i %s %P\\n' && echo /; } |
        awk PROGRAM ROOT/.git/memkit/hooks-fast -

`hooks-fast`, written here by the Python fast path, holds what `find` printed for
`.memory/` (each entry's change time, inode, size and path) when that fast path last
found its derived index (memkit.githooks.index) current, and what the index calls
relevant: `x PATH` a file to look at, `d PATH` a folder whose files are, `p PREFIX`
any path starting so (`.memory/`, compiled rule files); a nested `DIR/AGENTS.md` is
always relevant (compile writes one with `nested_agents`). awk exits

- 0 when no staged name is relevant and `find` prints byte for byte what was recorded
  (or nothing is staged): the commit goes on and Python never starts;
- 1 when a staged name is relevant or cannot be judged (git failed, or quoted a name):
  Python decides as before;
- 2 when the listing differs from the record, or the record is not one this version
  writes: Python decides, and is told (MEMKIT_HOOK_FAST=stale) to write a new record.

A change time moves on every write, rename, chmod or link of an entry and cannot be
set back by hand, so an equal listing means no memory file changed since the record
and the index it copies still holds; a folder's change time catches removals. The
record is written only when every entry is at least two seconds older than the moment
the fast path began to list `.memory/` (a change in the same clock tick as a listing
could otherwise go unseen, as in memkit.githooks.index), and only where the script looks for it: the
`.git` folder of the store's root, with MEMKIT_CACHE_DIR unset. Without GNU find
(`-printf`) the record is never written and the hook runs as before. Standard library
only: it runs inside the fast path.
"""

from __future__ import annotations

import os

from memkit.cachedir import cache_dir, write_private
from memkit.spawn import start
from memkit.walk import MEMORY_DIR

TYPE_CHECKING = False  # typing costs the fast path an import
if TYPE_CHECKING:
    from memkit.walk import Entry

NAME = "hooks-fast"
HEADER = "memkit hook fast 2"  # 2: a nested AGENTS.md is relevant
ENV = "MEMKIT_HOOK_FAST"  # the script sets it to "stale" when the record did not match
MARGIN_NS = 2_000_000_000  # an entry changed this close to the listing: no record
# the staged names, one a line, as the fast path's `git diff -z` gives them (a name git
# must quote, with a line break, quote or backslash in it, starts with a double quote)
GIT = (
    *("git", "-c", "core.quotePath=false", "diff", "--cached", "--name-only"),
    *("--no-renames", "--relative", "--no-color"),
)
FIND_FORMAT = "%C@ %i %s %P\\n"

# The script's judge (see the module's docstring). Reads the record, then from standard
# input the staged names, an empty line (git succeeded), the listing and a "/" line.
AWK = """\
FNR == NR {
    if (FNR == 1 && $0 != "HEADER") bad = 1
    k = substr($0, 1, 2); v = substr($0, 3)
    if (k == "s ") want[++nw] = v
    else if (k == "x ") exact[v] = 1
    else if (k == "d ") dir[v] = 1
    else if (k == "p ") pre[++np] = v
    next
}
part == 0 && $0 == "" { part = 1; next }
part == 0 {
    named = 1
    if (substr($0, 1, 1) == "\\"" || ($0 in exact)) { code = 1; exit }
    if ($0 ~ /[/]AGENTS[.]md$/) { code = 1; exit }
    for (i = 1; i <= np; i++) if (index($0, pre[i]) == 1) { code = 1; exit }
    rest = $0; head = ""
    while ((j = index(rest, "/")) > 0) {
        head = head substr(rest, 1, j - 1)
        if (head in dir) { code = 1; exit }
        head = head "/"; rest = substr(rest, j + 1)
    }
    next
}
part == 1 && $0 == "/" { part = 2; next }
part == 1 { if (++ng > nw || $0 != want[ng]) { code = 2; exit } next }
{ code = 2; exit }
END {
    if (code) exit code
    if (part < 1) exit 1
    if (!named) exit 0
    if (bad || part < 2 || ng != nw) exit 2
    exit 0
}""".replace("HEADER", HEADER)


def asked() -> bool:
    """Whether the hook script asked for a new record; takes the word out of the
    environment, so that nothing the hook runs sees it (compile keys MEMKIT_*)."""
    return os.environ.pop(ENV, None) == "stale"


def begin(root: str) -> int | None:
    """The moment before the fast path lists `.memory/`, when a record can be written
    where the script reads it; None where it cannot (MEMKIT_CACHE_DIR, a `.git` that is
    not a folder, a linked `.memory/`)."""
    import time

    memory = os.path.join(root, MEMORY_DIR)
    if cache_dir(root) != os.path.join(root, ".git", "memkit") or os.path.islink(memory):
        return None
    return time.time_ns()


def record(
    root: str,
    started: int,
    tree: list[Entry] | None,
    links: list[str],
    outputs: list[str] | tuple[str, ...],
) -> bool:
    """Write the record: `find`'s listing of `.memory/` with what the index said
    (index.read_index) for the listing `tree` (index.memory_walk) taken after `started`
    (begin). False when an entry changed within MARGIN_NS of `started`, by `tree` or by
    `find`'s listing (which comes after the walk: a change in between shows there),
    when `find` fails, or when a name cannot go in the record; nothing is written then."""
    limit = started - MARGIN_NS
    if tree is None or any(st is not None and st.st_ctime_ns >= limit for _, st in tree):
        return False  # settling: the next commit records (and the script asks again)
    memory = os.path.join(root, MEMORY_DIR)
    try:
        code, out = start(["find", memory + "/", "-printf", FIND_FORMAT], env={"LC_ALL": "C"})()
    except OSError:
        return False
    if code != 0 or not out.endswith(b"\n"):
        return False
    listing = out[:-1].split(b"\n")
    for line in listing:
        when, _, rest = line.partition(b" ")
        seconds, dot, fraction = when.partition(b".")
        if not (seconds.isdigit() and (not dot or fraction.isdigit()) and rest):
            return False  # a name with a line break in it, or not GNU find's output
        if int(seconds) * 1_000_000_000 + int((fraction + b"000000000")[:9]) >= limit:
            return False
    exact = sorted({*links, *(o for o in outputs if not o.endswith("*"))})
    dirs = sorted({link.rstrip("/") for link in links})
    prefixes = [f"{MEMORY_DIR}/", *(o[:-1] for o in outputs if o.endswith("*"))]
    lines = [*(f"x {n}" for n in exact), *(f"d {n}" for n in dirs), *(f"p {n}" for n in prefixes)]
    if any("\n" in line for line in lines):
        return False
    try:
        sets = "".join(f"{line}\n" for line in lines).encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    data = b"".join([HEADER.encode() + b"\n", *(b"s " + line + b"\n" for line in listing), sets])
    return write_private(root, NAME, data)


def script(root: str) -> str:
    """The lines of the hook script that run the check for the store at `root` (shell-
    quoted, relative to the top of the work tree), exiting 0 when it finds nothing to do.
    `cd ./ROOT`, not `cd ROOT`: an exported CDPATH is never consulted for a path that
    starts with `./` (else `cd` could go elsewhere and print where, into awk's input)."""
    import shlex

    git = shlex.join(GIT)
    find = shlex.join(["find", f"{MEMORY_DIR}/", "-printf", FIND_FORMAT])
    return f"""\
    fast={root}/.git/memkit/{NAME}
    if [ -n "${{MEMKIT_CACHE_DIR-}}" ]; then
        :
    elif [ -f "$fast" ]; then
        {{ cd ./{root} && LC_ALL=C && export LC_ALL && {git} && echo && {find} && echo /; }} |
            LC_ALL=C awk '{AWK}' "$fast" -
        case $? in 0) exit 0 ;; 2) {ENV}=stale && export {ENV} ;; esac
    elif [ -d {root}/.git ]; then
        {ENV}=stale && export {ENV}
    fi
"""
