"""Globs as memories write them: brace expansion, matching, and the shapes agents can read.

Cursor (`globs`) and Copilot (`applyTo`) take one comma-separated list, so braces
are expanded before globs are joined, and a comma left after expansion would cut
a glob in two. Cursor reads its list unquoted, so a glob must also be something a
plain YAML scalar can hold. `for_agents` writes a glob so that the agents' own
matchers (picomatch, minimatch, wcmatch) mean by it what `match` means; `check`
refuses the shapes that no agent file can carry that way, with the fix in the message.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator

MAX_EXPANSION = 256  # globs one brace pattern may expand to
MAX_LENGTH = 512  # characters in one glob
MAX_SEGMENTS = 32  # `/`-separated parts of one glob


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
    if len(glob) > MAX_LENGTH:
        raise ValueError(
            f"path glob {glob[:40]!r}... is {len(glob)} characters long; memkit takes globs of "
            f"up to {MAX_LENGTH}: shorten it, or split it into several `paths` entries"
        )
    if glob.count("/") >= MAX_SEGMENTS:
        raise ValueError(
            f"{what} has {glob.count('/') + 1} segments; memkit takes globs of up to "
            f"{MAX_SEGMENTS}: one `**` stands for any number of folders"
        )
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
    expanded = _alternatives(glob)
    if not expanded:  # over MAX_EXPANSION (a glob expands to itself at least)
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
    if any(g.startswith("!") for g in expanded):
        raise ValueError(
            f"{what} starts with '!', which agents read as 'every file but' and memkit as part "
            "of a name; memkit globs have no negation: remove the '!' and name what to include"
        )
    if "." in glob.split("/"):
        fixed = "/".join(p for p in glob.split("/") if p != ".")
        raise ValueError(
            f"{what} has a './' part, which memkit never matches and agents may skip; paths "
            f"are relative to the repository root: write {fixed!r}"
        )


def for_agents(glob: str) -> list[str]:
    """`glob` as agents' matchers read globs (picomatch: Claude Code, Cursor, Cline;
    minimatch: Copilot, Continue; wcmatch), meaning what `match` means by it.

    A glob without wildcards names a file or a folder and everything under it, while
    the agents' matchers take it as one path: it becomes itself and `DIR/**`
    (`services/api` -> `services/api`, `services/api/**`; `infra/` -> `infra`,
    `infra/**`). A glob with wildcards that ends in `/` means what is under the folders
    it matches (`src/*/` -> `src/*/**/*`). `(` and `)` are plain characters to memkit,
    but picomatch and minimatch read `*(a|b)`, `@(...)` and `!(...)` as extended globs,
    so they are written as the classes `[(]` and `[)]` (`app/(auth)/**`, a Next.js
    route group, stays a folder name). `check` refuses what cannot be carried.
    """
    if not any(c in glob for c in "*?[{"):
        base = _literal_parens(glob.rstrip("/"))
        return [base, f"{base}/**"]
    out = _literal_parens(glob)
    return [out + "**/*" if out.endswith("/") else out]


def _literal_parens(glob: str) -> str:
    """`(` and `)` outside a `[...]` class written as classes (the classes kept as they are)."""
    if "(" not in glob and ")" not in glob:
        return glob
    out, i = [], 0
    while i < len(glob):
        c = glob[i]
        end = glob.find("]", i + 2) if c == "[" else -1
        if end > 0 and "/" not in glob[i:end]:
            out.append(glob[i : end + 1])
            i = end + 1
            continue
        out.append(f"[{c}]" if c in "()" else c)
        i += 1
    return "".join(out)


def match(glob: str, path: str) -> bool:
    """Whether `path` (relative, `/`-separated) matches `glob`, git-style.

    `*` and `?` stay within one path segment, `**` as a whole segment spans segments
    (`**/` also matches nothing; elsewhere it is a `*`), `[...]` is a character class
    (`[!...]` negated) that never matches `/`, `{a,b}` alternatives nest (expanded by
    `expand_braces`, the same expansion compiled rule files use; a glob expanding to more
    than MAX_EXPANSION matches nothing, and `check` refuses it). A glob without wildcards
    also matches everything under it (a directory). The work is linear in the path for
    each alternative: see `_regex`.
    """
    if not any(c in glob for c in "*?[{"):
        base = glob.rstrip("/")
        return path == base or path.startswith(base + "/")
    head = glob[:-2]  # `folder/**`, what compiled rule files hold: no pattern to compile
    if glob.endswith("/**") and not any(c in head for c in "*?[{"):
        return path.startswith(head) and "\n" not in path[len(head) :]  # `.*` stops at \n
    return any(_regex(g).fullmatch(path) is not None for g in _alternatives(glob))


def _alternatives(glob: str) -> list[str]:
    alts = list(itertools.islice(_expand(glob), MAX_EXPANSION + 1))
    return alts if len(alts) <= MAX_EXPANSION else []


@functools.lru_cache(maxsize=1024)
def _regex(glob: str) -> re.Pattern[str]:
    """One brace-free glob as a regular expression that cannot backtrack badly.

    The glob is read segment by segment; runs of `**` segments collapse into one (so
    `**/**/x` compiles to what `**/x` does). Between two `**`, a block of plain segments
    is found at its first place and kept (an atomic group), which is enough: a later
    block only needs room after it. Inside a segment, each piece between two `*` is
    likewise taken at its first place. Nothing quantified can match the same text two
    ways, so a match is linear in the path for each block.
    """
    segs = glob.split("/")
    if glob.endswith("/"):  # a folder: everything under it
        segs[-1] = "**"
    blocks: list[list[str]] = [[]]  # plain segments between `**`
    for seg in segs:
        if seg != "**":
            blocks[-1].append(_segment(seg))
        elif blocks[-1] or len(blocks) == 1:  # a `**` right after a `**` adds nothing
            blocks.append([])
    if len(blocks) == 1:
        return re.compile("/".join(blocks[0]))
    first, *middle, last = blocks
    out = "/".join(first) + "/" if first else ""
    for block in middle:
        out += "(?>(?:[^/]*/)*?" + "/".join(block) + "/)"
    out += "(?:[^/]*/)*" + "/".join(last) if last else ".*"
    return re.compile(out)


def _segment(seg: str) -> str:
    """A regular expression for one segment of a glob: it matches one path segment."""
    pieces: list[list[str]] = [[]]  # one-character atoms between `*`
    for atom in _atoms(seg):
        if atom != "*":
            pieces[-1].append(atom)
        elif pieces[-1] or len(pieces) == 1:  # `**` inside a segment is `*`
            pieces.append([])
    if len(pieces) == 1:
        return "".join(pieces[0])
    head, *inner, tail = ("".join(p) for p in pieces)
    body = "".join(f"(?>[^/]*?{p})" for p in inner)
    return f"(?>{head}{body}[^/]*{tail}(?![^/]))"


def _atoms(seg: str) -> Iterator[str]:
    """`*`, or a regular expression for one character, for each part of a glob segment."""
    i = 0
    while i < len(seg):
        c = seg[i]
        end = seg.find("]", i + 2) if c == "[" else -1
        if c in "*?":
            yield "[^/]" if c == "?" else c
        elif c == "[" and end > 0:
            inner = seg[i + 1 : end]
            neg = inner[:1] in ("!", "^")
            body = re.escape(inner[1:] if neg else inner).replace(r"\-", "-")
            yield f"[^/{body}]" if neg else f"[{body}]"
            i = end
        else:
            yield re.escape(c)
        i += 1


def fixed_prefix(glob: str) -> str:
    """The folder part of `glob` before its first wildcard or brace (`src/api/**` -> `src/api`)."""
    return glob.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0].split("{", 1)[0].rstrip("/")


@functools.lru_cache(maxsize=1024)
def glob_re(glob: str) -> re.Pattern[str]:
    """One regular expression for `glob` (braces expanded), matching as `match` does for
    globs with wildcards: for callers that store or combine patterns."""
    alts = _alternatives(glob)
    if not alts:  # too many alternatives: matches nothing, as `match` does
        return re.compile("(?!)")
    return re.compile("|".join(f"(?:{_regex(g).pattern})" for g in alts))
