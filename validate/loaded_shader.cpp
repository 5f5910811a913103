#include "validate/loaded_shader.h"

#include <fmt/core.h>

#include <algorithm>

#include "analyzer/inlined_calls.h"
#include "analyzer/ir/module.h"
#include "analyzer/normalize.h"
#include "analyzer/printable.h"
#include "validate/spirv_val.h"
#include "validate/toolchain_repairs.h"

namespace klint {
namespace {

Diagnostic invalid_spirv(Location location, std::string message) {
  return Diagnostic{&kInvalidSpirv, Severity::Error, std::move(message), std::move(location), {}, {}};
}

// How a module of SPIR-V assembly spells the ids it defines: the `%name`
// that opens the text line of the instruction defining each (the assembler
// numbers a name where it first meets it; the line says which name it was).
IdSpellings assembly_spellings(const ir::Module& module, std::string_view text, const std::vector<uint32_t>& lines) {
  std::vector<std::string_view> by_line{{}};
  for (size_t begin = 0; begin <= text.size();) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    by_line.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  IdSpellings spellings;
  size_t ordinal = 0;
  module.for_each_instruction([&](const ir::Instruction& instruction) {
    const uint32_t line = ordinal < lines.size() ? lines[ordinal] : 0;
    ++ordinal;
    if (!instruction.result_id() || line == 0 || line >= by_line.size()) return;
    std::string_view words = by_line[line];
    words.remove_prefix(std::min(words.find_first_not_of(" \t"), words.size()));
    const std::string_view name = words.substr(0, words.find_first_of(" \t="));
    if (name.size() > 1 && name.front() == '%') spellings.emplace(instruction.result_id(), name);
  });
  return spellings;
}

// Which environment validated the module, and why that one: a note on each
// invalid-spirv finding, since what is valid depends on it.
std::string environment_note(const LoadedShader& shader, Language language, uint32_t version) {
  const std::string_view env = to_string(shader.env);
  if (shader.options.target_env) {
    return fmt::format("klint validated it for {}, as --target-env or klint.toml says", env);
  }
  if (language != Language::SpirvBinary && language != Language::SpirvAssembly) {
    return fmt::format("klint validated it for {}, its default (--target-env chooses another)", env);
  }
  return fmt::format("klint validated it for {}, the oldest Vulkan version that takes SPIR-V {}.{} "
                     "(--target-env chooses another)",
                     env, version >> 16 & 0xff, version >> 8 & 0xff);
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

bool has_error(const std::vector<ValidationMessage>& messages) {
  return std::any_of(messages.begin(), messages.end(), [](const ValidationMessage& m) { return m.is_error; });
}

// A module SPIRV-Tools cannot parse for a capability or an instruction it
// does not know is analyzed with stand-ins for them (validate/toolchain_repairs.h),
// and says so; nullopt when that is not what is wrong or does not help.
std::optional<ir::Module> stand_in_unknown(CompiledShader& compiled, LoadedShader& shader) {
  std::optional<RepairedWords> repaired = stand_in_unknown_instructions(compiled.spirv);
  if (!repaired) return std::nullopt;
  ir::DecodeError ignored;
  std::optional<ir::Module> module = ir::decode(repaired->words, &ignored);
  if (!module) return std::nullopt;
  shader.stood_in = repaired->what;
  const bool one = repaired->changed.size() == 1;
  shader.notes.push_back({printable(fmt::format(
      "the SPIRV-Tools klint uses does not know {}; klint validated the module without {}{}: validation was partial",
      repaired->what, one ? "it" : "them",
      repaired->unknown_results ? ", and analyzed each such instruction's result as an unknown value" : ""))});
  compiled.spirv = std::move(repaired->words);
  return module;
}

// A module glslang compiled with conversions between types of one width is
// the compiler's bug, not the shader's: klint says so once and analyzes the
// copies they mean, when that is all the validator had against it.
std::optional<ir::Module> copy_conversions(CompiledShader& compiled, const ir::Module& original, spv_target_env env,
                                           BlockLayout layout, LoadedShader& shader) {
  std::optional<RepairedWords> repaired = copy_same_width_conversions(compiled.spirv);
  if (!repaired || has_error(validate_spirv(repaired->words, env, layout))) return std::nullopt;
  ir::DecodeError ignored;
  std::optional<ir::Module> module = ir::decode(repaired->words, &ignored);
  if (!module) return std::nullopt;
  std::string where;
  {
    const Module located(ir::Module(original), ModuleOrigin{shader.path, compiled.assembly_lines});
    size_t ordinal = 0;
    located.ir().for_each_instruction([&](const ir::Instruction& i) {
      if (++ordinal != repaired->changed.front()) return;
      const Location location = located.location(i);
      if (location.line > 0) where = fmt::format(", first at {}:{}", location.file, location.line);
    });
  }
  shader.notes.push_back({printable(fmt::format(
      "glslang emitted {} same-width conversion{} ({}){}, which the SPIR-V validator rejects: that is the "
      "compiler's bug, not the shader's, and klint analyzed each as the copy it means",
      repaired->changed.size(), repaired->changed.size() == 1 ? "" : "s", repaired->what, where))});
  compiled.spirv = std::move(repaired->words);
  return module;
}

// Decodes, validates and normalizes what the compiler gave; `shader` has
// everything but the module's parts already.
void load_compiled(CompiledShader& compiled, const ShaderInput& input, const LoadOptions& load, LoadedShader& shader) {
  const Language language = input.language;
  const bool is_spirv = language == Language::SpirvBinary || language == Language::SpirvAssembly;
  const uint32_t version = compiled.spirv.size() > 1 ? compiled.spirv[1] : 0;
  shader.env = shader.options.target_env.value_or(is_spirv ? target_env_for_spirv(version) : kDefaultTargetEnv);
  const spv_target_env env = shader.target_env();
  ir::DecodeError decode_error;
  std::optional<ir::Module> original = ir::decode(compiled.spirv, &decode_error);
  if (!original && load.normalize) original = stand_in_unknown(compiled, shader);
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

  // Assembly is shown with the names its text gives ids, not SPIRV-Tools' own.
  IdSpellings spellings;
  if (language == Language::SpirvAssembly && !compiled.assembly_lines.empty()) {
    spellings = assembly_spellings(*original, input.text, compiled.assembly_lines);
  }
  const IdNames names = spellings.empty() ? IdNames::Friendly : IdNames::Numbers;
  std::vector<ValidationMessage> messages = validate_spirv(compiled.spirv, env, BlockLayout::Default, names);
  if (has_error(messages)) {
    // Which block layouts a device takes is a feature the host enables, as it
    // does a capability (docs/portability.md): klint validates the rest.
    const LoadNote scalar_layout{
        "the module's block layout needs the scalarBlockLayout feature (Vulkan 1.2, VK_EXT_scalar_block_layout); "
        "klint validated it with that feature"};
    const bool from_source = !is_spirv;
    if (!has_error(validate_spirv(compiled.spirv, env, BlockLayout::Scalar))) {
      messages.clear();
      shader.notes.push_back(scalar_layout);
    } else if (from_source) {
      for (BlockLayout layout : {BlockLayout::Default, BlockLayout::Scalar}) {
        std::optional<ir::Module> repaired = copy_conversions(compiled, *original, env, layout, shader);
        if (!repaired) continue;
        original = std::move(repaired);
        messages.clear();
        if (layout == BlockLayout::Scalar) shader.notes.push_back(scalar_layout);
        break;
      }
    }
  }
  if (has_error(messages)) {
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
      // The validator puts the instruction it blames on lines of its own: a
      // note, not a newline in the message.
      const ValidatorText text = split_message(message.message, spellings);
      Diagnostic finding = invalid_spirv(location, printable(text.reason));
      // A location without a line already shows the disassembled instruction.
      if (!text.instruction.empty() && location.has_line()) {
        finding.notes.push_back({location, printable(fmt::format("the instruction: {}", text.instruction))});
      }
      finding.notes.push_back({Location{location.file, location.line}, environment_note(shader, language, version)});
      shader.diagnostics.push_back(std::move(finding));
    }
    return;
  }
  shader.valid = true;
  if (!load.normalize) {
    // A run runs the words as compiled, with what the host sets.
    if (load.specializer) {
      ModuleOrigin origin{shader.path, compiled.assembly_lines, compiled.workgroup_size_declared};
      std::vector<std::string> notes;
      std::optional<std::string> error = load.specializer(compiled.spirv, env, origin, notes);
      for (std::string& note : notes) shader.notes.push_back({printable(note)});
      if (error) {
        shader.valid = false;
        shader.notes.insert(shader.notes.begin(), {printable(*error), true});
        return;
      }
    }
    shader.words = std::move(compiled.spirv);
    shader.assembly_lines = std::move(compiled.assembly_lines);
    return;
  }

  if (language == Language::SpirvBinary && !has_debug_lines(*original)) {
    shader.notes.push_back({"the module carries no source lines, so findings point at SPIR-V instructions; "
                            "compile it with -g (glslc or glslangValidator) to see the source"});
  }
  std::vector<uint32_t> words = std::move(compiled.spirv);
  if (!compiled.assembly_lines.empty() && !has_debug_lines(*original)) {
    attach_assembly_lines(*original, shader.path, compiled.assembly_lines);
    words = ir::encode(*original);
  }
  // From here on only the words and the module decoded from their normalized
  // form count: each copy of a large module is tens of megabytes.
  ModuleOrigin origin{shader.path, {}, compiled.workgroup_size_declared};
  origin.function_lines = function_lines(*original);
  original.reset();
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
  shader.includes = std::move(compiled.includes);
  // Only the texts the compiler registered: a file it refused may be binary junk.
  if (compiled.ok && input.language != Language::SpirvBinary) {
    for (const std::string& file : shader.files) {
      if (const SourceFile* text = sources.get(file)) shader.texts.push_back(text);
    }
  }
  shader.non_compute_stage = std::move(compiled.non_compute_stage);
  shader.compiled = compiled.ok;
  if (shader.non_compute_stage || !compiled.ok) return shader;
  load_compiled(compiled, input, load, shader);
  return shader;
}

}  // namespace klint
