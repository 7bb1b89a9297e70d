"""memkit.compile.scopes: globs joined by commas, as Cursor and Windsurf read them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memkit.compile.scopes import plain_globs

JOINED = [
    (["src/a.py", "src/a.py/**"], "src/a.py,src/a.py/**"),
    ([".github/workflows/tests.yaml", "docs/*.md"], ".github/workflows/tests.yaml,docs/*.md"),
    (["1", "000"], "1,000"),  # no number: YAML 1.1 has no thousands separator
    (["**/*.py", "src"], "src,**/*.py"),
    (["yes", "no"], "yes,no"),
]


@pytest.mark.parametrize(("globs", "expected"), JOINED)
def test_joined_globs_read_back_as_written(globs: list[str], expected: str) -> None:
    import yaml

    from memkit.memory.yaml import plain_scalar_ok

    got = plain_globs(globs, ".cursor/rules/memkit-x.mdc")
    assert got == expected and plain_scalar_ok(got)
    assert yaml.safe_load(f"globs: {got}\n") == {"globs": got}


def test_joined_globs_need_no_yaml_import() -> None:
    """Globs joined by commas are written without loading PyYAML (one that starts with
    an indicator, `**/*.py`, still asks it)."""
    simple = [globs for globs, _ in JOINED if not globs[0].startswith("*")]
    code = (
        "import sys\n"
        "from memkit.compile.scopes import plain_globs\n"
        f"for globs in {simple!r}:\n"
        "    plain_globs(globs, 'R')\n"
        "assert 'yaml' not in sys.modules, 'yaml imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
