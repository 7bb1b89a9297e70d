"""`python -m memkit`: the command line (memkit.cli)."""

from memkit.cli import main

main(prog_name="memkit")
