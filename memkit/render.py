"""Render outputs through the jinja2 templates, fitted to each file's size budget.

Built-in templates live in the top-level templates/ directory; a project overrides
any of them with a file of the same name in .memory/templates/. Entries are
rendered lazily and once each, so a budget that keeps 40 of 10,000 memories in
full renders about 40 bodies, not 10,000.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memkit import mdtext, sections
from memkit.errors import MemkitError
from memkit.memory import TYPES, Memory
from memkit.states import MemoryStatus
from memkit.targets import Output

ENTRY_LEVEL = 3  # "### title" under "## Group"; bodies' headings start below it
GROUP_TITLES = dict(zip(TYPES, ("Decisions", "Conventions", "Gotchas", "Procedures",
                                "Episodes", "Preferences", "Notes"), strict=True))  # fmt: skip
_PLAIN = re.compile(r"[A-Za-z0-9_./][^:#'\"`\\]*(?<! )")


@dataclass(frozen=True)
class Fitted:
    """A file's text as fitted to its budget (None: the file should not exist)."""

    text: str | None
    index: tuple[Memory, ...] = ()  # shortened to one line
    left_out: int = 0  # only counted
    over: bool = False  # over budget even with no memory in full


def yaml_str(value: str) -> str:
    """A double-quoted YAML scalar (JSON strings are valid YAML)."""
    return json.dumps(value, ensure_ascii=False)


def yaml_plain(value: str) -> str:
    """A plain YAML scalar when that parses back to the same string, else a quoted one."""
    return value if _PLAIN.fullmatch(value) else yaml_str(value)


class Renderer:
    def __init__(
        self,
        overrides: Path,
        statuses: Mapping[str, MemoryStatus],
        cache: Path | None = None,
        cache_key: bytes | None = None,
    ) -> None:
        self.overrides = overrides
        self.cache = cache  # compiled templates are kept here (jinja2 bytecode cache)
        self.cache_key = cache_key  # signs that cache: only bytecode memkit wrote is loaded
        self.statuses = statuses
        self._env: Any = None
        self._entries: dict[tuple[str, bool], str] = {}
        self._lines: dict[str, str] = {}

    def stale(self, m: Memory) -> str:
        status = self.statuses.get(m.id)
        return status.describe() if status is not None and status.stale else ""

    def render(self, name: str, **context: Any) -> str:
        import jinja2
        import jinja2.sandbox

        if self._env is None:
            from memkit.resources import templates_dir

            loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(self.overrides),
                                          jinja2.FileSystemLoader(templates_dir())])  # fmt: skip
            # Sandboxed: an override template arrives in a pull request like any file,
            # and a plain Environment lets `{{ self.__init__.__globals__ }}` run code.
            self._env = jinja2.sandbox.SandboxedEnvironment(
                loader=loader, autoescape=False, trim_blocks=True, lstrip_blocks=True,
                keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
                bytecode_cache=_bytecode_cache(self.cache, self.cache_key)
                if self.cache and self.cache_key else None,
            )  # fmt: skip
            self._env.filters.update(yaml_str=yaml_str, yaml_plain=yaml_plain)
        try:
            return str(self._env.get_template(name).render(**context))
        except jinja2.TemplateNotFound:
            raise MemkitError(f"template {name} is missing from memkit's templates/") from None
        except jinja2.TemplateError as e:
            line = getattr(e, "lineno", None)
            where = f"{name}:{line}" if line else name
            raise MemkitError(
                f"template {where} (in .memory/templates/ or memkit's own) failed: {e}; "
                "fix the template or delete the override"
            ) from None

    def entry(self, m: Memory, scoped: bool) -> str:
        key = (m.id, scoped)
        if key not in self._entries:
            applies = "" if scoped else ", ".join(f"`{g}`" for g in m.paths)
            self._entries[key] = self.render(
                "memory.md.j2", memory=m, title=mdtext.inline(m.title), hashes="#" * ENTRY_LEVEL,
                applies=applies, stale=self.stale(m), body=mdtext.embed(m.body, ENTRY_LEVEL + 1),
            ).strip("\n") + "\n"  # fmt: skip
        return self._entries[key]

    def line(self, m: Memory) -> str:
        if m.id not in self._lines:
            text = self.render("index_entry.md.j2", memory=m, title=mdtext.inline(m.title),
                               stale=self.stale(m))  # fmt: skip
            self._lines[m.id] = text.strip("\n")
        return self._lines[m.id]

    def section(self, out: Output, full: Sequence[Memory], index: Sequence[Memory],
                left_out: int) -> str:  # fmt: skip
        groups: dict[str, list[str]] = {}  # in the order of each type's best-ranked memory
        for m in full:
            groups.setdefault(m.type, []).append(self.entry(m, out.scoped))
        text = self.render(
            "section.md.j2", budget=str(out.budget), left_out=left_out,
            groups=[{"title": GROUP_TITLES[t], "entries": e} for t, e in groups.items()],
            index=[self.line(m) for m in index],
        )  # fmt: skip
        return text.strip("\n") + "\n" if text.strip() else ""

    def file(self, out: Output, section: str | None) -> str | None:
        """A whole file (owned by memkit) around `section`; None when there is none."""
        if section is None:
            return None
        text = self.render(out.template, header=sections.GENERATED,
                           section=section.rstrip("\n"), **out.context)  # fmt: skip
        if not sections.owns(text):
            raise MemkitError(
                f"template {out.template} must keep the `{{{{ header }}}}` line on a line of its "
                "own: memkit recognises the files it owns by it"
            )
        return text

    def fit(self, out: Output, existing: str | None) -> Fitted:
        """The file with as many memories in full as its budget allows, then one-liners."""
        ms = out.memories
        frame: Callable[[str | None], str | None] = (
            functools.partial(self.file, out) if out.whole else sections.framer(existing, out.path)
        )
        if not ms:
            return Fitted(frame(None))
        if "import" in out.context:
            return Fitted(frame(self.render("claude_import.md.j2", **out.context)))

        def text(k: int, j: int) -> str:
            got = frame(self.section(out, ms[:k], ms[k : k + j], len(ms) - k - j))
            assert got is not None
            return got

        if len(ms) <= 64 and out.budget.fits(text(len(ms), 0)):  # most scoped files: one render
            return Fitted(text(len(ms), 0))
        if not out.budget.fits(text(0, 0)):
            return Fitted(text(0, 0), left_out=len(ms), over=True)
        # Room for at least one one-liner, so what does not fit in full is still named.
        k = _largest(lambda k: out.budget.fits(text(k, min(1, len(ms) - k))), len(ms))
        if k == len(ms):
            return Fitted(text(k, 0))
        j = _largest(lambda j: out.budget.fits(text(k, j)), len(ms) - k)
        return Fitted(text(k, j), tuple(ms[k : k + j]), len(ms) - k - j)


