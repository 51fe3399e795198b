#!/usr/bin/env bash
# Claude Code's documented multi-turn pattern: keep the session id from a
# json result, continue the conversation with --resume.
set -euo pipefail
session_id=$(claude -p "$1" --output-format json | jq -r '.session_id')
claude -p "$2" --resume "$session_id" --output-format json | jq -r '.result'
