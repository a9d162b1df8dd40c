"""A conforming Harness that takes none of the spec's optional retries, and says so.

The reference Harness with a retry policy of one attempt for every component, declaring neither
``ROUTER_RETRY`` nor ``SEMANTIC_RETRY`` (RFC 2119 "may": "Harness may execute one second
attempt", "any allowed Router ... retry"). The suite must pass it, reporting those behaviours as
optional, not implemented.
"""

from types import MappingProxyType

from reference_harness._retry import RetryPolicy
from reference_harness.iut import CAPABILITIES
from reference_harness.mutants import MutantIUT, MutantSpec

_SPEC = MutantSpec(
    "non-retrying",
    "retry-attempts-shall-be-owned-by-harness",
    "none (a conforming Harness without the optional retries)",
    retry=RetryPolicy(
        max_attempts=MappingProxyType({"ROUTER": 1, "DIAGNOSIS_AGENT": 1, "SEMANTIC_GUARD": 1})
    ),
    capabilities=tuple(c for c in CAPABILITIES if c not in {"ROUTER_RETRY", "SEMANTIC_RETRY"}),
)


def create() -> MutantIUT:
    """Return the non-retrying IUT."""
    iut = MutantIUT(_SPEC)
    iut.implementation_name = "non-retrying-harness"
    return iut
