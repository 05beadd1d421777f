"""`python -m cardtui` runs the command line."""

from cardtui.cli import main

main()
