// `klint server`: a language server over standard input and output (LSP
// 3.17), as ruff's `ruff server`. Open documents are linted from their unsaved
// text with the configuration the command line would apply to their paths;
// docs/editors.md says how editors start it.
#pragma once

#include <optional>
#include <string>

#include "driver/commands.h"
#include "driver/jobs.h"

namespace klint::server {

struct ServerOptions {
  CommandLineSettings command_line;  // what `klint server`'s options say, as for a lint
  std::optional<std::string> config;  // --config: this klint.toml for every document
  // --commands: a document the build compiles is linted as its commands
  // compile it (once per command), others as files.
  std::optional<CompileCommands> commands;
  TargetResolver resolve_targets;
};

// Serves the protocol until the client's `exit` or the end of the input, and
// returns the exit code the protocol asks for: 0 after `shutdown`, else 1.
// Only protocol is written to standard output: the process's standard output
// is pointed at standard error meanwhile, so nothing else reaches the client.
int run_server(const ServerOptions& options);

}  // namespace klint::server
