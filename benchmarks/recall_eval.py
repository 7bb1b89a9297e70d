#!/usr/bin/env python3
"""Semantic recall on paraphrased questions, and what the prompt hook injects.

    python benchmarks/recall_eval.py [--mirror PATH] [--repo PATH] [--half train|heldout|both]
                                     [--k 5] [--modes keyword,semantic,hybrid] [--prompts]
                                     [--show] [--scale N] [--stores mcp,memkit]

Stores (benchmarks/recall_sets.py): `mcp`, a public project's instruction file split
into one memory per bullet or paragraph, read at run time from a local mirror of its
repository (`--mirror`, a git directory holding recall_sets.MCP_COMMIT); `memkit`,
memkit's own memories at search_eval.PINNED with its docs sections as distractors.
Each question falls in the train or the held-out half by a hash of its text: tune on
`--half train` only, report both.

Prints, per store and half: recall@k and MRR (first relevant hit within the top 10)
of keyword search, the semantic neighbours alone, and the hybrid ranking `memkit
search --semantic` gives; the median query time. --prompts runs the prompts of
recall_sets (prompt_set: which half each falls in) through the prompt hook's lookup:
memories injected per prompt that needs none, precision of what is injected, recall
of what is needed, and the hook process's median time beside `python -c pass`'s.
--scale N times, on a store of N generated memories (gen_store.py), the keyword
index build beside the vectors build, and the median warm query of keyword and
hybrid search.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import recall_prompts  # noqa: E402
import recall_sets as sets  # noqa: E402
import search_eval  # noqa: E402

TODAY = dt.date(2026, 11, 22)
MIRROR = Path("/work/.mirror/modelcontextprotocol+python-sdk/repo")
MIN_UNIT = 20  # characters: shorter units are not memories


def half(question: str) -> str:
    """`train` or `heldout`, fixed by the question's text."""
    return "heldout" if hashlib.sha256(question.encode()).digest()[0] % 2 else "train"


