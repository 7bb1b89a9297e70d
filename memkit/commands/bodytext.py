"""A new memory's text for `memkit add`: --body, --body-file, standard input or the editor."""

from __future__ import annotations

import sys
from typing import Any

import click

from memkit.errors import MemkitError

STDIN_WAIT = 1.0  # seconds `memkit add` waits for piped text before asking for --body


def read_body(body: str | None, body_file: str | None, use_editor: bool) -> str | None:
    """The text given by --body or --body-file (`-`: standard input), or piped in."""
    if body is not None and body_file is not None:
        raise MemkitError("give the body with --body or --body-file, not both")
    if body_file == "-":
        return _bounded_text(sys.stdin, "standard input")
    if body_file is not None:
        try:
            with open(body_file, encoding="utf-8") as f:
                return _bounded_text(f, f"--body-file {body_file}")
        except OSError as e:
            raise MemkitError(f"cannot read --body-file {body_file}: {e.strerror}") from None
    return _piped(required=not use_editor) if body is None else body


def _bounded_text(stream: Any, what: str) -> str:
    """At most a memory's worth of text from `stream` (/dev/zero must not eat memory)."""
    from memkit.memory import MAX_BYTES

    try:
        text: str = stream.read(MAX_BYTES + 1)
    except UnicodeDecodeError:
        raise MemkitError(f"{what} is not UTF-8 text; re-save it as UTF-8") from None
    if len(text) > MAX_BYTES:
        raise MemkitError(
            f"{what} holds more than {MAX_BYTES:,} characters, over the size of a memory; "
            "split it into smaller memories"
        )
    return text


def _piped(*, required: bool) -> str | None:
    """Text piped to `memkit add`, read only when some (or its end) arrives within STDIN_WAIT.

    A pipe that nobody writes to or closes (an agent's or CI's standard input) would
    otherwise keep `memkit add` waiting forever.
    """
    import select

    stream = sys.stdin
    if stream is None or stream.closed or stream.isatty():
        return None
    try:
        ready = select.select([stream], [], [], STDIN_WAIT)[0]
    except (OSError, ValueError):  # no descriptor to wait on (an in-memory stream), or Windows
        return _bounded_text(stream, "standard input")
    if ready:
        return _bounded_text(stream, "standard input")
    if not required:
        return None
    raise MemkitError(
        f"no text arrived on standard input within {STDIN_WAIT:g} s: give the body with "
        "--body TEXT, --body-file FILE (--body-file - waits for standard input) or --edit"
    )


def edit_new(mem: Any) -> Any:
    """`mem` as the person wrote it in their editor (`memkit add --edit`)."""
    from memkit import memory as mm

    try:
        edited = click.edit(mm.dumps(mem), extension=".md", require_save=False)
    except click.ClickException as e:
        raise MemkitError(
            f"the editor failed ({e.message}); nothing was added: set $VISUAL or $EDITOR "
            "to an editor that works here, or give the text with --body"
        ) from None
    if edited is None:
        raise MemkitError("the editor exited without saving; nothing was added")
    new = mm.parse(edited, mid=mem.id, path=f"{mem.id}.md (from the editor)")
    if not new.text.strip():
        raise MemkitError("the memory's text is empty; nothing was added")
    return new
