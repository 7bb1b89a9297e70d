"""Compiling memories into each agent's instruction files.

plan (what to write, and writing it), targets (one class per agent format),
render (jinja2 templates fitted to budgets), fitcache (those fits remembered between
runs), current (whether the compiled files are current, told without compiling;
record writes what it remembers), markers (memkit's section in shared files), mdtext
and yamltext (memory text made safe to embed).
"""
