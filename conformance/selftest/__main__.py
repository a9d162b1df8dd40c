"""``python -m conformance.selftest``: refresh the seed order (selftest/killers.json)."""

from conformance.selftest._refresh import main

main()
