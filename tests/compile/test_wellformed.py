"""Compiled files stay well-formed whatever the memory text.

markdown-it (CommonMark) parses each compiled file: every memory's heading and id
marker must be blocks of their own, each body must stay inside its own entry, and
the hand-written text after `<!-- memkit:end -->` must parse as the same blocks as
it does alone. Agents that strip HTML comments before reading (Claude Code does)
must still see every memory and the hand-written text.
"""

from __future__ import annotations

import collections
import datetime as dt
import re
from typing import Any

import pytest

from memkit.compile import markers as sections
from memkit.compile import mdtext
from memkit.store import Store
from tests.conftest import Invoke, write_memory

BEFORE = "# Team notes\n\nHand-written before memkit's section.\n\n"
AFTER = (
    "## After memkit\n"
    "Hand-written text right after the end marker.\n"
    "\n- a list\n- of two\n\n```sh\nmake test\n```\n\n<div>\nhand-written html\n</div>\n"
)
# Bodies that open a construct markdown runs on past the body (before memkit closed them).
HOSTILE = {
    "cdata": "<![CDATA[ never closed",
    "processing": "<?php echo 'never closed';",
    "declaration": "<!DOCTYPE never closed",
    "script": "<script>\nalert('never closed')",
    "pre": "<pre>\nnever closed",
    "style": "<STYLE type='text/css'>\nbody {}",
    "textarea": "<textarea>\nnever closed",
    "comment": "<!-- never closed",
    "comments": "a <!-- first open\nb <!-- second open",
    "quoted": "> <![CDATA[ in a quote",
    "listed": "- <script>\n  in a list",
    "fence": "```\nnever closed",
    "tilde": "~~~~\n<![CDATA[ inside an open fence",
    "cr-fence": "text\r```\rcarriage returns make lines",
    "marker": "<!-- memkit:end -->\n<!-- memkit:begin -->",
}
# Bodies markdown reads as closed: kept as they are.
CLOSED = {
    "closed-pre": "<pre>\nkept\n</pre>",
    "closed-cdata": "<![CDATA[ kept ]]>",
    "closed-comment": "<!-- kept\nover lines -->",
    "fenced-opener": "```html\n<script>\n```",
}
# The last body in a section: a raw-HTML block that ends only at a blank line.
LAST = ["<div>\nopen block", '<custom-element data-x="1">', "</span>", "<table><tr><td>x"]


def _memory(store: Store, mid: str, body: str, *, priority: int = 0, title: str = "") -> None:
    write_memory(
        store,
        mid,
        f"---\ntitle: {title or 'Memory ' + mid!r}\npriority: {priority}\n---\n"
        f"Start of {mid}.\n\n{body}\n",
    )


def _blocks(tokens: list[Any]) -> list[tuple[str, str, int, str]]:
    return [(t.type, t.tag, t.level, t.content) for t in tokens]


