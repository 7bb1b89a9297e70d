"""SHA-256 without OpenSSL for the short-lived processes (memkit.sha): the same digests
as hashlib, whichever implementation gives them."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memkit import sha


def _fresh(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, **env})  # fmt: skip
    return done.stdout


@pytest.mark.parametrize("data", [b"", b"abc", bytes(range(256)) * 20])
def test_the_builtin_gives_hashlibs_digests_without_loading_openssl(data: bytes) -> None:
    code = (
        "import sys\n"
        "from memkit.sha import sha256\n"
        f"data = {data!r}\n"
        "h = sha256(data[:7]); h.update(data[7:])\n"
        "print(h.hexdigest(), sha256(data).digest().hex(), '_hashlib' in sys.modules)"
    )
    want = hashlib.sha256(data).hexdigest()
    assert _fresh(code) == f"{want} {want} False\n"


def test_hashlib_once_loaded_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "hashlib" in sys.modules
    monkeypatch.setattr(sha, "_builtin", lambda data: pytest.fail("the builtin was used"))
    assert sha.sha256(b"x").hexdigest() == hashlib.sha256(b"x").hexdigest()


def test_without_the_builtin_hashlib_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sha, "_builtin", None)
    for name in ("_sha2", "_sha256"):
        monkeypatch.setitem(sys.modules, name, None)  # as if Python were built without it
    assert sha._find_builtin() is hashlib.sha256


def test_a_cache_folder_named_under_memkit_cache_dir_loads_no_openssl(tmp_path: Path) -> None:
    """The folder keeps its name (the SHA-256 of the project's real path) as before."""
    code = (
        "import sys\n"
        "from memkit.cachedir import cache_dir\n"
        f"print(cache_dir({str(tmp_path)!r}), '_hashlib' in sys.modules)"
    )
    out = _fresh(code, MEMKIT_CACHE_DIR=str(tmp_path / "caches"))
    key = hashlib.sha256(os.path.realpath(tmp_path).encode()).hexdigest()[:16]
    assert out == f"{tmp_path / 'caches' / tmp_path.name}-{key} False\n"
