"""Exports written apart from a declaration: `export { f }`, `export { f as g }`,
`export default f` elsewhere in a JavaScript or TypeScript file export `f` as the
`export` keyword on it would, so they are part of its signature (docs/staleness.md).
"""

from __future__ import annotations

from typing import Any


def text(node: Any) -> str:
    return bytes(node.text).decode("utf-8", "replace")


def listed(root: Any, modifiers: frozenset[str]) -> dict[str, tuple[str, ...]]:
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
            out[text(value)] = (*out.get(text(value), ()), "export", "default")
        for clause in st.named_children:
            for spec in clause.named_children if clause.type == "export_clause" else ():
                name, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                if spec.type == "export_specifier" and name is not None:
                    how = ("export",) if alias is None else ("export", "as", text(alias))
                    out[text(name)] = (*out.get(text(name), ()), *how)
    return out