def check(text: str, entries: dict[str, str]) -> None:
    """`entries`: memory id -> title, in the file's order."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    # Each memory: a heading, its body, then its id marker as an HTML block of its own.
    heads = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h3"]
    found = {}
    for i, end in zip(heads, [*heads[1:], len(tokens)], strict=True):
        ids = [t for t in tokens[i:end] if "memkit:id=" in t.content]
        assert len(ids) == 1, tokens[i:end]
        marker = ids[0]
        m = re.fullmatch(r"<!-- memkit:id=([a-z0-9-]+) -->\n", marker.content)
        assert marker.type == "html_block" and marker.level == 0 and m, marker
        found[m.group(1)] = tokens[i + 1].content
    assert found == {mid: mdtext.inline(title) for mid, title in entries.items()}
    # The end marker is a block of its own; what follows parses as it does alone.
    ends = [i for i, t in enumerate(tokens) if t.content == sections.END + "\n"]
    assert len(ends) == 1 and tokens[ends[0]].type == "html_block" and tokens[ends[0]].level == 0
    after = text[text.index(sections.END) + len(sections.END) + 1 :]
    assert _blocks(tokens[ends[0] + 1 :]) == _blocks(MarkdownIt("commonmark").parse(after))
    # An agent that strips HTML comments first still reads everything.
    stripped = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    assert after in stripped
    for mid in entries:
        assert f"Start of {mid}." in stripped


@pytest.fixture
def hand_written(store: Store) -> Store:
    for name in ("AGENTS.md", "CLAUDE.md"):
        text = f"{BEFORE}{sections.BEGIN}\n{sections.END}\n{AFTER}"
        (store.root / name).write_text(text, encoding="utf-8")
    return store


@pytest.mark.parametrize("name", ["AGENTS.md", "CLAUDE.md"])
def test_no_body_runs_past_its_entry(hand_written: Store, run: Invoke, name: str) -> None:
    for mid, body in {**HOSTILE, **CLOSED}.items():
        _memory(hand_written, mid, body)
    run("compile")
    text = (hand_written.root / name).read_text("utf-8")
    assert text.startswith(BEFORE) and text.endswith(AFTER)
    check(text, {mid: f"Memory {mid}" for mid in sorted({**HOSTILE, **CLOSED})})
    for body in CLOSED.values():
        assert body in text


@pytest.mark.parametrize("body", LAST + list(HOSTILE.values()))
def test_the_last_body_does_not_run_into_hand_written_text(
    hand_written: Store, run: Invoke, body: str
) -> None:
    _memory(hand_written, "first", "First body.", priority=1)
    _memory(hand_written, "last", body)
    run("compile")
    text = (hand_written.root / "AGENTS.md").read_text("utf-8")
    check(text, {"first": "Memory first", "last": "Memory last"})


TITLES = {
    "html": "<script> in a title",
    "comment": "Title <!-- opens a comment",
    "ticks": "Use `x` and ``y``",
    "div": "<div>",
}


def test_titles_stay_on_their_line(hand_written: Store, run: Invoke) -> None:
    from markdown_it import MarkdownIt

    for mid, title in TITLES.items():
        _memory(hand_written, mid, "A long body. " * 30, title=title)
    run("compile")
    agents = hand_written.root / "AGENTS.md"
    check(agents.read_text("utf-8"), {mid: TITLES[mid] for mid in sorted(TITLES)})
    # Over budget: some become one-line index entries, list items.
    budget = len(agents.read_bytes()) - 900
    (hand_written.dir / "config.toml").write_text(
        f'[compile.budgets]\nagents = "{budget} bytes"\n', encoding="utf-8"
    )
    run("compile")
    text = agents.read_text("utf-8")
    tokens = MarkdownIt("commonmark").parse(text)
    html = [t.content for t in tokens if t.type == "html_block"]
    assert [h for h in html if not h.startswith("<!-- memkit:")] == [
        "<div>\nhand-written html\n</div>\n"
    ]
    items = [
        t for t in tokens if t.type == "inline" and re.search(r"`memkit show \w+`$", t.content)
    ]
    assert 0 < len(items) < len(TITLES) and {t.level for t in items} == {3}  # list item text
    assert text.endswith(AFTER)


GLOBS = ["src/`x`/*.py", "``weird``/*", "a`b", "docs/*.md"]


def test_globs_in_the_applies_line_are_code_spans(hand_written: Store, run: Invoke) -> None:
    globs = ", ".join(repr(g) for g in GLOBS)
    write_memory(hand_written, "g", f"---\ntitle: G\npaths: [{globs}]\n---\nStart of g.\n")
    run("compile")
    from markdown_it import MarkdownIt

    text = (hand_written.root / "AGENTS.md").read_text("utf-8")
    check(text, {"g": "G"})
    applies = next(
        t
        for t in MarkdownIt("commonmark").parse(text)
        if t.type == "inline" and t.content.startswith("Applies to")
    )
    spans = [c.content for c in applies.children or [] if c.type == "code_inline"]
    assert spans == GLOBS


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a", "`a`"), ("a`b", "``a`b``"), ("`a", "`` `a ``"), ("a``b`", "``` a``b` ```"),
     ("  ", "`  `"), (" a ", "`  a  `")],
)  # fmt: skip
def test_code_span(text: str, expected: str) -> None:
    assert mdtext.code_span(text) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [("<![CDATA[ x", "&lt;![CDATA[ x"), ("<?x", "&lt;?x"), ("<!X y", "&lt;!X y"),
     ("> <pre>\n> x", "> &lt;pre>\n> x"), ("<pre>x</pre>", "<pre>x</pre>"),
     ("a <!-- b\nc <!-- d", "a &lt;!-- b\nc &lt;!-- d"),
     ("<!-- a --> <!-- b", "<!-- a --> &lt;!-- b"),
     ("x <?php inline", "x <?php inline"), ("bell\a\tand\x1b[0m", "bell\\x07\tand\\x1b[0m"),
     ("a\rb", "a\\x0db"), ("rlo\u202e", "rlo\\u202e")],
)  # fmt: skip
def test_embed_neutralises(body: str, expected: str) -> None:
    assert mdtext.embed(body, 4) == expected


def test_inline_neutralises_html_block_starts_and_controls() -> None:
    assert mdtext.inline("<div> x") == "&lt;div> x"
    assert mdtext.inline("a <b>") == "a <b>"
    assert mdtext.inline("nul\x00 esc\x1b") == "nul\\x00 esc\\x1b"


def test_wrap_ends_an_open_html_block_before_the_end_marker() -> None:
    assert sections.wrap("x\n") == f"{sections.BEGIN}\nx\n{sections.END}\n"
    assert (
        sections.wrap("x\n\n<div>\ny\n") == f"{sections.BEGIN}\nx\n\n<div>\ny\n\n{sections.END}\n"
    )
    created = sections.created("<div>\n")
    assert sections.splice(created, None, "f") is None  # still recognised as memkit's own


# ----------------------------------------------------------- front matter of rule files

# Glob shapes: YAML indicators first or inside, quotes, colons, hashes, braces, brackets,
# values YAML would read as something else than a string, spaces, non-ASCII.
SHAPES = [
    "**/*.py", "*.md", "*", "src/**/*.py", ".github/**", "src/*.{ts,tsx}", "{a,b}/**",
    "src/**/*.{test,spec}.ts", "x.{a}", "{solo}", "[abc]*.py", "src/[!_]*.py", "x/!y/**",
    "?x.py", "-dash/*.md", ":colon/*", "src/a:b/*.py", "src/#notes/*.md", "src/it's/*.py",
    '"quoted"/*.py', "'single'/*.md", "@scope/pkg/**", "%pc/*", "&amp/*", "|pipe/*",
    "`tick`/*", "true", "yes", "null", "Null", "123", "0o17", ".inf", "2024-01-01",
    "docs/my notes/*.md", "é/ü/*.py", "a=b/*", "[", "{", "}", "]x",
]  # fmt: skip
# Scopes of several globs: ones that can lead an unquoted value and ones that cannot.
GROUPS = [("**/*.py", "*.md"), ("**/*.py", "src/*.py"), ("&x/**", "[ab]/*", "true")]


def _front(text: str) -> tuple[dict[str, Any], str]:
    import yaml

    assert text.startswith("---\n")
    head = text[4 : text.index("\n---\n", 3) + 1]
    return yaml.safe_load(head), head


RULE_TARGETS = ["claude", "cursor", "copilot", "windsurf", "cline", "kiro", "continue"]


def test_rule_front_matter_round_trips_every_glob_shape(store: Store, run: Invoke) -> None:
    """Every scoped rule file of every target parses with a YAML parser into exactly its globs."""
    from memkit.compile.scopes import agent_paths, expanded

    assert len(SHAPES) >= 24
    (store.dir / "config.toml").write_text(
        f"[compile]\ntargets = {RULE_TARGETS!r}\n".replace("'", '"')
    )
    scopes = {f"s{i}": (g,) for i, g in enumerate(SHAPES)}
    scopes.update({f"g{i}": g for i, g in enumerate(GROUPS)})
    for mid, globs in scopes.items():
        listed = ", ".join("'" + g.replace("'", "''") + "'" for g in globs)
        write_memory(store, mid, f"---\ntitle: T {mid}\npaths: [{listed}]\n---\nBody.\n")
    run("validate")
    run("compile")
    seen = collections.Counter()
    for top in (".cursor", ".claude", ".github", ".windsurf", ".clinerules", ".kiro", ".continue"):
        for rule in sorted((store.root / top).rglob("memkit*")):
            text = rule.read_text("utf-8")
            (mid,) = re.findall(r"<!-- memkit:id=(\w+) -->", text)
            scope = sorted(set(scopes[mid]))
            front, head = _front(text)
            seen[top] += 1
            if top in (".cursor", ".windsurf"):
                own = rule.relative_to(store.root).as_posix()
                # Cursor and Windsurf read the rest of the line as it is and split it on commas.
                (line,) = [x for x in head.splitlines() if x.startswith("globs: ")]
                assert line.removeprefix("globs: ") == front["globs"]
                got = [g for g in front["globs"].split(",") if g != own]
                assert sorted(got) == sorted(expanded(scope))
                if top == ".cursor":
                    assert set(front) == {"description", "globs", "alwaysApply"}
                    assert front["alwaysApply"] is False
                    paths = ", ".join(agent_paths(scope))
                    assert front["description"] == f"Project memory for {paths}"
                else:
                    assert set(front) == {"trigger", "globs"} and front["trigger"] == "glob"
            elif top == ".github":
                assert front == {"applyTo": ",".join(expanded(scope))}
            elif top == ".kiro":
                pattern = front["fileMatchPattern"]
                got = [pattern] if isinstance(pattern, str) else pattern
                assert front["inclusion"] == "fileMatch" and sorted(got) == sorted(expanded(scope))
            elif top == ".continue":
                assert front["alwaysApply"] is False and sorted(front["globs"]) == sorted(
                    expanded(scope)
                )
            else:  # .claude/rules and .clinerules: `paths`, a YAML list of the globs
                assert front == {"paths": agent_paths(scope)}
    assert seen == {top: len(scopes) for top in seen} and len(seen) == 7


@pytest.mark.parametrize(
    ("glob", "expected"),
    [("src/**", "src/**"), ("**/*.py", '"**/*.py"'), ("true", '"true"'), ("0o17", '"0o17"'),
     ("a:b", "a:b"), ("a#b", "a#b"), ("it's", "it's"), ("x\u2028y", '"x\\u2028y"'),
     ("x\x85y", '"x\\u0085y"'), ("rlo\u202e", '"rlo\\u202e"'), ("tab\t", '"tab\\t"')],
)  # fmt: skip
def test_yaml_scalars_read_back_exactly(glob: str, expected: str) -> None:
    import yaml

    from memkit.compile.yamltext import yaml_plain, yaml_str

    assert yaml_plain(glob) == expected
    for text in (yaml_plain(glob), yaml_str(glob)):
        assert yaml.safe_load(f"k: {text}\n") == {"k": glob}


@pytest.mark.parametrize(
    ("globs", "expected"),
    [(["src/*.py"], "src/*.py"), (["**/*.py", "src/*.py"], "src/*.py,**/*.py"),
     (["**/*.py", "*.md"], "R,**/*.py,*.md"), (["true"], "R,true"), (["{x}"], "R,{x}")],
)  # fmt: skip
def test_cursor_globs(globs: list[str], expected: str) -> None:
    from memkit.compile.scopes import plain_globs

    assert plain_globs(globs, "R") == expected


def test_a_stale_link_cannot_open_a_comment(hand_written: Store) -> None:
    from memkit.compile.plan import apply, build
    from memkit.staleness.verdict import LinkStatus, MemoryStatus

    link = "src/<!--x.py::f"
    write_memory(hand_written, "a", f"---\ntitle: A\nlinks: ['{link}']\n---\nStart of a.\n")
    write_memory(hand_written, "b", "---\ntitle: B\n---\nStart of b.\n")
    stale = {"a": MemoryStatus("a", "stale", (LinkStatus(link, "body", since="0" * 40),))}
    apply(build(hand_written, today=dt.date(2026, 11, 22), targets=["agents"], statuses=stale))
    text = (hand_written.root / "AGENTS.md").read_text("utf-8")
    assert "src/&lt;!--x.py::f (body since 000000000000)" in text
    check(text, {"a": "A", "b": "B"})
