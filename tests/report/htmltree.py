"""A small element tree from the standard library's HTML parser, for structural assertions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


@dataclass
class El:
    tag: str
    attrs: dict[str, str]
    children: list[El | str] = field(default_factory=list)

    def iter(self) -> Iterator[El]:
        yield self
        for c in self.children:
            if isinstance(c, El):
                yield from c.iter()

    def find_all(self, tag: str | None = None, **attrs: str) -> list[El]:
        """Elements with `tag` whose attributes hold `attrs` (class_ matches one class)."""
        out = []
        for el in self.iter():
            if tag is not None and el.tag != tag:
                continue
            ok = True
            for k, v in attrs.items():
                if k == "class_":
                    ok = ok and v in el.attrs.get("class", "").split()
                else:
                    ok = ok and el.attrs.get(k.replace("_", "-")) == v
            if ok:
                out.append(el)
        return out

    def find(self, tag: str | None = None, **attrs: str) -> El:
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag or '*'}> with {attrs}"
        return found[0]

    def by_id(self, ident: str) -> El:
        return self.find(None, id=ident)

    def fact(self, term: str) -> str:
        """What follows `term` in this element's facts line (`term value · term value`)."""
        for part in self.find("p", class_="facts").text.split(" · "):
            if part.startswith(term + " "):
                return part[len(term) + 1 :]
        raise AssertionError(f"no {term!r} in the facts line")

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = El("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = El(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(El(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return
        raise AssertionError(f"</{tag}> closes nothing open")

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(text: str) -> El:
    b = _Builder()
    b.feed(text)
    b.close()
    assert [e.tag for e in b.stack] == ["#document"], f"unclosed: {[e.tag for e in b.stack]}"
    return b.root
