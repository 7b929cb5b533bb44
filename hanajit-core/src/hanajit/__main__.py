"""``python -m hanajit``: the same command line as the ``hanajit`` script."""
import sys

from .cli import main

sys.exit(main())
