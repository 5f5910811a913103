#include "analyzer/frontend.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <exception>
#include <filesystem>
#include <spirv-tools/libspirv.hpp>

#include "analyzer/glslang_compile.h"

namespace klint {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;
constexpr size_t kBinarySniffBytes = 8 * 1024;

}  // namespace

std::string extension_of(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

namespace {

Diagnostic file_error(const RuleInfo& rule, const std::string& path, std::string message, uint32_t line = 0,
                      uint32_t column = 0) {
  Diagnostic diagnostic;
  diagnostic.rule = &rule;
  diagnostic.severity = rule.default_severity;
  diagnostic.message = std::move(message);
  diagnostic.location.file = path;
  diagnostic.location.line = line;
  diagnostic.location.column = column;
  return diagnostic;
}

CompiledShader failed(Diagnostic diagnostic) {
  CompiledShader result;
  result.files.push_back(diagnostic.location.file);
  result.diagnostics.push_back(std::move(diagnostic));
  return result;
}

// Text that glslang or the assembler would only choke on, reported plainly
// instead; never echoes the content, which may be binary junk.
std::optional<std::string> precheck_text(const std::string& text, std::string_view what) {
  if (text.find_first_not_of(" \t\r\n\f\v") == std::string::npos) return "empty file: no compute shader";
  size_t nul = text.find('\0');
  if (nul != std::string::npos && nul < kBinarySniffBytes) {
    return fmt::format("binary content: not {} (NUL byte at offset {})", what, nul);
  }
  return std::nullopt;
}

// The stage names glslc uses in `#pragma shader_stage(...)`.
std::string_view execution_model_stage(uint32_t model) {
  switch (model) {
    case 0: return "vertex";
    case 1: return "tesscontrol";
    case 2: return "tesseval";
    case 3: return "geometry";
    case 4: return "fragment";
    case 5: return "compute";
    case 6: return "kernel";
    case 5267:
    case 5364: return "task";
    case 5268:
    case 5365: return "mesh";
    case 5313: return "raygen";
    case 5314: return "intersect";
    case 5315: return "anyhit";
    case 5316: return "closest";
    case 5317: return "miss";
    case 5318: return "callable";
    default: return "unknown";
  }
}

// Looks only at OpEntryPoint; full decoding is the IR's job.
std::optional<std::string> non_compute_entry_stage(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpEntryPoint = 15;
  constexpr uint32_t kOpFunction = 54;
  constexpr uint32_t kGLCompute = 5;
  std::optional<uint32_t> first_model;
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t opcode = words[at] & 0xFFFFu;
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size() || opcode == kOpFunction) break;
    if (opcode == kOpEntryPoint && count >= 2) {
      if (words[at + 1] == kGLCompute) return std::nullopt;
      if (!first_model) first_model = words[at + 1];
    }
    at += count;
  }
  if (!first_model) return std::nullopt;
  return std::string(execution_model_stage(*first_model));
}

CompiledShader load_spirv_binary(const std::string& path, const std::string& bytes) {
  if (bytes.size() < kHeaderWords * 4) {
    return failed(file_error(kInvalidSpirv, path, "truncated: shorter than the 5-word header"));
  }
  if (bytes.size() % 4 != 0) {
    return failed(file_error(kInvalidSpirv, path,
                             fmt::format("truncated: {} bytes is not a multiple of 4", bytes.size())));
  }
  auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])); };
  auto little = [&](size_t w) {
    return byte(4 * w) | byte(4 * w + 1) << 8 | byte(4 * w + 2) << 16 | byte(4 * w + 3) << 24;
  };
  auto big = [&](size_t w) {
    return byte(4 * w) << 24 | byte(4 * w + 1) << 16 | byte(4 * w + 2) << 8 | byte(4 * w + 3);
  };
  bool is_big = big(0) == kSpirvMagic;
  if (!is_big && little(0) != kSpirvMagic) {
    return failed(file_error(kInvalidSpirv, path,
                             fmt::format("not a SPIR-V binary: bad magic number {:#010x}", little(0))));
  }
  CompiledShader result;
  result.spirv.resize(bytes.size() / 4);
  for (size_t w = 0; w < result.spirv.size(); ++w) result.spirv[w] = is_big ? big(w) : little(w);
  result.non_compute_stage = non_compute_entry_stage(result.spirv);
  result.files.push_back(path);
  result.ok = true;
  return result;
}

// Splits at whitespace; `=` is a token of its own; `;` and `"` end the scan.
std::string_view next_token(std::string_view line, size_t& pos) {
  size_t start = line.find_first_not_of(" \t\r", pos);
  if (start == std::string_view::npos || line[start] == ';' || line[start] == '"') {
    pos = line.size();
    return {};
  }
  size_t stop =
      line[start] == '=' ? start + 1 : std::min(line.find_first_of(" \t\r;\"=", start), line.size());
  pos = stop;
  return line.substr(start, stop - start);
}

