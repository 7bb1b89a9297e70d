"""Memories through git history: provenance (`log`, `show --at`), rollback (`revert`),
the memory-level diff of a range (`diff`, for pull-request review) and its formats,
and the history walks."""
