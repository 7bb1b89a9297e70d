"""Compiling memories into each agent's instruction files.

plan.build runs the stages once each, in order: select (budgets.select: the memories
in force, ranked), place (chains.place: each agent's files from targets, fitted in the
order their budgets depend on each other), fit (fit: the most memories a budget
allows), render (render: jinja2 templates), write (write: what changes on disk, then
apply). current tells whether the compiled files are current without compiling
(record writes what it remembers); markers is memkit's section in shared files; mdtext
and yamltext make memory text safe to embed.
"""
