"""What the search index holds for each memory: the whoosh schema and one memory's fields.

Free words search `text` (title, keywords and body, weighted by the analyzer); the
other text fields answer field queries (`title:`, `tag:`, `path:`, `link:`), the ID
fields exact ones (`id:`, `type:`, `status:`); stored fields come back with each hit.
SCHEMA_VERSION is recorded in the index's manifest: bump it when the schema or the
analysis changes, and every index is rebuilt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memkit.search._whoosh import ID, STORED, TEXT, Schema
from memkit.search.analysis import ANALYZER, KEYWORDS_END, TITLE_END

if TYPE_CHECKING:
    from memkit.memory import Memory

SCHEMA_VERSION = 5


def schema() -> Any:
    """The whoosh schema; `title`, `paths` and `symbols` keep no positions (no phrases)."""
    ana = ANALYZER
    return Schema(
        path=ID(unique=True, stored=True),
        id=ID(stored=True),
        title=TEXT(analyzer=ana, stored=True, phrase=False),
        text=TEXT(analyzer=ana),
        tags=TEXT(analyzer=ana),
        paths=TEXT(analyzer=ana, phrase=False),
        symbols=TEXT(analyzer=ana, phrase=False),
        type=ID(stored=True),
        status=ID(stored=True),
        expires=STORED(),
        recency=STORED(),
    )


def document(mem: Memory) -> dict[str, Any]:
    """The index fields of one memory."""
    recency = mem.updated or mem.created
    return {
        "path": mem.path,
        "id": mem.id,
        "title": mem.title,
        "text": f"{mem.title}{TITLE_END}{' '.join((*mem.tags, *mem.paths, *mem.links))}"
        f"{KEYWORDS_END}{mem.body}",
        "tags": " ".join(mem.tags),
        "paths": " ".join(mem.paths),
        "symbols": " ".join(mem.links),
        "type": mem.type,
        "status": mem.status,
        "expires": mem.expires.isoformat() if mem.expires else "",
        "recency": recency.isoformat() if recency else "",
    }
