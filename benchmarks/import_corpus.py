"""Import, adopt and compile real projects' instruction files; count what went wrong.

Usage: python benchmarks/import_corpus.py MIRRORS [--only NAME] [--keep DIR]

MIRRORS holds git mirrors as OWNER+NAME/repo (or OWNER+NAME, or OWNER/NAME); each
repository, commit and path comes from benchmarks/import_corpus.toml. For each project
the listed files are copied out of the mirror at that commit (symbolic links as links,
with their targets) into a fresh git repository, committed, and then:

    memkit init; memkit import --adopt .; memkit compile; memkit compile --check

Measured, per project and in total:
- lost: instruction lines (not blank, not a heading, outside front matter, not an
  `@file` import line) found neither in a memory nor left in a file after adoption;
- scopes: files whose scope (nested folder, globs, applyTo, paths, on-demand) every
  memory made from them keeps, out of the files that have one;
- cuts: memories a compile target left out without a note naming the file;
- first compile: exit status 0, then `compile --check` and a second compile change nothing;
- links: tracked symbolic links still links after compile;
- twice: instruction lines an agent reads more often after compile than they occur in
  the original files (each agent's files: Claude Code CLAUDE.md, .claude/rules and
  @-imports; Codex AGENTS.md; Cursor .cursor/rules and AGENTS.md; Copilot its files),
  also measured without --adopt for comparison.
Never run in CI; the files themselves are never stored in this repository.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEMKIT = str(Path(sys.executable).with_name("memkit"))
ENV = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.com",
       "MEMKIT_TODAY": "2026-11-22", "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
MIN_LINE = 25  # shorter lines (``` fences, "- [ ]", "</example>") repeat by nature


def git(cwd: Path | str, *args: str, data: bool = False) -> str | bytes:
    out = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, env=ENV, check=True)
    return out.stdout if data else out.stdout.decode()


def mirror(root: Path, name: str) -> Path:
    owner, repo = name.split("/")
    for cand in (root / f"{owner}+{repo}" / "repo", root / f"{owner}+{repo}", root / owner / repo):
        if cand.exists():
            return cand
    raise SystemExit(f"no mirror of {name} under {root}")


def extract(src: Path, commit: str, path: str, dest: Path, into: list[str], seen: set[str]) -> None:
    """Copy `path` (file, link or folder) at `commit` into `dest`, links with their targets."""
    if path in seen:
        return
    seen.add(path)
    rows = str(git(src, "ls-tree", "-r", commit, "--", path)).splitlines()
    rows += [
        r
        for r in str(git(src, "ls-tree", commit, "--", path)).splitlines()
        if " 120000 " in f" {r}"
    ]
    for row in dict.fromkeys(rows):
        meta, name = row.split("\t", 1)
        mode, _, oid = meta.split()
        if name != path and not name.startswith(path.rstrip("/") + "/"):
            continue
        out = dest / _placed(name, into)
        out.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            target = bytes(git(src, "cat-file", "blob", oid, data=True)).decode()
            if not out.is_symlink():
                out.symlink_to(target)
            resolved = os.path.normpath(os.path.join(os.path.dirname(name), target))
            if not resolved.startswith(".."):
                extract(src, commit, resolved, dest, into, seen)
        elif mode.startswith("100"):
            out.write_bytes(bytes(git(src, "cat-file", "blob", oid, data=True)))


def _placed(name: str, into: list[str]) -> str:
    if into and (name == into[0] or name.startswith(into[0] + "/")):
        return into[1] + name[len(into[0]) :]
    return name


def memkit(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MEMKIT, *args], cwd=cwd, capture_output=True, text=True, env=ENV)


FM = re.compile(
    r"\A\ufeff?---[ \t]*\n(?:(?:[A-Za-z_][\w.-]*\s*:.*|\s+\S.*|\s*-.*|\s*#.*|\s*)\n)*?(?:---|\.\.\.)[ \t]*\n"  # noqa: E501
)


def instruction_lines(text: str) -> list[str]:
    """Lines that carry an instruction: not blank, headings, front matter or @-imports."""
    text = text.replace("\r\n", "\n")
    m = FM.match(text)
    if m and re.search(r"^[A-Za-z_][\w.-]*\s*:", m.group(0), re.M):
        text = text[m.end() :]
    out, fence = [], ""
    for line in text.splitlines():
        s = line.strip()
        if re.match(r"^(```+|~~~+)", s):
            fence = "" if fence and s.startswith(fence) else fence or s[:3]
            out.append(s)
            continue
        if not s or (not fence and (s.startswith("#") or re.fullmatch(r"@[\w./~-]+", s))):
            continue
        if "memkit:" in s:
            continue
        out.append(s)
    return out


def files(root: Path) -> dict[str, Path]:
    """Every file of the work tree (links by their own names), .git and .memory left out."""
    out = {}
    for dirpath, dirnames, names in os.walk(root, followlinks=True):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".memory")]
        for n in names:
            p = Path(dirpath) / n
            if p.is_file():
                out[p.relative_to(root).as_posix()] = p
    return out


def expected_scope(rel: str, text: str) -> tuple[set[str], str | None] | None:
    """What the file says about where and when it applies, read independently of memkit."""
    meta = {}
    m = FM.match(text.replace("\r\n", "\n"))
    if m:
        for line in m.group(0).splitlines()[1:-1]:
            kv = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", line)
            if kv:
                meta[kv.group(1)] = kv.group(2).strip()
    folder = ""
    name = rel.rsplit("/", 1)[-1]
    if name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md") and "/" in rel:
        folder = rel.rsplit("/", 1)[0].removesuffix("/.claude").removesuffix(".claude")
    elif "/.cursor/rules/" in "/" + rel:
        folder = ("/" + rel).split("/.cursor/rules/")[0].strip("/")
    raw = meta.get("globs") or meta.get("applyTo") or meta.get("fileMatchPattern") or ""
    globs = set()
    for g in re.split(r",(?![^{]*\})", raw.strip("[]")):
        g = g.strip().strip("'\"").removeprefix("./")
        if g and g not in ("**", "**/*", "*"):
            globs.add(f"{folder}/{g}" if folder else g)
    always = any(g.strip().strip("'\"") in ("**", "**/*", "*") for g in raw.strip("[]").split(","))
    if rel.endswith(".mdc") and (meta.get("alwaysApply", "").lower() == "true" or always):
        globs = set()
    when = None
    forced = meta.get("alwaysApply", "").lower() == "true"
    if rel.endswith(".mdc") and not globs and not always and not forced:
        when = "agent" if meta.get("description") else "manual"
    if rel.startswith((".clinerules/workflows/", ".clinerules/hooks/")):
        when = "manual"
    if not globs and folder:
        globs = {f"{folder}/**"}
    return (globs, when) if globs or when else None


def memories(root: Path) -> dict[str, dict[str, object]]:
    import yaml

    out = {}
    for p in (root / ".memory").glob("*.md"):
        text = p.read_text("utf-8")
        head = text[4:].partition("\n---\n")[0]
        out[p.stem] = {**(yaml.safe_load(head) or {}), "text": text}
    return out


AGENTS = {
    "claude": re.compile(r"(^|.*/)CLAUDE\.md$|^\.claude/rules/.*\.md$"),
    "codex": re.compile(r"(^|.*/)AGENTS\.md$"),
    "cursor": re.compile(r"(^|.*/)\.cursor/rules/.*\.mdc$|(^|.*/)AGENTS\.md$|^\.cursorrules$"),
    "copilot": re.compile(r"^\.github/copilot-instructions\.md$|^\.github/instructions/.*\.md$"),
}


def reads(root: Path, agent: str) -> list[str]:
    """The text an agent reads: each real file once, Claude's @-imports followed one hop."""
    seen: set[str] = set()
    texts = []
    all_files = files(root)
    todo = [rel for rel in sorted(all_files) if AGENTS[agent].match(rel)]
    while todo:
        rel = todo.pop(0)
        p = root / rel
        if not p.is_file() or os.path.realpath(p) in seen:
            continue
        seen.add(os.path.realpath(p))
        text = p.read_text("utf-8", "replace")
        texts.append(text)
        if agent == "claude":
            for m in re.finditer(r"^@([\w./~-]+)\s*$", text, re.M):
                todo.append(os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1))))
    return texts


