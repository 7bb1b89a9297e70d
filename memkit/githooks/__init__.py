"""memkit's git hooks: installing them, the pre-commit fast path (standard library
only), the checks a commit runs, and the merge driver for compiled files."""
