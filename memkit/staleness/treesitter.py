"""TypeScript, JavaScript, Go, Rust and Java symbols with tree-sitter.

Uses the per-language grammar wheels of the `treesitter` extra (compiled grammars,
no download at run time). A fingerprint hashes the leaf tokens of the parse tree
with comments left out, so formatting never counts; the doc comments right above
a declaration form its `doc` part.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memkit.memory.links import SYMBOL_RE
from memkit.staleness.fingerprints import SymbolPrint, file_print
from memkit.staleness.parsed import LazyPrints, Parsed, Unparsable

COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
_SEP = "\x1f"


@dataclass(frozen=True)
class Grammar:
    # declaration node type -> field holding its body (None: no body)
    decls: dict[str, str | None]
    # node types whose members are qualified by the declaration's name
    containers: frozenset[str]
    # node types searched for declarations without being symbols themselves
    transparent: frozenset[str]
    # tokens dropped as formatting (JS/TS semicolons)
    dropped: frozenset[str] = frozenset()
    # statement blocks (if/else, try/catch/finally, bare blocks) whose declarations belong
    # to the enclosing module or namespace; unlike `transparent`, docs are read inside them
    blocks: frozenset[str] = frozenset()


_JS = Grammar(
    decls={
        "function_declaration": "body",
        "generator_function_declaration": "body",
        "class_declaration": "body",
        "abstract_class_declaration": "body",
        "method_definition": "body",
        "interface_declaration": "body",
        "type_alias_declaration": "value",
        "enum_declaration": "body",
        "variable_declarator": "value",
        "public_field_definition": "value",
        "field_definition": "value",
        "abstract_method_signature": None,
        "module": "body",
        "internal_module": "body",
    },
    containers=frozenset(
        {"class_declaration", "abstract_class_declaration", "module", "internal_module"}
    ),
    transparent=frozenset(
        {
            "export_statement",
            "lexical_declaration",
            "variable_declaration",
            "ambient_declaration",
            "expression_statement",
        }
    ),
    dropped=frozenset({";"}),
    blocks=frozenset(
        {
            "if_statement",
            "else_clause",
            "try_statement",
            "catch_clause",
            "finally_clause",
            "statement_block",
        }
    ),
)
GRAMMARS = {
    "typescript": _JS,
    "tsx": _JS,
    "javascript": _JS,
    "go": Grammar(
        decls={
            "function_declaration": "body",
            "method_declaration": "body",
            "type_spec": "type",
            "type_alias": "type",
        },
        containers=frozenset(),
        transparent=frozenset({"type_declaration"}),
    ),
    "rust": Grammar(
        decls={
            "function_item": "body",
            "function_signature_item": None,
            "struct_item": "body",
            "enum_item": "body",
            "union_item": "body",
            "trait_item": "body",
            "mod_item": "body",
            "type_item": "type",
            "const_item": "value",
            "static_item": "value",
            "macro_definition": None,
        },
        containers=frozenset({"trait_item", "mod_item", "impl_item"}),
        transparent=frozenset(),
        blocks=frozenset({"foreign_mod_item", "declaration_list"}),
    ),
    "java": Grammar(
        decls={
            "class_declaration": "body",
            "interface_declaration": "body",
            "enum_declaration": "body",
            "record_declaration": "body",
            "annotation_type_declaration": "body",
            "method_declaration": "body",
            "constructor_declaration": "body",
            "compact_constructor_declaration": "body",
        },
        containers=frozenset(
            {
                "class_declaration",
                "interface_declaration",
                "enum_declaration",
                "record_declaration",
                "annotation_type_declaration",
            }
        ),
        transparent=frozenset({"enum_body_declarations"}),
    ),
}


@functools.cache
def _parser(language: str) -> Any:
    try:
        import tree_sitter
    except ImportError:
        from memkit.install import pip_line

        raise Unparsable(
            f"symbol links in {language} need tree-sitter: install memkit's `treesitter` "
            f"extra ({pip_line('treesitter')}), or link the file instead"
        ) from None
    try:
        if language in ("typescript", "tsx"):
            import tree_sitter_typescript as mod

            raw = mod.language_typescript() if language == "typescript" else mod.language_tsx()
        else:
            import importlib

            raw = importlib.import_module(f"tree_sitter_{language}").language()
    except ImportError:
        from memkit.install import pip_line

        raise Unparsable(
            f"the tree-sitter grammar for {language} is not installed: install memkit's "
            f"`treesitter` extra ({pip_line('treesitter')})"
        ) from None
    return tree_sitter.Parser(tree_sitter.Language(raw))


def parse(source: bytes, language: str, path: str = "<file>") -> Parsed:
    grammar = GRAMMARS[language]
    root = _parser(language).parse(source).root_node
    nodes: dict[str, tuple[Any, Any]] = {}
    for name, node, anchor in _walk(root, "", grammar):
        nodes.setdefault(name, (node, anchor))
    return Parsed(
        lambda: file_print(_SEP.join(_tokens(root, grammar, ()))),
        LazyPrints(nodes, lambda found: _symbol_print(found[0], found[1], grammar)),
        lambda name: _code_tokens(nodes[name][0], grammar),
    )


def _code_tokens(node: Any, g: Grammar) -> tuple[str, ...]:
    """A declaration's tokens without comments and its own name (near-move detection)."""
    name = node.child_by_field_name("name")
    return (node.type, *_tokens(node, g, () if name is None else (name,)))


