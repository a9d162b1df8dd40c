"""Entry point: ``python -m bench.mutation [--modules PATH ...] [--sample N] [--seed S]``."""

from bench.mutation._cli import main

raise SystemExit(main())
