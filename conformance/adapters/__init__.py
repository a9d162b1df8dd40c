"""IUT adapters of the SRDH conformance kit: one interface over every implementation.

* :class:`InProcessAdapter` — a Python IUT created by ``"module:factory"``;
* :class:`StdioAdapter` — any IUT started as a subprocess speaking NDJSON adapter messages
  (``hello`` → ``run``/``observation`` → ``bye``), every message validated both ways against
  ``schemas/adapter-message.schema.json``.

Both expose ``hello() -> dict``, ``run(fixture) -> RunObservation dict``, ``close()`` and
``capabilities``; every protocol failure is an :class:`AdapterError`. :class:`RecordingAdapter`
wraps either and keeps every ``(fixture, observation)`` pair.

The stdio adapter supervises its IUT: one deadline per awaited message, a maximum message size
(``max_message_bytes``, :data:`DEFAULT_MAX_MESSAGE_BYTES`), the IUT's own process group ended
after ``bye`` and on every failure, :func:`supervise_signals` for SIGINT/SIGTERM/SIGHUP, and
late protocol errors kept as :class:`ProtocolViolation` values.

Both run a fixture again when its Run shows a timely scripted answer ended by the IUT's own
timeout (a starved machine, not the script, decided it), up to :data:`STARVED_RUNS` Runs
(``docs/decisions/races.md``).
"""

from conformance.adapters._errors import AdapterError, ObservationContractError, ProtocolViolation
from conformance.adapters._exchange import (
    EXCHANGE_FILE,
    RUN_FILE,
    ExchangeRecorder,
    RecordingError,
    ReplayAdapter,
    check_recording,
    read_run_options,
)
from conformance.adapters._inprocess import InProcessAdapter
from conformance.adapters._process import (
    RunInterrupted,
    interrupt,
    interruption,
    kill_all_children,
    supervise_signals,
)
from conformance.adapters._protocol import PROTOCOL_VERSION, Adapter, message_problems
from conformance.adapters._recording import RecordingAdapter
from conformance.adapters._starved import STARVED_RUNS
from conformance.adapters._stdio import (
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_TIMEOUT_S,
    MAX_MESSAGE_DEPTH,
    StdioAdapter,
)

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_TIMEOUT_S",
    "EXCHANGE_FILE",
    "MAX_MESSAGE_DEPTH",
    "PROTOCOL_VERSION",
    "RUN_FILE",
    "STARVED_RUNS",
    "Adapter",
    "AdapterError",
    "ExchangeRecorder",
    "InProcessAdapter",
    "ObservationContractError",
    "ProtocolViolation",
    "RecordingAdapter",
    "RecordingError",
    "ReplayAdapter",
    "RunInterrupted",
    "StdioAdapter",
    "adapter_from_options",
    "check_recording",
    "interrupt",
    "interruption",
    "kill_all_children",
    "message_problems",
    "read_run_options",
    "supervise_signals",
]


def adapter_from_options(
    module: str | None = None,
    command: str | list[str] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> Adapter:
    """Return the adapter named by exactly one of ``module`` (``MOD:FACTORY``) or ``command``.

    Raises:
        AdapterError: neither or both are given.
    """
    if (module is None) == (command is None):
        reason = "name the IUT with exactly one of a module ('MOD:FACTORY') or a command"
        raise AdapterError(reason)
    if module is not None:
        return InProcessAdapter(module)
    assert command is not None  # noqa: S101 - checked above
    return StdioAdapter(command, timeout_s)
