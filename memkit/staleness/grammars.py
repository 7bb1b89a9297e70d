"""The grammar tables of the tree-sitter languages: which nodes are declarations.

For each language: the declaration node types and the field holding each one's body,
the containers qualifying their members' names, the statements searched through, the
tokens dropped as formatting, the wrappers whose keywords belong to a signature, the
bodies whose members' doc comments count, and the rules for redundant parentheses.
"""

from __future__ import annotations

from dataclasses import dataclass

from memkit.staleness import parens as rules


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
    # keywords and nodes of the statements around a declaration that belong to its
    # signature (`export`, `export default`, `declare`, decorators)
    modifiers: frozenset[str] = frozenset()
    # bodies whose members' doc comments belong to the declaration's `doc` (a class's
    # methods and fields, an interface's, a type literal's, a struct's fields)
    members: frozenset[str] = frozenset()
    # which parenthesized expressions are formatting (see parens)
    parens: rules.Parens | None = None
    # leading siblings that are attributes of the declaration after them
    attributes: frozenset[str] = frozenset({"attribute_item", "decorator"})


def _fields(**by_field: str) -> dict[str, str | None]:
    """{declaration node type: the field holding its body} from each field's node types
    (`none`: the declarations without a body)."""
    return {t: None if f == "none" else f for f, types in by_field.items() for t in types.split()}


_JS = Grammar(
    decls=_fields(
        body="function_declaration generator_function_declaration class_declaration "
        "abstract_class_declaration method_definition interface_declaration enum_declaration "
        "module internal_module",
        value="type_alias_declaration variable_declarator public_field_definition field_definition",
        none="abstract_method_signature function_signature method_signature",
    ),
    containers=rules.names("class_declaration abstract_class_declaration module internal_module"),
    transparent=rules.names(
        "export_statement lexical_declaration variable_declaration ambient_declaration "
        "expression_statement"
    ),
    dropped=frozenset({";"}),
    blocks=rules.names(
        "if_statement else_clause try_statement catch_clause finally_clause statement_block"
    ),
    # `let` and `var` too: a binding that can be reassigned (`const`, the common case, adds
    # nothing, so its fingerprints stay as they were)
    modifiers=rules.names("export default declare decorator let var"),
    members=rules.names("class_body interface_body object_type enum_body"),
    parens=rules.JS,
)
# numeric literals, whose `_` digit separators are formatting (JS/TS, Go, Rust, Java)
NUMBERS = rules.names(
    "number int_literal float_literal imaginary_literal integer_literal decimal_integer_literal "
    "hex_integer_literal octal_integer_literal binary_integer_literal "
    "decimal_floating_point_literal hex_floating_point_literal"
)
GRAMMARS = {
    "typescript": _JS,
    "tsx": _JS,
    "javascript": _JS,
    "go": Grammar(
        decls=_fields(body="function_declaration method_declaration", type="type_spec type_alias"),
        containers=frozenset(),
        transparent=frozenset({"type_declaration"}),
        members=frozenset({"field_declaration_list", "interface_type"}),
        parens=rules.GO,
    ),
    "rust": Grammar(
        decls=_fields(
            body="function_item struct_item enum_item union_item trait_item mod_item",
            type="type_item",
            value="const_item static_item",
            none="function_signature_item macro_definition",
        ),
        containers=rules.names("trait_item mod_item impl_item"),
        transparent=frozenset(),
        blocks=frozenset({"foreign_mod_item", "declaration_list"}),
        members=rules.names(
            "field_declaration_list ordered_field_declaration_list enum_variant_list "
            "declaration_list"
        ),
        parens=rules.RUST,
    ),
    "java": Grammar(
        decls=_fields(
            body="class_declaration interface_declaration enum_declaration record_declaration "
            "annotation_type_declaration method_declaration constructor_declaration "
            "compact_constructor_declaration"
        ),
        containers=rules.names(
            "class_declaration interface_declaration enum_declaration record_declaration "
            "annotation_type_declaration"
        ),
        transparent=frozenset({"enum_body_declarations"}),
        members=rules.names(
            "class_body interface_body enum_body enum_body_declarations annotation_type_body"
        ),
        parens=rules.JAVA,
    ),
}
