#!/usr/bin/env bash
# Claude Code's documented way to print the answer's text as it streams.
set -euo pipefail
claude -p "$1" --output-format stream-json --verbose --include-partial-messages | \
  jq -rj 'select(.type == "stream_event" and .event.delta.type? == "text_delta") | .event.delta.text'
