"""Redundant parentheses in tree-sitter parse trees: formatting, not code.

A formatter adds or removes parentheses that change nothing (`return (a + b)`,
`(x)`, `(a * b) + c`); the Python ast never sees them, and here a wrapper is left
out of the tokens when it is redundant. A wrapper is redundant when dropping it
cannot give another valid program with another meaning:

- around a whole expression (a `return`, an initializer, an argument, an array
  element, an `if` condition in Go and Rust, another pair of parentheses), unless
  it wraps a comma sequence or, as an arrow function's body, an object literal;
- around a primary expression (a name, a literal, a call, a member or an index),
  unless the inner expression holds an optional chain, is a constructor's call
  (`new (f())()`) or is a Rust field called as a function (`(self.f)()`);
- around a binary operation inside another that binds less tightly, or equally
  tightly on the left of a left-associative operator (`(a * b) + c`, `(a + b) - c`).

Parentheses that are syntax (JavaScript's and Java's `if (...)`, `while (...)`) are
never wrappers. Dropping a wrapper where the result would not parse is harmless: no
source file has both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Parens:
    """One language's rules for parenthesized expressions."""

    # parent types whose parenthesized child is syntax, never a wrapper
    syntax: frozenset[str]
    # parent type -> the fields (None: any child) taking a whole expression
    whole: dict[str, frozenset[str] | None]
    # inner node types that are primary expressions
    primary: frozenset[str]
    # binary operator -> precedence (higher binds tighter)
    precedence: dict[str, int]
    # inner node types never unwrapped (comma sequences)
    never: frozenset[str] = frozenset()
    # right-associative binary operators
    right: frozenset[str] = frozenset()
    node: str = "parenthesized_expression"
    binary: str = "binary_expression"


def names(words: str) -> frozenset[str]:
    """A set of node types, written as one space-separated string."""
    return frozenset(words.split())


def _ops(levels: list[str]) -> dict[str, int]:
    """Precedence levels, loosest first, each a space-separated group of operators."""
    return {op: i for i, group in enumerate(levels, 1) for op in group.split()}


def _whole(table: dict[str, str]) -> dict[str, frozenset[str] | None]:
    """{parent type: its fields taking a whole expression} from {the fields, space-separated
    ("": any child): the parent types}."""
    return {t: frozenset(f.split()) or None for f, types in table.items() for t in types.split()}


JS = Parens(
    syntax=names("if_statement while_statement do_statement switch_statement with_statement"),
    whole=_whole(
        {
            "": "return_statement throw_statement arguments array template_substitution "
            "spread_element jsx_expression parenthesized_expression",
            "value": "variable_declarator public_field_definition field_definition pair",
            "right": "assignment_expression augmented_assignment_expression",
            "body": "arrow_function",
            "consequence alternative": "ternary_expression",
        }
    ),
    primary=names(
        "identifier this super number string template_string true false null undefined regex "
        "member_expression subscript_expression call_expression parenthesized_expression array "
        "non_null_expression"
    ),
    precedence=_ops(
        [
            "??",
            "||",
            "&&",
            "|",
            "^",
            "&",
            "== != === !==",
            "< > <= >= instanceof in",
            "<< >> >>>",
            "+ -",
            "* / %",
            "**",
        ]
    ),
    never=frozenset({"sequence_expression"}),
    right=frozenset({"**"}),
)
GO = Parens(
    syntax=frozenset(),
    whole=_whole(
        {
            "": "expression_list argument_list for_statement literal_element "
            "parenthesized_expression",
            "condition": "if_statement for_clause",
            "value": "expression_switch_statement send_statement",
        }
    ),
    primary=names(
        "identifier int_literal float_literal imaginary_literal rune_literal "
        "interpreted_string_literal raw_string_literal true false nil iota selector_expression "
        "call_expression index_expression slice_expression composite_literal "
        "type_assertion_expression parenthesized_expression"
    ),
    precedence=_ops(["||", "&&", "== != < <= > >=", "+ - | ^", "* / % << >> & &^"]),
)
RUST = Parens(
    syntax=frozenset(),
    whole=_whole(
        {
            "": "return_expression break_expression arguments array_expression "
            "parenthesized_expression",
            "value": "let_declaration match_expression field_initializer",
            "condition": "if_expression while_expression",
            "right": "assignment_expression compound_assignment_expr",
        }
    ),
    primary=names(
        "identifier self integer_literal float_literal string_literal raw_string_literal "
        "char_literal boolean_literal scoped_identifier field_expression call_expression "
        "index_expression macro_invocation try_expression await_expression tuple_expression "
        "array_expression struct_expression unit_expression parenthesized_expression"
    ),
    precedence=_ops(["||", "&&", "== != < > <= >=", "|", "^", "&", "<< >>", "+ -", "* / %"]),
)
JAVA = Parens(
    syntax=names(
        "if_statement while_statement do_statement switch_expression switch_statement "
        "synchronized_statement"
    ),
    whole=_whole(
        {
            "": "return_statement throw_statement argument_list array_initializer "
            "parenthesized_expression",
            "value": "variable_declarator",
            "right": "assignment_expression",
            "body": "lambda_expression",
        }
    ),
    primary=names(
        "identifier this super decimal_integer_literal hex_integer_literal octal_integer_literal "
        "binary_integer_literal decimal_floating_point_literal hex_floating_point_literal "
        "string_literal character_literal true false null_literal class_literal field_access "
        "method_invocation array_access object_creation_expression parenthesized_expression"
    ),
    precedence=_ops(
        [
            "||",
            "&&",
            "|",
            "^",
            "&",
            "== !=",
            "< > <= >= instanceof",
            "<< >> >>>",
            "+ -",
            "* / %",
        ]
    ),
)


