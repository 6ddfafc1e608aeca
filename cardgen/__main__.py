"""``python -m cardgen``: the same command line as the ``cardgen`` script."""

from cardgen.cli import main

main(prog_name="cardgen")
