"""memkit's git hooks: installing the pre-commit hook (install), the script's own check
before Python starts and the record it reads (precheck), the entry point and
standard-library fast path (fastpath) with the derived index it reads (index), the
store a hook run loads once (pinned), the checks a commit runs (checks), and the merge
driver for compiled files (mergedriver). They call the core, never the command line.
"""

# What `memkit hooks run HOOK` runs: the installed hook's checks, or one of them alone
# (the pre-commit framework's hooks). Here, not in checks: the command line lists them.
HOOKS = ("pre-commit", "pre-merge-commit", "validate", "compile", "stale")
