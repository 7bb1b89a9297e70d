"""Secrets kept out of the store: what memkit refuses to write, and where a file holds one.

check_secrets raises SecretError before a write (Store.add and put, imports, edits,
agents' proposals); secret_findings lists every likely secret in a memory file, for
validation. The scanner itself is memkit.secrets.
"""

from __future__ import annotations

import dataclasses
import re

from memkit import memory as mm
from memkit.errors import SecretError
from memkit.memory import Memory

# What `--allow-secret` appends to each body line that looks like a secret, so the file
# itself records that a person vouched for it and `memkit validate` leaves it alone.
ALLOW_MARK = " <!-- memkit: allow-secret -->"


def check_secrets(
    text: str, where: str, allow: bool, *, agent: bool = False, mem: Memory | None = None
) -> None:
    """Refuse text that looks like a secret; SecretError names the file and line.

    `mem`, when given, is the memory `text` encodes: its decoded fields are scanned too,
    so YAML quoting (doubled quotes, escapes) cannot hide a value. `agent`: text an
    agent wrote, scanned with the `memkit: allow-secret` pragma not honoured and no
    allowance (only people vouch for a fake example).
    """
    if allow and not agent:
        return
    found = secret_findings(text, mem, honour_pragma=not agent)
    if not found:
        return
    line, kind = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    fix = (
        "Remove it (what an agent writes cannot vouch for a fake example: a person "
        "adds one with `memkit add --allow-secret`)"
        if agent
        else "Remove it, or pass --allow-secret if it is a fake example"
    )
    raise SecretError(
        f"{where}:{line}: refusing to write what looks like a {kind}{more}; a store "
        f"committed to git keeps it forever. {fix}"
    )


def secret_findings(
    text: str, mem: Memory | None, *, honour_pragma: bool = True
) -> list[tuple[int, str]]:
    """(line, kind) of every likely secret in a memory file's text and decoded fields."""
    from memkit.secrets import bare_values, scan, scan_values

    found = {(f.line, f.kind) for f in scan(machine_data_masked(text), honour_pragma=honour_pragma)}
    if mem is not None:
        values = [(name, getattr(mem, name) or "") for name in ("title", "source", "description")]
        values += [(name, v) for name in ("tags", "paths", "links") for v in getattr(mem, name)]
        # A value with no label around it: only its shape can tell (not paths or links).
        bare = [
            (field, f)
            for field, v in values
            if field not in ("paths", "links") and not scan(v)
            for f in bare_values(v)
        ]
        kinds = {kind for _, kind in found}
        front = None  # the front matter's text, split out only when a value has a finding
        for field, f in [*scan_values(values, honour_pragma=honour_pragma), *bare]:
            if f.kind not in kinds:  # not already seen in the raw text
                if front is None:
                    front = mm.split(mem.head, mem.path)[1] if mem.head else ""
                found.add((mm.field_line(front, field) if front else 1, f.kind))
    return sorted(found)


# What memkit itself writes in a memory's `verified:` block: a commit id, and for each
# link a fingerprint (`sig:… body:… doc:…` or `file:…`). Digests are random-looking by
# design, so a link named like `test_bad_credentials` would read as a credential.
_VERIFIED = re.compile(r"^verified[ \t]*:[^\n]*\n((?:[ \t]+[^\n]*\n|[ \t]*\n)*)", re.MULTILINE)
_MACHINE_VALUE = re.compile(
    r"""(?<=:)[ \t]+(?:
        sig:[0-9a-f]{8}[ \t]body:[0-9a-f]{8}[ \t]doc:[0-9a-f]{8}
        |file:[0-9a-f]{12}
        |['"]?[0-9a-f]{40}['"]?
    )[ \t]*$""",
    re.MULTILINE | re.VERBOSE,
)


def machine_data_masked(text: str) -> str:
    """`text` with the values memkit wrote into the `verified:` block blanked out.

    Only values of exactly memkit's shape are blanked, only inside that block, and the
    keys (the link names) stay: a secret written there by hand is still found.
    """
    head_end = text.find("\n---", 3)
    m = _VERIFIED.search(text, 0, head_end if head_end > 0 else len(text))
    if m is None:
        return text
    block = _MACHINE_VALUE.sub("", m.group(1))
    return text[: m.start(1)] + block + text[m.end(1) :]


def record_allowance(mem: Memory, where: str) -> Memory:
    """`mem` with ALLOW_MARK on every body line that looks like a secret (`--allow-secret`).

    A likely secret in a front-matter field cannot carry the mark: SecretError says so.
    """
    from memkit.secrets import scan

    lines = mem.body.split("\n")
    for f in scan(mem.body):
        if 0 < f.line <= len(lines):
            lines[f.line - 1] += ALLOW_MARK
    marked = dataclasses.replace(mem, body="\n".join(lines))
    text = mm.dumps(marked)
    left = secret_findings(text, mm.parse(text, mid=mem.id, path=where))
    if left:
        line, kind = left[0]
        raise SecretError(
            f"{where}:{line}: what looks like a {kind} is in the front matter, which has "
            "no line to mark as allowed; move the example into the body, or remove it"
        )
    return marked
