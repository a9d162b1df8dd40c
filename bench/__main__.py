"""Entry point: ``python -m bench [--quick] [--only NAME] [--json PATH]``."""

from bench._cli import main

raise SystemExit(main())