def inner(node: Any) -> Any:
    """The one expression inside a parenthesized node (None if not exactly one)."""
    found = [c for c in node.named_children if "comment" not in c.type]
    return found[0] if len(found) == 1 else None


def redundant(node: Any, rules: Parens) -> bool:
    """Whether the parenthesized `node` is a wrapper that can be left out."""
    parent, wrapped = node.parent, inner(node)
    if parent is None or wrapped is None or parent.type in rules.syntax:
        return False
    if wrapped.type in rules.never:
        return False
    field = _field(parent, node)
    if parent.type in rules.whole:
        fields = rules.whole[parent.type]
        if fields is None or field in fields:
            return not (parent.type == "arrow_function" and wrapped.type == "object")
    if wrapped.type in rules.primary:
        return _primary_ok(parent, field, wrapped)
    if wrapped.type == rules.binary and parent.type == rules.binary:
        return _binary_ok(parent, field, wrapped, rules)
    return False


def _primary_ok(parent: Any, field: str | None, wrapped: Any) -> bool:
    if parent.type == "new_expression" and field == "constructor":
        return bool(wrapped.type == "identifier")  # new (f())() is not new f()()
    if parent.type == "call_expression" and wrapped.type == "field_expression":
        return field != "function"  # Rust: (self.f)() calls a field, self.f() a method
    return not _optional_chain(wrapped)


def _optional_chain(node: Any) -> bool:
    """Whether a member or call chain holds `?.` ((a?.b).c is not a?.b.c)."""
    while node is not None and node.child_count:
        if any(c.type == "optional_chain" for c in node.children):
            return True
        node = node.child_by_field_name("object") or node.child_by_field_name("function")
    return False


def _binary_ok(parent: Any, field: str | None, wrapped: Any, rules: Parens) -> bool:
    outer_op, inner_op = _operator(parent), _operator(wrapped)
    outer = rules.precedence.get(outer_op, 0)
    here = rules.precedence.get(inner_op, 0)
    if not outer or not here:
        return False
    if here > outer:
        return True
    return here == outer and field == "left" and inner_op not in rules.right


def _operator(node: Any) -> str:
    op = node.child_by_field_name("operator")
    return bytes(op.text).decode() if op is not None else ""


def _field(parent: Any, child: Any) -> str | None:
    for i, c in enumerate(parent.children):
        if c == child:
            name: str | None = parent.field_name_for_child(i)
            return name
    return None
