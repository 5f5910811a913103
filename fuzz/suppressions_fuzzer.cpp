// Suppression comments and baselines. The input is a shader's text: its
// `klint-ignore` comments are parsed and applied to findings on its lines;
// it is also read as a baseline. Then a baseline written from those findings
// must, read back, filter every one of them.
#include <algorithm>

#include "driver/baseline.h"
#include "driver/suppressions.h"
#include "fuzz/fuzz.h"
#include "rules/rule.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace klint;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = fuzz::scratch_directory() + "/shader.comp";
  SourceCache sources;
  sources.add(file, text);

  // A finding of each of a few rules on each of the first lines.
  const std::vector<const RuleInfo*> rules = RuleRegistry::infos();
  const uint32_t lines = static_cast<uint32_t>(std::min<size_t>(std::count(text.begin(), text.end(), '\n') + 1, 64));
  std::vector<Finding> diagnostics;
  for (uint32_t line = 1; line <= lines; ++line) {
    const RuleInfo* rule = rules[line % rules.size()];
    diagnostics.push_back(Diagnostic{rule, Severity::Warning, "finding", Location{file, line, 1}, {}, {}});
  }
  RuleSelection selection;
  std::vector<Finding> kept = diagnostics;
  parse_suppressions(file, text);
  apply_suppressions(kept, file, sources, selection);

  std::string error;
  if (std::optional<Baseline> baseline = Baseline::parse(text, fuzz::scratch_directory() + "/baseline.json", &error)) {
    std::vector<Finding> filtered = diagnostics;
    baseline->filter(filtered, sources);
  }

  const std::string written = fuzz::scratch_directory() + "/written.json";
  BaselineWriter writer(written);
  writer.add(diagnostics, sources);
  if (!writer.write(&error)) fuzz::fail("cannot write a baseline: " + error);
  std::optional<Baseline> read = Baseline::load(written, &error);
  if (!read) fuzz::fail("a baseline klint wrote does not read back: " + error);
  std::vector<Finding> again = diagnostics;
  read->filter(again, sources);
  if (!again.empty()) fuzz::fail("a baseline klint wrote does not filter the findings it was written from");
  return 0;
}
