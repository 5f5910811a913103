// Runs the klint binary as a user would, capturing its output and exit code.
#pragma once

#include <string>
#include <vector>

namespace klint::testing {

struct KlintRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs KLINT_BINARY with `args` in `cwd` (current directory when empty), with
// NO_COLOR unset and a timeout: a run that hangs fails with exit code 124.
// `unprivileged` runs it as nobody when the tests run as root.
KlintRun run_klint(const std::vector<std::string>& args, const std::string& cwd = "", int timeout_seconds = 60,
                   bool unprivileged = false);
// The same with `input` on standard input.
KlintRun run_klint_with_input(const std::vector<std::string>& args, const std::string& input,
                              const std::string& cwd = "");

}  // namespace klint::testing
