"""What parsing one source file yields: its file fingerprint and its symbols."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from memkit.errors import MemkitError
from memkit.staleness.fingerprints import SymbolPrint


class Unparsable(MemkitError):
    """A source file could not be parsed (or its language is not supported)."""


class LinkError(MemkitError):
    """A link names a file or symbol that does not exist."""


class LazyPrints(Mapping[str, SymbolPrint]):
    """Symbol name -> fingerprint, each computed the first time it is asked for.

    A file is parsed for the few symbols linked into it; digesting every definition
    in it up front cost more than the parse.
    """

    def __init__(self, nodes: dict[str, Any], make: Callable[[Any], SymbolPrint]) -> None:
        self._nodes = nodes
        self._make = make
        self._done: dict[str, SymbolPrint] = {}

    def __getitem__(self, name: str) -> SymbolPrint:
        found = self._done.get(name)
        if found is None:
            found = self._done[name] = self._make(self._nodes[name])
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._nodes

    def __iter__(self) -> Iterator[str]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


@dataclass(frozen=True)
class Parsed:
    # the file fingerprint, or a function computing it (only file links need it)
    file_print: str | Callable[[], str]
    symbols: Mapping[str, SymbolPrint] = field(default_factory=dict)
    # a symbol's code as tokens, its own name left out (for near-move detection)
    token_source: Callable[[str], tuple[str, ...]] | None = None
    # how many tokens a symbol's body holds, braces left out (tiny bodies identify nothing)
    size_source: Callable[[str], int | None] | None = None
    _tokens: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    _bodies: dict[str, list[str]] = field(default_factory=dict, compare=False, repr=False)

    def tokens(self, name: str) -> tuple[str, ...]:
        """The tokens of symbol `name` (empty when unknown), computed once on demand."""
        if self.token_source is None or name not in self.symbols:
            return ()
        if name not in self._tokens:
            self._tokens[name] = self.token_source(name)
        return self._tokens[name]

    def body_size(self, name: str) -> int | None:
        """The number of tokens in symbol `name`'s body (None when unknown)."""
        if self.size_source is None or name not in self.symbols:
            return None
        return self.size_source(name)

    @property
    def file(self) -> str:
        return self.file_print if isinstance(self.file_print, str) else self.file_print()

    def find_body(self, body: str) -> list[str]:
        """Names of symbols whose body digest is `body` (every symbol's print is read
        once, on the first call: a check looks for many missing symbols in one file)."""
        if not self._bodies and self.symbols:
            for name, p in self.symbols.items():
                self._bodies.setdefault(p.body, []).append(name)
            for names in self._bodies.values():
                names.sort()
        return list(self._bodies.get(body, ()))
