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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agent_reads import AGENTS, BASELINE, Tree, example, loaded, probes

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


def _blocks(text: str) -> tuple[list[str], dict[int, str], set[int]]:
    """Lines after front matter, top-level headings (line -> text) and code lines, as
    CommonMark reads them (a fence closes where CommonMark closes it)."""
    from markdown_it import MarkdownIt

    text = text.replace("\r\n", "\n").removeprefix("\ufeff")
    lines = text.splitlines()
    m = FM.match(text)
    if m and re.search(r"^[A-Za-z_][\w.-]*\s*:", m.group(0), re.M):
        n = m.group(0).count("\n")
        lines = [""] * n + lines[n:]
    heads: dict[int, str] = {}
    code: set[int] = set()
    tokens = MarkdownIt("commonmark").parse("\n".join(lines))
    for i, t in enumerate(tokens):
        if t.map is None:
            continue
        if t.type == "heading_open" and t.level == 0:
            for n in range(*t.map):
                heads[n] = tokens[i + 1].content.strip() if n == t.map[0] else ""
        elif t.type in ("fence", "code_block"):
            code.update(range(*t.map))
    return lines, heads, code


def instruction_lines(text: str) -> list[str]:
    """Lines that carry an instruction: not blank, headings, front matter or @-imports."""
    lines, heads, code = _blocks(text)
    out = []
    for n, line in enumerate(lines):
        s = line.strip()
        if not s or n in heads or "memkit:" in s:
            continue
        if n not in code and re.fullmatch(r"@[\w./~-]+", s):
            continue
        out.append(s)
    return out


def headings(text: str) -> list[str]:
    """Each line of each top-level heading's text (what import may make a memory title)."""
    return [ln.strip() for h in _blocks(text)[1].values() for ln in h.splitlines() if ln.strip()]


def _markdown(rel: str) -> bool:
    name = rel.rpartition("/")[2]
    plain = (".cursorrules", ".windsurfrules", ".clinerules")
    return name.endswith((".md", ".mdc")) or name in plain


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


def _corpus_counts(tree: Tree, corpus: set[str]) -> dict[str, Counter[str]]:
    return {rel: Counter(ln.strip() for ln in t.splitlines() if ln.strip() in corpus)
            for rel, t in tree.text.items()}  # fmt: skip


