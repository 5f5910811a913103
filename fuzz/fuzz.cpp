#include "fuzz/fuzz.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "driver/compile_worker.h"
#include "driver/output/json.h"
#include "driver/output/sarif.h"
#include "driver/output/text.h"
#include "rules/rule.h"

namespace klint::fuzz {

void fail(std::string_view what) {
  std::fprintf(stderr, "klint fuzz: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

const std::string& scratch_directory() {
  static const std::string directory = [] {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("klint-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    return path.string();
  }();
  return directory;
}

FileReport lint_everything(std::string_view name, Language language, const uint8_t* data, size_t size) {
  // glslang runs in klint's own worker processes, as it does for users: a
  // crash of glslang is a finding of klint's only if klint then fails.
  static const bool isolated = [] {
    // Under libFuzzer's -timeout (25 s in tools/fuzz), so that a hang in
    // glslang is klint's verdict, not libFuzzer's.
    set_compile_isolation(CompileIsolation{{KLINT_BINARY, "--compile-worker"}, 10});
    return true;
  }();
  (void)isolated;
  LintOptions options;
  options.selection.select = RuleRegistry::infos();
  const InputFile input{scratch_directory() + "/" + std::string(name), language, true};
  const std::string text(reinterpret_cast<const char*>(data), size);
  SourceCache sources;
  // Suppressions and the text output read the file through the cache.
  sources.add(input.path, text);
  FileReport report = lint_text(input, text, options, sources);
  for (const Diagnostic& d : report.diagnostics) {
    if (d.rule == &kInternalError) fail("internal error: " + d.message);
    if (d.message.empty()) fail("a finding without a message");
  }
  std::ostringstream out;
  for (const Finding& d : report.diagnostics) print_diagnostic(out, d, sources, TextStyle{});
  for (const InputMessage& m : report.messages) print_input_message(out, m, TextStyle{});
  print_json(out, report.diagnostics, report.messages, 1, 1);
  SarifRun run;
  run.rules = rules_that_run(options.selection);
  run.diagnostics = report.diagnostics;
  run.suppressed = report.suppressed;
  run.include_suppressed = true;
  run.messages = report.messages;
  run.root = scratch_directory();
  print_sarif(out, run, sources);
  return report;
}

}  // namespace klint::fuzz
