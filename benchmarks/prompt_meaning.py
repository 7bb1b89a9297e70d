#!/usr/bin/env python3
"""Does a meaning check make prompt recall precise? An experiment, not a feature.

    python benchmarks/prompt_meaning.py [--mirror PATH] [--repo PATH] [--heldout] [--show]
                                        [--model wordllama|minilm --model-path PATH]

Runs the prompts of recall_sets (recall_eval.prompt_set) over the two stores of
recall_eval (`mcp`, `memkit`) through rules that use the cosine similarity of the
prompt's vector and each memory's (memkit.search.embed's static WordLlama model, or
the contextual all-MiniLM-L6-v2 with --model minilm: prompt_minilm.py), alone or to
confirm the keyword lookup the hook uses today (words.about_prompt):

- keyword        today's lookup, unchanged
- kw+cos         keyword results whose cosine reaches a floor
- anyword+cos    memories sharing any word of the prompt (rareword+cos: a word that is
                 not an everyday one) whose cosine reaches a floor
- cos            memories whose cosine reaches a floor (best first, the hook's limit)
- cos+margin     the same, given only when the best one leads the first left out by a margin
- cos+z          the same, given only when the cosine is z standard deviations above the
                 prompt's mean cosine over the store
- kw|cos         kw+cos, plus any memory over a higher cosine floor

each with the memory's vector from its title and tags (`tt`), title, tags and body
(`ttb`) or the mean of the two cosines (`mix`), raw or centred (`-c`: the store's mean
memory vector subtracted from every vector, the prompt's too, before the cosine:
static embeddings share a common direction), or the best of the `tt` cosine and each
body sentence's (`max`).

Every threshold is chosen on the train halves only: the chosen configuration is the one
whose worst ratio to a goal (precision / 0.9, recall / 0.6, 0.3 / injections per prompt
that needs none, each capped at 1) over the two stores' train halves is highest, ties
to the higher pooled recall, then precision. --heldout then evaluates that one
configuration on the held-out halves. It also prints how close a prompt's vector made
from per-word token sums (what a standard-library hook could look up) is to the
tokenizer's whole-text one, and how far a cosine floor can split the prompts that need
a memory from those that need none.

Result (2026-11-29; none-injections / precision / recall): no rule met the goals on
train. Chosen: `tt kw|cos t=0.425 t2=0.575`, train mcp 0.00 / 1.00 / 0.55, memkit
0.06 / 0.88 / 0.64 (keyword: 0.13 / 0.69 / 0.55, 0.39 / 0.38 / 0.55). Held-out, looked
at once: mcp 0.00 / 0.75 (3/4) / 0.23 (3/13) against keyword's 0.10 / 0.50 / 0.38;
memkit 0.11 / 0.54 (7/13) / 0.47 (7/15) against 0.26 / 0.43 / 0.40. Not built: it
loses mcp's recall and is far from 0.9 precision. The limit is the model: on
train, the best cosine of the prompts needing no memory (title and tags: p90 0.41 mcp,
0.46 memkit) reaches the median cosine of the memories needed (0.48, 0.46); the best
variant (`ttb-c`) still leaves 27-30% of needed memories under that p90. A static model
scores shared topic ("why is this test slow" lands on a memory about slow loops), not
whether the prompt needs a memory, and paraphrases that share no topic word stay far.
Per-word token sums gave the whole-text prompt vector exactly (cosine 1.0000), so a
standard-library hook could compute it if a better rule is found. Rerun on the train
prompts of today (157 more since), with `max` and anyword pools that now see words:
best `ttb-c kw|cos t=0.25 t2=0.4`, worst goal ratio 0.60 (mcp 0.03 / 0.86 / 0.36,
memkit 0.08 / 0.56 / 0.50; keyword 0.05 / 0.70 / 0.30, 0.11 / 0.33 / 0.26); `max` at
best 0.47. MiniLM does no better (0.62): see prompt_minilm.py.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import recall_eval  # noqa: E402

GOALS = (0.9, 0.6, 0.3)  # precision, recall, injections per prompt needing none
FLOORS = [round(0.10 + 0.025 * i, 3) for i in range(33)]  # 0.10 .. 0.90
MARGINS = [0.0, 0.02, 0.04, 0.06, 0.08, 0.10]
ZS = [2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0]

Rule = Callable[..., list[str]]  # (keyword, ranked, cosines, word pools) -> ids


class Case:
    """One store: its memories' vectors, its prompts per half, the keyword lookup."""

    def __init__(self, kind: str, args: argparse.Namespace, tmp: Path, model) -> None:  # type: ignore[no-untyped-def]
        import numpy as np

        from memkit.agents.claude import indexer, recall, words
        from memkit.compile.scopes import activation

        store, _ = recall_eval._store(kind, args, tmp)
        self.kind = kind
        idx = recall.from_bytes(str(store.root), indexer.build(store, today=recall_eval.TODAY))
        self.limit = idx.budget("prompt_memories")
        mems = [
            m
            for m in store.load().memories
            if m.in_force(recall_eval.TODAY) and m.path and activation(m) != "manual"
        ]
        self.ids = [m.id for m in mems]
        tags = [" ".join(t.replace("-", " ") for t in m.tags) for m in mems]
        texts = {
            "tt": [f"{m.title}. {t}" for m, t in zip(mems, tags, strict=True)],
            "ttb": [f"{m.title}. {t}\n{m.body}" for m, t in zip(mems, tags, strict=True)],
        }
        self.prompts = {h: recall_eval.prompt_set(kind, h) for h in ("train", "heldout")}
        self.keyword = {
            p: [m for m, _ in words.about_prompt(idx, p, limit=self.limit)]
            for h in self.prompts.values()
            for p, _ in h
        }
        every = [p for h in self.prompts.values() for p, _ in h]
        self.pools = {}  # prompt -> (ids sharing any word, ids sharing a word not everyday)
        for p in every:
            said = list(dict.fromkeys(words.words(p[:4000])))  # as about_prompt reads it
            scores, _, rare = words._shared_words(idx, said, max(1, idx.count))
            self.pools[p] = (set(scores), set(rare))
        pvec = model.embed(every)
        self.cos: dict[str, dict[str, np.ndarray]] = {}  # variant -> prompt -> cosines
        for name, tx in texts.items():
            mvec = model.embed(tx)
            for centred in (False, True):
                mv, pv = mvec, pvec
                if centred:
                    mean = mvec.mean(axis=0)
                    mv, pv = _norm(mvec - mean), _norm(pvec - mean)
                sims = pv @ mv.T
                variant = f"{name}{'-c' if centred else ''}"
                self.cos[variant] = {p: sims[i] for i, p in enumerate(every)}
        for c in ("", "-c"):  # the mean of the two cosines
            tt, ttb = self.cos["tt" + c], self.cos["ttb" + c]
            self.cos["mix" + c] = {p: (tt[p] + ttb[p]) / 2 for p in every}
        self.cos["max"] = _sentence_max(model, mems, pvec, every, self.cos["tt"])
        self.word_gap = _word_sum_gap(model, every) if hasattr(model, "_table") else []

    def score(self, h: str, variant: str, rule: Rule) -> tuple[int, int, int, int, int, int]:
        """(prompts needing none, injected into them, injected, good, needed, prompts)."""
        picks = [(self.run(p, variant, rule), want) for p, want in self.prompts[h]]
        return (*recall_eval.tally(picks), len(picks))

    def run(self, prompt: str, variant: str, rule: Rule) -> list[str]:
        sims = self.cos[variant][prompt]
        order = sorted(range(len(sims)), key=lambda i: -sims[i])
        ranked = [(self.ids[i], float(sims[i])) for i in order]
        byid = dict(ranked)
        kw = [(m, byid.get(m, -1.0)) for m in self.keyword[prompt]]
        anyw, rare = self.pools[prompt]
        pools = ([x for x in ranked if x[0] in anyw], [x for x in ranked if x[0] in rare])
        return rule(kw, ranked, sims, pools)[: self.limit]  # type: ignore[call-arg,arg-type]


