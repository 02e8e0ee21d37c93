#!/usr/bin/env bash
# brain's main job on its embedded defaults: no API key, no network.
# Harvests the sample sessions in examples/ (a Claude Code and a Codex CLI session),
# distils them with the built-in model, consolidates, and shows what was learned.
set -euo pipefail
cd "$(dirname "$0")/.."

demo="$PWD/.demo"
rm -rf "$demo"
mkdir -p "$demo"
export BRAIN_HOME="$demo/home"
export CLAUDE_CONFIG_DIR="$PWD/examples/claude"
export CODEX_HOME="$PWD/examples/codex"
export GEMINI_CLI_HOME="$demo/no-gemini"
# The samples were recorded in 2026-09; let the age limits reach back to them.
export BRAIN_MAX_AGE_DAYS=36500 BRAIN_MAX_ROLLOUT_AGE_DAYS=36500
# A fresh checkout gives the sample files a new mtime; they are not sessions in progress.
export BRAIN_MIN_IDLE_MINUTES=0
brain=".venv/bin/brain"

step() { printf '\n\033[1m$ brain %s\033[0m\n' "$*"; "$brain" "$@"; }

step init
step harvest
step sessions list
step extract
step consolidate --force
step context --project /home/dev/webshop
step recall "which package manager for the frontend?"
step recall "can I push to main"
step log
printf '\nThe memory home is %s (a git repository; try: git -C %s log --stat).\n' \
  "$BRAIN_HOME" "$BRAIN_HOME"
