// Hand-written, compiled with the generated types in CI (`make typescript`): proves that the
// discriminated unions narrow (every `switch` below is exhaustive, checked through `never`) and
// shows how an IUT written in TypeScript reads and writes the stdio protocol. See docs/types.md.
import type {
  AdapterMessage,
  Contracts,
  HelloMessage,
  ObservationMessage,
  PublishedResult,
  RunObservation,
  RunTraceEvent,
} from "./contracts";

function unreachable(value: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(value)}`);
}

/** One line about a trace event; `event.data` narrows with `event.type`. */
export function describeEvent(event: RunTraceEvent): string {
  switch (event.type) {
    case "RUN_STARTED":
      return `run ${event.run_id} started (session ${event.data.session_id})`;
    case "PREVIOUS_TURN_SELECTED":
      return `previous turn ${event.data.selected_run_id ?? "none"}, ${event.data.skipped.length} skipped`;
    case "INTENT_ROUTED":
      return `intent ${event.data.intent}`;
    case "MODEL_CALL_STARTED":
    case "MODEL_CALL_FINISHED":
      return `${event.data.component} call ${event.data.call_index} attempt ${event.data.attempt}`;
    case "TOOL_CALL_ACCEPTED":
      return `accepted ${event.data.tool_call_id} (${event.data.tool_name})`;
    case "TOOL_CALL_REJECTED":
      return `rejected ${event.data.presented_id ?? "(absent)"}: ${event.data.reason}`;
    case "INVOCATION_STATUS_CHANGED":
      return `${event.data.tool_call_id} is ${event.data.status}`;
    case "EVIDENCE_CLASSIFIED":
      return `${event.data.tool_call_id}: ${event.data.evidence_status}`;
    case "DRAFT_SUBMITTED":
      return `draft attempt ${event.data.attempt} (${event.data.result_kind})`;
    case "EVIDENCE_VALIDATION":
      return `validation ${event.data.valid ? "passed" : `failed: ${event.data.violations.map((v) => v.code).join(", ")}`}`;
    case "STRUCTURAL_REPAIR_REQUESTED":
      return `repair requested for ${event.data.violations.length} violation(s)`;
    case "SEMANTIC_VERDICT":
      return `verdict ${event.data.verdict}`;
    case "CANCEL_REQUESTED":
      return `cancel: ${event.data.cause}`;
    case "NEW_WORK_PREVENTED":
    case "INTERRUPT_REQUESTED":
      return event.type;
    case "TOOL_WORK_CANCELLED":
      return `tool work ${event.data.tool_call_id} cancelled`;
    case "LATE_RESULT_DISCARDED":
      return `late ${event.data.component} result discarded`;
    case "RESULT_RELEASED":
      return `released ${event.data.kind}`;
    case "RUN_FINISHED":
      return `finished ${event.data.state}`;
    default:
      return unreachable(event);
  }
}

/** The released body, narrowed by `kind`. */
export function releasedText(result: PublishedResult): string {
  switch (result.kind) {
    case "DIAGNOSIS_DRAFT":
      return result.diagnosis_draft.conclusion.summary;
    case "KNOWLEDGE_ANSWER":
      return result.knowledge_answer.items.map((item) => item.text).join("\n");
    case "SAFE_FALLBACK":
      return result.safe_fallback.message_code;
    case "PUBLIC_ERROR":
      return result.public_error.error_code;
    default:
      return unreachable(result);
  }
}

/** What an IUT answers to each kit message (the `run` case builds its observation). */
export function answer(
  message: AdapterMessage,
  run: (fixture: Contracts["scenario-fixture"]) => RunObservation,
): AdapterMessage | null {
  switch (message.type) {
    case "run": {
      const reply: ObservationMessage = {
        type: "observation",
        request_id: message.request_id,
        observation: run(message.fixture),
      };
      return reply;
    }
    case "bye":
      return null;
    case "hello":
    case "observation":
    case "error":
      return { type: "error", request_id: null, code: "UNEXPECTED", message: message.type };
    default:
      return unreachable(message);
  }
}

export const hello: HelloMessage = {
  type: "hello",
  protocol_version: "2.0",
  implementation: { name: "my-harness", version: "1.2.0" },
  capabilities: ["DIAGNOSIS", "KNOWLEDGE_QUERY", "MODEL_ENDPOINT"],
};
