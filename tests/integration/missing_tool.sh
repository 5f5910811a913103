# Sourced by the integration tests that drive a tool Debian packages: a test
# whose tool is missing fails, saying what installs it, unless the variable
# the caller names is 1, which skips it (exit 77, CTest's SKIP_RETURN_CODE).
# usage: missing_tool "WHAT IS MISSING" SKIP_VARIABLE "WHAT INSTALLS IT"
missing_tool() {
  local what=$1 variable=$2 installs=$3
  if [[ ${!variable:-} == 1 ]]; then
    echo "skipped: $what and $variable=1"
    exit 77
  fi
  echo "error: $what ($installs; $variable=1 skips this test)" >&2
  exit 1
}
