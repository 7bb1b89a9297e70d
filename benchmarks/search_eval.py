#!/usr/bin/env python3
"""Retrieval benchmark: keyword-only vs hybrid (keyword + semantic) search on real memories.

    python benchmarks/search_eval.py [--repo PATH] [--code PATH] [--k 5] [--min-sim X]
                                     [--keyword-only]

The corpus is memkit's own, read from its git history at PINNED (so the figures do
not move as the project changes): every memory of its `.memory/` (37), and every
second-level section of its docs/ pages as one more memory (title: the heading; id:
`doc-<page>-<heading>`), 100 and more in all. QUERIES are questions a developer
would ask, worded unlike the memory they are labelled with (paraphrases, synonyms,
the symptom instead of the cause); LITERAL are queries that use the memory's own
words, to show the hybrid ranking does not lose what words alone find.

Prints recall@k and MRR (first relevant hit within the top 10) for each mode and
query set, the per-query latency of each, the model's load time and the size on
disk of what the `memkit[semantic]` extra installs. Needs the extra installed, but for
--keyword-only. --code runs another checkout's memkit on the same corpus (for example
an older keyword engine: `git worktree add /tmp/old COMMIT`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PINNED = "9f87c70"  # memkit's main at the time the queries were written
TODAY = dt.date(2026, 11, 22)
DOCS = ["agents", "compile", "format", "hooks", "review", "search", "staleness"]

# (question, id of the memory that answers it), none sharing the memory's key words.
QUERIES = [
    (
        "my own pre-commit script disappeared after installing",
        "a-user-s-git-hook-is-chained-never-overwritten",
    ),
    (
        "instruction file generation slow with token limit",
        "budget-fitting-renders-a-file-many-times-keep-each-render",
    ),
    (
        "after upgrading every note is flagged outdated at once",
        "changing-what-goes-into-a-fingerprint-makes-every-recorded",
    ),
    ("what does the continuous integration pipeline execute", "ci-runs-make-test"),
    ("which executable do the assistant's settings invoke", "claude-hooks-use-memkit-hook-script"),
    ("will it sneak unrelated staged changes into my snapshot", "commit-only-own-files"),
    ("same logic for generating outputs in command and in git check", "compile-plan-is-shared"),
    (
        "where does generated content go inside a file people also edit",
        "compiled-files-marked-sections-in-shared-files-a-generated",
    ),
    ("how do failures become a process status number", "errors-and-exit-codes"),
    (
        "printed output of my commit check shows up in the wrong stream",
        "git-shows-a-hook-s-stdout-on-stderr",
    ),
    (
        "walking old revisions is sluggish with the bindings",
        "history-walks-read-raw-tree-bytes-not-pygit2-objects",
    ),
    ("two agents create a note with an identical name simultaneously", "ids-claimed-by-hard-link"),
    ("startup of the tool takes too long because of big dependencies", "lazy-heavy-imports"),
    (
        "commit with -a does not see what I added in the alternate staging area",
        "libgit2-ignores-git-index-file-git-commit-a-hides-staged",
    ),
    (
        "crash with deeply nested front matter",
        "libyaml-s-composer-recurses-in-c-deep-yaml-segfaults-the",
    ),
    (
        "a number passed as tool argument arrives as the wrong type",
        "mcp-sdk-decodes-optional-strings-and-drops-unreadable-lines",
    ),
    (
        "the tool server does not see my shell variables",
        "mcp-sdk-stdio-servers-get-a-filtered-environment-toolerror",
    ),
    (
        "provenance of a note changed on a side branch",
        "memkit-log-follows-the-merged-branch-when-a-merge-brought",
    ),
    (
        "sanitizing user text before it lands in agent instructions",
        "memory-text-goes-through-mdtext-before-it-reaches-an-output",
    ),
    ("object oriented file system paths too costly in loops", "no-pathlib-in-hot-loops"),
    ("how do we avoid re-reading unchanged notes between runs", "parse-cache-design"),
    (
        "stop a note from pointing at /etc/passwd",
        "paths-from-memories-and-outputs-are-resolved-and-must-stay",
    ),
    (
        "what runs after each tool call in the assistant session",
        "posttooluse-only-appends-one-line-the-stop-hook-does-the",
    ),
    ("an API token pasted into a note", "refuse-secrets-on-write"),
    (
        "why is the title worth more in results",
        "search-scores-one-weighted-text-field-bm25f-instead-of-or",
    ),
    (
        "how do we decide a note no longer matches the source",
        "staleness-fingerprints-are-the-truth-git-only-narrows-the",
    ),
    (
        "checking a handful of notes should not read all of them",
        "staleness-of-few-memories-via-get-many",
    ),
    (
        "comparing the checkout with the last commit only once",
        "staleness-one-head-to-work-tree-diff-composed-with-cheap",
    ),
    ("deadlock when taking the mutex twice", "store-lock-is-not-reentrant-never-nest-it"),
    ("editing one attribute reformats the whole header", "surgical-front-matter-writes"),
    (
        "can a custom layout run arbitrary code",
        "templates-run-sandboxed-their-bytecode-cache-is-signed-with",
    ),
    ("do unit tests touch my global username setting", "tests-real-git-isolated"),
    (
        "remembering earlier answers about who changed what",
        "the-history-cache-is-keyed-by-start-commit-and-path",
    ),
    (
        "why must the commit check avoid third-party packages",
        "the-pre-commit-fast-path-imports-only-the-standard-library",
    ),
    (
        "the full text engine pulls in networking modules",
        "whoosh-is-imported-with-stand-ins-for-urllib-request-and",
    ),
    ("February 30 in a header gives a strange exception", "yaml-bad-dates-raise-valueerror"),
    ("ampersand asterisk references appear in written headers", "yaml-dumper-no-aliases"),
    ("set up the assistant integration", "doc-agents-set-up"),
    ("let the coding assistant query notes through a protocol server", "doc-agents-memkit-mcp"),
    (
        "the assistant suggests a change to an existing note, how to accept it",
        "doc-agents-proposed-revisions-and-memkit-approve",
    ),
    ("bring in an existing CLAUDE.md written by hand", "doc-agents-memkit-import-path"),
    ("which output sections exist for each assistant", "doc-compile-what-goes-where"),
    ("maximum size of generated instruction files", "doc-compile-budgets"),
    ("my manual edits in AGENTS.md survive regeneration?", "doc-compile-hand-written-text-is-kept"),
    ("same output on every machine byte for byte", "doc-compile-determinism"),
    ("customise how the generated file looks", "doc-compile-templates"),
    ("which header keys can a note have", "doc-format-fields"),
    ("machine readable description of the header for editors", "doc-format-json-schema"),
    ("what makes a note rejected as malformed", "doc-format-validation"),
    ("use the framework that manages commit checks", "doc-hooks-the-pre-commit-framework"),
    ("two branches edited the same note and git conflicts", "doc-hooks-the-merge-driver"),
    ("how much time does the commit check add", "doc-hooks-speed"),
    (
        "reviewers want to see what knowledge a PR changes",
        "doc-review-reviewing-memories-in-pull-requests",
    ),
    ("undo a bad change to one note", "doc-review-memkit-revert-id-to-rev-commit"),
    ("see an older version of a note", "doc-review-memkit-show-id-at-rev"),
    (
        "give the agent the notes about the file it is editing within a size limit",
        "doc-search-memkit-context",
    ),
    ("where is the full text data kept and is it committed", "doc-search-the-index"),
    ("rebuild the lookup structure by hand", "doc-search-memkit-index"),
    ("what does a note point at in the source", "doc-staleness-links"),
    (
        "mark a note as checked again after reviewing the code",
        "doc-staleness-memkit-verify-id-all-follow-commit",
    ),
    ("what staleness detection cannot notice", "doc-staleness-known-limits"),
]
# Queries in the memory's own words: words alone find these; hybrid must too.
LITERAL = [
    ("git hook chained never overwritten", "a-user-s-git-hook-is-chained-never-overwritten"),
    ("parse cache JSON keyed by path size mtime", "parse-cache-design"),
    ("store.lock is not reentrant", "store-lock-is-not-reentrant-never-nest-it"),
    ("PyYAML anchors equal objects Dumper", "yaml-dumper-no-aliases"),
    ("exclusive hard link new memory ids", "ids-claimed-by-hard-link"),
    ("likely secrets refused when written", "refuse-secrets-on-write"),
    ("pathlib too slow walking memory files", "no-pathlib-in-hot-loops"),
    (
        "fingerprints are the truth git narrows",
        "staleness-fingerprints-are-the-truth-git-only-narrows-the",
    ),
    ("merge driver", "doc-hooks-the-merge-driver"),
    (
        "templates sandboxed bytecode cache",
        "templates-run-sandboxed-their-bytecode-cache-is-signed-with",
    ),
    (
        "PostToolUse appends one line Stop hook",
        "posttooluse-only-appends-one-line-the-stop-hook-does-the",
    ),
    ("JSON Schema", "doc-format-json-schema"),
]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def _slug(text: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))[:50].strip("-")


def corpus(repo: Path, out: Path) -> int:
    """Write memkit's memories and doc sections at PINNED into the store at `out`."""
    mdir = out / ".memory"
    n = 0
    for name in _git(repo, "ls-tree", "--name-only", PINNED, ".memory/").split():
        if name.endswith(".md"):
            (mdir / Path(name).name).write_text(_git(repo, "show", f"{PINNED}:{name}"), "utf-8")
            n += 1
    for page in DOCS:
        text = _git(repo, "show", f"{PINNED}:docs/{page}.md")
        for part in re.split(r"(?m)^## ", text)[1:]:
            heading, _, body = part.partition("\n")
            heading = heading.replace("`", "").strip()
            mid = f"doc-{page}-{_slug(heading)}"
            title = heading.replace('"', "'")
            (mdir / f"{mid}.md").write_text(f'---\ntitle: "{title}"\n---\n\n{body}', "utf-8")
            n += 1
    return n


