"""Which project an MCP server serves, when clients start servers from anywhere.

In order: an explicit `--root` (or MEMKIT_ROOT); the project folder the agent names in
its environment (CLAUDE_PROJECT_DIR for Claude Code, WORKSPACE_FOLDER_PATHS for
Cursor); the roots the client declares (asked once, at the first tool call); the
working directory. Each candidate is the project if it, or a folder above it, holds
.memory/. When none does, the error names everything that was tried.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from memkit.errors import MemkitError
from memkit.store import Store

# Environment variables naming the project folder, as agents set them.
ENV_VARS = ("CLAUDE_PROJECT_DIR", "WORKSPACE_FOLDER_PATHS")


class NoProjectError(MemkitError):
    """No candidate led to a folder holding .memory/."""


def environment_candidates(env: Mapping[str, str]) -> list[tuple[str, str]]:
    """(where it came from, folder) from the agents' environment variables."""
    out = []
    for name in ENV_VARS:
        value = env.get(name, "")
        for part in value.split(",") if name == "WORKSPACE_FOLDER_PATHS" else [value]:
            if part.strip():
                out.append((name, part.strip()))
    return out


def root_candidates(uris: Iterable[str]) -> list[tuple[str, str]]:
    """(where it came from, folder) from the client's `file://` roots."""
    out = []
    for uri in uris:
        parsed = urlparse(uri)
        if parsed.scheme == "file" and parsed.path:
            out.append((f"the client's root {uri}", unquote(parsed.path)))
    return out


def pick(candidates: Iterable[tuple[str, str]], tried: list[str]) -> Path | None:
    """The first candidate inside a project; each one that is not is added to `tried`."""
    for origin, folder in candidates:
        if not os.path.isabs(folder) or "\x00" in folder:
            tried.append(f"{origin} ({folder!r} is not an absolute path)")
            continue
        here = Path(os.path.realpath(folder))
        found = next((p for p in (here, *here.parents) if (p / ".memory").is_dir()), None)
        if found is not None:
            return found
        tried.append(f"{origin} ({folder}: no .memory/ there or above)")
    return None


def explicit(root: Path | None) -> Path | None:
    """The `--root` / MEMKIT_ROOT folder, which must hold .memory/ itself."""
    if root is None:
        return None
    real = Path(os.path.realpath(root))
    if not (real / ".memory").is_dir():
        raise NoProjectError(f"--root {root}: no .memory/ directory there (run `memkit init`)")
    return real


class Project:
    """The store a server serves, found once: from the start-up candidates, else at the
    first tool call from the client's roots, then the working directory."""

    def __init__(self, root: Path | None, env: dict[str, str], cwd: str) -> None:
        self.tried: list[str] = []
        self.cwd = cwd
        found = explicit(root) or pick(environment_candidates(env), self.tried)
        self.store: Store | None = Store(found) if found else None

    async def get(self, ctx: Any) -> Store:
        """The store; `ctx` (the tool call's MCP context) asks the client for its roots."""
        if self.store is not None:
            return self.store
        tried = list(self.tried)
        uris: list[str] = []
        caps = ctx.client_capabilities if ctx is not None else None
        if caps is not None and caps.roots is not None:
            try:
                listed = await ctx.session.list_roots()
                uris = [str(r.uri) for r in listed.roots]
            except Exception as e:
                tried.append(f"the client's roots (asking failed: {e})")
        else:
            tried.append("the client's roots (it declares none)")
        found = pick([*root_candidates(uris), ("the working directory", self.cwd)], tried)
        if found is None:
            raise NoProjectError(
                f"memkit found no project to serve: tried {'; '.join(tried or ['nothing'])}. "
                "Start the server with `memkit --root DIR mcp`, or run `memkit init` in the project"
            )
        self.store = Store(found)
        return self.store