def _bytecode_cache(directory: Path, key: bytes) -> Any:
    """Compiled templates on disk (keyed by source checksum); a read-only store goes without.

    Cached bytecode is Python code run as it is loaded, and a pull request can carry
    files under .memory/.cache/ (ignored is not forbidden): each entry is signed with
    a key kept in the git directory, which is never pushed, and others are ignored.
    """
    import hashlib
    import hmac
    import io

    import jinja2

    from memkit.fsutil import atomic_write

    def sign(payload: bytes) -> bytes:
        return hmac.new(key, payload, hashlib.sha256).digest()

    class Cache(jinja2.FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Any) -> None:
            try:
                data = Path(self._get_cache_filename(bucket)).read_bytes()
            except OSError:
                return
            mac, payload = data[:32], data[32:]
            if hmac.compare_digest(mac, sign(payload)):
                bucket.load_bytecode(io.BytesIO(payload))

        def dump_bytecode(self, bucket: Any) -> None:
            buf = io.BytesIO()
            bucket.write_bytecode(buf)
            payload = buf.getvalue()
            with contextlib.suppress(OSError):
                atomic_write(Path(self._get_cache_filename(bucket)), sign(payload) + payload)

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return Cache(str(directory))


def _largest(ok: Callable[[int], bool], hi: int) -> int:
    """The largest n in [0, hi] with ok(n), ok being true up to some point (ok(0) holds).

    Gallops up from 0, so the cost follows the answer, not `hi`.
    """
    good, step = 0, 1
    while True:
        probe = min(good + step, hi)
        if probe == good:
            return good
        if not ok(probe):
            bad = probe
            break
        good, step = probe, step * 2
    while bad - good > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good
