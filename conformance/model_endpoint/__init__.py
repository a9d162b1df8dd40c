"""The kit plays the model over HTTP: an OpenAI-compatible chat-completions endpoint on loopback.

For an IUT that declares the ``MODEL_ENDPOINT`` capability, the adapters start a
:class:`ModelEndpoint` per Run, hand its :meth:`~ModelEndpoint.descriptor` to the IUT in the
``run`` message (``model_endpoint``), and add the requests it received to the observation
(``model_requests``). The IUT's own model client, SDK, retries and timeouts are then exercised for
real, and the checks see every request (``conformance.checks.check_model_inputs``).
"""

from conformance.model_endpoint._replies import COT_CANARY
from conformance.model_endpoint._server import (
    API_KEY,
    COMPONENTS,
    MAX_BODY_BYTES,
    STARVATION_MARGIN_S,
    ModelEndpoint,
)

__all__ = [
    "API_KEY",
    "COMPONENTS",
    "COT_CANARY",
    "MAX_BODY_BYTES",
    "STARVATION_MARGIN_S",
    "ModelEndpoint",
]
