"""What a pull request can change through the work tree, for benchmarks/adversarial.py.

Five groups, each a set of hostile repositories run through the real CLI:

- links between tracked files: an output (AGENTS.md, CLAUDE.md, an agent's settings
  file, .gitattributes) made a link to `.github/CODEOWNERS`, `.env.production`, a
  workflow or a deploy script, then `compile`, `compile --commit` or `hooks install`;
- harvest settings: a committed `.claude/settings.local.json` (or settings.json)
  naming a folder outside, then `import --harvest`;
- report overrides: `.memory/templates/report.{js,css,html.j2}`, then `report`;
- names that are not UTF-8: a memory file so named, then every command and a commit;
- review markdown: hostile titles and file names, and a 300-memory change, through
  `diff --format markdown`;
- limits: a linked 60 MB file and a YAML alias bomb behind a config key, then `add
  --link`, `check`, `validate`; every line about them must name the limit, never a
  missing file or key ("unclear lines").
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from adv_common import Section, commit_all, git, make_repo, memkit, memory_text, write

NUMBER, TITLE = 8, "what a pull request can change"
TRACKED = {
    ".github/CODEOWNERS": "* @team/core\n",
    ".env.production": "DATABASE_URL=postgres://prod\n",
    ".github/workflows/ci.yml": "on: push\njobs: {}\n",
    "scripts/deploy.sh": "#!/bin/sh\nexit 0\n",
}
# output link -> the command run with it, and what it writes through the link
WRITERS: dict[str, tuple[str, ...]] = {
    "AGENTS.md": ("compile",),
    "CLAUDE.md": ("compile", "--commit"),
    ".github/copilot-instructions.md": ("compile",),
    ".claude/settings.json": ("hooks", "install", "--claude"),
    ".mcp.json": ("hooks", "install", "--mcp"),
    ".codex/config.toml": ("hooks", "install", "--agent", "codex"),
    ".gitattributes": ("hooks", "install", "--merge-driver"),
}
GITHUB_LIMIT = 65_536


Entry = tuple[int, str, Callable[[], Section], Callable[[Section], str]]


def sections(a: object, base: Path, env: dict[str, str]) -> list[Entry]:
    """The entry adversarial.py lists (the same shape as its own)."""
    return [(NUMBER, TITLE, lambda: run_section(base / "tree", env), summary)]


def run_section(base: Path, env: dict[str, str]) -> Section:
    s = Section(NUMBER, TITLE)
    base.mkdir(parents=True, exist_ok=True)
    for group in (_links, _harvest, _report, _names, _review, _limits):
        group(s, base, env)
    return s


def summary(s: Section) -> str:
    bad = sum(f.value for f in s.failed())
    runs = s.figures["commands run"].value if "commands run" in s.figures else 0
    return f"{runs} commands; {bad} failure(s) that must be 0"


def _repo(base: Path, name: str, env: dict[str, str]) -> Path:
    root = base / name
    if root.exists():
        shutil.rmtree(root)
    make_repo(root, env)
    return root


def _cmd(s: Section, root: Path, env: dict[str, str], *args: str) -> tuple[int | None, str]:
    done = memkit(root, env, *args, timeout=120)
    s.count("commands run")
    if done.traceback or done.hung:
        s.fig("tracebacks or hangs").add(f"{' '.join(args)}: {done.show(200)}")
    return done.code, done.out + done.err


# ------------------------------------------------------------ links between tracked files


def _links(s: Section, base: Path, env: dict[str, str]) -> None:
    for output, args in WRITERS.items():
        for target, text in TRACKED.items():
            root = _repo(base, "links", env)
            for rel, body in TRACKED.items():
                write(root / rel, body)
            write(root / ".memory" / "owner.md", memory_text("Owners", "* @mallory", pin=True))
            link = root / output
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.exists() or link.is_symlink():
                link.unlink()
            link.symlink_to(os.path.relpath(root / target, link.parent))
            commit_all(root, env, "pull request")
            head = git(root, "rev-parse", "HEAD", env=env).strip()
            code, said = _cmd(s, root, env, *args)
            case = f"{output} -> {target}, `memkit {' '.join(args)}`"
            if (root / target).read_text() != text:
                s.fig("tracked files rewritten through a link").add(case)
            if target in git(root, "diff", "--name-only", head, "HEAD", env=env).split():
                s.fig("tracked files committed through a link").add(case)
            if code == 0 or output not in said or target not in said:
                s.fig("refusals not naming the link and its target").add(f"{case}: exit {code}")
            plain = [p for p in ("AGENTS.md", "CLAUDE.md") if not (root / p).is_symlink()]
            if args[0] == "compile" and not all((root / p).is_file() for p in plain):
                s.fig("other outputs not written").add(case)


# ------------------------------------------------------------ harvest settings


def _harvest(s: Section, base: Path, env: dict[str, str]) -> None:
    outside = base / "outside-notes"
    write(outside / "notes.md", "- Deploys go through the canary-host-7f3a bastion.\n")
    for name in ("settings.local.json", "settings.json"):
        root = _repo(base, "harvest", env)
        write(root / ".claude" / name, json.dumps({"autoMemoryDirectory": str(outside)}))
        commit_all(root, env, "pull request")
        _, said = _cmd(s, root, env, "import", "--harvest")
        drafts = "".join(p.read_text("utf-8", "replace") for p in root.rglob("*.md"))
        if "canary-host-7f3a" in said + drafts or str(outside) in said:
            s.fig("files outside read through a work-tree setting").add(f".claude/{name}")


# ------------------------------------------------------------ report overrides


def _report(s: Section, base: Path, env: dict[str, str]) -> None:
    canary = "evil-canary.example"
    for name in ("report.js", "report.css", "report.html.j2"):
        root = _repo(base, "report", env)
        write(root / ".memory" / "rule.md", memory_text("Rule", "Body."))
        write(root / ".memory" / "templates" / name, f"fetch('https://{canary}/')\n")
        commit_all(root, env, "pull request")
        page = root / "page.html"
        code, _ = _cmd(s, root, env, "report", "--output", str(page))
        if code != 0:
            s.fig("reports that failed").add(f"{name}: exit {code}")
        elif canary in page.read_text("utf-8"):
            s.fig("overrides in the report page").add(name)


# ------------------------------------------------------------ names that are not UTF-8

CHECKING = (("validate",), ("check",), ("ci", "--base", "HEAD"))
READING = (("search", "rule"), ("index",), ("list",), ("compile",))


def _names(s: Section, base: Path, env: dict[str, str]) -> None:
    root = _repo(base, "names", env)
    write(root / ".memory" / "rule.md", memory_text("Rule", "Body."))
    commit_all(root, env, "base")
    bad = root / ".memory" / os.fsdecode(b"\xff\xfebad.md")
    write(bad, memory_text("Bad", "Body."))
    shown = ".memory/\\xff\\xfebad.md"
    for args in (*CHECKING, *READING):
        code, said = _cmd(s, root, env, *args)
        checking = args in CHECKING
        if (code != 0) != checking or code not in (0, 1):
            s.fig("wrong exit codes").add(f"{' '.join(args)}: exit {code}")
        if shown not in said and "1 invalid memory file" not in said:
            s.fig("commands not naming the file").add(" ".join(args))
    _cmd(s, root, env, "hooks", "install")
    git(root, "add", "-A", env=env)
    hook = git(root, "commit", "-qm", "bad name", env=env, check=False)
    if git(root, "rev-list", "--count", "HEAD", env=env).strip() != "1":
        s.fig("commits of a name not UTF-8 let through").add(hook.strip()[:200])
    git(root, "reset", "-q", env=env)
    write(root / "README", "other work\n")
    git(root, "add", "README", env=env)
    git(root, "commit", "-qm", "other work", env=env, check=False)
    if git(root, "rev-list", "--count", "HEAD", env=env).strip() != "2":
        s.fig("other commits blocked by the file").add("README")


# ------------------------------------------------------------ review markdown

HOSTILE = (
    "[x](https://evil.example) ![p](https://evil.example/p.png) <img src=x> @mallory "
    "www.evil.example"
)
MENTION = re.compile(r"(?<![`\w])@[A-Za-z0-9]")


def _review(s: Section, base: Path, env: dict[str, str]) -> None:
    root = _repo(base, "review", env)
    commit_all(root, env, "base")
    folder = root / ".memory" / "we`ird [f](evil.example) @mallory"
    title = HOSTILE.replace("'", "''")
    write(folder / "hostile.md", f"---\ntitle: '{title}'\ntags: ['@eve']\n---\nText.\n")
    _, out = _cmd(s, root, env, "diff", "HEAD", "--format", "markdown")
    text = re.sub(r"(`+)[^`].*?\1", "", out)  # code spans: GitHub links nothing there
    patterns = {"live links": r"(?<!\\)\]\(", "images": r"!\[", "html": r"<img",
                "mentions": MENTION.pattern, "bare URLs": r"https?:|www\."}  # fmt: skip
    for what, pattern in patterns.items():
        if re.search(pattern, text):
            s.fig("review comments passing links, images, HTML or mentions").add(what)
    root = _repo(base, "review-big", env)
    commit_all(root, env, "base")
    body = "A long rule that explains itself at length. " * 20
    for i in range(300):
        write(root / ".memory" / f"m{i:03d}.md", memory_text(f"Memory {i}", body))
    _, out = _cmd(s, root, env, "diff", "HEAD", "--format", "markdown")
    s.details.append(f"review comment of a 300-memory change: {len(out):,} characters")
    if len(out) >= GITHUB_LIMIT:
        s.fig("review comments over GitHub's 65,536 characters").add(f"{len(out):,}")


# ------------------------------------------------------------ limits named, not absence

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdef", "bcdefg", strict=False)
)
UNCLEAR = ("no file", "has no key", "removed", "not found", "does not exist")


def _limits(s: Section, base: Path, env: dict[str, str]) -> None:
    root = _repo(base, "limits", env)
    write(root / "big.py", b"")
    os.truncate(root / "big.py", 60 * 1024 * 1024)  # sparse
    write(root / "bomb.yaml", BOMB)
    write(root / ".memory" / "laughs.md", "---\ntitle: T\ntags: &a [x]\nb: [*a, *a]\n---\nX\n")
    commit_all(root, env, "base")
    cases = (("add", "Big", "-b", "x", "--link", "big.py"),
             ("add", "Bomb", "-b", "x", "--link", "bomb.yaml::g"), ("validate",))  # fmt: skip
    for args in cases:
        code, said = _cmd(s, root, env, *args)
        lines = [x for x in said.splitlines() if any(n in x for n in ("big.py", "bomb", "laughs"))]
        for line in lines or [said.strip()]:
            s.count("limit lines")
            clear = ("limit" in line or "alias" in line) and not any(u in line for u in UNCLEAR)
            if not clear or code not in (1, 2):
                s.fig("unclear lines").add(f"{' '.join(args)}: {line[:200]}")
    s.fig("unclear lines")
