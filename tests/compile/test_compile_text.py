"""Embedding bodies safely, brace expansion, budgets and scope names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memkit.compile import markers as sections
from memkit.compile import mdtext
from memkit.compile.budgets import Budget, parse_budget
from memkit.compile.scopes import literal_dir, scope_names
from memkit.compile.yamltext import _CORE, plain_ok, yaml_plain
from memkit.errors import ConfigError
from memkit.globs import expand_braces
from tests.conftest import examples


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("plain text\n- a list\n", "plain text\n- a list"),
        ("# Top\ntext\n## Sub\n", "#### Top\ntext\n##### Sub"),
        ("### Deep\n#### Deeper\n", "#### Deep\n##### Deeper"),
        ("##### Five\n# One\n", "###### Five\n#### One"),
        ("Title\n===\n\nSub\n---\n", "#### Title\n\n##### Sub"),
        ("> # quoted\n", "> #### quoted"),
        ("```py\n# comment, not a heading\n", "```py\n# comment, not a heading\n```"),
        ("~~~~\ncode\n~~~\n", "~~~~\ncode\n~~~\n~~~~"),
        ("```\nclosed\n```\n# After\n", "```\nclosed\n```\n#### After"),
        ("text\n\n---\n\nmore\n", "text\n\n---\n\nmore"),
        ("<!-- memkit:end -->\n", "&lt;!-- memkit:end -->"),
        ("a <!--  MEMKIT:begin --> b\n", "a &lt;!--  MEMKIT:begin --> b"),
        ("keep <!-- this --> and open <!-- never closed\n",
         "keep <!-- this --> and open &lt;!-- never closed"),
        ("\r\nwindows\r\n", "windows"),
    ],
)  # fmt: skip
def test_embed(body: str, expected: str) -> None:
    assert mdtext.embed(body, 4) == expected


def test_inline_title() -> None:
    assert mdtext.inline("  two\tspaces <!-- memkit:end -->") == "two spaces &lt;!-- memkit:end -->"


@pytest.mark.parametrize(
    ("glob", "expected"),
    [
        ("src/*.py", ["src/*.py"]),
        ("src/**/*.{ts,tsx}", ["src/**/*.ts", "src/**/*.tsx"]),
        ("{a,b}/{c,d}", ["a/c", "a/d", "b/c", "b/d"]),
        ("x.{a,{b,c}}", ["x.a", "x.b", "x.c"]),
        ("x.{a}", ["x.{a}"]),
        ("x.{a,b", ["x.{a,b"]),
    ],
)
def test_expand_braces(glob: str, expected: list[str]) -> None:
    assert expand_braces(glob) == expected


@pytest.mark.parametrize(
    ("globs", "expected"),
    [
        (["packages/api/**"], "packages/api"),
        (["src/a/*.py", "src/b/*.py"], "src"),
        (["src/main.py"], "src"),
        (["**/*.sql"], ""),
        (["src/*.py", "tests/*.py"], ""),
    ],
)
def test_literal_dir(globs: list[str], expected: str) -> None:
    assert literal_dir(globs) == expected


def test_scope_names_are_stable_and_distinct() -> None:
    assert scope_names([("src/*.py",), ("src/**/*.py",), ("**",)]) == {
        ("**",): "memkit-all",
        ("src/**/*.py",): "memkit-src-py",
        ("src/*.py",): "memkit-src-py-2",
    }


def test_budgets() -> None:
    assert parse_budget("200 lines", "x") == Budget(200, "lines")
    assert parse_budget("32 KiB", "x") == Budget(32768, "bytes")
    assert parse_budget("1 char", "x") == Budget(1, "chars")
    assert Budget(2, "lines").measure("a\nb\n") == 2
    assert Budget(2, "lines").measure("a\nb") == 2
    assert Budget(3, "bytes").measure("é") == 2
    assert str(Budget(4000, "chars")) == "4,000 chars"
    with pytest.raises(ConfigError, match="budget 0 is not a size"):
        parse_budget(0, "x")


@pytest.mark.parametrize(
    ("value", "expected"),
    [("src/**/*.py", "src/**/*.py"), ("**/*.sql", '"**/*.sql"'), ("a: b", '"a: b"'),
     ("{a,b}/x", '"{a,b}/x"'), ("docs/*.md", "docs/*.md")],
)  # fmt: skip
def test_yaml_plain(value: str, expected: str) -> None:
    import yaml

    assert yaml_plain(value) == expected
    assert yaml.safe_load(f"k: {yaml_plain(value)}") == {"k": value}


def test_splice() -> None:
    assert sections.splice(None, None, "f") is None
    assert sections.splice("mine", None, "f") == "mine"
    assert (
        sections.splice("mine", "x\n", "f")
        == "mine\n\n<!-- memkit:begin -->\nx\n<!-- memkit:end -->\n"
    )
    assert sections.splice("", "x\n", "f") == "<!-- memkit:begin -->\nx\n<!-- memkit:end -->\n"
    created = sections.created("x\n")
    assert sections.splice(created, None, "f") is None
    assert sections.splice(created + "mine\n", None, "f") == (sections.created("") + "mine\n")


def test_a_hash_indented_as_code_is_no_heading_to_demote() -> None:
    body = "\n@pytest.fixture\ndef myfix():\n    # setup\n    yield 1\n    # teardown\n"
    assert mdtext.embed(body, 3) == body.strip("\n")


def test_the_ascii_shortcut_agrees_with_the_escape_pattern() -> None:
    import re

    from memkit.compile import yamltext

    pattern = re.compile(yamltext._ESCAPE_CLASS)
    samples = [chr(c) for c in range(0x80)] + ["src/**/*.py", "a\x7fb", "a\tb", "é", "a\u2028b"]
    for value in samples + [f"x{c}y" for c in samples]:
        assert yamltext.needs_escape(value) == bool(pattern.search(value)), repr(value)


@settings(max_examples=examples(800), deadline=None)
@given(st.text(alphabet="aZ09_./*-:#?&!|>'\"%@` ~", min_size=1, max_size=10))
def test_plain_ok_shortcut_agrees_with_pyyamls_emitter(value: str) -> None:
    """Paths and globs skip PyYAML's emitter; the answer must be the emitter's."""
    from memkit.memory.yaml import plain_scalar_ok

    if not _CORE.fullmatch(value):
        assert plain_ok(value) == plain_scalar_ok(value), value


@pytest.mark.parametrize(
    "value", ["api/**", "**/*.py", ".github/**", "memkit/x.py", "2026-01-01", "yes", "0x1F", "-a",
              "---x", "...", "1_000", "a:b", "docs/*.md", "_x", ".5", "1:30"]
)  # fmt: skip
def test_plain_ok_on_globs_and_lookalikes(value: str) -> None:
    from memkit.memory.yaml import plain_scalar_ok

    assert plain_ok(value) == (not _CORE.fullmatch(value) and plain_scalar_ok(value))
