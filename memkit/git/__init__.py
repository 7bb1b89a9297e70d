"""Everything memkit asks of git, through pygit2 (which only memkit.git.repo imports).

repo (opening the repository, revisions, shallow clones, the default branch), objects
(every read by id: what a partial clone lacks is fetched, what a shallow one lacks is
named), commit
(identity and committing exact paths), changes (TreeChanges: what changed between
two states), blobs (file contents at a revision, in the index or on disk), trees
(reading raw tree objects), history (file and folder history walks). The public API
is re-exported here: `from memkit import git; git.open_repo(path)`.

Importing this package imports none of its modules (memkit.git.plain, say, answers
`memkit verify` without the history walks): each name below is imported from its
module when first asked for.
"""

from __future__ import annotations

from memkit.lazy import attach

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memkit.git.blobs import blob_at, files_at, read_at, read_blob, tracked_paths
    from memkit.git.changes import (
        TreeChanges,
        changes_since,
        local_changes,
        range_changes,
        staged_changes,
    )
    from memkit.git.commit import check_identity, commit_paths, signature
    from memkit.git.history import (
        FileChange,
        FileHistory,
        file_history,
        find_deletion,
        folder_changes,
    )
    from memkit.git.objects import MissingObjectError, missing_commit, prefetch
    from memkit.git.repo import (
        DEEPEN,
        default_branch,
        find_repo,
        head_commit,
        is_shallow,
        merge_base_with_default,
        open_repo,
        prefix,
        require_commits,
        resolve,
        shallow_commits,
        workdir,
    )

# module -> the names it exports
_HOME = {
    name: f"memkit.git.{module}"
    for module, names in {
        "blobs": "blob_at files_at read_at read_blob tracked_paths",
        "changes": "TreeChanges changes_since local_changes range_changes staged_changes",
        "commit": "check_identity commit_paths signature",
        "history": "FileChange FileHistory file_history find_deletion folder_changes",
        "objects": "MissingObjectError missing_commit prefetch",
        "repo": "DEEPEN default_branch find_repo head_commit is_shallow merge_base_with_default "
        "open_repo prefix require_commits resolve shallow_commits workdir",
    }.items()
    for name in names.split()
}

__all__ = [
    "DEEPEN",
    "FileChange",
    "FileHistory",
    "MissingObjectError",
    "TreeChanges",
    "blob_at",
    "changes_since",
    "check_identity",
    "commit_paths",
    "default_branch",
    "file_history",
    "files_at",
    "find_deletion",
    "find_repo",
    "folder_changes",
    "head_commit",
    "is_shallow",
    "local_changes",
    "merge_base_with_default",
    "missing_commit",
    "open_repo",
    "prefetch",
    "prefix",
    "range_changes",
    "read_at",
    "read_blob",
    "require_commits",
    "resolve",
    "shallow_commits",
    "signature",
    "staged_changes",
    "tracked_paths",
    "workdir",
]


__getattr__ = attach(__name__, _HOME)