// An instruction line's first token is its opcode, after an optional `%id =`.
bool starts_instruction(std::string_view line) {
  size_t pos = 0;
  std::string_view first = next_token(line, pos);
  if (first.starts_with('%')) {
    if (next_token(line, pos) != "=") return false;
    first = next_token(line, pos);
  }
  return first.starts_with("Op");
}

// Quoted strings (OpSource may embed a whole source file) can span lines, so
// a line that starts inside one is never an instruction line.
std::vector<uint32_t> instruction_lines(std::string_view text) {
  std::vector<uint32_t> lines;
  bool in_string = false;
  uint32_t number = 0;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    if (!in_string && starts_instruction(line)) lines.push_back(number);
    for (size_t i = 0; i < line.size(); ++i) {
      if (in_string) {
        if (line[i] == '\\')
          ++i;
        else if (line[i] == '"')
          in_string = false;
      } else if (line[i] == '"') {
        in_string = true;
      } else if (line[i] == ';') {
        break;
      }
    }
  }
  return lines;
}

size_t count_instructions(const std::vector<uint32_t>& words) {
  size_t count = 0;
  for (size_t at = kHeaderWords; at < words.size(); ++count) {
    uint32_t word_count = words[at] >> 16;
    if (word_count == 0) break;
    at += word_count;
  }
  return count;
}

// The version `; Version: 1.0` in the comments that open a disassembly
// (spirv-dis and glslc -S write them), as the header's version word; nullopt
// when the text does not say. The assembler reads no comment, and without
// this would give the module the version of whatever environment it runs in.
std::optional<uint32_t> assembly_version(std::string_view text) {
  for (size_t begin = 0; begin < text.size();) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    if (line[first] != ';') return std::nullopt;  // the first instruction: the header comments are over
    line = line.substr(first + 1);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (!line.starts_with("Version:")) continue;
    line.remove_prefix(8);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    unsigned major = 0, minor = 0;
    auto [dot, ec] = std::from_chars(line.data(), line.data() + line.size(), major);
    if (ec != std::errc() || dot == line.data() + line.size() || *dot != '.') return std::nullopt;
    if (std::from_chars(dot + 1, line.data() + line.size(), minor).ec != std::errc()) return std::nullopt;
    return major << 16 | minor << 8;
  }
  return std::nullopt;
}

// The environment that assembles a module of `version`: SPIR-V of that
// version, no more.
std::optional<spv_target_env> universal_env(uint32_t version) {
  switch (version) {
    case 0x10000: return SPV_ENV_UNIVERSAL_1_0;
    case 0x10100: return SPV_ENV_UNIVERSAL_1_1;
    case 0x10200: return SPV_ENV_UNIVERSAL_1_2;
    case 0x10300: return SPV_ENV_UNIVERSAL_1_3;
    case 0x10400: return SPV_ENV_UNIVERSAL_1_4;
    case 0x10500: return SPV_ENV_UNIVERSAL_1_5;
    case 0x10600: return SPV_ENV_UNIVERSAL_1_6;
  }
  return std::nullopt;
}

CompiledShader assemble(const std::string& path, const std::string& text, const CompileOptions& options) {
  // The version the text says it is, else that of the environment it is
  // linted for.
  const std::optional<uint32_t> version = assembly_version(text);
  const std::optional<spv_target_env> at_version = version ? universal_env(*version) : std::nullopt;
  spvtools::SpirvTools tools(at_version.value_or(to_spv_env(options.target_env.value_or(kDefaultTargetEnv))));
  std::vector<Diagnostic> errors;
  tools.SetMessageConsumer(
      [&](spv_message_level_t level, const char*, const spv_position_t& position, const char* message) {
        if (level > SPV_MSG_ERROR) return;
        // The assembler counts lines and columns from 0.
        errors.push_back(file_error(kInvalidSpirv, path, message, static_cast<uint32_t>(position.line + 1),
                                    static_cast<uint32_t>(position.column + 1)));
      });
  CompiledShader result;
  result.files.push_back(path);
  if (!tools.Assemble(text, &result.spirv, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS)) {
    if (errors.empty()) errors.push_back(file_error(kInvalidSpirv, path, "SPIR-V assembly failed"));
    result.spirv.clear();
    result.diagnostics = std::move(errors);
    return result;
  }
  result.assembly_lines = instruction_lines(text);
  // Two instructions on one line (legal, rare) break the line-to-ordinal map;
  // no lines is better than wrong ones.
  if (result.assembly_lines.size() != count_instructions(result.spirv)) result.assembly_lines.clear();
  result.non_compute_stage = non_compute_entry_stage(result.spirv);
  result.ok = true;
  return result;
}

