"""Python symbols and fingerprints with the standard library's ast.

The ast drops comments and formatting, so neither reaches a fingerprint.
Docstrings are split out into the `doc` part (a class's docs include its methods').
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator

from memkit.staleness.astdump import dump
from memkit.staleness.fingerprints import SymbolPrint, file_print
from memkit.staleness.parsed import LazyPrints, Parsed, Unparsable

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def parse(source: bytes, path: str = "<file>") -> Parsed:
    try:
        tree = ast.parse(source, filename=path, type_comments=False)
    except (SyntaxError, ValueError) as e:
        raise Unparsable(f"{path} does not parse as Python ({e})") from None
    defs: dict[str, Def] = {}
    assigned: dict[str, ast.stmt] = {}
    for name, node in _walk(tree.body, ""):
        if not isinstance(node, _DEFS):
            assigned.setdefault(name, node)
        elif name not in defs or (_is_overload(defs[name]) and not _is_overload(node)):
            defs[name] = node
    nodes: dict[str, ast.stmt] = dict(defs)
    for name, assign in assigned.items():
        nodes.setdefault(name, assign)  # a definition wins over a variable
    shared = Dumps()
    return Parsed(
        lambda: file_print(dump(tree, shared.memo)),
        LazyPrints(nodes, shared.print),
        lambda n: _code_tokens(nodes[n]),
        lambda n: _body_size(nodes[n]),
    )


class Dumps:
    """What one file's fingerprints share: the text of each statement dumped, and each
    definition without its docstrings. A class's print dumps its methods; a link to one
    of them then takes its statements' texts from here instead of dumping them again.
    Keeps every statement it dumped alive (the memo is keyed by id)."""

    def __init__(self) -> None:
        self.memo: dict[int, str] = {}
        self._stripped: dict[int, tuple[ast.stmt, tuple[str, ...]]] = {}

    def print(self, node: ast.stmt) -> SymbolPrint:
        if not isinstance(node, _DEFS):
            return assignment_print(node)
        docs: list[str] = []
        body = _strip_docs(node.body, docs, self._stripped)
        text = "[" + ",".join([dump(n, self.memo) for n in body]) + "]"
        return SymbolPrint.of(signature(node), text, "\x00".join(docs))


_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|\S")


def _code_tokens(node: ast.stmt) -> tuple[str, ...]:
    """The definition as source tokens: docstrings out, its own name replaced by `_`."""
    if isinstance(node, _DEFS):
        node = copy.copy(node)
        node.name = "_"
        node.body = _strip_docs(node.body, [])
    elif isinstance(node, ast.Assign | ast.AnnAssign):
        node = copy.copy(node)
        if isinstance(node, ast.Assign):
            node.targets = [ast.Name("_")]
        else:
            node.target = ast.Name("_")
    return tuple(_TOKEN.findall(ast.unparse(node)))


def _body_size(node: ast.stmt) -> int:
    """The number of source tokens in a definition's body (docstrings out) or in a
    variable's value."""
    if isinstance(node, _DEFS):
        parts: list[ast.stmt] | list[ast.expr] = _strip_docs(node.body, [])
    else:
        value = getattr(node, "value", None)
        parts = [value] if isinstance(value, ast.expr) else []
    return sum(len(_TOKEN.findall(ast.unparse(p))) for p in parts)


def blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists nested in a compound statement that is not a definition.

    `if`/`elif`/`else`, `try`/`except`/`else`/`finally` (and `except*`), `with`, `match`
    cases, `for` and `while` (with their `else`): a definition inside any of them, at
    module or class level, is a symbol of that module or class.
    """
    if isinstance(stmt, ast.If | ast.For | ast.AsyncFor | ast.While):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.Try | ast.TryStar):
        return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [stmt.body]
    if isinstance(stmt, ast.Match):
        return [case.body for case in stmt.cases]
    return []


def _is_overload(node: Def) -> bool:
    """`@overload` / `@typing.overload`: a stub that yields to the implementation."""
    for deco in node.decorator_list:
        name = deco.attr if isinstance(deco, ast.Attribute) else getattr(deco, "id", "")
        if name == "overload":
            return True
    return False


def assignment_print(stmt: ast.stmt) -> SymbolPrint:
    """A variable's annotation is its signature, its value its body."""
    annotation = stmt.annotation if isinstance(stmt, ast.AnnAssign) else None
    value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
    return SymbolPrint.of(f"Assign|{_dump(annotation)}", _dump(value), "")


def _walk(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.stmt]]:
    """Module-level and class-level definitions and variables (`NAME = ...`, `NAME: type
    = ...`), in source order, also inside blocks()."""
    for stmt in body:
        if isinstance(stmt, _DEFS):
            name = prefix + stmt.name
            yield name, stmt
            if isinstance(stmt, ast.ClassDef):
                yield from _walk(stmt.body, name + ".")
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    yield prefix + target.id, stmt
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            yield prefix + stmt.target.id, stmt
        else:
            for block in blocks(stmt):
                yield from _walk(block, prefix)


def signature(node: Def) -> str:
    """Everything about a definition but its name and body (the name is the link's)."""
    parts: list[ast.AST | list[ast.expr] | None]
    if isinstance(node, ast.ClassDef):
        parts = [node.bases, node.keywords, node.decorator_list]  # type: ignore[list-item]
    else:
        parts = [node.args, node.returns, node.decorator_list]
    kind = type(node).__name__
    params = getattr(node, "type_params", [])
    return kind + "|" + "|".join(_dump(p) for p in [*parts, params])


def _dump(node: ast.AST | list[ast.AST] | list[ast.expr] | list[ast.stmt] | None) -> str:
    if node is None:
        return ""
    if isinstance(node, list):
        return "[" + ",".join([dump(n) for n in node]) + "]"
    return dump(node)


def _docstring(body: list[ast.stmt]) -> str | None:
    if body and isinstance(body[0], ast.Expr):
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return None


def _strip_docs(
    body: list[ast.stmt],
    docs: list[str],
    made: dict[int, tuple[ast.stmt, tuple[str, ...]]] | None = None,
) -> list[ast.stmt]:
    """The statements without docstrings (also of nested definitions), collected in docs.

    `made` keeps each nested definition's copy and docstrings by id, so that the
    definitions of one file are copied once however many prints include them.
    """
    doc = _docstring(body)
    if doc is not None:
        docs.append(_clean(doc))
        body = body[1:]
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, _DEFS):
            found = None if made is None else made.get(id(stmt))
            if found is None:
                inner: list[str] = []
                bare = copy.copy(stmt)
                bare.body = _strip_docs(stmt.body, inner, made)
                found = (bare, tuple(inner))
                if made is not None:
                    made[id(stmt)] = found
            stmt = found[0]
            docs += found[1]
        out.append(stmt)
    return out


def _clean(doc: str) -> str:
    """A docstring with indentation and blank-line differences removed."""
    import inspect

    return "\n".join(line.rstrip() for line in inspect.cleandoc(doc).splitlines()).strip()
