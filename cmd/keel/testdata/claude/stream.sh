#!/usr/bin/env bash
# Reads a `claude -p --output-format stream-json` run with jq, as Claude
# Code's headless documentation does: the session id from the init line,
# the text of the assistant's messages, the tools it used, and the cost
# from the result. Kept word for word; TestClaudeCodeScriptsRunOnKeel runs
# it with `claude` leading to keel.
set -euo pipefail

claude -p "$1" --output-format stream-json --verbose > run.jsonl

session_id=$(jq -r 'select(.type == "system" and .subtype == "init") | .session_id' run.jsonl)
echo "session: $session_id"

jq -r 'select(.type == "assistant") | .message.content[] | select(.type == "text") | .text' run.jsonl

jq -r 'select(.type == "assistant") | .message.content[] | select(.type == "tool_use") | "tool: \(.name) \(.input | tojson)"' run.jsonl

jq -r 'select(.type == "result") | "cost: \(.total_cost_usd)"' run.jsonl
