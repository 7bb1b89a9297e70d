"""The threat items of docs/reliability.md as hostile repositories, for section 4 of
benchmarks/adversarial.py. Each function turns a plain repository into one: it plants
files, links and FIFOs in `c.repo`, canaries in `c.outside`, and code that would create
`c.marker` if memkit ever ran it.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from adv_common import git, memory_text, write


class _Payload:
    """Unpickling it creates a file: proof that a planted pickle was loaded."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.marker, "w"))


@dataclass
class Ctx:
    """One hostile repository and its canaries."""

    repo: Path
    outside: Path
    marker: Path
    token: str  # in every canary file outside
    env: dict[str, str]
    planted: str = ""  # in planted caches: found in an output, a planted file was used
    notes: list[str] = field(default_factory=list)
    fifo_opened: list[str] = field(default_factory=list)
    fifos: list[Path] = field(default_factory=list)
    render_launcher: bool = False

    def canary(self, name: str, text: str | None = None) -> Path:
        return write(self.outside / name, text if text is not None else f"{self.token}\n")

    def link(self, rel: str, target: Path | str) -> Path:
        path = self.repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)
        return path

    def fifo(self, name: str) -> Path:
        path = self.outside / name
        os.mkfifo(path)
        self.fifos.append(path)
        return path


# ---------------------------------------------------------------------- threat items


def planted_whoosh(c: Ctx) -> None:
    """A whoosh index under .memory/.cache/search whose table of contents runs code."""
    from whoosh.fields import ID, Schema
    from whoosh.filedb.filestore import FileStorage
    from whoosh.index import TOC

    for folder in (
        c.repo / ".memory" / ".cache" / "search" / "index",
        c.repo / ".memory" / ".cache" / "search",
    ):
        folder.mkdir(parents=True, exist_ok=True)
        storage = FileStorage(str(folder))
        storage.create_index(Schema(path=ID(stored=True)))
        TOC(Schema(path=ID(stored=True)), [_Payload(str(c.marker))], 2).write(storage, "MAIN")
    manifest = {"version": 5, "files": {".memory/retry.md": [1, 1]}}
    write(c.repo / ".memory" / ".cache" / "search" / "manifest.json", json.dumps(manifest))
    git(c.repo, "add", "-f", ".", env=c.env)


def planted_bytecode(c: Ctx) -> None:
    """Jinja bytecode whose checksum matches the templates, where an old version cached it."""
    from jinja2.bccache import bc_magic

    from memkit.resources import templates_folder

    override = "{{ memory.title }}\n\n{{ memory.body }}\n"
    write(c.repo / ".memory" / "templates" / "memory.md.j2", override)
    code = compile(f"open({str(c.marker)!r}, 'w').close()\n", "<planted>", "exec")
    builtin = Path(templates_folder())
    sources = [("memory.md.j2", ".memory/templates/memory.md.j2", override)]
    sources.append(("memory.md.j2", str(c.repo / ".memory/templates/memory.md.j2"), override))
    for t in builtin.glob("*.j2"):
        sources.append((t.name, str(t), t.read_text("utf-8")))
    folder = c.repo / ".memory" / ".cache" / "templates"
    for name, filename, source in sources:
        key = hashlib.sha1(f"{name}|{filename}".encode()).hexdigest()
        checksum = hashlib.sha1(source.encode("utf-8")).hexdigest()
        write(
            folder / f"__jinja2_{key}.cache",
            bc_magic + pickle.dumps(checksum, 2) + marshal.dumps(code),
        )
    write(folder / "a.cache", bc_magic + pickle.dumps("x", 2) + marshal.dumps(code))
    git(c.repo, "add", "-f", ".", env=c.env)


def planted_parse_cache(c: Ctx) -> None:
    forged = {"title": f"FORGED {c.planted}", "type": "note"}
    entry = [1, 1, "", forged, c.planted]
    for version in (1, 2, 3, 4):
        data = {"version": version, "entries": {".memory/retry.md": entry}}
        write(c.repo / ".memory" / ".cache" / f"parsed-v{version}.json", json.dumps(data))
    write(
        c.repo / ".memory" / ".cache" / "parsed.json",
        json.dumps({"version": 3, "entries": {".memory/retry.md": entry}}),
    )
    write(
        c.repo / ".memory" / ".cache" / "hooks-index",
        f"memkit hook index 1\nl {c.planted}\no {c.planted}\n",
    )
    git(c.repo, "add", "-f", ".", env=c.env)


def _template(c: Ctx, text: str) -> None:
    write(c.repo / ".memory" / "templates" / "memory.md.j2", text)


def include_proc(c: Ctx) -> None:
    c.link(".memory/templates/proc", "/proc/self")
    _template(c, '{% include "proc/environ" %}\n')


def include_outside_file(c: Ctx) -> None:
    c.link(".memory/templates/key.md", c.canary("id_rsa"))
    _template(c, '{% include "key.md" %}\n')


def include_dotdot(c: Ctx) -> None:
    c.canary("id_ed25519")
    _template(c, '{% include "../../../outside/id_ed25519" %}{% include "/etc/passwd" %}\n')


