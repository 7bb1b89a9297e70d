"""TypeScript, JavaScript, Go, Rust and Java symbols with tree-sitter.

Uses the per-language grammar wheels of the `treesitter` extra (compiled grammars,
no download at run time). A fingerprint hashes the leaf tokens of the parse tree
with comments and redundant parentheses left out, so formatting never counts. The
signature takes the keywords around a declaration too (`export`, `export default`,
`declare`, decorators); the doc comments right above a declaration, then those above
each of its members, form its `doc` part. The grammar tables live in grammars.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from memkit.memory.links import SYMBOL_RE
from memkit.staleness import parens as rules
from memkit.staleness import repair
from memkit.staleness.fingerprints import SymbolPrint, file_print
from memkit.staleness.grammars import GRAMMARS, NUMBERS, Grammar
from memkit.staleness.parsed import LazyPrints, Parsed, Unparsable

COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
_SEP = "\x1f"


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
    added: tuple[Any, ...] = ()  # names repair gave anonymous functions
    if root.has_error and language in ("typescript", "tsx"):  # shapes the grammar misreads
        root, added = repair.reread(source, root, _parser(language).parse)
    anonymous = [(n.parent.start_byte, n.parent.end_byte) for n in added]
    nodes: dict[str, tuple[Any, Any, tuple[tuple[Any, Any], ...]]] = {}
    for name, node, anchor in _walk(root, "", grammar):
        if any(a <= node.start_byte and node.end_byte <= b for a, b in anonymous):
            continue  # anonymous, or in an anonymous class: no link names it
        known = nodes.get(name)
        if known is None:
            nodes[name] = (node, anchor, ())
        elif known[0].type in _OVERLOADS and (node.type in _OVERLOADS or node.type in _FUNCTIONS):
            # TypeScript overloads: their signatures are the function's, which they precede
            if node.type in _OVERLOADS:
                nodes[name] = (*known[:2], (*known[2], (node, anchor)))
            else:
                nodes[name] = (node, anchor, ((known[0], known[1]), *known[2]))
    listed = {  # `export { f }` elsewhere: f is exported all the same
        id(nodes[name][0]): how
        for name, how in _listed(root, grammar.modifiers).items()
        if name in nodes
    }
    return Parsed(
        lambda: file_print(_SEP.join(_tokens(root, grammar, added))),
        LazyPrints(
            nodes, lambda f: _symbol_print(f[0], f[1], f[2], grammar, listed.get(id(f[0]), ()))
        ),
        lambda name: _code_tokens(nodes[name][0], grammar),
        lambda name: _body_size(nodes[name][0], grammar),
    )


_OVERLOADS = frozenset({"function_signature", "method_signature"})
_FUNCTIONS = rules.names("function_declaration generator_function_declaration method_definition")


def _name_node(node: Any) -> Any:
    """The node holding a declaration's name (a JavaScript field's is `property`)."""
    name = node.child_by_field_name("name")
    if name is None and node.type == "field_definition":
        name = node.child_by_field_name("property")
    return name


def _code_tokens(node: Any, g: Grammar) -> tuple[str, ...]:
    """A declaration's tokens without comments and its own name (near-move detection)."""
    name = _name_node(node)
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
    name = _name_node(node)
    return _text(name) if name is not None else ""


def _type_name(node: Any) -> str:
    """The plain type name inside a (possibly generic, pointer or reference) type."""
    if node is None:
        return ""
    if node.type in ("type_identifier", "identifier", "primitive_type"):
        return _text(node)  # Rust's `impl Trait for u64` too
    if node.type in ("scoped_type_identifier", "scoped_identifier"):
        return _type_name(node.child_by_field_name("name"))  # `kv::Value`: Value
    if node.type == "generic_type":
        return _type_name(node.child_by_field_name("type"))
    for child in node.named_children:
        if child.type in ("lifetime", "type_arguments"):
            continue  # `&'a Bar`: Bar, not a
        if found := _type_name(child):
            return found
    return ""


def _text(node: Any) -> str:
    return bytes(node.text).decode("utf-8", "replace")


