Feature: Phase gates SHALL remain serial
  Eleven OpenSpec changes run in order; a change starts only when its predecessor is archived and
  committed, and the public Chat entry stays on the legacy path until stage 6B.

  @spec @requirement:phase-gates-shall-remain-serial @scenario:stage-4-completes-internal-agent-tests
  Scenario: Stage 4 completes internal Agent tests
    Given the stage-zero contracts
    When stage 4 passes its focused tests but stage 5 Guards are not implemented
    Then the public Chat entry remains on the old path and stage 6B cutover is prohibited
