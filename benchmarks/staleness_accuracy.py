"""memkit's staleness benchmark: link verdicts scored, per language, on real histories.

    python benchmarks/staleness_accuracy.py MIRRORS [--repos owner+name[=LANG] ...]
        [--pairs 6] [--gap 40] [--links 120] [--seed 0] [-v]

MIRRORS is a folder of git mirrors named owner+name/repo (bare or not); LANG (python,
typescript, javascript, go, rust, java) defaults to the language most of HEAD's files are
in. For each repository, pairs of first-parent commits GAP apart are taken across its
history; at the older commit a memory is linked to each sampled symbol (every sampled
symbol of a file the range changed, plus as many from files it did not) and `verify
--all` records the fingerprints through memkit's own path (verify_store). At the newer
commit `check` gives each link a verdict, scored against a ground truth labeled by a
parser that is not memkit's (memkit reads all but Python with tree-sitter):

- Python: the standard library's ast (signature, body without docstrings and docs by
  ast.unparse). TypeScript and JavaScript: the TypeScript compiler API, with NODE_PATH
  reaching the npm package `typescript` (labelers/ts_labeler.js). Go: go/parser
  (labelers/go_labeler, built with `go build`). Rust: syn (labelers/rust_labeler, built
  offline by cargo against Debian's librust-syn-dev). Java: JavaParser 3.16, Debian's
  libjavaparser-java (labelers/java_labeler). Each labeler names the symbols memkit
  documents and splits each into signature (name left out; parameters, return type,
  modifiers, export and visibility, type parameters), doc comments (its own, then its
  members') and body, each printed or tokenized by that parser without comments,
  formatting and redundant parentheses; a body under 4 tokens is trivial.
- A symbol still at its place is unchanged/docs/body/signature by which part differs.
- A missing one went to the file git's rename detection (`git diff -M`) says its file
  became, if it is there; else where its body is, unchanged and not trivial, in a file
  the range changed (preferring the same signature, then the same name; among equals the
  one in the renamed file, else the one new target); else to the new code most like it:
  the labeler's tokens of the whole definition with its name left out, difflib ratio >=
  0.9, among symbols absent at the older commit, ignoring definitions under 24 tokens.
  Several equally good targets make an ambiguous move (right only when memkit lists the
  same ones). A file deleted with most of its names showing up in one new file moved there.
- Otherwise removed.

A link memkit could not verify, or that got no verdict, counts as wrong. Prints per
repository (with the commit pairs) and per language: per-class precision and recall,
stale precision and recall, accuracy, the rate of links not verified, and moved targets
right. Stores nothing: third-party code is read from the mirrors only.
"""

from __future__ import annotations

import argparse
import ast
import copy
import dataclasses
import datetime as dt
import io
import random
import subprocess
import tempfile
import tokenize
from collections import Counter
from pathlib import Path

CLASSES = ("unchanged", "docs", "body", "signature", "moved", "removed", "not verified")
STALE = {"body", "signature", "moved", "removed"}
TODAY = dt.date(2026, 1, 1)
NEAR, MIN_TOKENS, TIE = 0.9, 24, 0.005
DEFAULT_REPOS = (  # three projects per language (docs/staleness.md has the figures)
    "psf+requests",
    "pallets+click",
    "modelcontextprotocol+python-sdk",
    "sindresorhus+ky=typescript",
    "pmndrs+zustand=typescript",
    "immerjs+immer=typescript",
    "expressjs+express=javascript",
    "tj+commander.js=javascript",
    "axios+axios=javascript",
    "spf13+cobra",
    "gin-gonic+gin",
    "go-chi+chi",
    "dtolnay+anyhow",
    "dtolnay+semver",
    "rust-lang+log",
    "google+gson",
    "square+javapoet",
    "jhy+jsoup",
)
VERBOSE = False