CompiledShader compile_unguarded(const std::string& path, const std::string& text, Language language,
                                 const CompileOptions& options, SourceCache& sources) {
  switch (language) {
    case Language::SpirvBinary: return load_spirv_binary(path, text);
    case Language::SpirvAssembly: {
      if (auto problem = precheck_text(text, "SPIR-V assembly")) {
        return failed(file_error(kInvalidSpirv, path, *problem));
      }
      sources.add(path, text);
      return assemble(path, text, options);
    }
    case Language::Glsl:
    case Language::Hlsl: {
      if (auto problem = precheck_text(text, "GLSL/HLSL source")) {
        return failed(file_error(kCompileError, path, *problem));
      }
      return compile_with_glslang(path, text, language, options, sources);
    }
  }
  return failed(file_error(kInternalError, path, "unknown source language"));
}

}  // namespace

std::optional<TargetEnv> parse_target_env(std::string_view text) {
  if (text == "vulkan1.0") return TargetEnv::Vulkan1_0;
  if (text == "vulkan1.1") return TargetEnv::Vulkan1_1;
  if (text == "vulkan1.2") return TargetEnv::Vulkan1_2;
  if (text == "vulkan1.3") return TargetEnv::Vulkan1_3;
  return std::nullopt;
}

std::string_view to_string(TargetEnv env) {
  switch (env) {
    case TargetEnv::Vulkan1_0: return "vulkan1.0";
    case TargetEnv::Vulkan1_1: return "vulkan1.1";
    case TargetEnv::Vulkan1_2: return "vulkan1.2";
    case TargetEnv::Vulkan1_3: return "vulkan1.3";
  }
  return "vulkan1.3";
}

TargetEnv target_env_for_spirv(uint32_t version) {
  if (version <= 0x10000) return TargetEnv::Vulkan1_0;
  if (version <= 0x10300) return TargetEnv::Vulkan1_1;
  if (version <= 0x10500) return TargetEnv::Vulkan1_2;
  return TargetEnv::Vulkan1_3;
}

spv_target_env to_spv_env(TargetEnv env) {
  switch (env) {
    case TargetEnv::Vulkan1_0: return SPV_ENV_VULKAN_1_0;
    case TargetEnv::Vulkan1_1: return SPV_ENV_VULKAN_1_1;
    case TargetEnv::Vulkan1_2: return SPV_ENV_VULKAN_1_2;
    case TargetEnv::Vulkan1_3: return SPV_ENV_VULKAN_1_3;
  }
  return SPV_ENV_VULKAN_1_3;
}

std::optional<Language> language_for_path(const std::string& path, bool force_compute) {
  std::string ext = extension_of(path);
  if (ext == ".comp" || ext == ".glsl") return Language::Glsl;
  if (ext == ".hlsl" || ext == ".hlsli") return Language::Hlsl;
  if (ext == ".spv") return Language::SpirvBinary;
  if (ext == ".spvasm") return Language::SpirvAssembly;
  if (force_compute) return Language::Glsl;
  return std::nullopt;
}

std::optional<std::string> non_compute_stage_for_path(const std::string& path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kStages{{
      {".vert", "vertex"},
      {".tesc", "tesscontrol"},
      {".tese", "tesseval"},
      {".geom", "geometry"},
      {".frag", "fragment"},
      {".rgen", "raygen"},
      {".rchit", "closest"},
      {".rmiss", "miss"},
      {".rahit", "anyhit"},
      {".rint", "intersect"},
      {".rcall", "callable"},
      {".mesh", "mesh"},
      {".task", "task"},
  }};
  std::string ext = extension_of(path);
  // "blur.frag.glsl": the extension before .glsl or .hlsl names the stage.
  if (ext == ".glsl" || ext == ".hlsl") ext = extension_of(std::filesystem::path(path).stem().string());
  for (auto [suffix, stage] : kStages) {
    if (ext == suffix) return std::string(stage);
  }
  return std::nullopt;
}

CompiledShader compile(const std::string& path, const std::string& text, Language language,
                       const CompileOptions& options, SourceCache& sources) {
  // glslang and SPIRV-Tools are not expected to throw, but one file must never
  // take the whole run down with it.
  try {
    return compile_unguarded(path, text, language, options, sources);
  } catch (const std::exception& e) {
    return failed(file_error(kInternalError, path, fmt::format("front-end failed: {}", e.what())));
  } catch (...) {
    return failed(file_error(kInternalError, path, "front-end failed with an unknown exception"));
  }
}

}  // namespace klint
