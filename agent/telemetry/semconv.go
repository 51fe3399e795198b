package telemetry

import "go.opentelemetry.io/otel/attribute"

// The GenAI semantic conventions' names, as semconv v1.40.0 spells them
// (the Go module's later semconv packages no longer carry gen_ai.*).
const (
	keyOperation       = attribute.Key("gen_ai.operation.name")
	keyProvider        = attribute.Key("gen_ai.provider.name")
	keyRequestModel    = attribute.Key("gen_ai.request.model")
	keyFinishReasons   = attribute.Key("gen_ai.response.finish_reasons")
	keyInputTokens     = attribute.Key("gen_ai.usage.input_tokens")
	keyOutputTokens    = attribute.Key("gen_ai.usage.output_tokens")
	keyCacheReadTokens = attribute.Key("gen_ai.usage.cache_read.input_tokens")
	keyConversation    = attribute.Key("gen_ai.conversation.id")
	keyAgentName       = attribute.Key("gen_ai.agent.name")
	keyToolName        = attribute.Key("gen_ai.tool.name")
	keyToolCallID      = attribute.Key("gen_ai.tool.call.id")
	keyToolType        = attribute.Key("gen_ai.tool.type")
	keyToolArguments   = attribute.Key("gen_ai.tool.call.arguments")
	keyToolResult      = attribute.Key("gen_ai.tool.call.result")
	keyInputMessages   = attribute.Key("gen_ai.input.messages")
	keyOutputMessages  = attribute.Key("gen_ai.output.messages")
	keyTokenType       = attribute.Key("gen_ai.token.type")
	keyErrorType       = attribute.Key("error.type")
)

// The operation names keel's spans carry.
const (
	opChat        = "chat"
	opExecuteTool = "execute_tool"
	opInvokeAgent = "invoke_agent"
)

// keel's own attributes.
const (
	keySessionID        = attribute.Key("keel.session.id")
	keyResumed          = attribute.Key("keel.session.resumed")
	keyTaskSeq          = attribute.Key("keel.task.seq")
	keyStopReason       = attribute.Key("keel.task.stop_reason")
	keyTaskRounds       = attribute.Key("keel.task.rounds")
	keyTaskToolCalls    = attribute.Key("keel.task.tool_calls")
	keyRoundSeq         = attribute.Key("keel.round.seq")
	keyFirstTokenMS     = attribute.Key("keel.round.first_token_ms")
	keyResponseMS       = attribute.Key("keel.round.response_ms")
	keyRetries          = attribute.Key("keel.round.retries")
	keyCost             = attribute.Key("keel.cost_usd")
	keyCheckpoint       = attribute.Key("keel.checkpoint")
	keyGuard            = attribute.Key("keel.guard.intervention")
	keyPlanStep         = attribute.Key("keel.plan.step")
	keyPlanStepTitle    = attribute.Key("keel.plan.step.title")
	keyPlanStatus       = attribute.Key("keel.plan.status")
	keyToolOutcome      = attribute.Key("keel.tool.outcome")
	keyToolRunMS        = attribute.Key("keel.tool.run_ms")
	keyToolExitCode     = attribute.Key("keel.tool.exit_code")
	keyPermission       = attribute.Key("keel.permission.decision")
	keyPermissionBy     = attribute.Key("keel.permission.decided_by")
	keyInterventionKind = attribute.Key("keel.intervention.kind")
	keyInterventionAct  = attribute.Key("keel.intervention.action")
	keyInterventionAt   = attribute.Key("keel.intervention.at_tool_call")
	keyInterventionWhy  = attribute.Key("keel.intervention.why")
	keyInterventionMsg  = attribute.Key("keel.intervention.message")
	keyPrompt           = attribute.Key("keel.task.prompt")
	keyWorkspace        = attribute.Key("keel.workspace")
)

// agentName is gen_ai.agent.name on a task's span.
const agentName = "keel"
