#!/usr/bin/env bash
# Emacs, in batch, drives `klint server` through eglot (eglot_lsp.el), with
# the setup docs/editors.md gives. Fails when emacs or eglot is not installed
# (tools/bootstrap installs Debian's emacs-nox and elpa-eglot), unless
# KLINT_SKIP_EGLOT=1, which skips it (exit 77, CTest's SKIP_RETURN_CODE).
# usage: eglot_lsp.sh KLINT_SOURCE_DIR KLINT_BINARY
set -euo pipefail

source_dir=$(cd "$1" && pwd)
klint_binary=$2

missing=
command -v emacs >/dev/null 2>&1 || missing="emacs is not installed"
[[ -n $missing ]] || emacs --batch -q --no-site-file --eval "(progn (require 'package) (package-activate-all) (require 'eglot))" \
  >/dev/null 2>&1 || missing="emacs has no eglot"
source "$source_dir/tests/integration/missing_tool.sh"
[[ -z $missing ]] || missing_tool "$missing" KLINT_SKIP_EGLOT "tools/bootstrap installs emacs-nox and elpa-eglot"

source "$source_dir/tests/integration/editor_scratch.sh"
editor_scratch eglot
# No user or site files: only eglot and what the test loads.
cd "$scratch"
KLINT=$klint_binary KLINT_DIR=$scratch KLINT_EDITORS_DOC=$source_dir/docs/editors.md HOME=$scratch XDG_CONFIG_HOME=$scratch/config \
  timeout 120 emacs --batch -q --no-site-file -l "$source_dir/tests/integration/eglot_lsp.el"
