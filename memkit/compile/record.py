"""The compile-current record (memkit.compile.current) as plain lines, tab-separated.

No json: its import costs the pre-commit hook, on a commit of memories it already knows
(memkit.githooks.checks.recompile), more than reading the record. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

VERSION = 4  # 4: what the compile said (`said`, `note` lines)
HEADER = f"memkit compile-current {VERSION}\n"


def encode(data: Mapping[str, Any]) -> str | None:
    """The record as plain lines; None when a string holds a tab or a line break.

    `key`, `tree`, then `fresh PATH DIGEST`, `file PATH STATE`, for each folder its
    listing in order (`fs DIR STATE` for a plain state, `fe DIR NAME STATE` for an
    entry), `stale -` (none recorded) or `stale +` and `s ID WARNING` lines, then
    `said FILES` (how many files the compile considered) and its `note TEXT` lines.
    """
    seen, stale = data["seen"], data["stale"]
    rows: list[tuple[str, ...]] = [("key", data["key"]), ("tree", data["tree"])]
    rows += [("fresh", rel, digest) for rel, digest in data["fresh"].items()]
    rows += [("file", p, state) for p, state in seen["files"].items()]
    for d, listing in seen["folders"].items():
        rows.append(("folder", d))
        for item in listing:
            rows.append(("fs", d, item) if isinstance(item, str) else ("fe", d, *item))
    rows.append(("stale", "-" if stale is None else "+"))
    rows += [("s", mid, warning) for mid, warning in (stale or {}).items()]
    rows.append(("said", str(data["files"])))
    rows += [("note", note) for note in data["notes"]]
    body = "".join("\t".join(row) + "\n" for row in rows)
    # A cell holding a tab or a line break adds one to the count the rows alone make.
    if "\r" in body or body.count("\n") != len(rows):
        return None
    if body.count("\t") != sum(len(row) - 1 for row in rows):
        return None
    return HEADER + body


def decode(raw: bytes) -> dict[str, Any] | None:
    """A record encode() wrote, as the mapping it was made from; None for anything else."""
    text = raw.decode("utf-8", "surrogateescape")
    if not text.startswith(HEADER) or not text.endswith("\n"):
        return None
    out: dict[str, Any] = {"version": VERSION, "fresh": {}, "notes": []}
    files: dict[str, str] = {}
    folders: dict[str, list[Any]] = {}
    for line in text[len(HEADER) : -1].split("\n"):
        kind, *cells = line.split("\t")
        n = len(cells)
        if kind in ("key", "tree") and n == 1 and kind not in out:
            out[kind] = cells[0]
        elif kind == "fresh" and n == 2:
            out["fresh"][cells[0]] = cells[1]
        elif kind == "file" and n == 2:
            files[cells[0]] = cells[1]
        elif kind == "folder" and n == 1 and cells[0] not in folders:
            folders[cells[0]] = []
        elif kind == "fs" and n == 2 and cells[0] in folders:
            folders[cells[0]].append(cells[1])
        elif kind == "fe" and n == 3 and cells[0] in folders:
            folders[cells[0]].append([cells[1], cells[2]])
        elif kind == "stale" and n == 1 and cells[0] in ("-", "+") and "stale" not in out:
            out["stale"] = None if cells[0] == "-" else {}
        elif kind == "s" and n == 2 and out.get("stale") is not None:
            out["stale"][cells[0]] = cells[1]
        elif kind == "said" and n == 1 and _count(cells[0]) and "files" not in out:
            out["files"] = int(cells[0])
        elif kind == "note" and n == 1 and "files" in out:
            out["notes"].append(cells[0])
        else:
            return None
    if not {"key", "tree", "stale", "files"} <= set(out):
        return None
    out["seen"] = {"files": files, "folders": folders}
    return out


def _count(cell: str) -> bool:
    return cell.isascii() and cell.isdigit()
