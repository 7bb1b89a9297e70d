from memkit.cli import main

main(prog_name="memkit")
