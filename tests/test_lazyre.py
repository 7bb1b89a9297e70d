"""memkit.lazyre: a pattern compiled on first use behaves as re.compile's."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from memkit.lazyre import lazy


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    text = "Token: ab12, key = 'xy'\nsecond line"
    for pattern, flags in [(r"(?P<k>\w+)\s*[:=]\s*'?(?P<v>\w+)", 0), (r"^s\w+", re.MULTILINE)]:
        plain, late = re.compile(pattern, flags), lazy(pattern, flags)
        assert late.search(text).groupdict() == plain.search(text).groupdict()  # type: ignore[union-attr]
        assert late.findall(text) == plain.findall(text)
        assert [m.span() for m in late.finditer(text)] == [m.span() for m in plain.finditer(text)]
        assert late.sub("-", text) == plain.sub("-", text)
        assert late.split(text) == plain.split(text)
        assert (late.match(text) is None) == (plain.match(text) is None)
        assert late.fullmatch("x") == plain.fullmatch("x")
        assert (late.pattern, late.flags, late.groupindex) == (
            plain.pattern, plain.flags, plain.groupindex)  # fmt: skip


def test_a_bad_pattern_fails_where_it_is_first_used() -> None:
    bad = lazy("(unclosed")
    with pytest.raises(re.error):
        bad.search("x")


def test_importing_the_secret_scanner_compiles_none_of_its_patterns() -> None:
    """A plain memory's scan compiles only the few patterns it reaches."""
    script = (
        "import sys\n"
        "from memkit.lazyre import _Lazy\n"
        "from memkit.store.secrets_guard import secret_findings\n"
        "import memkit.secrets.assign, memkit.secrets.blocks, memkit.secrets.commands\n"
        "def compiled():\n"
        "    found = [v for m in list(sys.modules.values()) for v in vars(m).values()\n"
        "             if isinstance(v, _Lazy)]\n"
        "    return len(found), sum('search' in vars(v) for v in found)\n"
        "print(*compiled())\n"
        "secret_findings('---\\ntitle: A note\\n---\\n\\nRun make test first.\\n', None)\n"
        "print(*compiled())"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (patterns, before), (_, after) = (map(int, x.split()) for x in done.stdout.splitlines())
    assert patterns >= 40 and before == 0
    assert 0 < after <= 6
