"""Hostile memory files: each is one clear problem for that file; the rest of the store works.

The store is checked by real `memkit` processes, so a file that crashed the interpreter
(libyaml's C composer recursing on deep nesting did) fails the test instead of pytest.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memkit import memory as mm
from memkit.errors import InvalidMemoryError
from memkit.memory.yaml import YAMLLoadError, load_config
from memkit.store import Store
from tests.conftest import Invoke, sampled, write_memory


def _laughs() -> str:
    lines = ["title: lol", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "---\n" + "\n".join(lines) + "\n---\nbody\n"


DEEP = 100_000
# name -> (file bytes, the one expected problem line after ".memory/<name>.md:"); "…" stands
# for a library's or Python's own words (PyYAML's problem, the int limit's), which memkit
# passes on but does not choose: the rest of the line is memkit's and is matched exactly.
HOSTILE: dict[str, tuple[bytes, str]] = {
    "laughs": (
        _laughs().encode(),
        "4: front matter: YAML anchors and aliases (&name, *name) are not allowed in front "
        "matter (an alias can copy a value exponentially many times); write the value out "
        "instead of the alias",
    ),
    "merge-key": (
        b"---\ntitle: a\nbase: &b {x: 1}\nother:\n  <<: *b\n---\n",
        "5: front matter: YAML anchors and aliases (&name, *name) are not allowed in front "
        "matter (an alias can copy a value exponentially many times); write the value out "
        "instead of the alias",
    ),
    "deep-flow": (
        b"---\ntitle: x\nk: " + b"[" * DEEP + b"]" * DEEP + b"\n---\n",
        "3: front matter: malformed YAML (YAML nested over 64 levels deep; flatten it); "
        "fix the YAML syntax",
    ),
    "deep-block": (
        b"---\ntitle: x\nk:\n  " + b"- " * 5_000 + b"x\n---\n",
        "4: front matter: malformed YAML (YAML nested over 64 levels deep; flatten it); "
        "fix the YAML syntax",
    ),
    "deep-map": (
        b"---\ntitle: x\n" + b"".join(b" " * i + b"k%d:\n" % i for i in range(400)) + b"---\n",
        "67: front matter: malformed YAML (YAML nested over 64 levels deep; flatten it); "
        "fix the YAML syntax",
    ),
    "huge": (
        b"---\ntitle: x\n---\n" + b"y" * 2_000_000,
        "1: file: file is 2,000,017 bytes, over the 1 MB limit; split it into smaller memories",
    ),
    "binary": (
        b"---\ntitle: x\n---\n\x00\x01\x02",
        "1: file: binary content (NUL bytes); a memory is a UTF-8 markdown file",
    ),
    "latin1": (
        "---\ntitle: caf\xe9\n---\n".encode("latin-1"),
        "2: file: not UTF-8 (byte 0xe9 at offset 14); re-save the file as UTF-8",
    ),
    "utf16": (
        "---\ntitle: x\n---\n".encode("utf-16"),
        "1: file: not UTF-8 (byte 0xff at offset 0); re-save the file as UTF-8",
    ),
    "a-list": (
        b"---\n- a\n- b\n---\n",
        "2: front matter: front matter must be a mapping of fields like `title: ...`, not a list",
    ),
    "a-scalar": (
        b"---\njust a string\n---\n",
        "2: front matter: front matter must be a mapping of fields like `title: ...`, not a str",
    ),
    "duplicate": (
        b"---\ntitle: a\ntitle: b\n---\n",
        "3: front matter: malformed YAML (duplicate key 'title'; keep only one); "
        "fix the YAML syntax",
    ),
    "bad-date": (
        b"---\ntitle: a\ncreated: 2026-13-45\n---\n",
        "3: created: invalid date '2026-13-45'; write it as YYYY-MM-DD",
    ),
    "timestamp": (
        b"---\ntitle: a\nupdated: 2026-01-01 10:00:00\n---\n",
        "3: updated: must be a date like 2026-01-31, not a timestamp (2026-01-01 10:00:00)",
    ),
    "python-tag": (
        b"---\ntitle: !!python/object/apply:os.system ['echo pwned']\n---\n",
        "2: front matter: malformed YAML (…python/object/apply:os.system…); fix the YAML syntax",
    ),
    "big-int": (
        b"---\ntitle: a\npriority: " + b"9" * 5000 + b"\n---\n",
        "1: front matter: unreadable YAML value (…); quote or shorten it",
    ),
    "no-front": (
        b"just text\n",
        "1: front matter: no front matter: the file must start with a '---' line, then YAML "
        "fields (at least `title:`), then a closing '---' line",
    ),
    "unterminated": (
        b"---\ntitle: a\n",
        "1: front matter: unterminated front matter: add a closing '---' line after the "
        "YAML fields",
    ),
}

GOOD: dict[str, bytes] = {
    "plain": b"---\ntitle: Plain memory\n---\nStill works.\n",
    "crlf": b"---\r\ntitle: CRLF memory\r\ntags: [a]\r\n---\r\nWindows line endings.\r\n",
    "bom": b"\xef\xbb\xbf---\ntitle: BOM memory\n---\nA byte order mark first.\n",
    "long-line": b"---\ntitle: Long line\n---\n" + b"word " * 150_000 + b"\n",
}


def _matches(actual: str, expected: str) -> bool:
    """`actual` is `expected`, each "…" in it standing for any text on the line."""
    pattern = ".*".join(re.escape(part) for part in expected.split("…"))
    return re.fullmatch(pattern, actual) is not None


def _memkit(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMKIT_ROOT": str(root)}
    return subprocess.run(
        [sys.executable, "-m", "memkit", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture
def hostile(store: Store) -> Store:
    for name, raw in {**{k: v[0] for k, v in HOSTILE.items()}, **GOOD}.items():
        (store.dir / f"{name}.md").write_bytes(raw)
    return store


def test_validate_reports_one_line_per_hostile_file(hostile: Store) -> None:
    result = _memkit(hostile.root, "validate")
    assert result.returncode == 1, result.stderr
    expected = sorted(f".memory/{name}.md:{line}" for name, (_, line) in HOSTILE.items())
    lines = sorted(result.stdout.splitlines())
    assert len(lines) == len(expected), lines
    for actual, wanted in zip(lines, expected, strict=True):
        assert _matches(actual, wanted), (actual, wanted)
    assert result.stderr == f"{len(HOSTILE)} problem(s) in {len(HOSTILE)} file(s)\n"


def test_other_commands_skip_hostile_files_with_a_warning(hostile: Store) -> None:
    result = _memkit(hostile.root, "list")
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()[1:]] == sorted(GOOD)
    assert result.stderr.startswith(
        f"memkit: warning: skipped {len(HOSTILE)} invalid memory file(s): .memory/"
    )
    assert result.stderr.endswith(f" and {len(HOSTILE) - 10} more; run `memkit validate`\n")
    shown = _memkit(hostile.root, "show", "crlf")
    assert shown.returncode == 0 and "Windows line endings." in shown.stdout


# A process each: `make fast` takes a sample (validate names every file, just above).
@pytest.mark.parametrize("name", sampled(sorted(HOSTILE), 3))
def test_show_names_the_file(hostile: Store, name: str) -> None:
    result = _memkit(hostile.root, "show", name)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    assert _matches(result.stderr[:-1], f"memkit: .memory/{name}.md:{HOSTILE[name][1]}")


def test_memory_stays_bounded(hostile: Store) -> None:
    """Peak memory of `memkit validate` itself (measured by a parent of its own)."""
    code = (
        "import resource, subprocess, sys\n"
        "for _ in range(2):  # the second run goes through the parse cache\n"
        "    r = subprocess.run([sys.executable, '-m', 'memkit', 'validate'],\n"
        "                       capture_output=True)\n"
        "    assert r.returncode == 1, r.stderr\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    env = {**os.environ, "MEMKIT_ROOT": str(hostile.root)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=240,
    )
    # The store holds ~4 MB of hostile bytes; an alias bomb expanded would need gigabytes.
    assert int(out.stdout) < 200_000


def test_crlf_and_bom_survive_an_update(hostile: Store) -> None:
    import datetime as dt

    today = dt.date(2026, 3, 1)
    hostile.update("crlf", today=today, tags=("a", "b"))
    raw = (hostile.dir / "crlf.md").read_bytes()
    assert raw == (
        b"---\r\ntitle: CRLF memory\r\ntags:\r\n- a\r\n- b\r\nupdated: 2026-03-01\r\n---\r\n"
        b"Windows line endings.\r\n"
    )
    hostile.update("bom", today=today, type="gotcha")
    assert (hostile.dir / "bom.md").read_bytes() == (
        b"\xef\xbb\xbf---\ntitle: BOM memory\ntype: gotcha\nupdated: 2026-03-01\n---\n"
        b"A byte order mark first.\n"
    )


def test_add_still_works_next_to_hostile_files(hostile: Store, run: Invoke) -> None:
    assert run("add", "Fresh memory", "--body", "ok").stdout == "fresh-memory\n"
    assert "fresh-memory" in run("list").stdout


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_parse_raises_the_same_problem(name: str) -> None:
    raw, line = HOSTILE[name]
    with pytest.raises(InvalidMemoryError) as info:
        mm.parse(raw, mid=name, path=f".memory/{name}.md")
    assert _matches(str(info.value), f".memory/{name}.md:{line}")


def test_hostile_file_in_a_subfolder(store: Store) -> None:
    write_memory(store, "ok", "---\ntitle: ok\n---\n", folder="team")
    (store.dir / "team" / "bomb.md").write_bytes(HOSTILE["laughs"][0])
    loaded = store.load()
    assert [m.id for m in loaded.memories] == ["ok"]
    assert [p.path for p in loaded.problems] == [".memory/team/bomb.md"]


TOO_DEEP = "YAML nested over 64 levels deep; flatten it"


@pytest.mark.parametrize(
    "value",
    [
        "[" * 65 + "]" * 65,  # one level over memkit's limit
        "[" * 999 + "]" * 999,
        "[" * 1001 + "]" * 1001,  # over libyaml's own limit where it has one (PyYAML 6.0.4)
        "{a: " * 3000 + "b" + "}" * 3000,
        "[" * 2000 + "'x]]],'" + "]" * 2000,
        "[" * 5000,  # too deep, and never closed
    ],
    ids=["65", "999", "1001", "flow-map-3000", "quoted-2000", "unclosed-5000"],
)
def test_too_deep_is_memkits_one_line_error(value: str) -> None:
    """Whatever the installed libyaml does about deep nesting, memkit says it in its words."""
    raw = f"---\ntitle: x\nk: {value}\n---\n".encode()
    with pytest.raises(InvalidMemoryError) as info:
        mm.parse(raw, mid="deep", path=".memory/deep.md")
    assert str(info.value) == (
        f".memory/deep.md:3: front matter: malformed YAML ({TOO_DEEP}); fix the YAML syntax"
    )
    with pytest.raises(YAMLLoadError) as config:
        load_config(f"k: {value}\n")
    assert config.value.message == f"malformed YAML ({TOO_DEEP})"
    assert config.value.line == 0


def test_a_syntax_error_among_many_collections_keeps_its_own_line() -> None:
    """A file busy enough to get the depth check, broken but not deep: the error's line stays."""
    items = "".join(f"  - [a{i}, {{b: c}}]\n" for i in range(40))
    raw = f"---\ntitle: x\nk:\n{items}  - [unclosed\nz: 1\n---\n".encode()
    with pytest.raises(InvalidMemoryError) as info:
        mm.parse(raw, mid="busy", path=".memory/busy.md")
    message = str(info.value)
    assert message.startswith(".memory/busy.md:")
    assert message.endswith("; fix the YAML syntax")
    assert "\n" not in message
    assert TOO_DEEP not in message
    assert int(message.split(":")[1]) >= 44  # the unclosed list, not the first line
