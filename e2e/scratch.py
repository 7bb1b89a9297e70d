"""The scratch repository each run starts from: code, memories, memkit-compiled files.

Every memory carries two unique markers: one in its title (which survives when memkit
shortens the memory to a one-line entry) and one in its body (only in the full text).
After `memkit compile`, a line naming each compiled file is appended to it (outside
memkit's markers), so a request tells which files reached the model, not only which
memories. Markers are bracketed so that none is a prefix of another.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

TARGETS = (
    "agents",
    "claude",
    "cursor",
    "copilot",
    "gemini",
    "windsurf",
    "cline",
    "kiro",
    "continue",
    "amazonq",
    "junie",
    "zed",
    "aider",
    "roo",
)
BUDGET = '\n[compile.budgets]\nagents = "1500 bytes"\n'
EDGE_BUDGET = '\n[compile.budgets]\nagents = "2600 bytes"\n'  # some full, some short, some out
STORES = {  # the store's name -> its [compile] table
    "all": f"targets = {list(TARGETS)}\nnested_agents = true\n".replace("'", '"'),
    "agents": 'targets = ["agents"]\nnested_agents = true\n',
    "import": 'targets = ["agents", "claude"]\nclaude_mode = "import"\nnested_agents = true\n',
    # the harder cases: a stale memory, memories over budget, `activation: agent` and
    # `manual`, a memory scoped to a nested package (SUBFOLDER holds a pyproject.toml)
    "edge": f"targets = {list(TARGETS)}\nnested_agents = true\n".replace("'", '"'),
    # two packages, one with `CLAUDE.md -> AGENTS.md` beside its AGENTS.md (LINKS)
    "nest": 'targets = ["agents", "claude"]\nnested_agents = true\n',
}
CODE = {
    "src/api/handler.py": "def handle(request):\n    return {'ok': True}\n",
    "src/util.py": "def add(a, b):\n    return a + b\n",
    "docs/guide.md": "# Guide\n\nHow to use the project.\n",
    "README.md": "# scratch\n\nA scratch project for end-to-end runs.\n",
}
READ = "src/api/handler.py"  # the file the read scenario has the agent open
SUBFOLDER = "src/api"  # where the subfolder scenario starts the agent
PACKAGE = {"src/api/pyproject.toml": '[project]\nname = "api"\nversion = "0.1"\n'}
STALE_LINK = "src/util.py::add"  # the `stale` memory's link, changed after it was verified
CHANGED = {"src/util.py": "def add(a, b, c=0):\n    return a + b + c\n"}
STALE_NOTE = "Possibly out of date"  # memkit's annotation of a stale memory
NEST_CODE = {
    "pkg/alpha/pyproject.toml": '[project]\nname = "alpha"\nversion = "0.1"\n',
    "pkg/alpha/alpha.py": "def alpha():\n    return 'a'\n",
    "pkg/beta/pyproject.toml": '[project]\nname = "beta"\nversion = "0.1"\n',
    "pkg/beta/beta.py": "def beta():\n    return 'b'\n",
}
LINKS = {"pkg/alpha/CLAUDE.md": "AGENTS.md"}  # made after a first compile wrote AGENTS.md
READS = {"nest": ("pkg/alpha/alpha.py", "pkg/beta/beta.py")}  # read one after the other
SUBFOLDERS = {"nest": "pkg/alpha"}


def reads_of(store: str) -> tuple[str, ...]:
    """The files the read scenario has the agent open in `store`, in order."""
    return READS.get(store, (READ,))


def subfolder_of(store: str) -> str:
    """Where the subfolder scenario starts the agent in `store`."""
    return SUBFOLDERS.get(store, SUBFOLDER)


@dataclass(frozen=True)
class Memory:
    """A memory of the scratch store and its two markers."""

    id: str
    title: str
    body: str
    paths: tuple[str, ...] = ()
    priority: int = 0
    links: tuple[str, ...] = ()
    activation: str = ""  # "agent" or "manual" (front matter), "" for always

    @property
    def description_marker(self) -> str:
        """In the description of an `activation: agent` memory."""
        return f"[MKD:{self.id}]"

    @property
    def title_marker(self) -> str:
        """In the title: present in the full text and in a shortened entry."""
        return f"[MKT:{self.id}]"

    @property
    def body_marker(self) -> str:
        """In the body: present only where the memory is in full."""
        return f"[MKB:{self.id}]"


MEMORIES = (
    Memory("always", "Always-on convention", "Prefer small functions.", priority=10),
    Memory("api", "API handlers", "Handlers return dicts.", ("src/api/**",), priority=10),
    Memory("docs", "Docs style", "Write short sentences.", ("docs/**",), priority=10),
    Memory("bulky", "Bulky background", "Background. " * 120, priority=-5),
)
EDGE = (
    Memory("stale", "Adding numbers", "add() sums two numbers.", priority=20, links=(STALE_LINK,)),
    Memory("pkg", "API package", "The api package is its own project.", ("src/api",), 10),
    Memory("byagent", "Release steps", "Tag, then publish.", activation="agent"),
    Memory("manual", "Incident notes", "Restart the worker.", activation="manual"),
    *(Memory(f"extra{i}", f"Extra background {i}, on the project's history, " * 2,
             f"Extra {i}. " * 60, priority=-10 - i) for i in range(1, 10)),
)  # fmt: skip
NEST = (
    MEMORIES[0],
    Memory("alpha", "Alpha package", "Alpha returns letters.", ("pkg/alpha/**",), 10),
    Memory("beta", "Beta package", "Beta returns letters too.", ("pkg/beta/**",), 10),
    Memory("alphalow", "Alpha history", "Alpha began small. " * 12, ("pkg/alpha/**",), -8),
    MEMORIES[3],
)  # fmt: skip
ALL = (*MEMORIES, *EDGE)  # the edge store's
BY_ID = {m.id: m for m in (*ALL, *NEST)}


def memories_of(store: str) -> tuple[Memory, ...]:
    """The memories the store `store` holds."""
    return {"edge": ALL, "nest": NEST}.get(store, MEMORIES)


def file_marker(path: str) -> str:
    """The line appended to compiled file `path`."""
    return f"[MKF:{path}]"


def _run(argv: list[str], cwd: Path) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # memkit compile exits 0; notes on stderr
        raise RuntimeError(f"{' '.join(argv)} failed in {cwd}: {done.stderr.strip()}")
    return done.stdout + done.stderr


def _write(repo: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")


def _activate(path: Path, m: Memory) -> None:
    """Give the memory file `path` its `activation` (and a description) in front matter."""
    extra = f"activation: {m.activation}\n"
    if m.activation == "agent":
        extra += f"description: Use when releasing {m.description_marker}\n"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\ntype: ", f"\n{extra}type: ", 1), encoding="utf-8")


def _fates(repo: Path, memkit: str) -> list[str]:
    """What `memkit compile --explain` says of each memory, for Claude Code and Codex."""
    out = []
    for reader in ("claude", "codex"):
        text = _run([memkit, "compile", "--explain", reader], repo)
        out += [ln for ln in text.splitlines() if ln.startswith("  ") and "budget" not in ln]
    return out


def build(repo: Path, memkit: str, store: str = "all") -> list[str]:
    """Create the scratch repository at `repo`; return the compiled files, sorted.

    `store` picks the configuration (STORES): every target; AGENTS.md alone; AGENTS.md
    with a CLAUDE.md that imports it; every target with the EDGE memories too."""
    repo.mkdir(parents=True)
    git = ["git", "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid"]
    _run(["git", "init", "-q", "-b", "main"], repo)
    _write(repo, CODE)
    _run([memkit, "init"], repo)
    (repo / ".memory" / "config.toml").write_text(
        f"[compile]\n{STORES[store]}{EDGE_BUDGET if store == 'edge' else BUDGET}", encoding="utf-8"
    )
    edge = store == "edge"
    if store == "nest":
        _write(repo, NEST_CODE)
    if edge:
        _write(repo, PACKAGE)
        _run([*git, "add", "-A"], repo)
        _run([*git, "commit", "-q", "-m", "code"], repo)  # the link is verified at a commit
    for m in memories_of(store):
        argv = [
            memkit,
            "add",
            f"{m.title} {m.title_marker}",
            "--id",
            m.id,
            "-b",
            f"{m.body_marker} {m.body}",
            "--priority",
            str(m.priority),
        ]
        for glob in m.paths:
            argv += ["--path", glob]
        for link in m.links:
            argv += ["--link", link]
        _run(argv, repo)
        if m.activation:
            _activate(repo / ".memory" / f"{m.id}.md", m)
    if edge:  # the linked symbol changes after `memkit add` verified it
        _run([*git, "add", "-A"], repo)
        _run([*git, "commit", "-q", "-m", "memories"], repo)
        _write(repo, CHANGED)
        _run([*git, "commit", "-q", "-a", "-m", "change add"], repo)
    out = _run([memkit, "compile"], repo)
    if store == "nest":  # the links lead to the AGENTS.md the first compile wrote
        for rel, target in LINKS.items():
            (repo / rel).symlink_to(target)
        out += _run([memkit, "compile"], repo)
    files = sorted(
        {
            rel
            for line in out.splitlines()
            if line.startswith(("created ", "updated "))
            and (repo / (rel := line.split(None, 1)[1].strip())).is_file()
            and not (repo / rel).is_symlink()
        }
    )
    fates = _fates(repo, memkit)
    for rel in files:
        with (repo / rel).open("a", encoding="utf-8") as fh:
            fh.write(f"\nFile marker: {file_marker(rel)}\n")
    if _fates(repo, memkit) != fates:  # the markers count against the files' budgets
        raise RuntimeError(f"{repo}: the file markers change what memkit fits in its budgets;"
                           " leave the store's memories more room")  # fmt: skip
    _run([*git, "add", "-A"], repo)
    _run([*git, "commit", "-q", "-m", "scratch project"], repo)
    return files
