#include "driver/lint.h"

#include "driver/compile_worker.h"
#include "driver/suppressions.h"

#include <algorithm>
#include <exception>

#include "analyzer/ir/module.h"
#include "analyzer/module.h"
#include "analyzer/normalize.h"
#include "analyzer/printable.h"
#include "validate/spirv_val.h"

namespace klint {
namespace {

Diagnostic invalid_spirv(Location location, std::string message) {
  return Diagnostic{&kInvalidSpirv, Severity::Error, std::move(message), std::move(location), {}, {}};
}

// Gives every instruction of an assembled module an OpLine naming its line in
// the .spvasm text, so that normalization carries assembly lines like any
// other line info.
void attach_assembly_lines(ir::Module& module, const std::string& path, const std::vector<uint32_t>& lines) {
  std::vector<uint32_t> by_instruction;
  module.for_each_instruction([&](const ir::Instruction&) { by_instruction.push_back(0); });
  for (size_t i = 0; i < std::min(lines.size(), by_instruction.size()); ++i) by_instruction[i] = lines[i];

  uint32_t file = module.allocate_id();
  size_t ordinal = module.globals.size();
  auto line = [&](uint32_t at) {
    return ir::make_instruction(spv::Op::OpLine, 0, 0, {ir::id(file), ir::literal(at), ir::literal(0)});
  };
  for (ir::Function& function : module.functions) {
    ordinal += 1 + function.prelude.size();  // OpFunction and its parameters
    for (ir::Block& block : function.blocks) {
      ++ordinal;  // OpLabel
      std::vector<ir::Instruction> with_lines;
      with_lines.reserve(block.instructions.size() * 2);
      for (ir::Instruction& instruction : block.instructions) {
        ++ordinal;
        if (!instruction.is_debug_line() && by_instruction[ordinal - 1] != 0) {
          with_lines.push_back(line(by_instruction[ordinal - 1]));
        }
        with_lines.push_back(std::move(instruction));
      }
      block.instructions = std::move(with_lines);
    }
    ordinal += 1 + function.trailing.size();  // OpFunctionEnd and debug lines after it
  }
  module.add_global(ir::make_instruction(spv::Op::OpString, 0, file, {ir::string(path)}));
}

bool has_debug_lines(const ir::Module& module) {
  bool found = false;
  module.for_each_instruction([&](const ir::Instruction& i) { found |= i.opcode() == spv::Op::OpLine; });
  return found;
}

// Deeper structured control flow than this is not linted: the validator's and
// the optimizer's dominance work grows faster than the nesting (a thousand
// nested loops took SPIRV-Tools over five minutes and 3 GB), and no kernel
// written by hand or by a generator klint has seen nests more than a few
// dozen deep.
constexpr size_t kMaxNesting = 128;

// How deep the structured constructs of `module` nest: each selection or loop
// header opens a construct that its merge block closes, in the block order
// SPIR-V lays constructs out in.
size_t nesting_depth(const ir::Module& module) {
  size_t deepest = 0;
  for (const ir::Function& function : module.functions) {
    std::vector<uint32_t> open;  // merge blocks of the constructs the walk is in
    for (const ir::Block& block : function.blocks) {
      // Reaching a merge block closes its construct and every one opened inside it.
      open.erase(std::find(open.begin(), open.end(), block.id()), open.end());
      if (const ir::Instruction* merge = block.merge(); merge && !merge->operands().empty()) {
        open.push_back(merge->word(0));
        deepest = std::max(deepest, open.size());
      }
    }
  }
  return deepest;
}

void lint_compiled(const InputFile& input, const LintOptions& options, CompiledShader& compiled, FileReport& report) {
  spv_target_env env = to_spv_env(options.compile.target_env);
  ir::DecodeError decode_error;
  std::optional<ir::Module> original = ir::decode(compiled.spirv, &decode_error);
  if (!original) {
    report.diagnostics.push_back(invalid_spirv(Location{input.path}, decode_error.message));
    return;
  }
  if (const size_t depth = nesting_depth(*original); depth > kMaxNesting) {
    report.messages.push_back(InputMessage{
        input.path, fmt::format("control flow nested {} deep, more than the {} klint analyzes; not linted", depth,
                                kMaxNesting),
        true});
    return;
  }

  if (auto messages = validate_spirv(compiled.spirv, env); !messages.empty()) {
    Module module(std::move(*original), ModuleOrigin{input.path, compiled.assembly_lines});
    std::vector<const ir::Instruction*> by_ordinal;
    module.ir().for_each_instruction([&](const ir::Instruction& i) { by_ordinal.push_back(&i); });
    for (const ValidationMessage& message : messages) {
      if (!message.is_error) continue;
      Location location{input.path};
      if (message.instruction > 0 && message.instruction <= by_ordinal.size()) {
        location = module.location(*by_ordinal[message.instruction - 1]);
      }
      report.diagnostics.push_back(invalid_spirv(std::move(location), message.message));
    }
    return;
  }

  std::vector<uint32_t> words = std::move(compiled.spirv);
  if (!compiled.assembly_lines.empty() && !has_debug_lines(*original)) {
    attach_assembly_lines(*original, input.path, compiled.assembly_lines);
    words = ir::encode(*original);
  }
  // From here on only the words and the module decoded from their normalized
  // form count: each copy of a large module is tens of megabytes.
  original.reset();
  std::string normalize_error, left_undone;
  std::optional<std::vector<uint32_t>> normalized = normalize(words, env, &normalize_error, &left_undone);
  if (normalized && !left_undone.empty()) {
    report.messages.push_back(InputMessage{
        input.path,
        printable(fmt::format("klint left calls in the module ({}); it analyzed them as calls, and may find less",
                              left_undone)),
        false, 0, 0, true});
  }
  std::optional<ir::Module> analyzed = normalized ? ir::decode(*normalized, &decode_error) : std::nullopt;
  if (!analyzed) {
    // Analyses still run on the module as written; only their reach is
    // smaller (calls stay calls, locals stay in memory), so say so once.
    std::string why = normalized ? "its normalized form did not decode: " + decode_error.message : normalize_error;
    report.messages.push_back(InputMessage{
        input.path,
        printable(fmt::format("klint could not normalize the module ({}); it analyzed the module as written, and "
                              "may find less",
                              why)),
        false, 0, 0, true});
    analyzed = ir::decode(words, &decode_error);
  }
  if (!analyzed) {
    report.diagnostics.push_back(invalid_spirv(Location{input.path}, decode_error.message));
    return;
  }
  normalized.reset();
  std::vector<uint32_t>().swap(words);
  Module module(std::move(*analyzed), ModuleOrigin{input.path, {}, compiled.workgroup_size_declared});
  for (Diagnostic& d : run_rules(module, options.selection, options.rule_options)) {
    report.diagnostics.push_back(std::move(d));
  }
  if (!module.workgroup_size_declared()) {
    report.messages.push_back(InputMessage{
        input.path,
        "declares no workgroup size (local_size_x/y/z), so its host sets one when it creates the pipeline; klint "
        "judged only the rules that do not depend on it",
        false, 0, 0, true});
  }
  for (const std::string& note : module.budget_notes()) {
    report.messages.push_back(
        InputMessage{input.path, printable(fmt::format("klint analyzed less than all of it: {}", note)), false, 0, 0, true});
  }
}

}  // namespace

FileReport lint_file(const InputFile& input, const LintOptions& options, SourceCache& sources) {
  ReadError read_error;
  std::optional<std::string> text = read_file(input.path, &read_error);
  if (!text) {
    FileReport report{input.path, {}, {}, {}, {input.path}};
    report.messages.push_back(InputMessage{input.path, read_error.reason, true});
    return report;
  }
  return lint_text(input, *text, options, sources);
}

FileReport lint_text(const InputFile& input, const std::string& text, const LintOptions& options,
                     SourceCache& sources) {
  FileReport report{input.path, {}, {}, {}, {input.path}};
  try {
    CompiledShader compiled = compile_isolated(input.path, text, input.language, options.compile, sources);
    report.diagnostics.assign(std::make_move_iterator(compiled.diagnostics.begin()),
                              std::make_move_iterator(compiled.diagnostics.end()));
    report.files = compiled.files;
    if (compiled.non_compute_stage) {
      report.messages.push_back(InputMessage{
          input.path, fmt::format("not a compute shader ({} stage); skipped", *compiled.non_compute_stage), false});
    } else if (compiled.ok) {
      lint_compiled(input, options, compiled, report);
    }
  } catch (const std::exception& e) {
    report.diagnostics.push_back(Diagnostic{&kInternalError, Severity::Error,
                                            fmt::format("klint failed on this file: {}", e.what()),
                                            Location{input.path}, {}, "please report this as a bug in klint"});
  }
  std::erase_if(report.diagnostics, [&](const Diagnostic& d) { return !options.selection.enabled(*d.rule); });
  report.suppressed = apply_suppressions(report.diagnostics, input.path, sources, options.selection);
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), diagnostic_less);
  // Inlining copies a helper into each caller: one line, one finding.
  auto same = [](const Diagnostic& a, const Diagnostic& b) {
    return a.rule == b.rule && a.location == b.location && a.message == b.message;
  };
  report.diagnostics.erase(std::unique(report.diagnostics.begin(), report.diagnostics.end(), same),
                           report.diagnostics.end());
  return report;
}

}  // namespace klint