def git(root: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return out.stdout.decode("utf-8", "replace")


@dataclasses.dataclass(frozen=True)
class Shape:
    sig: str
    body: str
    doc: str
    tokens: tuple[str, ...]
    trivial: bool


# ------------------------------------------------------------------ Python truth


def py_shapes(source: str) -> dict[str, Shape]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, ast.AST] = {}

    def overload(n: ast.AST) -> bool:
        decos = getattr(n, "decorator_list", [])
        return any(getattr(d, "id", getattr(d, "attr", "")) == "overload" for d in decos)

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + node.name
                if name not in found or (overload(found[name]) and not overload(node)):
                    found[name] = node
                if isinstance(node, ast.ClassDef):
                    visit(node.body, name + ".")
                continue
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(node, field, []):
                    if isinstance(child, ast.stmt):
                        visit([child], prefix)
                    elif hasattr(child, "body"):  # except handlers, match cases
                        visit(child.body, prefix)

    visit(tree.body, "")
    return {name: py_shape(node) for name, node in found.items()}  # type: ignore[arg-type]


def py_shape(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Shape:
    node = copy.deepcopy(node)
    has_doc = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    docs = [  # trailing spaces and blank lines in a docstring are formatting
        "\n".join(x.rstrip() for x in (ast.get_docstring(n, clean=True) or "").splitlines()).strip()
        for n in ast.walk(node)
        if isinstance(n, has_doc)
    ]
    for n in ast.walk(node):
        if isinstance(n, has_doc) and ast.get_docstring(n, clean=False) is not None:
            n.body = n.body[1:]
    body = "\n".join(ast.unparse(s) for s in node.body)
    trivial = body.strip() in ("", "pass", "...")
    node.name = "_"
    whole = ast.unparse(node) if node.body else ast.unparse(node) + " pass"
    node.body = []
    sig = ast.unparse(node)
    try:
        toks = tuple(
            t.string
            for t in tokenize.generate_tokens(io.StringIO(whole).readline)
            if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)
            and t.string
        )
    except (tokenize.TokenError, IndentationError, SyntaxError):
        toks = tuple(whole.split())
    return Shape(sig, body, "\n".join(docs), toks, trivial)


# ------------------------------------------------- the other languages' labelers

LABELERS = Path(__file__).resolve().parent / "labelers"
SUFFIXES = {
    "python": (".py", ".pyi"),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "javascript": (".js", ".jsx", ".mjs", ".cjs"),
    "go": (".go",),
    "rust": (".rs",),
    "java": (".java",),
}
LABELER_NAMES = {
    "python": "Python's ast",
    "typescript": "TypeScript compiler API",
    "javascript": "TypeScript compiler API",
    "go": "go/parser",
    "rust": "syn",
    "java": "JavaParser 3.16",
}
MAX_BYTES = 1_000_000  # bundles: too slow to label, and nothing a link names
SKIP_DIRS = ("node_modules/",)


def labeler_command(lang: str) -> list[str]:
    """The command that labels files of `lang`: reads [{path, text}] as JSON on stdin,
    prints {path: {symbol: [sig, body, doc, tokens, trivial]}}."""
    if lang in ("typescript", "javascript"):
        return ["node", str(LABELERS / "ts_labeler.js")]
    if lang == "go":
        return [str(_built("go_labeler", ["go", "build", "-o"]))]
    if lang == "rust":
        return [str(_built("rust_labeler", ["cargo", "build", "--offline", "--release"]))]
    if lang == "java":
        out = Path(tempfile.gettempdir()) / "memkit-java_labeler"
        jar = "/usr/share/java/javaparser-core.jar"  # Debian's libjavaparser-java
        src = LABELERS / "java_labeler" / "JavaLabeler.java"
        if not (out / "JavaLabeler.class").exists():
            subprocess.run(["javac", "-cp", jar, "-d", str(out), str(src)], check=True)
        return ["java", "-cp", f"{out}:{jar}", "JavaLabeler"]
    raise ValueError(lang)


def _built(name: str, build: list[str]) -> Path:
    src = LABELERS / name
    if build[0] == "go":
        out = Path(tempfile.gettempdir()) / f"memkit-{name}"
        if not out.exists():
            subprocess.run([*build, str(out), "."], cwd=src, check=True)
        return out
    target = Path(tempfile.gettempdir()) / f"memkit-{name}-target"
    subprocess.run([*build, "--target-dir", str(target)], cwd=src, check=True)
    return target / "release" / name