def template_is_link_out(c: Ctx) -> None:
    (c.repo / ".memory" / "templates").mkdir(parents=True)
    c.link(".memory/templates/memory.md.j2", c.canary("template.j2"))


def templates_folder_out(c: Ctx) -> None:
    c.canary("templates/memory.md.j2", f"{c.token} {{{{ memory.title }}}}\n")
    c.link(".memory/templates", c.outside / "templates")


def template_huge_string(c: Ctx) -> None:
    _template(c, '{{ "x" * 3000000000 }}')


def template_doubling(c: Ctx) -> None:
    _template(
        c,
        '{% set ns = namespace(s="xxxxxxxx") %}{% for i in range(40) %}'
        "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}",
    )


def template_loops(c: Ctx) -> None:
    _template(c, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
    c.render_launcher = True


def template_huge_output(c: Ctx) -> None:
    _template(c, '{% for i in range(100000) %}{{ "y" * 1000 }}{% endfor %}')


def _config(c: Ctx) -> Path:
    path = c.repo / ".memory" / "config.toml"
    path.unlink()
    return path


def config_dev_zero(c: Ctx) -> None:
    _config(c).symlink_to("/dev/zero")


def config_fifo(c: Ctx) -> None:
    os.mkfifo(_config(c))


def config_outside(c: Ctx) -> None:
    _config(c).symlink_to(c.canary("config.toml", f'[compile]\ntargets = ["{c.token}"]\n'))


def config_outside_fifo(c: Ctx) -> None:
    _config(c).symlink_to(c.fifo("config-fifo"))


def config_huge(c: Ctx) -> None:
    _config(c).write_text("# " + "x" * 2_000_000 + "\n", encoding="utf-8")


def claude_imports(c: Ctx) -> None:
    os.mkfifo(c.repo / "fifo")
    c.link("zero", "/dev/zero")
    c.link("outfifo", c.fifo("watched-fifo"))
    c.link("docs/notes.md", c.canary("notes.md"))
    secret = c.canary("secret.txt")
    write(
        c.repo / "CLAUDE.md",
        "# Project\n\n@/dev/zero\n@fifo\n@zero\n@outfifo\n"
        f"@../outside/secret.txt\n@{secret}\n@docs/notes.md\n@~/.ssh/id_rsa\n@AGENTS.md\n",
    )
    write(c.repo / "AGENTS.md", "# Agents\n\n@CLAUDE.md\n@/proc/self/environ\n")


def instruction_files_out(c: Ctx) -> None:
    c.link("CLAUDE.md", c.canary("CLAUDE.md", f"# Theirs\n\n## Keys\n\n{c.token}\n"))
    c.link("AGENTS.md", c.canary("AGENTS.md", f"# Theirs too\n\n## Notes\n\n{c.token}\n"))
    c.link("GEMINI.md", c.fifo("gemini-fifo"))


def instruction_folders_out(c: Ctx) -> None:
    for name in ("cursor", "github", "claude"):
        c.canary(f"{name}/keep.txt")
    c.link(".cursor", c.outside / "cursor")
    c.link(".github", c.outside / "github")
    c.link(".claude", c.outside / "claude")
    c.canary("claude/settings.json", json.dumps({"model": c.token}) + "\n")
    c.link(".mcp.json", c.canary("mcp.json", json.dumps({"mcpServers": {c.token: {}}}) + "\n"))
    write(
        c.repo / ".memory" / "scoped.md",
        memory_text("Scoped rule", "Only for src.", type="convention", paths=["src/**"]),
    )


def cache_folder_out(c: Ctx) -> None:
    c.canary("cache/sessions/old.jsonl", "{}\n")
    os.utime(c.outside / "cache/sessions/old.jsonl", (0, 0))
    c.canary("cache/edit/retry.md", f"someone's file {c.token}\n")
    c.canary("cache/search/manifest.json", "{}\n")
    c.link(".memory/.cache", c.outside / "cache")


def store_out(c: Ctx) -> None:
    store = c.repo / ".memory"
    store.rename(c.outside / "store")
    for name in ("config.toml", ".gitignore"):  # what `memkit init` would want to create
        (c.outside / "store" / name).unlink()
    write(c.outside / "store" / "theirs.md", memory_text("Theirs", c.token))
    c.link(".memory", c.outside / "store")


def memory_links_out(c: Ctx) -> None:
    c.link(".memory/leak.md", c.canary("leak.md", memory_text("Leak", c.token)))
    c.canary("team/outside.md", memory_text("Outside team", c.token))
    c.link(".memory/team", c.outside / "team")
    c.link(".memory/fifo.md", c.fifo("memory-fifo"))
    c.link(".memory/zero.md", "/dev/zero")


def code_links_out(c: Ctx) -> None:
    c.link("src/linked.py", c.canary("code.py", f"def handler():\n    return '{c.token}'\n"))
    c.canary("pkg/mod.py", f"def run():\n    return '{c.token}'\n")
    c.link("src/pkg", c.outside / "pkg")
    c.link("src/fifo.py", c.fifo("code-fifo"))
    write(
        c.repo / ".memory" / "linked.md",
        memory_text(
            "Linked code",
            "About linked code.",
            links=["src/linked.py::handler", "src/pkg/mod.py::run", "src/pkg", "src/fifo.py"],
        ),
    )


def nested_outputs(c: Ctx) -> None:
    write(c.repo / ".memory" / "config.toml", "[compile]\nnested_agents = true\n")
    for n, glob in enumerate((".git/hooks/**", ".git/**", ".memory/**", ".memory/templates/**")):
        write(
            c.repo / ".memory" / f"inside-{n}.md",
            memory_text(f"Inside {n}", "Scoped inside.", type="convention", paths=[f"'{glob}'"]),
        )


def _laughs() -> str:
    lines = ["title: lol", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "---\n" + "\n".join(lines) + "\n---\nbody\n"


def hostile_memories(c: Ctx) -> None:
    m = c.repo / ".memory"
    write(m / "laughs.md", _laughs())
    write(m / "merge.md", "---\ntitle: a\nbase: &b {x: 1}\nother:\n  <<: *b\n---\n")
    write(m / "deep-flow.md", b"---\ntitle: x\nk: " + b"[" * 100_000 + b"]" * 100_000 + b"\n---\n")
    write(m / "deep-block.md", b"---\ntitle: x\nk:\n  " + b"- " * 5_000 + b"x\n---\n")
    write(
        m / "deep-map.md",
        b"---\ntitle: x\n" + b"".join(b" " * i + b"k%d:\n" % i for i in range(400)) + b"---\n",
    )
    write(m / "huge.md", b"---\ntitle: x\n---\n" + b"y" * 2_000_000)
    write(m / "just-under.md", b"---\ntitle: Just under\n---\n" + b"word " * 209_000)
    write(m / "binary.md", b"---\ntitle: x\n---\n\x00\x01\x02")
    write(
        m / "python-tag.md",
        b"---\ntitle: !!python/object/apply:os.system ['touch "
        + str(c.marker).encode()
        + b"']\n---\n",
    )
    write(m / "big-int.md", b"---\ntitle: a\npriority: " + b"9" * 5000 + b"\n---\n")
    write(m / "long-title.md", b"---\ntitle: " + b"T" * 500_000 + b"\n---\nbody\n")
    write(
        m / "many-links.md",
        "---\ntitle: Many links\nlinks:\n"
        + "".join(f"- src/app.py::f{i}\n" for i in range(5000))
        + "---\nbody\n",
    )
    write(m / "new\nline.md", "---\ntitle: Newline name\n---\nbody\n")
    write(m / "escape.md", '---\ntitle: "\\e[31mred\\e]0;pwn\\a"\n---\n\x1b[2Jcleared\n')


def import_through_links(c: Ctx) -> None:
    c.canary("docs/rules.md", f"# Rules\n\n## Keys\n\n{c.token}\n")
    c.link("docs", c.outside / "docs")
    c.link(".cursorrules", c.canary("cursorrules", f"Always {c.token}\n"))
    c.canary("bank/productContext.md", f"# Context\n\n{c.token}\n")
    c.link("memory-bank", c.outside / "bank")
    c.link(".clinerules", c.fifo("cline-fifo"))


def memkit_package(c: Ctx) -> None:
    """`memkit/` and `memkit.py` at the top of the work tree: Python started with `-c` or
    `-m` there imports them before the installed memkit (the git hooks run at the top)."""
    code = f"open({str(c.marker)!r}, 'w').close()\n"
    write(c.repo / "memkit" / "__init__.py", code)
    write(c.repo / "memkit" / "__main__.py", code)
    write(c.repo / "memkit.py", code)


THREATS: dict[str, Callable[[Ctx], None]] = {
    "planted whoosh pickles in .memory/.cache": planted_whoosh,
    "planted jinja bytecode in .memory/.cache": planted_bytecode,
    "planted parse cache and hook index": planted_parse_cache,
    "template include through a link to /proc/self": include_proc,
    "template include through a link out": include_outside_file,
    "template include with .. and /": include_dotdot,
    "template override linked out": template_is_link_out,
    "templates folder linked out": templates_folder_out,
    "template computing a 3 GB string": template_huge_string,
    "template doubling a string": template_doubling,
    "template looping 10^10 times": template_loops,
    "template producing 100 MB": template_huge_output,
    "config.toml -> /dev/zero": config_dev_zero,
    "config.toml is a FIFO": config_fifo,
    "config.toml linked out": config_outside,
    "config.toml linked to an outside FIFO": config_outside_fifo,
    "config.toml of 2 MB": config_huge,
    "CLAUDE.md @imports of devices, FIFOs and files out": claude_imports,
    "instruction files linked out": instruction_files_out,
    "instruction folders linked out": instruction_folders_out,
    ".memory/.cache linked out": cache_folder_out,
    ".memory linked out": store_out,
    "memory files and folders linked out": memory_links_out,
    "linked code files and folders out": code_links_out,
    "nested outputs into .git/ and .memory/": nested_outputs,
    "YAML bombs, deep nesting, 1 MB files": hostile_memories,
    "import through links": import_through_links,
    "a memkit package at the top of the work tree": memkit_package,
}