def separation(c: Case, variant: str, h: str) -> str:
    """How far a cosine floor can split prompts needing a memory from those needing none:
    the best cosine of each prompt needing none, the cosine and rank of each needed memory."""
    import numpy as np

    tops, needed, ranks = [], [], []
    for prompt, want in c.prompts[h]:
        sims = c.cos[variant][prompt]
        if not want:
            tops.append(float(sims.max()))
        for m in want:
            v = float(sims[c.ids.index(m)])
            needed.append(v)
            ranks.append(int((sims > v).sum()) + 1)
    q = np.quantile(tops, [0.5, 0.9, 1.0]) if tops else [0, 0, 0]
    over = sum(v > q[1] for v in needed) / max(1, len(needed))
    return (
        f"{c.kind} {h} {variant}: best cosine of prompts needing none p50 {q[0]:.2f} "
        f"p90 {q[1]:.2f} max {q[2]:.2f}; needed memories' cosine p50 "
        f"{np.median(needed):.2f}, {over:.0%} over that p90, ranked first "
        f"{sum(r == 1 for r in ranks)}/{len(ranks)}, in top 3 {sum(r <= 3 for r in ranks)}"
    )


def _sentence_max(model, mems, pvec, every, tt):  # type: ignore[no-untyped-def]
    """Each memory's best cosine over its title and tags and each sentence of its body."""
    import numpy as np

    split = re.compile(r"(?<=[.!?:])\s+|\n\s*\n|\n(?=\s*[-*] )")
    parts = [(i, s) for i, m in enumerate(mems) for s in split.split(m.body) if len(s.strip()) > 2]
    sims = pvec @ model.embed([s for _, s in parts]).T  # prompt x sentence
    owner = np.asarray([i for i, _ in parts])
    out = {}
    for row, p in enumerate(every):
        best = tt[p].copy()
        np.maximum.at(best, owner, sims[row])
        out[p] = best
    return out


