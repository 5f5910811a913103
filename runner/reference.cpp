#include "runner/reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "analyzer/source.h"

namespace klint::runner {

namespace {

// The bindings the kernel writes: the outputs worth comparing.
bool is_output(const reflect::Binding& binding) {
  return binding.type == reflect::DescriptorType::StorageBuffer && may_write(binding);
}

// One binding of two runs, compared as compare() does.
std::optional<OutputDifference> differ(const BufferSpec& initial, const std::vector<uint8_t>& actual,
                                       const std::vector<uint8_t>& wanted, Words words) {
  Harness one;
  one.buffers.push_back(initial);
  Observation a, b;
  a.buffers.push_back({initial.set, initial.binding, initial.name, actual});
  b.buffers.push_back({initial.set, initial.binding, initial.name, wanted});
  return compare(one, a, b, {words});
}

}  // namespace

bool OutputChecks::all_match() const {
  return std::none_of(checks.begin(), checks.end(), [](const OutputCheck& c) { return c.difference.has_value(); });
}

OutputChecks check_outputs(const KernelManifest& manifest, const Shape& shape, const reflect::EntryPoint& entry,
                           const Harness& harness, const Execution& execution,
                           const std::vector<uint32_t>* reference, const IsolateOptions& isolate) {
  OutputChecks out;
  auto fail = [&](std::string error) {
    out.error = std::move(error);
    return std::move(out);
  };
  auto binding_of = [&](const BufferSpec& buffer) {
    return std::find_if(entry.bindings.begin(), entry.bindings.end(),
                        [&](const reflect::Binding& b) { return b.set == buffer.set && b.binding == buffer.binding; });
  };
  if (manifest.reference) {
    const std::string path = manifest.reference->string();
    if (!reference) return fail(fmt::format("the reference {} does not compile", path));
    std::string error;
    std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(*reference, &error);
    if (!reflection) return fail(error);
    IsolatedRun run = run_isolated(*reference, reflection->entry_points.front().name, harness, isolate);
    if (run.verdict != Verdict::Completed) return fail(fmt::format("the reference {} did not run: {}", path, run.message));
    for (size_t k = 0; k < harness.buffers.size() && k < run.execution.buffers.size(); ++k) {
      auto binding = binding_of(harness.buffers[k]);
      if (binding == entry.bindings.end() || !is_output(*binding)) continue;
      const Words words = words_of(*binding);
      out.checks.push_back(
          {"reference", binding->name, "the reference's", words,
           differ(harness.buffers[k], execution.buffers[k].data, run.execution.buffers[k].data, words)});
    }
  }
  for (const ExpectedOutput& expected : manifest.expected) {
    const std::filesystem::path file = expected_file(manifest, expected, shape);
    auto k = std::find_if(harness.buffers.begin(), harness.buffers.end(), [&](const BufferSpec& b) {
      return b.name == expected.binding || fmt::format("{}.{}", b.set, b.binding) == expected.binding;
    });
    if (k == harness.buffers.end()) {
      return fail(fmt::format("{}:{}: no binding '{}' to compare with {}", manifest.config_path, expected.at.line,
                              expected.binding, file.string()));
    }
    const size_t index = static_cast<size_t>(k - harness.buffers.begin());
    ReadError read_error;
    std::optional<std::string> bytes = read_file(file.string(), &read_error);
    if (!bytes) return fail(fmt::format("expected output {}: {}", file.string(), read_error.reason));
    const std::vector<uint8_t>& actual = execution.buffers[index].data;
    if (bytes->size() != actual.size()) {
      return fail(fmt::format("expected output {} holds {} bytes, '{}' has {}", file.string(), bytes->size(),
                              expected.binding, actual.size()));
    }
    auto binding = binding_of(*k);
    const Words words = binding != entry.bindings.end() ? words_of(*binding) : Words::Integers;
    const std::vector<uint8_t> wanted(bytes->begin(), bytes->end());
    out.checks.push_back({"expected " + file.filename().string(), expected.binding, "expected", words,
                          differ(*k, actual, wanted, words)});
  }
  return out;
}

}  // namespace klint::runner
