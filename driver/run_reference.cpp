#include "driver/run_reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "analyzer/source.h"
#include "driver/compile_worker.h"
#include "runner/observe.h"

namespace klint {

namespace {

// The bindings the kernel writes: the outputs worth comparing.
bool is_output(const reflect::Binding& binding) {
  return binding.type == reflect::DescriptorType::StorageBuffer &&
         (binding.access == reflect::Access::Write || binding.access == reflect::Access::ReadWrite);
}

// One binding of two runs, compared as runner::compare does.
std::optional<runner::OutputDifference> differ(const runner::BufferSpec& initial, const std::vector<uint8_t>& actual,
                                               const std::vector<uint8_t>& wanted, bool is_float) {
  runner::Harness one;
  one.buffers.push_back(initial);
  runner::Observation a, b;
  a.buffers.push_back({initial.set, initial.binding, initial.name, actual});
  b.buffers.push_back({initial.set, initial.binding, initial.name, wanted});
  return runner::compare(one, a, b, {is_float});
}

void print_difference(std::ostream& out, const std::string& what, const std::string& name,
                      const runner::OutputDifference& d, bool is_float, const char* theirs) {
  out << fmt::format("{}: '{}' differs: word {} is {}, {} {} ({} word{} differ{}; {})\n", what, name, d.first_word,
                     runner::word_text(d.a, is_float), theirs, runner::word_text(d.b, is_float), d.words,
                     d.words == 1 ? "" : "s", d.words == 1 ? "s" : "", d.symptom);
}

}  // namespace

std::optional<bool> check_outputs(const runner::KernelManifest& manifest, const runner::Shape& shape,
                                  const reflect::EntryPoint& entry, const runner::Harness& harness,
                                  const runner::Execution& execution, const CompileOptions& compile_options,
                                  const runner::IsolateOptions& isolate, std::ostream& out, std::string* error) {
  bool all_match = true;
  auto binding_of = [&](const runner::BufferSpec& buffer) {
    return std::find_if(entry.bindings.begin(), entry.bindings.end(),
                        [&](const reflect::Binding& b) { return b.set == buffer.set && b.binding == buffer.binding; });
  };
  if (manifest.reference) {
    const std::string path = manifest.reference->string();
    std::optional<Language> language = language_for_path(path, compile_options.force_compute);
    std::optional<std::string> text = read_file(path, nullptr);
    SourceCache sources;
    CompiledShader compiled;
    if (language && text) compiled = compile_isolated(path, *text, *language, compile_options, sources);
    if (!compiled.ok) {
      *error = fmt::format("the reference {} does not compile", path);
      return std::nullopt;
    }
    std::optional<reflect::ModuleReflection> reflection = reflect::reflect_module(compiled.spirv, error);
    if (!reflection) return std::nullopt;
    runner::IsolatedRun run =
        runner::run_isolated(compiled.spirv, reflection->entry_points.front().name, harness, isolate);
    if (run.verdict != runner::Verdict::Completed) {
      *error = fmt::format("the reference {} did not run: {}", path, run.message);
      return std::nullopt;
    }
    for (size_t k = 0; k < harness.buffers.size() && k < run.execution.buffers.size(); ++k) {
      auto binding = binding_of(harness.buffers[k]);
      if (binding == entry.bindings.end() || !is_output(*binding)) continue;
      const bool floats = runner::holds_floats(*binding);
      if (auto d = differ(harness.buffers[k], execution.buffers[k].data, run.execution.buffers[k].data, floats)) {
        print_difference(out, "reference", binding->name, *d, floats, "the reference's");
        all_match = false;
      } else {
        out << fmt::format("reference: '{}' matches\n", binding->name);
      }
    }
  }
  for (const runner::ExpectedOutput& expected : manifest.expected) {
    const std::filesystem::path file = runner::expected_file(manifest, expected, shape);
    auto k = std::find_if(harness.buffers.begin(), harness.buffers.end(), [&](const runner::BufferSpec& b) {
      return b.name == expected.binding || fmt::format("{}.{}", b.set, b.binding) == expected.binding;
    });
    if (k == harness.buffers.end()) {
      *error = fmt::format("{}:{}: no binding '{}' to compare with {}", manifest.config_path, expected.at.line,
                           expected.binding, file.string());
      return std::nullopt;
    }
    const size_t index = static_cast<size_t>(k - harness.buffers.begin());
    ReadError read_error;
    std::optional<std::string> bytes = read_file(file.string(), &read_error);
    if (!bytes) {
      *error = fmt::format("expected output {}: {}", file.string(), read_error.reason);
      return std::nullopt;
    }
    const std::vector<uint8_t>& actual = execution.buffers[index].data;
    if (bytes->size() != actual.size()) {
      *error = fmt::format("expected output {} holds {} bytes, '{}' has {}", file.string(), bytes->size(),
                           expected.binding, actual.size());
      return std::nullopt;
    }
    auto binding = binding_of(*k);
    const bool floats = binding != entry.bindings.end() && runner::holds_floats(*binding);
    const std::vector<uint8_t> wanted(bytes->begin(), bytes->end());
    const std::string what = "expected " + file.filename().string();
    if (auto d = differ(*k, actual, wanted, floats)) {
      print_difference(out, what, expected.binding, *d, floats, "expected");
      all_match = false;
    } else {
      out << fmt::format("{}: '{}' matches\n", what, expected.binding);
    }
  }
  return all_match;
}

}  // namespace klint
