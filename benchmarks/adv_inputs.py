"""Adversarial section: what a pull request or an agent can send.

Glob complexity (pathological `paths` globs through `add`, `list --scope` and the
matcher), resumed edits (a kept edit reopened after the file changed), and secrets
without their label (tags, titles, sources) next to vendors' documented example keys.
Real `memkit` processes in real git repositories; figures that must be 0 say so.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from adv_common import Section

SLOW = 10.0  # seconds: Claude Code's hook timeout; nothing here may come near it
DEEP = "/".join(["a"] * 12) + "/b.py"
GLOBS = [
    "**/" * 20 + "*.zz",
    "/".join(["**/a"] * 15) + "/zz",
    "*a" * 40 + "b",
    "/".join(["*a*a*"] * 20),
    "{a,b}" * 10 + "/*.py",
    "src/" + "x" * 600,
]
BARE = {
    "tag": ["--tag", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Rk2Lm4tNvW"],
    "title": ["MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9OiZ1BjP5CEWmRr500P"],
    "source": ["--source", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Rk2Lm4tNvW"],
    "pem line": ["-----BEGIN RSA PRIVATE KEY-----"],  # memkit: allow-secret (a fake key line)
}
EXAMPLES = (
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
)


def _memkit(root: Path, env: dict[str, str], *args: str, **extra: str) -> tuple[int, str, float]:
    t0 = time.monotonic()
    cmd = [sys.executable, "-P", "-m", "memkit", *args]
    done = subprocess.run(
        cmd, cwd=root, capture_output=True, text=True, env={**env, **extra}, timeout=600
    )
    return done.returncode, done.stdout + done.stderr, time.monotonic() - t0


def _repo(base: Path, name: str, env: dict[str, str]) -> Path:
    root = base / name
    root.mkdir(parents=True)
    for args in (["init", "-q", "-b", "main"], ["config", "user.name", "A"],
                 ["config", "user.email", "a@example.com"]):  # fmt: skip
        subprocess.run(["git", *args], cwd=root, check=True, env=env)
    _memkit(root, env, "init")
    return root


def _globs(base: Path, env: dict[str, str], s: Section) -> None:
    from memkit.globs import match

    root = _repo(base, "globs", env)
    worst = 0.0
    for i, glob in enumerate(GLOBS):
        t0 = time.monotonic()
        match(glob, DEEP)
        worst = max(worst, time.monotonic() - t0)
        code, out, took = _memkit(root, env, "add", f"Glob {i}", "-b", "x", "--path", glob)
        s.count("globs refused at add (capped)" if code == 2 else "globs accepted at add")
        if code not in (0, 2) or "Traceback" in out:
            s.fig("add crashed").add(f"{glob[:40]}: {out.strip()[:120]}")
        if took > SLOW:
            s.fig(f"add slower than {SLOW:g} s").add(f"{glob[:40]}: {took:.1f} s")
    f = root / ".memory" / "hand.md"  # written by hand, past every cap: still read fast
    f.write_text(
        "---\ntitle: Hand\npaths:\n" + "".join(f"- '{g}'\n" for g in GLOBS[:4]) + "---\nx\n"
    )
    code, out, took = _memkit(root, env, "list", "--scope", DEEP)
    s.details.append(f"glob matcher: worst single match {worst * 1000:.1f} ms; "
                     f"list --scope over pathological globs {took:.2f} s")  # fmt: skip
    if took > SLOW:
        s.fig(f"list --scope slower than {SLOW:g} s").add(f"{took:.1f} s")


def _edits(base: Path, env: dict[str, str], s: Section) -> None:
    root = _repo(base, "edits", env)
    path = root / ".memory" / "target.md"
    path.write_text("---\ntitle: Target\n---\noriginal\n", encoding="utf-8")
    script = base / "editor.py"
    script.write_text(
        "import pathlib, sys\np = pathlib.Path(sys.argv[1])\n"
        "t = pathlib.Path('.memory/target.md')\n"
        "t.write_text(t.read_text().replace('original', 'theirs'))\n"
        "p.write_text(p.read_text().replace('original', 'mine'))\n", encoding="utf-8")  # fmt: skip
    code, out, _ = _memkit(root, env, "edit", "target", EDITOR=f"{sys.executable} {script}")
    (root / "src.py").write_text("x = 1\n")
    subprocess.run(["git", "add", "-A"], cwd=root, env=env, check=True)
    subprocess.run(["git", "commit", "-qm", "c"], cwd=root, env=env, check=True)
    _memkit(root, env, "link", "target", "src.py")
    lost = 0
    for attempt in range(3):
        code, out, _ = _memkit(root, env, "edit", "target", EDITOR="true")
        text = path.read_text(encoding="utf-8")
        if "theirs" not in text or "src.py" not in text:
            lost += 1
            s.fig("resumed edits saved over a newer file").add(
                f"attempt {attempt}: {out.strip()[:120]}"
            )
        s.count("resumed unchanged edits refused" if code == 2 else "resumed unchanged edits saved")
    s.details.append(f"resumed edits: {3 - lost} of 3 reopenings kept the change made meanwhile")


def _secrets(base: Path, env: dict[str, str], s: Section) -> None:
    root = _repo(base, "secrets", env)
    for i, (where, args) in enumerate(BARE.items()):
        lead = ["-b", "x", "--"] if where in ("title", "pem line") else [f"Bare {i}", "-b", "x"]
        code, out, _ = _memkit(root, env, "add", *lead, *args)
        if code == 0:
            s.fig("bare secrets written").add(f"{where}: {out.strip()[:80]}")
        elif "refusing to write" not in out:
            s.fig("bare secrets refused for another reason").add(f"{where}: {out.strip()[:120]}")
    code, out, _ = _memkit(
        root, env, "add", "AWS example", "-b", EXAMPLES, "--tag", "AKIAIOSFODNN7EXAMPLE"
    )
    if code != 0:
        s.fig("documented examples refused").add(out.strip()[:160])
    code, out, _ = _memkit(root, env, "validate")
    if code != 0:
        s.fig("documented examples flagged by validate").add(out.strip()[:160])


def run_section(base: Path, env: dict[str, str]) -> Section:
    s = Section(7, "pull-request and agent inputs")
    base = base / "inputs"
    base.mkdir(parents=True, exist_ok=True)
    env = {**env, "MEMKIT_TODAY": "2026-03-01"}
    for part in (_globs, _edits, _secrets):
        part(base, env, s)
    return s


def summary(s: Section) -> str:
    must = sum(f.value for f in s.failed())
    return f"{must} failures that must be 0; " + "; ".join(
        f"{f.name} {f.value}" for f in s.figures.values() if not f.zero
    )


if __name__ == "__main__":
    from adv_common import run_alone

    run_alone(run_section, summary)