def twice(root: Path, corpus: Counter[str]) -> dict[str, int]:
    out = {}
    for agent in AGENTS:
        seen: Counter[str] = Counter()
        for text in reads(root, agent):
            seen.update(s.strip() for s in text.splitlines() if s.strip() in corpus)
        out[agent] = sum(1 for line, n in seen.items() if n > corpus[line])
    return out


def run_project(mirrors: Path, repo: dict[str, object], keep: Path | None) -> dict[str, object]:
    name = str(repo["name"])
    src = mirror(mirrors, name)
    base = Path(tempfile.mkdtemp(prefix="memkit-corpus-", dir=keep))
    result: dict[str, object] = {"name": name}
    for adopt in (True, False):
        work = base / ("adopt" if adopt else "plain")
        work.mkdir()
        git(work, "init", "-q")
        seen: set[str] = set()
        for path in repo["paths"]:  # type: ignore[attr-defined]
            extract(src, str(repo["commit"]), path, work, list(repo.get("into", [])), seen)  # type: ignore[attr-defined]
        originals = {rel: p.read_text("utf-8", "replace") for rel, p in files(work).items()}
        links = [rel for rel in originals if (work / rel).is_symlink()]
        git(work, "add", "-A")
        git(work, "commit", "-qm", "corpus")
        memkit(work, "init")
        start = time.perf_counter()
        imp = memkit(work, "import", *(["--adopt"] if adopt else []), ".")
        took = time.perf_counter() - start
        corpus: Counter[str] = Counter()
        real_seen: set[str] = set()
        for rel, text in originals.items():
            if os.path.realpath(work / rel) in real_seen:
                continue
            real_seen.add(os.path.realpath(work / rel))
            corpus.update(s for s in instruction_lines(text) if len(s) >= MIN_LINE)
        if not adopt:
            memkit(work, "compile")
            result["twice_plain"] = twice(work, corpus)
            continue
        mems = memories(work)
        kept_text = {
            s.strip()
            for p in files(work).values()
            for s in p.read_text("utf-8", "replace").splitlines()
        }
        in_mems = {s.strip() for m in mems.values() for s in str(m["text"]).splitlines()}
        lines = [s for rel, text in originals.items() for s in instruction_lines(text)]
        lost = [s for s in lines if s not in in_mems and s not in kept_text]
        scopes = _scopes(originals, mems, imp.stdout)
        comp = memkit(work, "compile")
        snap = {rel: p.read_bytes() for rel, p in files(work).items()}
        check = memkit(work, "compile", "--check")
        memkit(work, "compile")
        again = {rel: p.read_bytes() for rel, p in files(work).items()}
        result.update(
            files=len(originals),
            lines=len(lines),
            lost=len(lost),
            lost_sample=lost[:3],
            memories=len(mems),
            import_rc=imp.returncode,
            import_s=round(took, 2),
            import_err=imp.stderr.strip()[:300],
            scopes=scopes,
            cuts=_unreported_cuts(work, mems, comp.stderr),
            compile_rc=comp.returncode,
            compile_err=comp.stderr.strip()[:300],
            deterministic=comp.returncode == 0 and check.returncode == 0 and snap == again,
            links=len(links),
            links_replaced=sum(1 for rel in links if not (work / rel).is_symlink()),
            twice=twice(work, corpus),
        )
    if keep is None:
        subprocess.run(["rm", "-rf", str(base)], check=True)
    return result


