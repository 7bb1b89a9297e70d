"""Render outputs through the jinja2 templates (memkit.compile.fit decides what goes in).

Built-in templates live in the top-level templates/ directory; a project overrides
any of them with a file of the same name in .memory/templates/. Each memory's entry
and one-line form are rendered once, when a fit first asks for them.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from memkit.compile import markers as sections
from memkit.compile.budgets import NAMED_IN_FILE
from memkit.compile.targets import Output
from memkit.errors import MemkitError
from memkit.memory import TYPES, Memory
from memkit.staleness.verdict import MemoryStatus

ENTRY_LEVEL = 3  # "### title" under "## Group"; bodies' headings start below it
GROUP_TITLES = dict(
    zip(
        TYPES,
        ("Decisions", "Conventions", "Gotchas", "Procedures", "Episodes", "Preferences", "Notes"),
        strict=True,
    )
)


class Renderer:
    def __init__(
        self,
        root: Path,
        statuses: Mapping[str, MemoryStatus],
        cache: Path | None = None,
        *,
        overrides: bool = True,
    ) -> None:
        self.root = root  # overrides are read from root/.memory/templates/, safely
        self.overrides = overrides  # False: memkit's own templates only (the report)
        self.cache = cache  # compiled templates are kept here (jinja2 bytecode cache)
        self.statuses = statuses
        self._env: Any = None
        self._entries: dict[tuple[str, bool], str] = {}
        self._lines: dict[str, str] = {}

    def bounds(self) -> contextlib.AbstractContextManager[None]:
        """Time and memory bounds for rendering when the project overrides templates.

        memkit's own templates need none; an override is code from the repository.
        """
        try:
            overridden = self.overrides and any(os.scandir(self.root / OVERRIDES))
        except OSError:
            overridden = False
        if not overridden:
            return contextlib.nullcontext()
        from memkit.limits import bounded

        return bounded(seconds=RENDER_SECONDS, memory=RENDER_MEMORY, what="rendering templates")

    def stale(self, m: Memory) -> str:
        status = self.statuses.get(m.id)
        if status is None or not status.stale:
            return ""
        from memkit.compile import mdtext  # its patterns load only when text is rendered

        return mdtext.inline(status.describe())

    def render(self, template_name: str, /, **context: Any) -> str:
        import jinja2

        if self._env is None:
            self._env = _environment(self.root, self.cache, overrides=self.overrides)
        try:
            return _bounded_render(self._env.get_template(template_name), context)
        except jinja2.TemplateNotFound:
            raise MemkitError(
                f"template {template_name} is missing from memkit's templates/"
            ) from None
        except jinja2.TemplateError as e:
            line = getattr(e, "lineno", None)
            where = f"{template_name}:{line}" if line else template_name
            raise MemkitError(
                f"template {where} (in .memory/templates/ or memkit's own) failed: {e}; "
                "fix the template or delete the override"
            ) from None

    def entry(self, m: Memory, scoped: bool) -> str:
        key = (m.id, scoped)
        if key not in self._entries:
            from memkit.compile import mdtext

            applies = "" if scoped else ", ".join(mdtext.code_span(g) for g in m.paths)
            body = mdtext.embed(m.body, ENTRY_LEVEL + 1)
            # A raw-HTML block in the body's last paragraph runs on to a blank line: one
            # keeps the id line a block of its own (markers.wrap does the same).
            self._entries[key] = (
                self.render(
                    "memory.md.j2",
                    memory=m,
                    title=mdtext.inline(m.title),
                    hashes="#" * ENTRY_LEVEL,
                    applies=applies,
                    stale=self.stale(m),
                    body=body,
                    html_end=bool(sections.HTML_LINE.search(body[body.rfind("\n\n") + 1 :])),
                ).strip("\n")
                + "\n"
            )
        return self._entries[key]

    def line(self, m: Memory) -> str:
        if m.id not in self._lines:
            from memkit.compile import mdtext

            text = self.render(
                "index_entry.md.j2", memory=m, title=mdtext.inline(m.title), stale=self.stale(m)
            )
            self._lines[m.id] = text.strip("\n")
        return self._lines[m.id]

    def section(
        self, out: Output, full: Sequence[Memory], index: Sequence[Memory], left: Sequence[Memory]
    ) -> str:
        groups: dict[str, list[str]] = {}  # in the order of each type's best-ranked memory
        for m in full:
            groups.setdefault(m.type, []).append(self.entry(m, out.scoped))
        text = self.render(
            "section.md.j2",
            budget=str(out.budget),
            left_out=len(left),
            left_ids=[m.id for m in left[:NAMED_IN_FILE]],
            left_more=max(0, len(left) - NAMED_IN_FILE),
            groups=[{"title": GROUP_TITLES[t], "entries": e} for t, e in groups.items()],
            index=[self.line(m) for m in index],
        )
        return text.strip("\n") + "\n" if text.strip() else ""

    def file(self, out: Output, section: str | None) -> str | None:
        """A whole file (owned by memkit) around `section`; None when there is none."""
        if section is None:
            return None
        text = self.render(
            out.template, header=sections.GENERATED, section=section.rstrip("\n"), **out.context
        )
        if not sections.owns(text):
            raise MemkitError(
                f"template {out.template} must keep the `{{{{ header }}}}` line on a line of its "
                "own: memkit recognises the files it owns by it"
            )
        return text


OVERRIDES = ".memory/templates"
MAX_TEMPLATE_BYTES = 256 * 1024  # an override template's size
MAX_RENDER_CHARS = 16 * 1024 * 1024  # what one render may produce
RENDER_SECONDS = 60.0  # all rendering of one run, when override templates are in use
RENDER_MEMORY = 1024 * 1024 * 1024  # address space that rendering may add
# The first jinja2 whose sandbox holds against `|attr("format")` (CVE-2025-27516);
# older ones let an override template read the environment, so overrides are refused.
JINJA2_FIXED = (3, 1, 6)


def _check_jinja2(rel: str) -> None:
    """Refuse to render an override with a jinja2 whose sandbox is known to leak."""
    from importlib.metadata import version

    installed = version("jinja2")
    got = tuple(int(n) for n in re.findall(r"\d+", installed)[:3])
    if got < JINJA2_FIXED:
        fixed = ".".join(map(str, JINJA2_FIXED))
        raise MemkitError(
            f"{rel} needs jinja2 {fixed} or later, whose sandbox holds (this is {installed}); "
            f"run `pip install 'jinja2>={fixed}'` or delete the override"
        )


def _environment(root: Path, cache: Path | None, *, overrides: bool = True) -> Any:
    """The sandboxed jinja2 environment: overrides from the repository, then memkit's own
    (memkit's own alone with `overrides=False`).

    Sandboxed: an override template arrives in a pull request like any file, and a
    plain Environment lets `{{ self.__init__.__globals__ }}` run code. Overrides are
    read through memkit.fsutil.read_inside (no link out of the repository, no special
    file, a size limit); memkit's own templates come from the installed package.
    """
    import jinja2
    import jinja2.sandbox

    from memkit.compile.yamltext import yaml_plain, yaml_str
    from memkit.resources import templates_folder

    class Overrides(jinja2.BaseLoader):
        def get_source(self, env: Any, name: str) -> tuple[str, str, Callable[[], bool]]:
            from memkit.fsutil import read_inside

            rel = "/".join([OVERRIDES, *jinja2.loaders.split_template_path(name)])
            try:
                raw = read_inside(root, rel, limit=MAX_TEMPLATE_BYTES)
            except FileNotFoundError:
                raise jinja2.TemplateNotFound(name) from None
            _check_jinja2(rel)
            try:
                text = raw.decode("utf-8").removeprefix("\ufeff")  # a BOM is no output
            except UnicodeDecodeError:
                raise MemkitError(f"{rel} is not UTF-8; re-save it as UTF-8") from None
            return text, rel, lambda: False

    own = jinja2.FileSystemLoader(templates_folder())
    loader = jinja2.ChoiceLoader([Overrides(), own]) if overrides else own
    env = jinja2.sandbox.SandboxedEnvironment(
        loader=loader,
        autoescape=_html,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
        bytecode_cache=_bytecode_cache(cache) if cache else None,
    )
    env.filters.update(yaml_str=yaml_str, yaml_plain=yaml_plain)
    return env


def _html(name: str | None) -> bool:
    """Autoescape HTML templates (the report); markdown outputs are made safe by mdtext."""
    return name is not None and name.endswith(".html.j2")


def _bounded_render(template: Any, context: Mapping[str, Any]) -> str:
    """Render, stopping once the output passes MAX_RENDER_CHARS (see Renderer.bounds)."""
    out: list[str] = []
    size = 0
    # The template's own render function, as Template.render calls it: Template.generate
    # wraps it in a generator of its own, a frame switch for each of 100,000s of chunks.
    for chunk in template.root_render_func(template.new_context(context)):
        size += len(chunk)
        if size > MAX_RENDER_CHARS:
            raise MemkitError(
                f"template {template.name} produced over {MAX_RENDER_CHARS:,} characters; "
                "fix the template or delete the override"
            )
        out.append(chunk)
    return "".join(out)


def _bytecode_cache(directory: Path) -> Any:
    """Compiled templates on disk (keyed by source checksum); a read-only store goes without.

    Cached bytecode is Python code run as it is loaded: it lives in memkit's private
    folder (memkit.cachedir), where no pull request can put a file.
    """
    import jinja2

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(directory))
