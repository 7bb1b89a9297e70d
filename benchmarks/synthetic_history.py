"""Build a git history of a Python project with real refactorings, for accuracy.py.

    python benchmarks/synthetic_history.py DIR [--commits 300] [--seed 1]

Each commit applies one to three random changes: body edits, signature changes,
docstring edits, reformatting, new comments, renames of functions, methods and
classes, moves of functions between modules, module renames (git mv), deletions
and additions.
"""

from __future__ import annotations

import argparse
import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Func:
    name: str
    params: list[str]
    body: list[str]
    doc: str
    style: int = 0  # 0: one line signature, 1: one parameter per line
    comments: list[str] = field(default_factory=list)
    decorators: list[str] = field(default_factory=list)

    def render(self, indent: str = "") -> list[str]:
        out = [f"{indent}@{d}" for d in self.decorators]
        if self.style:
            inner = "".join(f"{indent}    {p},\n" for p in self.params)
            out.append(f"{indent}def {self.name}(\n{inner}{indent}):")
        else:
            out.append(f"{indent}def {self.name}({', '.join(self.params)}):")
        if self.doc:
            out.append(f'{indent}    """{self.doc}"""')
        out += [f"{indent}    # {c}" for c in self.comments]
        out += [f"{indent}    {line}" for line in self.body]
        return out


@dataclass
class Class:
    name: str
    bases: list[str]
    doc: str
    methods: list[Func]

    def render(self) -> list[str]:
        out = [f"class {self.name}({', '.join(self.bases)}):", f'    """{self.doc}"""']
        for m in self.methods:
            out += ["", *m.render("    ")]
        return out


class Project:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.serial = 0
        self.modules: dict[str, list[Func | Class]] = {}
        for _ in range(40):
            self.modules[self.new_path()] = [self.new_symbol() for _ in range(rng.randint(3, 6))]

    def uid(self) -> int:
        self.serial += 1
        return self.serial

    def new_path(self) -> str:
        return f"pkg{self.rng.randint(0, 4)}/mod_{self.uid()}.py"

    def new_func(self, method: bool = False) -> Func:
        n = self.uid()
        params = ["self", "a"] if method else ["a", "b=1"]
        body = [
            f"value = combine(a, {n})",
            f"total = value * {self.rng.randint(2, 9)}",
            f"return check(total, '{n}')",
        ]
        return Func(f"func_{n}", params, body, f"Compute thing {n}.")

    def new_symbol(self) -> Func | Class:
        if self.rng.random() < 0.3:
            n = self.uid()
            methods = [self.new_func(method=True) for _ in range(self.rng.randint(1, 3))]
            return Class(f"Thing{n}", ["Base"], f"Thing number {n}.", methods)
        return self.new_func()

    def render(self, root: Path) -> None:
        for path, symbols in self.modules.items():
            lines = ['"""A module."""', "", "from base import Base, check, combine"]
            for s in symbols:
                lines += ["", "", *s.render()]
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text("\n".join(lines) + "\n", encoding="utf-8")

    # ----------------------------------------------------------- refactorings

    def pick_func(self) -> tuple[str, Func, Class | None]:
        path = self.rng.choice(sorted(self.modules))
        symbol = self.rng.choice(self.modules[path])
        if isinstance(symbol, Class):
            return path, self.rng.choice(symbol.methods), symbol
        return path, symbol, None

    def change(self, root: Path) -> str:
        kind = self.rng.choice(
            [
                "body",
                "body",
                "signature",
                "docs",
                "format",
                "comment",
                "rename",
                "move",
                "move_module",
                "delete",
                "add",
                "bases",
            ]
        )
        path, func, owner = self.pick_func()
        if kind == "body":
            i = self.rng.randrange(len(func.body))
            func.body[i] += " + 1"
        elif kind == "signature":
            func.params.append(f"opt_{self.uid()}=None")
        elif kind == "docs":
            func.doc += " More details."
        elif kind == "format":
            func.style = 1 - func.style
        elif kind == "comment":
            func.comments.append(f"note {self.uid()}")
        elif kind == "rename":
            if owner is not None and self.rng.random() < 0.3:
                owner.name = f"Renamed{self.uid()}"
            else:
                func.name = f"{func.name.split('_v')[0]}_v{self.uid()}"
        elif kind == "move" and owner is None and len(self.modules[path]) > 1:
            self.modules[path].remove(func)
            target = self.rng.choice([p for p in sorted(self.modules) if p != path])
            self.modules[target].append(func)
        elif kind == "move_module":
            self.render(root)
            new = self.new_path()
            self.modules[new] = self.modules.pop(path)
            subprocess.run(["git", "mv", path, new], cwd=root, check=True, capture_output=True)
        elif kind == "delete":
            if owner is not None and len(owner.methods) > 1:
                owner.methods.remove(func)
            elif owner is None and len(self.modules[path]) > 1:
                self.modules[path].remove(func)
        elif kind == "add":
            self.modules[path].append(self.new_symbol())
        elif kind == "bases" and owner is not None:
            owner.bases.append(f"Mixin{self.uid()}")
        return kind


def build(root: Path, commits: int, seed: int) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    root.mkdir(parents=True)
    git("init", "-q", "-b", "main")
    git("config", "user.name", "Synthetic")
    git("config", "user.email", "synthetic@example.com")
    project = Project(random.Random(seed))
    project.render(root)
    git("add", "-A")
    git("commit", "-q", "-m", "initial project")
    for _ in range(commits):
        kinds = [project.change(root) for _ in range(project.rng.randint(1, 3))]
        project.render(root)
        git("add", "-A")
        git("commit", "-q", "--allow-empty", "-m", ", ".join(kinds))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--commits", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    build(args.dir, args.commits, args.seed)
    print(f"built {args.commits + 1} commits in {args.dir}")


if __name__ == "__main__":
    main()