def _listed(root: Any, modifiers: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """How statements elsewhere in a JavaScript or TypeScript file export its module-level
    declarations (`export { f }`, `export { f as g }`, `export default f`): part of
    their signatures, as the `export` keyword on the declaration is."""
    out: dict[str, tuple[str, ...]] = {}
    if not modifiers:  # not JavaScript or TypeScript
        return out
    for st in root.named_children:
        if st.type != "export_statement" or st.child_by_field_name("source") is not None:
            continue  # `export { x } from "./x"` re-exports another module's x
        value = st.child_by_field_name("value")
        if value is not None and value.type == "identifier":
            out[_text(value)] = (*out.get(_text(value), ()), "export", "default")
        for clause in st.named_children:
            for spec in clause.named_children if clause.type == "export_clause" else ():
                name, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                if spec.type == "export_specifier" and name is not None:
                    how = ("export",) if alias is None else ("export", "as", _text(alias))
                    out[_text(name)] = (*out.get(_text(name), ()), *how)
    return out


# declarations whose value, when a function, has its parameters as the signature
_VALUED = frozenset({"variable_declarator", "public_field_definition", "field_definition"})


def _body(node: Any, g: Grammar) -> Any:
    """The part of a declaration that is its body (None: it has none)."""
    body_field = g.decls.get(node.type)
    body = node.child_by_field_name(body_field) if body_field else None
    if node.type in _VALUED and body is not None and "function" in body.type:
        inner = body.child_by_field_name("body")
        if body.type.startswith("arrow") or inner is not None:
            body = inner  # const f = (a) => {...}, handler = (e) => {...}: params are the sig
    return body


def _body_size(node: Any, g: Grammar) -> int:
    """The number of tokens in a declaration's body, its outer braces left out."""
    body = _body(node, g)
    tokens = list(_tokens(body, g, ())) if body is not None else []
    if tokens[:1] == ["{"] and tokens[-1:] == ["}"]:
        return len(tokens) - 2
    return len(tokens)


def _symbol_print(
    node: Any,
    anchor: Any,
    overloads: tuple[tuple[Any, Any], ...],
    g: Grammar,
    listed: tuple[str, ...] = (),
) -> SymbolPrint:
    body = _body(node, g)
    bodies: list[Any] = []
    sig = _signature(node, anchor, g, bodies, (body, _name_node(node)))
    for o, at in overloads:  # `function f(a: string): T;`: part of the function's signature
        sig += ["", *_signature(o, at, g, bodies, (_name_node(o),))]
    body_text = _SEP.join(_tokens(body, g, (), bodies)) if body is not None else ""
    return SymbolPrint.of(_SEP.join([*sig, *listed]), body_text, _doc(anchor, g, bodies))


def _signature(
    node: Any, anchor: Any, g: Grammar, bodies: list[Any], skip: tuple[Any, ...]
) -> list[str]:
    """A declaration's type and tokens (the `skip` subtrees left out), the attributes
    above it and the modifiers around it."""
    return [
        node.type,
        *_tokens(node, g, tuple(n for n in skip if n is not None), bodies),
        *_attributes(anchor, g),
        *_modifiers(node, anchor, g),
    ]


def _modifiers(node: Any, anchor: Any, g: Grammar) -> list[str]:
    """`export`, `default`, `declare` and decorators on the statements around a
    declaration (`export default class A`, `export const f = ...`)."""
    out: list[str] = []
    if not g.modifiers or node == anchor:
        return out
    around = node.parent
    while around is not None:
        out += [t for c in around.children if c.type in g.modifiers for t in _tokens(c, g, ())]
        if around == anchor:
            break
        around = around.parent
    return out


def _tokens(
    node: Any, g: Grammar, skip: tuple[Any, ...], bodies: list[Any] | None = None
) -> Iterator[str]:
    """The leaf tokens under node, without comments, formatting and the `skip` subtrees;
    the member bodies met on the way (g.members) are appended to `bodies`."""
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
            if "_" in text and n.type in NUMBERS:
                text = text.replace("_", "")  # 1_000 is 1000: a digit separator is formatting
            if prev == "," and text in ")]}>":
                pass  # a trailing comma is formatting; drop it (prev is not yet emitted)
            elif prev is not None:
                yield prev
            prev = text
            continue
        children = n.children
        if g.parens is not None and n.type == g.parens.node and rules.redundant(n, g.parens):
            children = children[1:-1]  # (x) -> x: the wrapper is formatting
        elif bodies is not None and n.type in g.members:
            bodies.append(n)
        stack.extend(reversed(children))
    if prev is not None:
        yield prev


_OPENING = frozenset({"{", "(", "[", "<"})


def _leading(anchor: Any, g: Grammar) -> Iterator[Any]:
    """Comments and attributes directly above a declaration, nearest first."""
    node, row = anchor.prev_sibling, anchor.start_point[0]
    while node is not None and (node.type in COMMENTS or node.type in g.attributes):
        if node.end_point[0] < row - 1:
            break  # a blank line separates it from the declaration
        before = node.prev_sibling
        if (
            before is not None
            and before.type not in COMMENTS
            and before.type not in g.attributes
            and before.type not in _OPENING
            and before.end_point[0] == node.start_point[0]
        ):
            break  # a comment trailing the previous line's code is not this one's doc
        yield node
        row = node.start_point[0]
        node = node.prev_sibling


def _doc(anchor: Any, g: Grammar, bodies: list[Any]) -> str:
    """The doc comments above the declaration, then those above each of its members
    (none: the declaration's alone, as recorded before members' docs counted)."""
    skip = COMMENTS | g.attributes
    found = [_comments(m, g) for b in bodies for m in b.named_children if m.type not in skip]
    return _comments(anchor, g) + "".join("\x1e" + doc for doc in found if doc)


def _comments(anchor: Any, g: Grammar) -> str:
    lines = [" ".join(_text(n).split()) for n in _leading(anchor, g) if n.type in COMMENTS]
    return "\n".join(reversed(lines))


def _attributes(anchor: Any, g: Grammar) -> list[str]:
    """Attributes above an item (Rust `#[...]`, TypeScript member decorators) belong to
    its signature, like decorators."""
    return [t for n in _leading(anchor, g) if n.type in g.attributes for t in _tokens(n, g, ())]
