"""Text to vectors for semantic search: the one module that imports numpy, tokenizers, safetensors.

The model is WordLlama's `l2_supercat_256` (static token embeddings, 256 dimensions,
16 MB), shipped inside the `wordllama` wheel that the `agent-memkit[semantic]` extra
installs: nothing is downloaded, ever, and it runs on any CPU. A text's vector is the
mean of its tokens' embeddings, normalized (what WordLlama's own `embed` computes);
the files are found without importing the `wordllama` package, which would import
an HTTP client it would use to download models memkit never asks for.

Embedder is what the rest of search needs (a name, a dimension, embed); tests pass
a deterministic one of their own.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from memkit.errors import MemkitError

MODEL = "wordllama-l2-supercat-256"
_TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
_WEIGHTS = "weights/l2_supercat_256.safetensors"


def install_hint(*, reinstall: bool = False) -> str:
    from memkit.install import pip_line

    return f"install the `semantic` extra: {pip_line('semantic', reinstall=reinstall)}"


class SemanticUnavailableError(MemkitError):
    """The semantic extra is not installed (or its model files are missing)."""


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Any:
        """An array of shape (len(texts), dim), float32, each row of norm 1 (or 0)."""
        ...


def available() -> bool:
    """Whether the semantic extra is installed (nothing is imported to tell)."""
    names = ("numpy", "tokenizers", "safetensors", "wordllama")
    return all(importlib.util.find_spec(n) is not None for n in names)


def model_files() -> tuple[Path, Path]:
    """(tokenizer, weights) inside the installed wordllama package."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise SemanticUnavailableError(
            f"semantic search needs the wordllama package; {install_hint()}"
        )
    base = Path(next(iter(spec.submodule_search_locations)))
    files = base / _TOKENIZER, base / _WEIGHTS
    for f in files:
        if not f.is_file():
            raise SemanticUnavailableError(
                f"the model file {f} is missing from the installed wordllama package; "
                f"reinstall it: {install_hint(reinstall=True)}"
            )
    return files


class WordLlamaEmbedder:
    """Mean of token embeddings, normalized (see the module docstring)."""

    name = MODEL

    def __init__(self) -> None:
        try:
            import numpy as np
            from safetensors import safe_open
            from tokenizers import Tokenizer
        except ImportError as e:
            raise SemanticUnavailableError(
                f"semantic search needs {e.name or 'its libraries'}; {install_hint()}"
            ) from None
        tok_path, weights_path = model_files()
        self._np = np
        self._tokenizer = Tokenizer.from_file(str(tok_path))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        with safe_open(str(weights_path), framework="np", device="cpu") as f:
            self._table = np.ascontiguousarray(f.get_tensor("embedding.weight"), dtype=np.float32)
        self.dim = int(self._table.shape[1])

    def embed(self, texts: Sequence[str]) -> Any:
        np = self._np
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        encoded = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        top = self._table.shape[0] - 1
        for i, enc in enumerate(encoded):
            if enc.ids:
                ids = np.clip(np.asarray(enc.ids, dtype=np.int64), 0, top)
                out[i] = self._table[ids].mean(axis=0)
        return normalize(out)


def normalize(rows: Any) -> Any:
    """Each row divided by its norm (rows of zeros stay zero)."""
    import numpy as np

    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.where(norms == 0, 1.0, norms)).astype(np.float32)


@functools.cache
def default_embedder() -> Embedder:
    """The shipped model, loaded once per process; SemanticUnavailableError without the extra."""
    if not available():
        raise SemanticUnavailableError(f"semantic search is not installed; {install_hint()}")
    return WordLlamaEmbedder()


def top_similar(matrix: Any, query: Any, k: int) -> list[tuple[int, float]]:
    """(row, cosine similarity) of the k rows of `matrix` closest to the `query` vector."""
    import numpy as np

    if len(matrix) == 0 or k <= 0:
        return []
    sims = matrix.astype(np.float32, copy=False) @ query.astype(np.float32)
    k = min(k, len(sims))
    best = np.argpartition(-sims, k - 1)[:k]
    order = best[np.lexsort((best, -sims[best]))]
    return [(int(i), float(sims[i])) for i in order]


def stack(rows: Sequence[Any], dim: int) -> Any:
    """The vectors as one float16 matrix (half the disk and memory of float32)."""
    import numpy as np

    return np.vstack(rows).astype(np.float16) if len(rows) else np.zeros((0, dim), np.float16)


def save(path: Path, matrix: Any) -> None:
    import numpy as np

    with path.open("wb") as f:
        np.save(f, matrix, allow_pickle=False)


def load(path: Path) -> Any:
    import numpy as np

    return np.load(path, allow_pickle=False)
