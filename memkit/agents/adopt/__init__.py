"""The parts of `memkit import`: finding instruction files, reading them, adopting them.

sources.py finds every file an agent would load and says what it skips; markdown.py
cuts a file into sections, keeping each one's lines; scope.py turns a format's front
matter into `paths`, `description` and `activation`; adopt.py rewrites imported files
so each instruction reaches an agent once. memkit/agents/adopt/importer.py runs them.
"""
