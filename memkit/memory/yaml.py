"""YAML for memkit, the one module that imports PyYAML and python-frontmatter.

`load()` reads front matter safely (C speed, no duplicate keys, no aliases, bounded
nesting) and turns every failure into a one-line YAMLLoadError; `dump()` writes
front matter back; `plain_scalar_ok()` tells the compiler when a value may go
unquoted. PyYAML is imported on first need: the front matter memkit writes is read
by the fast path (memkit.memory.frontfast with memkit.memory.yamlscalars), which
needs no YAML library.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from memkit.memory.frontfast import UNSURE, FrontParser

MAX_NODES = 10_000
MAX_DEPTH = 64
# Values YAML aliases may add to a config file's first document (a `<<: *defaults` in
# each of a few hundred CI jobs adds thousands; a "billion laughs" bomb, billions).
MAX_ALIASED = 100_000
ALIASES_REFUSED = (
    "YAML anchors and aliases (&name, *name) are not allowed in front matter (an alias "
    "can copy a value exponentially many times); write the value out instead of the alias"
)
# Characters that can open a nested collection; fewer of them than MAX_DEPTH bounds the depth.
_OPENERS = ("[", "{", "-", ":", "?")


def _safe_loader() -> Any:
    """PyYAML's safe loader, the C one when PyYAML was built with libyaml."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def loader() -> Any:
    """memkit's PyYAML Loader, built on first use: importing PyYAML costs more than
    reading a memory, and the fast path (memkit.memory.yamlscalars) does without it."""
    import yaml

    class Loader(_safe_loader()):  # type: ignore[misc]
        """SafeLoader that refuses duplicate keys and YAML aliases.

        Aliases have no use in a memory's front matter and are how "billion laughs"
        documents explode, so any alias is an error, found before anything is built.
        Nesting deeper than MAX_DEPTH is refused before composing: libyaml's composer
        recurses in C and a deeply nested document would crash the process.
        """

        def __init__(self, stream: Any) -> None:
            if isinstance(stream, str):
                check_depth(stream)
            super().__init__(stream)

        def get_single_data(self) -> Any:
            node = self.get_single_node()
            if node is None:
                return None
            _check_tree(node)
            return self.construct_document(node)

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                if isinstance(key, (str, int, float, bool)) or key is None:
                    if key in seen:
                        raise yaml.constructor.ConstructorError(
                            None, None, f"duplicate key {key!r}; keep only one", key_node.start_mark
                        )
                    seen.add(key)
            return dict(super().construct_mapping(node, deep=deep))

    def timestamp(loader: Any, node: Any) -> Any:
        """A timestamp-looking value that is not a real date stays a string (validated later)."""
        try:
            return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
        except (ValueError, OverflowError):
            return loader.construct_scalar(node)

    Loader.add_constructor("tag:yaml.org,2002:timestamp", timestamp)
    return Loader


@functools.cache
def _dumper() -> Any:
    """memkit's PyYAML Dumper, built on first use (see loader)."""
    import yaml

    dumper_base: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class Dumper(dumper_base):  # type: ignore[misc]
        """SafeDumper that never writes anchors/aliases (the loader refuses them)."""

        def ignore_aliases(self, data: Any) -> bool:
            return True

    def represent_str(dumper: Any, value: str) -> Any:
        """Plain style only where libyaml reads it back unchanged.

        libyaml writes `=` plain (which YAML 1.1 reads as the `value` tag) and strips
        non-ASCII spaces such as U+00A0 at the ends of a plain scalar: double-quote those.
        """
        if value.startswith("=") or any(
            not c.isascii() and (c.isspace() or c == "\ufeff") for c in value
        ):
            return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
        return dumper.represent_str(value)

    Dumper.add_representer(str, represent_str)
    return Dumper


@functools.cache
def _fast() -> FrontParser:
    """The fast path: PyYAML's resolver table and constructors, without PyYAML."""
    from memkit.memory.yamlscalars import CONSTRUCTORS, tag

    return FrontParser(tag, CONSTRUCTORS)


def check_depth(text: str) -> None:
    """Refuse YAML nested more than MAX_DEPTH levels (found from parser events, no recursion).

    Newer libyaml refuses nesting over a limit of its own (1,000 levels) while its scanner
    reads ahead in a flow collection, before the parser hands over the events that pass
    MAX_DEPTH: whatever that error says, if the text before it nests too deep, that is the
    problem memkit reports.
    """
    if sum(text.count(c) for c in _OPENERS) < MAX_DEPTH:
        return
    import yaml

    try:
        mark = _past_max_depth(yaml.parse(text, Loader=_safe_loader()))
    except yaml.MarkedYAMLError as e:
        mark = _past_max_depth_before(text, e.problem_mark or e.context_mark)
        if mark is None:
            raise
    if mark is not None:
        raise yaml.composer.ComposerError(
            None, None, f"YAML nested over {MAX_DEPTH} levels deep; flatten it", mark
        )


def _past_max_depth(events: Any) -> Any:
    """The start mark of the first collection nested deeper than MAX_DEPTH, or None."""
    import yaml

    depth = 0
    for event in events:
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return event.start_mark
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _past_max_depth_before(text: str, mark: Any) -> Any:
    """_past_max_depth() over the text before `mark`, where the parser stopped; None
    when that text nests no deeper than MAX_DEPTH or fails first, or `mark` is None."""
    import yaml

    if mark is None:
        return None
    try:
        return _past_max_depth(yaml.parse(text[: mark.index], Loader=_safe_loader()))
    except yaml.YAMLError:
        return None