def _scopes(
    originals: dict[str, str], mems: dict[str, dict[str, object]], out: str
) -> tuple[int, int]:
    by_source: dict[str, set[str]] = {}
    for line in out.splitlines():
        m = re.match(r"^created (\S+)  <- (.+)#", line) or re.match(
            r"^skipped (.+)#\S+: (?:same text as .+|already imported as (\S+))", line
        )
        if m and line.startswith("created"):
            by_source.setdefault(m.group(2), set()).add(m.group(1))
    total = kept = 0
    for rel, text in originals.items():
        want = expected_scope(rel, text)
        if want is None or rel not in by_source:
            continue
        total += 1
        globs, when = want
        ok = True
        for mid in by_source[rel]:
            m = mems.get(mid, {})
            paths = set(m.get("paths") or [])  # type: ignore[call-overload]
            if not globs <= paths or (when is not None and m.get("activation") != when):
                ok = False
        kept += ok
    return kept, total


TARGET_FILES = {
    "agents": re.compile(r"(^|.*/)AGENTS\.md$"),
    "claude": re.compile(r"^CLAUDE\.md$|^\.claude/rules/memkit.*\.md$"),
    "cursor": re.compile(r"^\.cursor/rules/memkit.*\.mdc$"),
    "copilot": re.compile(
        r"^\.github/copilot-instructions\.md$|^\.github/instructions/memkit.*\.md$"
    ),
}