def twice(
    before: Tree, after: Tree, corpus: Counter[str], where: list[str]
) -> tuple[dict[str, int], dict[str, int], dict[str, int], list[str]]:
    """Instruction lines an agent reads more than once working on some file, per agent:

    - copied: more often than the project's own files hold the line (memkit made a copy);
    - joined: more often than any agent read it anywhere before, no more often than the
      files hold it: the project wrote it in several files no agent loaded together,
      and one store now gives them to every agent;
    - pre-existing: no more often than some agent already read it (or one file holds it);

    and a few examples of the first two kinds."""
    keep = set(corpus)
    counts = {id(before): _corpus_counts(before, keep), id(after): _corpus_counts(after, keep)}

    def seen(tree: Tree, agent: str, probe: str) -> Counter[str]:
        total: Counter[str] = Counter()
        for rel in loaded(tree, agent, probe):
            total.update(counts[id(tree)][rel])
        return total

    most: Counter[str] = Counter()  # the most times the original files made one read a line
    for per_file in counts[id(before)].values():
        most |= per_file
    for probe in where:
        for agent in BASELINE:
            most |= seen(before, agent, probe)
    kinds: dict[str, dict[str, set[str]]] = {k: {} for k in ("copied", "joined", "pre")}
    samples: list[str] = []
    for agent in AGENTS:
        found = {k: set[str]() for k in kinds}
        for probe in where:
            for line, n in seen(after, agent, probe).items():
                if n <= 1:
                    continue
                if n <= most[line]:
                    found["pre"].add(line)
                    continue
                kind = "copied" if n > corpus[line] else "joined"
                if line not in found[kind] and len(samples) < 8:
                    files = [r for r in loaded(after, agent, probe) if line in counts[id(after)][r]]
                    samples.append(f"{kind}: {agent} at {probe}: {line[:60]!r} in {files}")
                found[kind].add(line)
        found["joined"] -= found["copied"]
        found["pre"] -= found["copied"] | found["joined"]
        for k in kinds:
            kinds[k][agent] = found[k]
    copied, joined, pre = ({a: len(v) for a, v in kinds[k].items()} for k in kinds)
    return copied, joined, pre, samples


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
        before = Tree.read(work)
        originals = before.text
        links = [rel for rel in originals if (work / rel).is_symlink()]
        git(work, "add", "-A")
        git(work, "commit", "-qm", "corpus")
        memkit(work, "init")
        start = time.perf_counter()
        imp = memkit(work, "import", *(["--adopt"] if adopt else []), ".")
        took = time.perf_counter() - start
        corpus: Counter[str] = Counter()  # each instruction line: how often the files hold it
        for rel in dict(zip(before.real.values(), before.real, strict=True)).values():
            corpus.update(s for s in instruction_lines(originals[rel]) if len(s) >= MIN_LINE)
        mems = memories(work)
        if not adopt:
            memkit(work, "compile")
            after = Tree.read(work)
            where = probes([before, after], [tuple(m.get("paths") or ()) for m in mems.values()])  # type: ignore[call-overload]
            result["twice_plain"] = twice(before, after, corpus, where)[0]
            continue
        kept_text = {_visible(s) for p in files(work).values()
                     for s in p.read_text("utf-8", "replace").splitlines()}  # fmt: skip
        in_mems = {_visible(s) for m in mems.values() for s in str(m["text"]).splitlines()}
        in_mems |= {_visible(str(m.get("title", ""))) for m in mems.values()}
        lines = [s for rel, text in originals.items() for s in instruction_lines(text)]
        lost = [s for s in lines if _visible(s) not in in_mems and _visible(s) not in kept_text]
        heads = [h for rel, text in originals.items() if _markdown(rel)
                 for h in headings(text)]  # fmt: skip
        titles = "\n".join(str(m.get("title", "")) for m in mems.values())
        lost_heads = [
            h for h in heads if h not in in_mems and h not in kept_text and h not in titles
        ]  # a document title leads its sections' titles
        scopes = _scopes(originals, mems, imp.stdout)
        comp = memkit(work, "compile")
        snap = {rel: p.read_bytes() for rel, p in files(work).items()}
        check = memkit(work, "compile", "--check")
        memkit(work, "compile")
        again = {rel: p.read_bytes() for rel, p in files(work).items()}
        after = Tree.read(work)
        where = probes([before, after], [tuple(m.get("paths") or ()) for m in mems.values()])  # type: ignore[call-overload]
        named, unnamed, cut_samples = cuts(after, mems, comp.stdout + comp.stderr)
        copied, joined, pre, twice_samples = twice(before, after, corpus, where)
        result.update(
            files=len(originals),
            lines=len(lines),
            lost=len(lost),
            lost_sample=lost[:3],
            headings=len(heads),
            lost_headings=len(lost_heads),
            lost_headings_sample=lost_heads[:3],
            memories=len(mems),
            import_rc=imp.returncode,
            import_s=round(took, 2),
            import_err=imp.stderr.strip()[:300],
            scopes=scopes,
            cuts=unnamed,
            cuts_named=named,
            cut_sample=cut_samples,
            compile_rc=comp.returncode,
            compile_err=comp.stderr.strip()[:300],
            deterministic=comp.returncode == 0 and check.returncode == 0 and snap == again,
            links=len(links),
            links_replaced=sum(1 for rel in links if not (work / rel).is_symlink()),
            links_broken=sum(
                1 for rel in links if (work / rel).is_symlink() and not (work / rel).exists()
            ),
            probes=len(where),
            twice=copied,
            twice_joined=joined,
            twice_pre=pre,
            twice_sample=twice_samples,
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


def _visible(line: str) -> str:
    """A line as compared across files: stripped, heading marks off (compile demotes headings)."""
    return line.strip().lstrip("#").strip()


def _body(text: str) -> list[str]:
    """A memory's title and text lines, as an agent must find them."""
    _head, _, body = text[4:].partition("\n---\n")
    lines = [_visible(ln) for ln in body.splitlines()]
    return [ln for ln in lines if ln and not re.fullmatch(r"[=-]+", ln)]


def cuts(tree: Tree, mems: dict[str, dict[str, object]], notes: str) -> tuple[int, int, list[str]]:
    """Always-on memories some agent does not find in full working in their scope:
    (named by compile's report, not named, examples of the unnamed)."""
    lines: dict[tuple[str, str], set[str]] = {}

    def reads(agent: str, probe: str) -> set[str]:
        if (agent, probe) not in lines:
            lines[agent, probe] = {
                _visible(ln)
                for rel in loaded(tree, agent, probe)
                for ln in tree.text[rel].splitlines()
            }
        return lines[agent, probe]

    named = unnamed = 0
    samples: list[str] = []
    for mid, m in sorted(mems.items()):
        if m.get("status", "active") != "active" or m.get("activation") not in (None, "always"):
            continue
        want = [str(m["title"]), *_body(str(m["text"]))]
        where = [p for g in (m.get("paths") or []) for p in example(str(g))] or ["x"]  # type: ignore[attr-defined]
        for agent in AGENTS:
            missing = [p for p in where if not all(w in reads(agent, p) for w in want)]
            if not missing:
                continue
            if re.search(rf"(?<![\w-]){re.escape(mid)}(?![\w-])", notes):
                named += 1
            else:
                unnamed += 1
                if len(samples) < 6:
                    samples.append(f"{mid} for {agent} at {missing[0]}")
    return named, unnamed, samples


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
    keys = ("files", "lines", "lost", "headings", "lost_headings", "memories", "cuts",
            "cuts_named", "links", "links_replaced", "links_broken")  # fmt: skip
    total = {k: sum(int(r[k]) for r in rows) for k in keys}  # type: ignore[call-overload]
    scopes = (sum(r["scopes"][0] for r in rows), sum(r["scopes"][1] for r in rows))  # type: ignore[index]
    det = sum(1 for r in rows if r["deterministic"])
    tw = sum(sum(r["twice"].values()) for r in rows)  # type: ignore[attr-defined]
    tw_pre = sum(sum(r["twice_pre"].values()) for r in rows)  # type: ignore[attr-defined]
    tw_join = sum(sum(r["twice_joined"].values()) for r in rows)  # type: ignore[attr-defined]
    tw_plain = sum(sum(r["twice_plain"].values()) for r in rows)  # type: ignore[attr-defined]
    print(
        f"SUMMARY {len(rows)} projects, {total['files']} files, {total['lines']} instruction "
        f"lines, {total['memories']} memories: lost {total['lost']} (headings "
        f"{total['lost_headings']}/{total['headings']}); scopes kept {scopes[0]}/{scopes[1]}; "
        f"unreported cuts {total['cuts']} (reported {total['cuts_named']}); deterministic "
        f"first compile {det}/{len(rows)}; links replaced {total['links_replaced']}/"
        f"{total['links']} (broken {total['links_broken']}); lines read twice after adoption "
        f"{tw} (without --adopt {tw_plain}); written in several files no agent read together "
        f"{tw_join}; pre-existing in the project's own files {tw_pre}"
    )


if __name__ == "__main__":
    main()