def _slug(text: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


def split_units(text: str) -> list[tuple[str, str, str]]:
    """(id, section, text) of each top-level bullet or paragraph under a `##`/`###`
    heading, numbered within its section (short units skipped, numbers kept)."""
    out: list[tuple[str, str, str]] = []
    section, n, cur, fence, blank = "", 0, [], False, False

    def close() -> None:
        body = "\n".join(cur).strip()
        if section and body and len(body) >= MIN_UNIT:
            out.append((f"{_slug(section)}-{n}", section, body))

    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
            cur.append(line)
            continue
        if not fence and re.match(r"#{2,3} ", line):
            close()
            section, n, cur, blank = line.lstrip("#").strip(), 0, [], False
            continue
        starts = not fence and (line.startswith("- ") or (blank and line[:1].strip() != ""))
        if starts and section:
            close()
            n, cur = n + 1, []
        if line.strip() or cur:
            cur.append(line)
        blank = not line.strip()
    close()
    return out


def _title(body: str) -> str:
    first = re.sub(r"[*`]|^- ", "", body.splitlines()[0]).strip()
    first = re.split(r"(?<=[.;])\s", first)[0].rstrip(".;:")
    return first[:90].replace('"', "'")


def mcp_store(mirror: Path, out: Path) -> int:
    got = subprocess.run(
        ["git", "--git-dir", str(mirror), "show", f"{sets.MCP_COMMIT}:{sets.MCP_PATH}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if got.returncode != 0:
        sys.exit(
            f"recall_eval: {mirror} does not hold {sets.MCP_PATH} at {sets.MCP_COMMIT[:12]}; "
            f"clone github.com/{sets.MCP_REPO} and pass its .git folder as --mirror"
        )
    text = got.stdout
    units = split_units(text)
    for mid, section, body in units:
        front = f'---\ntitle: "{_title(body)}"\ntags: [{_slug(section)}]\n---\n\n'
        (out / ".memory" / f"{mid}.md").write_text(front + body + "\n", "utf-8")
    return len(units)


def _store(kind: str, args: argparse.Namespace, root: Path):  # type: ignore[no-untyped-def]
    from memkit.store import Store, init

    subprocess.run(["git", "init", "-q", str(root)], check=True)
    init(root)
    n = mcp_store(args.mirror, root) if kind == "mcp" else search_eval.corpus(args.repo, root)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "s"],
        check=True,
    )
    store = Store(root)
    labelled = sets.MCP if kind == "mcp" else sets.MEMKIT
    known = {p.stem for p in store.dir.glob("*.md")}
    missing = sorted(set(labelled) - known)
    if missing:
        sys.exit(f"recall_eval: labelled ids not in the {kind} store: {', '.join(missing)}")
    return store, n


def questions(kind: str, which: str) -> list[tuple[str, str]]:
    labelled = sets.MCP if kind == "mcp" else sets.MEMKIT
    got = [(q, mid) for mid, (_, qs) in labelled.items() for q in qs]
    return [(q, m) for q, m in got if which == "both" or half(q) == which]


def ranked(store, text: str, mode: str, model) -> list[str]:  # type: ignore[no-untyped-def]
    from memkit.search import search

    if mode == "semantic":
        from memkit.search.index import Index
        from memkit.search.vectors import Vectors

        index = Index(store)
        index.refresh()
        near = Vectors(index, model).refresh(index.files).nearest(text, 10)
        return [p.rsplit("/", 1)[-1][:-3] for p, _ in near]
    sem = model if mode == "hybrid" else None
    return [h.id for h in search(store, text, today=TODAY, limit=10, semantic=sem)]


def evaluate(store, qs, mode, model, k):  # type: ignore[no-untyped-def]
    hits, rr, times = 0, 0.0, []
    for text, want in qs:
        start = time.perf_counter()
        got = ranked(store, text, mode, model)
        times.append(time.perf_counter() - start)
        hits += want in got[:k]
        rr += 1 / (got.index(want) + 1) if want in got else 0.0
    n = max(1, len(qs))
    return hits / n, rr / n, statistics.median(times) if times else 0.0


def prompt_set(kind: str, which: str) -> list[tuple[str, list[str]]]:
    """The prompts of one half over a store: PROMPTS split by their hash, plus
    PROMPTS_TRAIN and recall_prompts.PROMPTS_MCP_MORE in the train half; PROMPTS_MEMKIT
    (written after the first floors were chosen) all held out, PROMPTS_MEMKIT_TRAIN and
    recall_prompts.PROMPTS_MEMKIT_MORE all train."""
    if kind == "mcp":
        split = [(p, w) for p, w in sets.PROMPTS if half(p) == which]
        more = sets.PROMPTS_TRAIN + recall_prompts.PROMPTS_MCP_MORE
        return split + (more if which == "train" else [])
    if which == "train":
        return sets.PROMPTS_MEMKIT_TRAIN + recall_prompts.PROMPTS_MEMKIT_MORE
    return sets.PROMPTS_MEMKIT


def tally(picks: list[tuple[list[str], list[str]]]) -> tuple[int, int, int, int, int]:
    """(prompts needing none, memories given to them, memories given, of them needed,
    needed) over (given, needed) pairs, one a prompt."""
    none_n = none_inj = inj = good = needed = 0
    for got, want in picks:
        inj += len(got)
        good += len(set(got) & set(want))
        needed += len(want)
        if not want:
            none_n += 1
            none_inj += len(got)
    return none_n, none_inj, inj, good, needed


def prompt_eval(store, kind: str, halves: tuple[str, ...], show: bool) -> None:  # type: ignore[no-untyped-def]
    from memkit.agents.claude import indexer, recall, words

    idx = recall.from_bytes(str(store.root), indexer.build(store, today=TODAY))
    limit = idx.budget("prompt_memories")
    for h in halves:
        prompts = prompt_set(kind, h)
        known = {p.stem for p in store.dir.glob("*.md")}
        missing = sorted({m for _, want in prompts for m in want} - known)
        if missing:
            sys.exit(f"recall_eval: prompts need ids not in the {kind} store: {missing}")
        picks = []
        for prompt, want in prompts:
            got = words.about_prompt(idx, prompt, limit=limit)
            picks.append(([m for m, _ in got], want))
            if show and set(picks[-1][0]) != set(want):
                print(f"    {prompt!r}: want {want} got {got}")
        none_n, none_inj, inj, good, needed = tally(picks)
        print(f"prompts {kind} {h}: {len(prompts)} ({none_n} needing no memory); limit {limit}")
        print(f"  injected per prompt needing none  {none_inj / max(1, none_n):.2f}")
        print(f"  precision of injected             {good / max(1, inj):.2f} ({good}/{inj})")
        print(f"  recall of needed                  {good / max(1, needed):.2f} ({good}/{needed})")
    if kind != "mcp":
        return
    hook = Path(sys.executable).with_name("memkit-hook")
    env = {**os.environ, "MEMKIT_TODAY": TODAY.isoformat()}

    def run(cmd: list[str], data: bytes) -> tuple[float, float]:
        t0, c0 = time.perf_counter(), os.times()
        subprocess.run(cmd, input=data, capture_output=True, env=env, check=False)
        c1 = os.times()
        return time.perf_counter() - t0, c1.children_user + c1.children_system - (
            c0.children_user + c0.children_system
        )

    base, hooked = [], []
    for i in range(30):  # alternating rounds
        prompt = sets.PROMPTS[i % len(sets.PROMPTS)][0]
        payload = {"session_id": f"bench{i}", "cwd": str(store.root), "prompt": prompt,
                   "hook_event_name": "UserPromptSubmit"}  # fmt: skip
        base.append(run([sys.executable, "-c", "pass"], b""))
        hooked.append(run([str(hook), "user-prompt-submit"], json.dumps(payload).encode()))
    bw, bc = statistics.median(w for w, _ in base), statistics.median(c for _, c in base)
    hw, hc = statistics.median(w for w, _ in hooked), statistics.median(c for _, c in hooked)
    print(f"  hook p50 {hw * 1000:.0f} ms wall {hc * 1000:.0f} ms cpu; python -c pass "
          f"{bw * 1000:.0f} ms wall {bc * 1000:.0f} ms cpu; ratio {hw / bw:.2f}")  # fmt: skip


def scale(n: int) -> None:
    """Index and vectors build time, and warm query time, on a generated store of `n`."""
    import gen_store

    from memkit.search import embed, search
    from memkit.search.index import Index
    from memkit.search.vectors import Vectors
    from memkit.store import Store

    def timed(fn):  # type: ignore[no-untyped-def]
        w0, c0 = time.perf_counter(), time.process_time()
        got = fn()
        return got, time.perf_counter() - w0, time.process_time() - c0

    model = embed.default_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        gen_store.generate(n, Path(tmp))
        store = Store(Path(tmp))
        index = Index(store)
        _, kw_wall, kw_cpu = timed(index.refresh)
        _, v_wall, v_cpu = timed(lambda: Vectors(index, model).refresh(index.files))
        print(f"scale {n} memories: keyword index {kw_wall:.2f} s wall {kw_cpu:.2f} s cpu; "
              f"vectors {v_wall:.2f} s wall {v_cpu:.2f} s cpu "
              f"(ratio {v_wall / kw_wall:.2f} wall, {v_cpu / kw_cpu:.2f} cpu)")  # fmt: skip
        qs = [q for q, _ in questions("memkit", "train")][:20]
        for mode, sem in (("keyword", None), ("hybrid", model)):
            search(store, qs[0], today=TODAY, semantic=sem)  # warm
            walls, cpus = [], []
            for q in qs:
                _, w, c = timed(lambda q=q, s=sem: search(store, q, today=TODAY, semantic=s))
                walls.append(w)
                cpus.append(c)
            print(f"  {mode} query p50 {statistics.median(walls) * 1000:.1f} ms wall "
                  f"{statistics.median(cpus) * 1000:.1f} ms cpu")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--mirror", type=Path, default=MIRROR)
    ap.add_argument("--repo", type=Path, default=HERE.parent)
    ap.add_argument("--half", choices=("train", "heldout", "both"), default="both")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--modes", default="keyword,semantic,hybrid")
    ap.add_argument("--stores", default="mcp,memkit")
    ap.add_argument("--prompts", action="store_true", help="the prompt hook's lookup too")
    ap.add_argument("--show", action="store_true", help="each prompt the lookup gets wrong")
    ap.add_argument("--scale", type=int, default=0, help="also time a generated store of N")
    args = ap.parse_args()
    if args.scale:
        scale(args.scale)
    modes = args.modes.split(",")
    model = None
    if {"semantic", "hybrid"} & set(modes):
        from memkit.search import embed

        start = time.perf_counter()
        model = embed.default_embedder()
        print(f"model {model.name}, loaded in {(time.perf_counter() - start) * 1000:.0f} ms")
    halves = ("train", "heldout") if args.half == "both" else (args.half,)
    print(f"{'store':<8}{'half':<9}{'n':>4} {'mode':<10}{'recall@' + str(args.k):>9}"
          f"{'MRR':>7}{'median ms':>11}")  # fmt: skip
    for kind in args.stores.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            store, _ = _store(kind, args, Path(tmp))
            for h in halves:
                qs = questions(kind, h)
                for mode in modes:
                    r, mrr, med = evaluate(store, qs, mode, model, args.k)
                    print(f"{kind:<8}{h:<9}{len(qs):>4} {mode:<10}{r:>9.3f}{mrr:>7.3f}"
                          f"{med * 1000:>11.1f}")  # fmt: skip
            if args.prompts:
                prompt_eval(store, kind, halves, args.show)


if __name__ == "__main__":
    main()
