"""``python -m conformance.selftest``: refresh the seed order (selftest/killers.json)."""

from conformance.selftest._seed import main

main()