def _norm(rows):  # type: ignore[no-untyped-def]
    import numpy as np

    n = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(n == 0, 1.0, n)


def _word_sum_gap(model, prompts: list[str]) -> list[float]:  # type: ignore[no-untyped-def]
    """Cosine of each prompt's vector with the one made from per-word token sums."""
    import numpy as np

    out = []
    for p in prompts:
        parts = p.split()
        enc = model._tokenizer.encode_batch(parts, add_special_tokens=False)
        ids = [i for e in enc for i in e.ids]
        whole = model.embed([p])[0]
        v = model._table[np.asarray(ids)].mean(axis=0) if ids else np.zeros_like(whole)
        v = v / (np.linalg.norm(v) or 1.0)
        out.append(float(v @ whole))
    return out


def rules() -> dict[str, Rule]:
    """Every rule with its thresholds, by name."""
    out: dict[str, Rule] = {"keyword": lambda kw, ranked, sims, pools: [m for m, _ in kw]}
    for t in FLOORS:
        out[f"anyword+cos t={t}"] = lambda kw, r, s, p, t=t: [m for m, c in p[0] if c >= t]
        out[f"rareword+cos t={t}"] = lambda kw, r, s, p, t=t: [m for m, c in p[1] if c >= t]
        out[f"kw+cos t={t}"] = lambda kw, r, s, p, t=t: [m for m, c in kw if c >= t]
        out[f"cos t={t}"] = lambda kw, r, s, p, t=t: [m for m, c in r if c >= t]
        for m in MARGINS[1:]:
            out[f"cos+margin t={t} m={m}"] = _margin(t, m)
        for t2 in FLOORS:
            if t2 > t:
                out[f"kw|cos t={t} t2={t2}"] = _union(t, t2)
    for z, t in itertools.product(ZS, [0.0, *FLOORS[:20]]):
        out[f"cos+z z={z} t={t}"] = _zscore(z, t)
    return out


def _margin(t: float, margin: float) -> Rule:
    def rule(kw, ranked, sims, pools):  # type: ignore[no-untyped-def]
        above = [m for m, c in ranked[:3] if c >= t]
        if not above or ranked[0][1] - ranked[len(above)][1] < margin:
            return []
        return above

    return rule  # type: ignore[return-value]


def _union(t: float, t2: float) -> Rule:
    def rule(kw, ranked, sims, pools):  # type: ignore[no-untyped-def]
        got = [m for m, c in kw if c >= t]
        return got + [m for m, c in ranked if c >= t2 and m not in got]

    return rule  # type: ignore[return-value]


def _zscore(z: float, t: float) -> Rule:
    def rule(kw, ranked, sims, pools):  # type: ignore[no-untyped-def]
        mean, sd = float(sims.mean()), float(sims.std()) or 1.0
        return [m for m, c in ranked if c >= t and (c - mean) / sd >= z]

    return rule  # type: ignore[return-value]


