#include "driver/run_command.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "reflect/reflection.h"
#include "runner/harness.h"
#include "runner/isolate.h"
#include "validate/spirv_val.h"

namespace klint {
namespace {

constexpr int kExitCompleted = 0;
constexpr int kExitRunFailed = 1;
constexpr int kExitUsage = 2;
constexpr size_t kWordsShown = 8;

int input_error(std::ostream& err, const std::string& path, const std::string& reason) {
  err << fmt::format("klint: error: {}: {}\n", path, reason.substr(0, reason.find('\n')));
  return kExitUsage;
}

std::optional<std::array<uint32_t, 3>> parse_grid(const std::string& text) {
  std::array<uint32_t, 3> grid{1, 1, 1};
  size_t axis = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (true) {
    if (axis == 3) return std::nullopt;
    auto [next, ec] = std::from_chars(p, end, grid[axis++]);
    if (ec != std::errc() || next == p || grid[axis - 1] == 0) return std::nullopt;
    if (next == end) return grid;
    if (*next != ',') return std::nullopt;
    p = next + 1;
  }
}

// How to show a buffer's words: as the scalar type its first member starts with.
enum class WordType { Float, Int, Uint, Hex };

WordType word_type(const reflect::Binding& binding) {
  if (!binding.block || binding.block->members.empty()) return WordType::Hex;
  std::string type = binding.block->members.front().type;
  type = type.substr(0, type.find('['));
  // 32-bit scalars, their vectors and matrices; struct names and other widths show as hex.
  auto is = [&](std::string_view scalar, std::string_view vector) {
    return type == scalar || (type.starts_with(vector) && type.size() == vector.size() + 1) ||
           (scalar == "float" && type.starts_with("mat") && type.size() <= 6);
  };
  if (is("float", "vec")) return WordType::Float;
  if (is("uint", "uvec")) return WordType::Uint;
  if (is("int", "ivec")) return WordType::Int;
  return WordType::Hex;
}

std::string show_word(const uint8_t* bytes, WordType type) {
  uint32_t word;
  std::memcpy(&word, bytes, 4);
  switch (type) {
    case WordType::Float: {
      float value;
      std::memcpy(&value, &word, 4);
      return fmt::format("{:g}", value);
    }
    case WordType::Int:
      return std::to_string(static_cast<int32_t>(word));
    case WordType::Uint:
      return std::to_string(word);
    case WordType::Hex:
      break;
  }
  return fmt::format("0x{:08x}", word);
}

void print_buffer(std::ostream& out, const runner::BufferSpec& before, const runner::BufferResult& after,
                  const reflect::Binding& binding) {
  const size_t words = after.data.size() / 4;
  size_t changed = 0;
  for (size_t i = 0; i < words; ++i) changed += std::memcmp(&before.data[4 * i], &after.data[4 * i], 4) != 0;
  std::string first;
  const WordType type = word_type(binding);
  for (size_t i = 0; i < std::min(words, kWordsShown); ++i) first += " " + show_word(&after.data[4 * i], type);
  out << fmt::format("binding {}.{} {} ({}, {} bytes): {} of {} words changed; first:{}{}\n", after.set,
                     after.binding, after.name, reflect::to_string(binding.type), after.data.size(), changed, words,
                     first, words > kWordsShown ? " ..." : "");
}

void print_violation(std::ostream& out, const runner::GuardViolation& guard) {
  out << fmt::format("  out of bounds: {} guard byte{} {} binding {}.{} {} changed (bytes {}..{})\n", guard.changed,
                     guard.changed == 1 ? "" : "s", guard.before ? "before" : "after", guard.set, guard.binding,
                     guard.name, guard.first, guard.last);
}

}  // namespace

int run_kernel(const std::string& path, const CompileOptions& compile_options, const RunOptions& options,
               std::ostream& out, std::ostream& err) {
  std::optional<std::array<uint32_t, 3>> grid = parse_grid(options.grid);
  if (!grid) return input_error(err, path, fmt::format("--grid '{}' is not X,Y,Z of positive integers", options.grid));
  if (!(options.timeout_seconds > 0)) return input_error(err, path, "--timeout must be positive");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return input_error(err, path, "is a directory: run takes one file");
  std::optional<Language> language = language_for_path(path, compile_options.force_compute);
  if (!language) return input_error(err, path, "not a shader klint knows (.comp, .glsl, .hlsl, .spv, .spvasm)");
  ReadError read_error;
  std::optional<std::string> text = read_file(path, &read_error);
  if (!text) return input_error(err, path, read_error.reason);

  SourceCache sources;
  CompiledShader compiled = compile(path, *text, *language, compile_options, sources);
  if (compiled.non_compute_stage) {
    return input_error(err, path, fmt::format("not a compute shader ({} stage)", *compiled.non_compute_stage));
  }
  if (!compiled.ok) {
    const Diagnostic* first = compiled.diagnostics.empty() ? nullptr : &compiled.diagnostics.front();
    return input_error(err, path,
                       first ? fmt::format("does not compile: line {}: {}", first->location.line, first->message)
                             : "does not compile");
  }
  for (const ValidationMessage& message : validate_spirv(compiled.spirv, to_spv_env(compile_options.target_env))) {
    if (message.is_error) return input_error(err, path, "invalid SPIR-V: " + message.message);
  }
  std::string error;
  std::optional<reflect::ModuleReflection> module = reflect::reflect_module(compiled.spirv, &error);
  if (!module) return input_error(err, path, "cannot reflect: " + error);
  const reflect::EntryPoint& entry = module->entry_points.front();

  runner::HarnessOptions harness_options;
  harness_options.seed = options.seed;
  harness_options.grid = *grid;
  std::optional<runner::Harness> harness = runner::default_harness(entry, harness_options, &error);
  if (!harness) return input_error(err, path, error);

  runner::IsolateOptions isolate;
  isolate.timeout_seconds = options.timeout_seconds;
  isolate.execute.device_index = options.device;
  runner::IsolatedRun run = runner::run_isolated(compiled.spirv, entry.name, *harness, isolate);
  if (run.verdict == runner::Verdict::Failed) return input_error(err, path, run.message);

  std::array<uint64_t, 3> size{1, 1, 1};
  if (entry.workgroup_size) {
    for (size_t axis = 0; axis < 3; ++axis) size[axis] = (*entry.workgroup_size)[axis].value;
  }
  out << fmt::format("{}: entry point {}, workgroup {},{},{}, grid {},{},{}, seed {}\n", path, entry.name, size[0],
                     size[1], size[2], (*grid)[0], (*grid)[1], (*grid)[2], options.seed);
  for (const std::string& guess : harness->guesses) out << "guessed: " << guess << "\n";
  if (run.verdict != runner::Verdict::Completed) {
    out << "verdict: " << run.message << "\n";
    return kExitRunFailed;
  }
  out << "device: " << run.execution.device << "\n";
  for (size_t i = 0; i < run.execution.buffers.size(); ++i) {
    const runner::BufferResult& after = run.execution.buffers[i];
    auto binding = std::find_if(entry.bindings.begin(), entry.bindings.end(), [&](const reflect::Binding& b) {
      return b.set == after.set && b.binding == after.binding;
    });
    print_buffer(out, harness->buffers[i], after, *binding);
    for (const runner::GuardViolation& guard : run.execution.guard_violations) {
      if (guard.set == after.set && guard.binding == after.binding) print_violation(out, guard);
    }
  }
  const size_t violations = run.execution.guard_violations.size();
  if (violations > 0) {
    out << fmt::format("verdict: completed, out of bounds: wrote past {} buffer guard{}\n", violations,
                       violations == 1 ? "" : "s");
    return kExitRunFailed;
  }
  out << "verdict: completed\n";
  return kExitCompleted;
}

}  // namespace klint
