#include "validate/loaded_shader.h"

#include <fmt/core.h>

#include <algorithm>

#include "analyzer/ir/module.h"
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

// Deeper structured control flow than this is not loaded: the validator's and
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

// Decodes, validates and normalizes what the compiler gave; `shader` has
// everything but the module's parts already.
void load_compiled(CompiledShader& compiled, const LoadOptions& load, LoadedShader& shader) {
  const spv_target_env env = shader.target_env();
  ir::DecodeError decode_error;
  std::optional<ir::Module> original = ir::decode(compiled.spirv, &decode_error);
  if (!original) {
    shader.diagnostics.push_back(invalid_spirv(Location{shader.path}, decode_error.message));
    return;
  }
  if (const size_t depth = nesting_depth(*original); depth > kMaxNesting) {
    shader.notes.push_back(
        {fmt::format("control flow nested {} deep, more than the {} klint analyzes; not linted", depth, kMaxNesting),
         true});
    return;
  }

  if (auto messages = validate_spirv(compiled.spirv, env); !messages.empty()) {
    // The validator blames instructions by ordinal in the module as compiled.
    Module module(std::move(*original), ModuleOrigin{shader.path, compiled.assembly_lines});
    std::vector<const ir::Instruction*> by_ordinal;
    module.ir().for_each_instruction([&](const ir::Instruction& i) { by_ordinal.push_back(&i); });
    for (const ValidationMessage& message : messages) {
      if (!message.is_error) continue;
      Location location{shader.path};
      if (message.instruction > 0 && message.instruction <= by_ordinal.size()) {
        location = module.location(*by_ordinal[message.instruction - 1]);
      }
      shader.diagnostics.push_back(invalid_spirv(std::move(location), message.message));
    }
    return;
  }
  shader.valid = true;
  if (!load.normalize) {
    shader.words = std::move(compiled.spirv);
    shader.assembly_lines = std::move(compiled.assembly_lines);
    return;
  }

  std::vector<uint32_t> words = std::move(compiled.spirv);
  if (!compiled.assembly_lines.empty() && !has_debug_lines(*original)) {
    attach_assembly_lines(*original, shader.path, compiled.assembly_lines);
    words = ir::encode(*original);
  }
  // From here on only the words and the module decoded from their normalized
  // form count: each copy of a large module is tens of megabytes.
  original.reset();
  ModuleOrigin origin{shader.path, {}, compiled.workgroup_size_declared};
  if (load.specializer) {
    std::vector<std::string> notes;
    std::optional<std::string> error = load.specializer(words, env, origin, notes);
    for (std::string& note : notes) shader.notes.push_back({printable(note)});
    if (error) {
      shader.notes.push_back({printable(*error), true});
      return;
    }
  }
  std::string normalize_error, left_undone;
  std::optional<std::vector<uint32_t>> normalized =
      load.normalizer ? load.normalizer(words, env, &normalize_error, &left_undone)
                      : normalize(words, env, &normalize_error, &left_undone);
  if (normalized && !left_undone.empty()) {
    shader.notes.push_back(
        {printable(fmt::format("klint left calls in the module ({}); it analyzed them as calls, and may find less",
                               left_undone))});
  }
  std::optional<ir::Module> analyzed = normalized ? ir::decode(*normalized, &decode_error) : std::nullopt;
  if (!analyzed) {
    // Analyses still run on the module as written; only their reach is
    // smaller (calls stay calls, locals stay in memory), so say so once.
    std::string why = normalized ? "its normalized form did not decode: " + decode_error.message : normalize_error;
    shader.notes.push_back({printable(fmt::format(
        "klint could not normalize the module ({}); it analyzed the module as written, and may find less", why))});
    analyzed = ir::decode(words, &decode_error);
  }
  if (!analyzed) {
    shader.valid = false;
    shader.diagnostics.push_back(invalid_spirv(Location{shader.path}, decode_error.message));
    return;
  }
  normalized.reset();
  if (load.keep_words) {
    shader.words = std::move(words);
  } else {
    std::vector<uint32_t>().swap(words);
  }
  shader.module = std::make_unique<Module>(std::move(*analyzed), std::move(origin));
}

}  // namespace

std::vector<uint32_t> LoadedShader::module_words() const { return module ? ir::encode(module->ir()) : words; }

LoadedShader load_shader(const ShaderInput& input, const CompileOptions& options, SourceCache& sources,
                         const LoadOptions& load) {
  LoadedShader shader;
  shader.path = input.path;
  shader.options = options;
  CompiledShader compiled = load.compiler ? load.compiler(input.path, input.text, input.language, options, sources)
                                          : compile(input.path, input.text, input.language, options, sources);
  shader.diagnostics = std::move(compiled.diagnostics);
  shader.files = std::move(compiled.files);
  // Only the texts the compiler registered: a file it refused may be binary junk.
  if (compiled.ok && input.language != Language::SpirvBinary) {
    for (const std::string& file : shader.files) {
      if (const SourceFile* text = sources.get(file)) shader.texts.push_back(text);
    }
  }
  shader.non_compute_stage = std::move(compiled.non_compute_stage);
  shader.compiled = compiled.ok;
  if (shader.non_compute_stage || !compiled.ok) return shader;
  load_compiled(compiled, load, shader);
  return shader;
}

}  // namespace klint