def evaluate(store, queries, k, semantic):  # type: ignore[no-untyped-def]
    from memkit.search import search

    hits_at_k, rr, times = 0, 0.0, []
    for text, want in queries:
        start = time.perf_counter()
        got = [h.id for h in search(store, text, today=TODAY, limit=10, semantic=semantic)]
        times.append(time.perf_counter() - start)
        hits_at_k += want in got[:k]
        rr += 1 / (got.index(want) + 1) if want in got else 0.0
    return hits_at_k / len(queries), rr / len(queries), statistics.median(times)


def extra_size() -> float:
    """MB on disk of the packages the semantic extra adds."""
    total = 0
    for name in ("wordllama", "tokenizers", "safetensors", "numpy"):
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            base = Path(next(iter(spec.submodule_search_locations)))
            total += sum(p.stat().st_size for p in base.rglob("*") if p.is_file())
    return total / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--min-sim", type=float, default=None)
    ap.add_argument("--code", type=Path, default=None, help="the memkit checkout to run")
    ap.add_argument("--keyword-only", action="store_true", help="no semantic model")
    args = ap.parse_args()
    sys.path.insert(0, str(args.code or args.repo))
    import memkit.search as fusion
    from memkit.store import Store, init

    if args.min_sim is not None:
        fusion.MIN_SIMILARITY = args.min_sim
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        init(root)
        n = corpus(args.repo, root)
        store = Store(root)
        known = {p.stem for p in store.dir.glob("*.md")}
        missing = sorted({w for _, w in QUERIES + LITERAL} - known)
        if missing:
            sys.exit(f"search_eval: labelled ids not in the corpus: {', '.join(missing)}")
        start = time.perf_counter()
        model = None if args.keyword_only else _model()
        load = time.perf_counter() - start
        evaluate(store, QUERIES[:1], args.k, model)  # builds the index and the vectors
        print(f"corpus: {n} memories at {PINNED}; {len(QUERIES)} paraphrased and "
              f"{len(LITERAL)} literal queries; k={args.k}; "
              f"min similarity {fusion.MIN_SIMILARITY}")  # fmt: skip
        print(f"{'queries':<12}{'mode':<10}{'recall@k':>9}{'MRR':>7}{'median ms':>11}")
        for label, queries in (("paraphrased", QUERIES), ("literal", LITERAL)):
            for mode, sem in (("keyword", None), ("hybrid", model))[: 1 if model is None else 2]:
                r, mrr, med = evaluate(store, queries, args.k, sem)
                print(f"{label:<12}{mode:<10}{r:>9.3f}{mrr:>7.3f}{med * 1000:>11.1f}")
        if model is not None:
            print(f"model load {load * 1000:.0f} ms; extra on disk {extra_size():.0f} MB")


def _model():  # type: ignore[no-untyped-def]
    from memkit.search import embed

    return embed.default_embedder()


if __name__ == "__main__":
    main()