def _unreported_cuts(root: Path, mems: dict[str, dict[str, object]], notes: str) -> int:
    """Active memories missing from a target's files while no note names one of its files."""
    out = files(root)
    missing = 0
    for target, pattern in TARGET_FILES.items():
        names = [rel for rel in out if pattern.match(rel)]
        text = "".join(out[rel].read_text("utf-8", "replace") for rel in names)
        noted = any(rel in notes for rel in names)
        for mid, m in mems.items():
            if m.get("status", "active") != "active" or m.get("activation") not in (None, "always"):
                continue
            if target == "cursor" and not m.get("paths"):
                continue  # Cursor reads AGENTS.md for always-on memories
            if f"memkit:id={mid} " not in text and not noted:
                missing += 1
    return missing


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mirrors", type=Path)
    ap.add_argument("--only")
    ap.add_argument("--keep", type=Path, help="keep the work trees under this folder")
    args = ap.parse_args()
    corpus = tomllib.loads((HERE / "import_corpus.toml").read_text())["repo"]
    rows = []
    for repo in corpus:
        if args.only and args.only not in repo["name"]:
            continue
        r = run_project(args.mirrors, repo, args.keep)
        rows.append(r)
        print(r, flush=True)
    keys = ("files", "lines", "lost", "memories", "cuts", "links", "links_replaced")
    total = {k: sum(int(r[k]) for r in rows) for k in keys}  # type: ignore[call-overload]
    scopes = (sum(r["scopes"][0] for r in rows), sum(r["scopes"][1] for r in rows))  # type: ignore[index]
    det = sum(1 for r in rows if r["deterministic"])
    tw = sum(sum(r["twice"].values()) for r in rows)  # type: ignore[attr-defined]
    tw_plain = sum(sum(r["twice_plain"].values()) for r in rows)  # type: ignore[attr-defined]
    print(
        f"SUMMARY {len(rows)} projects, {total['files']} files, {total['lines']} instruction "
        f"lines, {total['memories']} memories: lost {total['lost']}; scopes kept "
        f"{scopes[0]}/{scopes[1]}; unreported cuts {total['cuts']}; deterministic first "
        f"compile {det}/{len(rows)}; links replaced {total['links_replaced']}/{total['links']}; "
        f"lines read twice after adoption {tw} (without --adopt {tw_plain})"
    )


if __name__ == "__main__":
    main()
