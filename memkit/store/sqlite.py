"""SQLite files of derived data, opened only when they are exactly what memkit writes.

Derived data (the parse cache, the search index) lives in memkit's private folder,
but a file there may still be damaged, left by another version, or planted. Such a
file is opened with SQLite's `trusted_schema` off and used only when its
user_version and its whole schema (every table, index, trigger and view, as
sqlite_master lists them) are exactly those memkit creates; else the caller
rebuilds it. Standard library only.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
from pathlib import Path

BUSY_MS = 10_000  # how long a writer waits for another process's transaction


@functools.cache
def expected(schema: str) -> frozenset[tuple[str, str, str]]:
    """The rows sqlite_master lists for a database made with `schema`."""
    con = sqlite3.connect(":memory:")
    con.executescript(schema)
    rows = con.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    con.close()
    return frozenset(rows)


def open_checked(path: Path, schema: str, version: int) -> sqlite3.Connection | None:
    """The database at `path` in autocommit mode, or None when it is missing or not ours."""
    if not path.is_file():
        return None
    try:
        uri = f"{path.as_uri()}?mode=rw"
        con = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_MS / 1000)
    except sqlite3.Error:
        return None
    with contextlib.suppress(sqlite3.Error):
        con.execute("PRAGMA trusted_schema = OFF")
        if con.execute("PRAGMA user_version").fetchone()[0] == version:
            rows = frozenset(con.execute("SELECT type, name, sql FROM sqlite_master").fetchall())
            if rows == expected(schema):
                return con
    con.close()
    return None


def create(path: Path, schema: str, version: int) -> sqlite3.Connection | None:
    """A new database at `path` made with `schema` (replacing any file there), or None.

    It is written under a temporary name and renamed into place, so a reader never
    opens a half-made file.
    """
    tmp = path.with_name(f"{path.name}.{os.getpid()}.new")
    try:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        con = sqlite3.connect(tmp, isolation_level=None, timeout=BUSY_MS / 1000)
        con.executescript(f"PRAGMA user_version = {version}; {schema}")
        con.close()
        os.replace(tmp, path)
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + "-journal").unlink()
    except (OSError, sqlite3.Error):
        with contextlib.suppress(OSError):
            tmp.unlink()
        return None
    return open_checked(path, schema, version)
