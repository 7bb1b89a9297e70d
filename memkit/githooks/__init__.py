"""memkit's git hooks: installing them (install: the script hook.sh, with its own check
precheck.awk), the Python entry point with its standard-library answers (fastpath) and
the derived index both read (index, whose Opener gives the run one Store(once=True)), the
checks a commit runs (checks), and the merge driver for compiled files (mergedriver).
They call the core, never the command line.
"""

# What `memkit hooks run HOOK` runs: the installed hook's checks, or one of them alone
# (the pre-commit framework's hooks). Here, not in checks: the command line lists them.
HOOKS = ("pre-commit", "pre-merge-commit", "validate", "compile", "stale")