def labeled(lang: str, files: dict[str, bytes]) -> dict[str, dict[str, Shape]]:
    import json

    if lang == "python":
        return {f: py_shapes(raw.decode("utf-8", "replace")) for f, raw in files.items()}
    if lang in ("rust", "java"):  # path NUL text NUL ...: no JSON library offline
        payload = b"".join(
            f.encode() + b"\0" + raw.replace(b"\0", b"") + b"\0" for f, raw in files.items()
        )
    else:
        payload = json.dumps(
            [{"path": f, "text": raw.decode("utf-8", "replace")} for f, raw in files.items()]
        ).encode()
    try:
        done = subprocess.run(labeler_command(lang), input=payload, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        why = getattr(e, "stderr", None) or str(e).encode()
        lines = why.decode("utf-8", "replace").strip().splitlines()
        last = [x for x in lines if "rror" in x][:1] or lines[-1:] or ["failed"]
        raise SystemExit(
            f"the {LABELER_NAMES[lang]} labeler did not run ({last[0]}); install it as "
            "docs/staleness.md says (the benchmark section)"
        ) from None
    return {
        f: {n: Shape(v[0], v[1], v[2], tuple(v[3]), bool(v[4])) for n, v in syms.items()}
        for f, syms in json.loads(done.stdout).items()
    }


# ------------------------------------------------------------------- the truth


def shapes_at(root: Path, rev: str, lang: str) -> dict[str, dict[str, Shape]]:
    files = {}
    for line in git(root, "ls-tree", "-r", "-l", rev).splitlines():
        meta, name = line.split("\t", 1)
        size = meta.split()[3]
        if not name.endswith(SUFFIXES[lang]) or any(d in name for d in SKIP_DIRS):
            continue
        if ".min." in name or (size.isdigit() and int(size) > MAX_BYTES):
            continue
        files[name] = subprocess.run(
            ["git", "show", f"{rev}:{name}"], cwd=root, capture_output=True, check=True
        ).stdout
    return labeled(lang, files)


def ratio(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    import difflib

    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def truth(
    name: str,
    path: str,
    old_files: dict,
    new_files: dict,
    changed: set[str],
    renamed: dict[str, str] | None = None,
) -> tuple[str, str | None, tuple[str, ...]]:
    """(class, target, ambiguous targets) for one symbol."""
    old = old_files[path][name]
    first = (renamed or {}).get(path)
    if first is not None and name in new_files.get(first, {}):
        return "moved", f"{first}::{name}", ()  # git's rename detection: the file moved
    here = new_files.get(path, {})
    if name in here:
        now = here[name]
        for cls, a, b in (
            ("signature", old.sig, now.sig),
            ("body", old.body, now.body),
            ("docs", old.doc, now.doc),
        ):
            if a != b:
                return cls, None, ()
        return "unchanged", None, ()
    last = name.rsplit(".", 1)[-1]
    hits = []
    for f, syms in new_files.items():
        for n, s in syms.items():
            if s.body != old.body or (f, n) == (path, name) or f not in changed | {path}:
                continue  # code already in an unchanged file is not where it went
            same_name = n.rsplit(".", 1)[-1] == last
            if old.trivial and not (same_name and s.sig == old.sig):
                continue
            hits.append(((0 if s.sig == old.sig else 2) + (0 if same_name else 1), f"{f}::{n}"))
    if hits:
        low = min(h[0] for h in hits)
        top = sorted(t for k, t in hits if k == low)
        for keep in (  # ties: the renamed file, else the one target that is new
            [t for t in top if t.split("::")[0] == first],
            [t for t in top if t.split("::")[1] not in old_files.get(t.split("::")[0], {})],
        ):
            if len(top) > 1 and len(keep) == 1:
                top = keep
        return ("moved", top[0], ()) if len(top) == 1 else ("moved", None, tuple(top))
    if len(old.tokens) >= MIN_TOKENS:
        near = []
        for f in sorted(changed):
            for n, s in new_files.get(f, {}).items():
                if n in old_files.get(f, {}) or (f, n) == (path, name):
                    continue
                r = ratio(old.tokens, s.tokens)
                if r >= NEAR:
                    near.append((r, f, n))
        if near:
            top_r = max(r for r, _, _ in near)
            top = sorted((f, n) for r, f, n in near if r >= top_r - TIE)
            same = [(f, n) for f, n in top if n.rsplit(".", 1)[-1] == last]
            mine = [(f, n) for f, n in top if f == first]
            if len(top) > 1 and len(same) != 1 and len(mine) == 1:
                top = mine
            if len(top) == 1 or len(same) == 1:
                f, n = top[0] if len(top) == 1 else same[0]
                return "moved", f"{f}::{n}", ()
            return "moved", None, tuple(f"{f}::{n}" for f, n in top)
    if path not in new_files:  # the file went away: did a file with most of its names take over?
        names = set(old_files[path])
        takers = [
            f
            for f, syms in new_files.items()
            if name in syms
            and name not in old_files.get(f, {})
            and len(names & set(syms)) >= 0.5 * len(names | set(syms))
        ]
        if len(takers) == 1:
            return "moved", f"{takers[0]}::{name}", ()
    return "removed", None, ()


# ----------------------------------------------------------------- evaluation


def evaluate_pair(
    repo: Path, lang: str, old: str, new: str, links: int, rng: random.Random
) -> list[tuple]:
    from memkit import memory as mm
    from memkit.staleness import check_store, verify_store
    from memkit.store import Store, init

    old_files, new_files = shapes_at(repo, old, lang), shapes_at(repo, new, lang)
    changed = set(git(repo, "diff", "--name-only", old, new).splitlines())
    renamed = {}
    for line in git(repo, "diff", "-M", "--name-status", old, new).splitlines():
        parts = line.split("\t")
        if parts[0].startswith("R") and len(parts) == 3:
            renamed[parts[1]] = parts[2]
    pool_changed = [(f, n) for f in sorted(old_files) if f in changed for n in old_files[f]]
    pool_same = [(f, n) for f in sorted(old_files) if f not in changed for n in old_files[f]]
    picked = rng.sample(pool_changed, min(len(pool_changed), links // 2))
    picked += rng.sample(pool_same, min(len(pool_same), links - len(picked)))
    with tempfile.TemporaryDirectory(prefix="memkit-accuracy-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(clone)], check=True)
        git(clone, "checkout", "-q", "-f", old)
        init(clone)
        store = Store(clone)
        ids = {}
        for i, (f, n) in enumerate(picked):
            mem = mm.new("x", "y", mid=f"acc-{i:05d}", today=TODAY, links=[f"{f}::{n}"])
            store.add(mem, exact_id=True)
            ids[mem.id] = (f, n)
        done = verify_store(store, None, today=TODAY)
        failed = {p.id: str(p) for p in done.problems}
        git(clone, "checkout", "-q", "-f", new)
        statuses = {s.id: s.links[0] for s in check_store(store, today=TODAY) if s.links}
    rows = []
    for mid, (f, n) in ids.items():
        want, target, ties = truth(n, f, old_files, new_files, changed, renamed)
        got = statuses.get(mid)
        if mid in failed or got is None or got.state == "unverified":
            rows.append((want, "not verified", target, None, ties, ()))
            if VERBOSE:
                print(f"  {old[:8]}..{new[:8]} {f}::{n}: not verified: {failed.get(mid)}")
            continue
        rows.append((want, got.state, target, got.moved_to, ties, got.candidates))
        if VERBOSE and (want, target, ties) != (got.state, got.moved_to, got.candidates):
            print(
                f"  {old[:8]}..{new[:8]} {f}::{n}: truth {want} {target or ''} {ties or ''}, "
                f"memkit {got.state} {got.moved_to or ''} {got.candidates or ''}"
            )
    return rows


def pairs(repo: Path, count: int, gap: int) -> list[tuple[str, str]]:
    commits = git(repo, "rev-list", "--first-parent", "--reverse", "HEAD").split()
    if len(commits) < 2:
        return []
    gap = min(gap, len(commits) - 1)
    starts = list(range(0, len(commits) - gap))
    step = max(1, len(starts) // count)
    return [(commits[i], commits[i + gap]) for i in starts[::step][:count]]


def right(row: tuple) -> bool:
    want, got, target, moved_to, ties, candidates = row
    if want != got:
        return False
    if want == "moved":
        return (target, ties) == (moved_to, tuple(candidates))
    return True


def report(title: str, rows: list[tuple]) -> dict[str, float]:
    confusion = Counter((r[0], r[1]) for r in rows)
    print(f"{title}: {len(rows)} links")
    print(f"  {'class':<13} {'truth':>6} {'memkit':>6} {'precision':>9} {'recall':>7}")
    for cls in CLASSES:
        tp = sum(1 for r in rows if r[0] == cls and right(r))
        truth_n = sum(v for (w, _), v in confusion.items() if w == cls)
        pred_n = sum(v for (_, g), v in confusion.items() if g == cls)
        if truth_n or pred_n:
            p = f"{tp / pred_n:.3f}" if pred_n else "-"
            r = f"{tp / truth_n:.3f}" if truth_n else "-"
            print(f"  {cls:<13} {truth_n:>6} {pred_n:>6} {p:>9} {r:>7}")
    tp = sum(1 for r in rows if r[0] in STALE and r[1] in STALE)
    pred_n = sum(1 for r in rows if r[1] in STALE)
    truth_n = sum(1 for r in rows if r[0] in STALE)
    figures = {
        "accuracy": sum(map(right, rows)) / max(len(rows), 1),
        "stale_precision": tp / max(pred_n, 1),
        "stale_recall": tp / max(truth_n, 1),
        "not_verified": sum(1 for r in rows if r[1] == "not verified") / max(len(rows), 1),
    }
    moved = [r for r in rows if r[0] == r[1] == "moved"]
    print(
        f"  stale: {truth_n} true, {pred_n} said; precision {figures['stale_precision']:.3f}, "
        f"recall {figures['stale_recall']:.3f}; accuracy {figures['accuracy']:.3f}; "
        f"not verified {figures['not_verified']:.3f}; "
        f"moved targets right {sum(map(right, moved))}/{len(moved)}"
    )
    wrong = Counter((r[0], r[1]) for r in rows if not right(r))
    if wrong:
        print(
            "  wrong (truth -> memkit): "
            + ", ".join(f"{w}->{g} x{n}" for (w, g), n in sorted(wrong.items()))
        )
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mirrors", type=Path, help="folder of owner+name/repo git mirrors")
    ap.add_argument("--repos", nargs="+", default=list(DEFAULT_REPOS))
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--gap", type=int, default=40)
    ap.add_argument("--links", type=int, default=120)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true", help="print each disagreement")
    args = ap.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    by_lang: dict[str, list[tuple]] = {}
    for spec in args.repos:
        name, _, lang = spec.partition("=")
        repo = (args.mirrors / name / "repo").resolve()
        if not repo.exists():
            repo = (args.mirrors / name).resolve()
        head = git(repo, "rev-parse", "HEAD").strip()
        if not lang:
            files = git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
            counts = Counter(
                lang for f in files for lang, ends in SUFFIXES.items() if f.endswith(ends)
            )
            lang = counts.most_common(1)[0][0]
        rng = random.Random(args.seed)
        rows: list[tuple] = []
        chosen = pairs(repo, args.pairs, args.gap)
        for old, new in chosen:
            rows += evaluate_pair(repo, lang, old, new, args.links, rng)
        report(
            f"{name} ({lang}, labeled by {LABELER_NAMES[lang]}, HEAD {head[:12]}, "
            f"{len(chosen)} pairs {args.gap} commits apart: "
            + " ".join(f"{a[:8]}..{b[:8]}" for a, b in chosen)
            + ")",
            rows,
        )
        by_lang.setdefault(lang, []).extend(rows)
    for lang, rows in by_lang.items():
        report(f"all {lang} repositories", rows)


if __name__ == "__main__":
    main()
