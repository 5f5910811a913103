# Sourced by the editor tests (neovim_lsp.sh, eglot_lsp.sh): makes the
# scratch folder they open k.comp in, removed on exit, and sets $scratch. On
# disk the shader is clean: a finding can only come from the editor's buffer.
# usage: editor_scratch EDITOR
editor_scratch() {
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/klint-$1.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  cat >"$scratch/k.comp" <<'GLSL'
#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() { data[gl_GlobalInvocationID.x] = 1.0; }
GLSL
}
