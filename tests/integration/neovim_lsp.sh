#!/usr/bin/env bash
# Neovim, headless, drives `klint server` through its built-in LSP client
# (neovim_lsp.lua). Fails when nvim is not installed (tools/bootstrap installs
# Debian's neovim), unless KLINT_SKIP_NEOVIM=1, which skips it (exit 77,
# CTest's SKIP_RETURN_CODE).
# usage: neovim_lsp.sh KLINT_SOURCE_DIR KLINT_BINARY
set -euo pipefail

source_dir=$(cd "$1" && pwd)
klint_binary=$2

source "$source_dir/tests/integration/missing_tool.sh"
command -v nvim >/dev/null 2>&1 ||
  missing_tool "nvim is not installed" KLINT_SKIP_NEOVIM "tools/bootstrap installs it"

source "$source_dir/tests/integration/editor_scratch.sh"
editor_scratch neovim
# No user configuration, no plugins, no swap files: only the built-in client.
KLINT=$klint_binary KLINT_DIR=$scratch HOME=$scratch XDG_CONFIG_HOME=$scratch/config XDG_DATA_HOME=$scratch/data \
  XDG_STATE_HOME=$scratch/state timeout 120 nvim --headless --clean -n -u NONE \
  -c "luafile $source_dir/tests/integration/neovim_lsp.lua"