def _check_tree(root: Any) -> None:
    import yaml

    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise yaml.composer.ComposerError(None, None, ALIASES_REFUSED, node.start_mark)
        seen.add(id(node))
        if len(seen) > MAX_NODES:
            raise yaml.composer.ComposerError(
                None, None, f"front matter has over {MAX_NODES} YAML nodes", node.start_mark
            )
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                stack.append(k)
                stack.append(v)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def _first_alias_line(text: str) -> int | None:
    """The 0-based line of the first alias (`*name`) in `text`, None if none is found."""
    import yaml

    try:
        for event in yaml.parse(text, Loader=_safe_loader()):
            if isinstance(event, yaml.AliasEvent) and event.start_mark is not None:
                return int(event.start_mark.line)
    except yaml.YAMLError:
        return None
    return None


def check_aliases(text: str) -> None:
    """YAMLLoadError, at the line of the alias that does it, when the aliases of the first
    document of `text` add more than MAX_ALIASED values to it (counted from parser events, in
    one pass: the document is never built)."""
    import yaml

    sizes: dict[str, int] = {}  # anchor -> values in its expanded node
    starts: list[tuple[str | None, int]] = []  # open collections: (anchor, count at start)
    count = added = 0
    for event in yaml.parse(text, Loader=_safe_loader()):
        if isinstance(event, yaml.AliasEvent):
            n = sizes.get(event.anchor or "", 1)
            count, added = count + n, added + n
            if added > MAX_ALIASED:
                raise YAMLLoadError(
                    f"YAML aliases (*{event.anchor} and others) expand the document past "
                    f"memkit's limit of {MAX_ALIASED:,} values, as an alias bomb does; write the "
                    "values out, or use fewer aliases of large anchors",
                    None if event.start_mark is None else int(event.start_mark.line),
                )
        elif isinstance(event, yaml.ScalarEvent):
            count += 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            count += 1
            starts.append((event.anchor, count))
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, start = starts.pop()
            if anchor:
                sizes[anchor] = count - start + 1
        elif isinstance(event, yaml.DocumentEndEvent):
            return


class YAMLLoadError(Exception):
    """Unreadable YAML: a one-line message, and the 0-based line in the text if known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def load(text: str) -> Any:
    """The one YAML document in `text`, loaded with Loader; YAMLLoadError if unreadable.

    The shapes memkit writes are read by memkit.memory.frontfast, which gives exactly
    what Loader gives or hands the text to it (load_full).
    """
    value = _fast().load(text)
    return load_full(text) if value is UNSURE else value


def load_full(text: str) -> Any:
    """`load()` without the fast path: PyYAML with Loader, errors made one line."""
    import yaml

    try:
        return yaml.load(text, Loader=loader())
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        if e.problem == ALIASES_REFUSED:  # _check_tree's
            line = _first_alias_line(text)
            if line is None and mark is not None:
                line = mark.line
            raise YAMLLoadError(ALIASES_REFUSED, line) from None
        problem = " ".join((e.problem or e.context or "invalid YAML").split())
        message = f"malformed YAML ({problem}); fix the YAML syntax"
        raise YAMLLoadError(message, None if mark is None else mark.line) from None
    except yaml.reader.ReaderError as e:
        char = chr(e.character) if isinstance(e.character, int) else e.character
        message = f"character {char!r} is not allowed in YAML; remove it or quote the value"
        raise YAMLLoadError(message, text.count("\n", 0, e.position)) from None
    except yaml.YAMLError as e:
        raise YAMLLoadError(f"malformed YAML ({' '.join(str(e).split())})") from None
    except RecursionError:
        raise YAMLLoadError("YAML nested too deeply; flatten it") from None
    except (ValueError, TypeError, OverflowError) as e:
        problem = str(e).split(";")[0] if "digits" in str(e) else str(e)  # no Python advice
        raise YAMLLoadError(f"unreadable YAML value ({problem}); quote or shorten it") from None


def dump(data: Mapping[str, Any]) -> str:
    """Front-matter fields as block-style YAML, one per line, in the order given."""
    import frontmatter.default_handlers

    text: str = frontmatter.default_handlers.YAMLHandler().export(
        dict(data), Dumper=_dumper(), sort_keys=False, width=10_000, default_flow_style=False
    )
    return text + "\n" if text else ""


def plain_scalar_ok(value: str) -> bool:
    """Whether `value`, written unquoted after `key: ` on one line, reads back as this string.

    Asks PyYAML's emitter whether a plain scalar is allowed and its YAML 1.1 resolver
    that the plain text is not read as a number, boolean, null or date.
    """
    import io

    import yaml

    analysis = yaml.emitter.Emitter(io.StringIO(), allow_unicode=True).analyze_scalar(value)
    if not analysis.allow_block_plain or analysis.multiline:
        return False
    resolver: Any = yaml.resolver.Resolver()
    return bool(resolver.resolve(yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:str")


def load_config(text: str) -> Any:
    """The first YAML document of a project's config file (docker-compose, CI, Taskfile).

    Unlike front matter, config files use anchors and aliases (`<<: *defaults`), so
    they are allowed here; nesting is bounded as in load(). YAMLLoadError if unreadable.
    """
    import yaml

    try:
        check_depth(text)
        if "*" in text and "&" in text:
            check_aliases(text)
        for doc in yaml.load_all(text, Loader=_safe_loader()):
            return doc
        return None
    except yaml.MarkedYAMLError as e:
        problem = " ".join((e.problem or e.context or "invalid YAML").split())
        mark = e.problem_mark or e.context_mark
        raise YAMLLoadError(
            f"malformed YAML ({problem})", None if mark is None else mark.line
        ) from None
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as e:
        raise YAMLLoadError(f"unreadable YAML ({' '.join(str(e).split())[:200]})") from None