def figures(s: tuple[int, ...]) -> tuple[float, float, float]:
    """(injections per prompt needing none, precision, recall)."""
    none_n, none_inj, inj, good, needed, _ = s
    return none_inj / max(1, none_n), good / inj if inj else 1.0, good / max(1, needed)


def attainment(s: tuple[int, ...]) -> float:
    none, prec, rec = figures(s)
    return min(1.0, prec / GOALS[0], rec / GOALS[1], GOALS[2] / none if none else 1.0)


def line(label: str, s: tuple[int, ...]) -> str:
    none, prec, rec = figures(s)
    return (f"{label:<40} none {none:.2f}  precision {prec:.2f} ({s[3]}/{s[2]})  "
            f"recall {rec:.2f} ({s[3]}/{s[4]})")  # fmt: skip


def _model(name: str, path: Path | None):  # type: ignore[no-untyped-def]
    if name == "minilm":
        if path is None or not (path / "model.safetensors").is_file():
            sys.exit(
                "prompt_meaning: --model minilm needs --model-path, a folder holding "
                "all-MiniLM-L6-v2's config.json, tokenizer.json and model.safetensors"
            )
        import prompt_minilm

        return prompt_minilm.MiniLM(path)
    from memkit.search import embed

    return embed.default_embedder()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--mirror", type=Path, default=recall_eval.MIRROR)
    ap.add_argument("--repo", type=Path, default=HERE.parent)
    ap.add_argument("--heldout", action="store_true", help="evaluate the chosen one on held-out")
    ap.add_argument("--show", action="store_true", help="the chosen one's wrong prompts")
    ap.add_argument("--model", choices=("wordllama", "minilm"), default="wordllama")
    ap.add_argument("--model-path", type=Path, help="--model minilm: the model's folder")
    args = ap.parse_args()
    model = _model(args.model, args.model_path)
    with tempfile.TemporaryDirectory() as t1, tempfile.TemporaryDirectory() as t2:
        cases = [Case("mcp", args, Path(t1), model), Case("memkit", args, Path(t2), model)]
        for c in (c for c in cases if c.word_gap):  # a static model's only
            gap = sorted(c.word_gap)
            print(f"{c.kind}: {len(c.ids)} memories; per-word-sum vs whole-text prompt vector "
                  f"cosine min {gap[0]:.4f} median {gap[len(gap) // 2]:.4f}")  # fmt: skip
        table = []
        for (name, rule), variant in itertools.product(rules().items(), cases[0].cos):
            if name == "keyword" and variant != "tt":
                continue
            per = [c.score("train", variant, rule) for c in cases]
            pooled = tuple(sum(x) for x in zip(*per, strict=True))
            worst = min(attainment(s) for s in per)
            _, prec, rec = figures(pooled)
            table.append((worst, rec, prec, f"{variant} {name}", per))
        table.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3]))
        best_of: dict[str, tuple] = {}  # type: ignore[type-arg]
        for row in table:
            family = row[3].split(" t=")[0].split(" z=")[0]
            best_of.setdefault(family, row)
        print("\nbest of each rule and variant on the train halves (worst goal ratio, rule):")
        for worst, _, _, label, per in sorted(best_of.values(), key=lambda r: (-r[0], -r[1])):
            print(f"{worst:.2f} {label}")
            for c, s in zip(cases, per, strict=True):
                print("     " + line(f"{c.kind} train", s))
        print("\nseparation on the train halves:")
        for c, variant in itertools.product(cases, ("tt", "ttb", "mix", "ttb-c", "max")):
            print("  " + separation(c, variant, "train"))
        chosen = table[0][3]
        print("\nthe ten best on train:")
        for worst, rec, prec, label, _ in table[:10]:
            print(f"  {worst:.2f} pooled recall {rec:.2f} precision {prec:.2f} {label}")
        print(f"\nchosen on train: {chosen}")
        if not args.heldout:
            return
        variant, name = chosen.split(" ", 1)
        rule = rules()[name]
        for c in cases:
            for h in ("train", "heldout"):
                print(line(f"{c.kind} {h} keyword", c.score(h, "tt", rules()["keyword"])))
                print(line(f"{c.kind} {h} chosen", c.score(h, variant, rule)))
                if args.show:
                    for p, want in c.prompts[h]:
                        got = c.run(p, variant, rule)
                        if set(got) != set(want):
                            print(f"    {p!r}: want {want} got {got}")


if __name__ == "__main__":
    main()
