"""Globs as memories write them: brace expansion, matching, and the shapes agents can read.

Cursor (`globs`) and Copilot (`applyTo`) take one comma-separated list, so braces
are expanded before globs are joined, and a comma left after expansion would cut
a glob in two. Cursor reads its list unquoted, so a glob must also be something a
plain YAML scalar can hold. `check` refuses the shapes that no agent file can
carry as written, with the fix in the message.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

MAX_EXPANSION = 256  # globs one brace pattern may expand to


def expand_braces(glob: str) -> list[str]:
    """`src/*.{ts,tsx}` -> [`src/*.ts`, `src/*.tsx`] (nested and repeated groups too)."""
    return list(_expand(glob))


def _expand(glob: str) -> Iterator[str]:
    depth, start = 0, -1
    for i, c in enumerate(glob):
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0:
                inner, parts, level, last = glob[start + 1 : i], [], 0, 0
                for j, ch in enumerate(inner):
                    level += (ch == "{") - (ch == "}")
                    if ch == "," and level == 0:
                        parts.append(inner[last:j])
                        last = j + 1
                parts.append(inner[last:])
                if len(parts) == 1:
                    continue
                head, tail = glob[:start], glob[i + 1 :]
                for p in parts:
                    yield from _expand(head + p + tail)
                return
    yield glob


def check(glob: str) -> None:
    """Refuse a glob that an agent's rule file cannot carry as written (ValueError)."""
    what = f"path glob {glob!r}"
    if "<" in glob or ">" in glob:
        raise ValueError(
            f"{what} contains '<' or '>': compiled files would read it as HTML, and no file "
            "name on Windows holds them; remove it"
        )
    if glob != glob.strip():
        raise ValueError(f"{what} starts or ends with a space, which agents trim; remove it")
    if ": " in glob or " #" in glob or glob.endswith(":"):
        raise ValueError(
            f"{what} has ': ', ' #' or a final ':', which Cursor's unquoted `globs` line "
            "cannot hold (YAML reads them as a key or a comment); match the character with "
            "[:] or [#] instead, e.g. 'a[:] b'"
        )
    expanded = []
    for g in _expand(glob):
        expanded.append(g)
        if len(expanded) > MAX_EXPANSION:
            raise ValueError(
                f"{what} expands to more than {MAX_EXPANSION} globs; use fewer brace groups"
            )
    if any("," in g for g in expanded):
        raise ValueError(
            f"{what} has a comma outside a {{a,b}} group: Cursor and Copilot split glob lists "
            "on commas, so it would be cut in two; use {a,b} for alternatives, [ab] for one "
            "of some characters, or ? for a comma in a file name"
        )
    if "" in expanded:
        raise ValueError(f"{what} expands to an empty glob (a {{...}} group with an empty part)")


def match(glob: str, path: str) -> bool:
    """Whether `path` (relative, `/`-separated) matches `glob`, git-style.

    `*` and `?` stay within one path segment, `**` spans segments (`**/` also matches
    nothing), `[...]` is a character class (`[!...]` negated), `{a,b}` alternatives
    nest (expanded by `expand_braces`, the same expansion compiled rule files use).
    A glob without wildcards also matches everything under it (a directory).
    """
    if not any(c in glob for c in "*?[{"):
        base = glob.rstrip("/")
        return path == base or path.startswith(base + "/")
    return any(_regex(g).fullmatch(path) is not None for g in expand_braces(glob))


@functools.lru_cache(maxsize=1024)
def _regex(glob: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        c = glob[i]
        end = glob.find("]", i + 2) if c == "[" else -1
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and end > 0:
            inner = glob[i + 1 : end]
            neg = inner[:1] in ("!", "^")
            body = re.escape(inner[1:] if neg else inner).replace(r"\-", "-")
            out.append(f"[{'^' if neg else ''}{body}]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    if glob.endswith("/"):
        out.append(".*")
    return re.compile("".join(out))


def fixed_prefix(glob: str) -> str:
    """The folder part of `glob` before its first wildcard or brace (`src/api/**` -> `src/api`)."""
    return glob.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0].split("{", 1)[0].rstrip("/")


@functools.lru_cache(maxsize=1024)
def glob_re(glob: str) -> re.Pattern[str]:
    """One regular expression for `glob` (braces expanded), matching as `match` does for
    globs with wildcards: for callers that store or combine patterns."""
    return re.compile("|".join(f"(?:{_regex(g).pattern})" for g in expand_braces(glob)))