def _walk(
    parent: Any, prefix: str, g: Grammar, anchor: Any = None
) -> Iterator[tuple[str, Any, Any]]:
    for node in parent.named_children:
        kind = node.type
        here = anchor if anchor is not None else node
        if kind in g.transparent:
            yield from _walk(node, prefix, g, here)
            continue
        if kind in g.blocks:
            yield from _walk(node, prefix, g)
            continue
        if kind == "impl_item":  # Rust: methods qualified by the implementing type
            owner = _type_name(node.child_by_field_name("type"))
            body = node.child_by_field_name("body")
            if owner and body is not None:
                yield from _walk(body, f"{prefix}{owner}.", g)
            continue
        if kind not in g.decls:
            continue
        name = _name(node)
        if not _IDENTIFIER.fullmatch(name):
            continue  # nothing a link could name (see _IDENTIFIER), nor anything inside it
        full = prefix + name
        yield full, node, here
        if kind in g.containers:
            body = node.child_by_field_name("body")
            if body is not None:
                yield from _walk(body, full + ".", g)


# A declaration is a symbol when a link can name it (memkit.memory.links.SYMBOL_RE):
# not `declare module 'express' {...}` (a string), a computed key `[Symbol.iterator]`,
# a destructuring `const { a, b } = ...` or a `#private` member.
_IDENTIFIER = re.compile(SYMBOL_RE.pattern.removeprefix("^").removesuffix("$"))


def _name(node: Any) -> str:
    if node.type == "method_declaration" and node.child_by_field_name("receiver") is not None:
        receiver = node.child_by_field_name("receiver")  # Go: (s *Server) Start -> Server.Start
        params = [c for c in receiver.named_children if c.type == "parameter_declaration"]
        owner = _type_name(params[0].child_by_field_name("type")) if params else ""
        name = node.child_by_field_name("name")
        return f"{owner}.{_text(name)}" if owner and name is not None else ""
    name = node.child_by_field_name("name")
    return _text(name) if name is not None else ""


def _type_name(node: Any) -> str:
    """The plain type name inside a (possibly generic, pointer or reference) type."""
    if node is None:
        return ""
    if node.type in ("type_identifier", "identifier"):
        return _text(node)
    for child in node.named_children:
        found = _type_name(child)
        if found:
            return found
    return ""


def _text(node: Any) -> str:
    return bytes(node.text).decode("utf-8", "replace")


def _symbol_print(node: Any, anchor: Any, g: Grammar) -> SymbolPrint:
    body_field = g.decls.get(node.type)
    body = node.child_by_field_name(body_field) if body_field else None
    name = node.child_by_field_name("name")
    if node.type == "variable_declarator" and body is not None and "function" in body.type:
        inner = body.child_by_field_name("body")
        if body.type.startswith("arrow") or inner is not None:
            body = inner  # const f = (a) => {...}: parameters are the signature
    skip = tuple(n for n in (body, name) if n is not None)
    sig = _SEP.join([node.type, *_tokens(node, g, skip), *_attributes(anchor, g)])
    body_text = _SEP.join(_tokens(body, g, ())) if body is not None else ""
    return SymbolPrint.of(sig, body_text, _doc(anchor))


def _tokens(node: Any, g: Grammar, skip: tuple[Any, ...]) -> Iterator[str]:
    """The leaf tokens under node, without comments, formatting and the `skip` subtrees."""
    stack = [node]
    prev: str | None = None
    while stack:
        n = stack.pop()
        if n.type in COMMENTS or any(n == s for s in skip):
            continue
        if n.child_count == 0:
            text = _text(n).strip()
            if not text or text in g.dropped:
                continue
            if prev == "," and text in ")]}>":
                pass  # a trailing comma is formatting; drop it (prev is not yet emitted)
            elif prev is not None:
                yield prev
            prev = text
            continue
        stack.extend(reversed(n.children))
    if prev is not None:
        yield prev


def _leading(anchor: Any) -> Iterator[Any]:
    """Comments and attributes directly above a declaration, nearest first."""
    node, row = anchor.prev_sibling, anchor.start_point[0]
    while node is not None and (node.type in COMMENTS or node.type == "attribute_item"):
        if node.end_point[0] < row - 1:
            break  # a blank line separates it from the declaration
        before = node.prev_sibling
        if (
            before is not None
            and before.type not in COMMENTS
            and before.type != "attribute_item"
            and before.end_point[0] == node.start_point[0]
        ):
            break  # a comment trailing the previous line's code is not this one's doc
        yield node
        row = node.start_point[0]
        node = node.prev_sibling


def _doc(anchor: Any) -> str:
    lines = []
    for node in _leading(anchor):
        if node.type in COMMENTS:
            text = _text(node)
            lines.append(" ".join(text.split()))
    return "\n".join(reversed(lines))


def _attributes(anchor: Any, g: Grammar) -> list[str]:
    """Rust attributes above an item belong to its signature, like decorators."""
    out: list[str] = []
    for node in _leading(anchor):
        if node.type == "attribute_item":
            out.extend(_tokens(node, g, ()))
    return out
