#include "analyzer/glslang_compile.h"

#include <fmt/core.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
// Scan.h does not include what it needs.
#include <glslang/Include/Common.h>
#include <glslang/MachineIndependent/Scan.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <mutex>
#include <regex>
#include <set>
#include <span>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

namespace klint {
namespace {

namespace fs = std::filesystem;
using IncludeResult = glslang::TShader::Includer::IncludeResult;

// glslang itself has no limit: a header that includes itself without a guard
// makes it loop until memory runs out.
constexpr size_t kMaxIncludeDepth = 64;

// Resolves #include like glslc: "x" next to the including file first, then in
// the -I directories in order; <x> in the -I directories only. Names handed
// back to glslang are paths as a user would write them (relative ones stay
// relative), because they end up in OpString/OpLine and in error messages.
class FileIncluder final : public glslang::TShader::Includer {
 public:
  FileIncluder(const std::vector<std::string>& include_dirs, SourceCache& sources)
      : include_dirs_(include_dirs), sources_(sources) {}

  IncludeResult* includeLocal(const char* header, const char* includer, size_t depth) override {
    if (depth > kMaxIncludeDepth) return nullptr;  // includeSystem reports it
    return try_open(fs::path(includer).parent_path(), header, includer);
  }

  IncludeResult* includeSystem(const char* header, const char* includer, size_t depth) override {
    if (depth > kMaxIncludeDepth) {
      return fail(fmt::format("#include nested more than {} levels deep; does \"{}\" include itself?",
                              kMaxIncludeDepth, header));
    }
    for (const std::string& dir : include_dirs_) {
      if (IncludeResult* result = try_open(dir, header, includer)) return result;
    }
    std::string searched;
    for (const std::string& dir : include_dirs_) searched += fmt::format(", {}", dir.empty() ? "." : dir);
    return fail(fmt::format("cannot find include file \"{}\"{}", header,
                            searched.empty() ? "" : fmt::format(" (searched {})", searched.substr(2))));
  }

  void releaseInclude(IncludeResult* result) override {
    if (result) delete static_cast<std::string*>(result->userData);
    delete result;
  }

  // Every file opened, in the order first opened.
  const std::vector<std::string>& files() const { return files_; }
  // Messages of failed includes, which glslang wraps in its own words.
  const std::set<std::string>& failures() const { return failures_; }
  // Every #include followed, in order.
  const std::vector<Inclusion>& includes() const { return includes_; }

 private:
  IncludeResult* try_open(const fs::path& dir, const char* header, const char* includer) {
    std::string name = (dir / header).lexically_normal().string();
    std::error_code error;
    if (!fs::is_regular_file(name, error)) return nullptr;
    // The cache keeps the text alive for the whole run, so glslang may point
    // into it directly.
    const SourceFile* file = sources_.get(name);
    if (!file) return fail(fmt::format("cannot read include file \"{}\"", name));
    if (std::find(files_.begin(), files_.end(), name) == files_.end()) files_.push_back(name);
    Inclusion inclusion{includer, header, name};
    if (std::find(includes_.begin(), includes_.end(), inclusion) == includes_.end()) includes_.push_back(inclusion);
    return new IncludeResult(name, file->text().data(), file->text().size(), nullptr);
  }

  IncludeResult* fail(std::string message) {
    failures_.insert(message);
    auto* owned = new std::string(std::move(message));
    return new IncludeResult("", owned->data(), owned->size(), owned);
  }

  const std::vector<std::string>& include_dirs_;
  SourceCache& sources_;
  std::vector<std::string> files_;
  std::vector<Inclusion> includes_;
  std::set<std::string> failures_;
};

// glslang quotes offending tokens, which in a damaged file may be control
// characters; those never reach a terminal raw.
std::string printable(std::string_view text) {
  std::string out;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F)
      out += fmt::format("\\x{:02x}", byte);
    else
      out += c;
  }
  return out;
}

Diagnostic compile_error(std::string file, uint32_t line, std::string_view message) {
  Diagnostic diagnostic;
  diagnostic.rule = &kCompileError;
  diagnostic.severity = kCompileError.default_severity;
  diagnostic.message = printable(message);
  diagnostic.location.file = std::move(file);
  diagnostic.location.line = line;
  return diagnostic;
}

std::string_view trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

// Reads "NAME:LINE: " at the start of `rest` when NAME is `name`.
std::optional<uint32_t> line_after(std::string_view rest, std::string_view name, size_t* consumed) {
  if (!rest.starts_with(name) || rest.size() <= name.size() || rest[name.size()] != ':') return std::nullopt;
  const char* begin = rest.data() + name.size() + 1;
  const char* end = rest.data() + rest.size();
  uint32_t line = 0;
  auto [stop, error] = std::from_chars(begin, end, line);
  if (error != std::errc() || stop == begin || stop == end || *stop != ':') return std::nullopt;
  *consumed = static_cast<size_t>(stop - rest.data()) + 1;
  return line;
}

// Turns glslang's info log ("ERROR: path:LINE: 'token' : message") into
// diagnostics. Paths may contain colons, so the names glslang was given are
// matched first; only an unknown name falls back to the first ":LINE:".
class InfoLogParser {
 public:
  InfoLogParser(const std::string& main_path, std::string entry_point, const FileIncluder& includer,
                std::vector<std::string> kernels = {})
      : main_path_(main_path), entry_point_(std::move(entry_point)), includer_(includer), kernels_(std::move(kernels)) {
    names_ = includer.files();
    names_.push_back(main_path);
    std::sort(names_.begin(), names_.end(), [](auto& a, auto& b) { return a.size() > b.size(); });
  }

  void parse(std::string_view log, std::vector<Diagnostic>& out) const {
    const size_t first = out.size();
    parse_lines(log, out);
    explain_unknown_extensions(out, first);
  }

 private:
  // glslang says "extension not supported: NAME", then "extra tokens" for
  // the ': require' after it. The name may be misspelt, or newer than this
  // glslang: say which glslang, once, and drop the echo.
  static void explain_unknown_extensions(std::vector<Diagnostic>& out, size_t first) {
    constexpr std::string_view kUnknown = "'#extension' : extension not supported: ";
    constexpr std::string_view kEcho = "'#extension' : extra tokens -- expected newline";
    std::vector<std::pair<std::string, uint32_t>> explained;
    for (size_t i = first; i < out.size(); ++i) {
      Diagnostic& diagnostic = out[i];
      if (!diagnostic.message.starts_with(kUnknown)) continue;
      const glslang::Version version = glslang::GetVersion();
      diagnostic.message = fmt::format(
          "extension {} is unknown to the glslang klint is built with ({}.{}.{}): it is misspelt, or newer than "
          "that glslang (then compile the shader with a newer one and lint its SPIR-V)",
          diagnostic.message.substr(kUnknown.size()), version.major, version.minor, version.patch);
      explained.emplace_back(diagnostic.location.file, diagnostic.location.line);
    }
    std::erase_if(out, [&](const Diagnostic& diagnostic) {
      return diagnostic.message == kEcho &&
             std::find(explained.begin(), explained.end(),
                       std::pair{diagnostic.location.file, diagnostic.location.line}) != explained.end();
    });
  }

  void parse_lines(std::string_view log, std::vector<Diagnostic>& out) const {
    while (!log.empty()) {
      size_t end = std::min(log.find('\n'), log.size());
      std::string_view line = log.substr(0, end);
      log.remove_prefix(std::min(end + 1, log.size()));
      for (std::string_view prefix : {"ERROR: ", "INTERNAL ERROR: "}) {
        if (line.starts_with(prefix)) {
          if (auto diagnostic = parse_error(line.substr(prefix.size())))
            out.push_back(std::move(*diagnostic));
          break;
        }
      }
      // Only a warning to glslang, which then emits an empty entry point.
      if (line.starts_with("WARNING: Linking compute stage: Entry point not found")) {
        std::string candidates;
        for (const std::string& kernel : kernels_) candidates += (candidates.empty() ? "" : ", ") + kernel;
        out.push_back(compile_error(
            main_path_, 0,
            kernels_.empty() ? fmt::format("entry point '{}' not found", entry_point_)
                             : fmt::format("entry point '{}' not found; the [numthreads] functions are {} (choose one "
                                           "with --entry)",
                                           entry_point_, candidates)));
      }
    }
  }

  std::optional<Diagnostic> parse_error(std::string_view rest) const {
    rest = trim(rest);
    if (rest.find("No code generated") != std::string_view::npos) return std::nullopt;
    constexpr std::string_view kLinking = "Linking compute stage: ";
    if (rest.starts_with(kLinking)) return compile_error(main_path_, 0, rest.substr(kLinking.size()));

    std::string file = main_path_;
    uint32_t line = 0;
    size_t consumed = 0;
    bool located = false;
    for (const std::string& name : names_) {
      if (auto found = line_after(rest, name, &consumed)) {
        file = name;
        line = *found;
        located = true;
        break;
      }
    }
    for (size_t colon = rest.find(':'); !located && colon != std::string_view::npos;
         colon = rest.find(':', colon + 1)) {
      if (auto found = line_after(rest, rest.substr(0, colon), &consumed)) {
        file = std::string(rest.substr(0, colon));
        line = *found;
        located = true;
      }
    }
    std::string message = clean_message(located ? rest.substr(consumed) : rest);
    if (message.empty() || message == "compilation terminated") return std::nullopt;
    // glslang numbers the preamble string -1; only -D definitions end up there.
    if (located && file == "-1") {
      file = main_path_;
      line = 0;
      message = "in the -D definitions: " + message;
    }
    return compile_error(std::move(file), line, message);
  }

  // "'' :  syntax error" becomes "syntax error"; an include failure loses the
  // "'#include' : ... for header name: x" that glslang wraps around it.
  std::string clean_message(std::string_view message) const {
    message = trim(message);
    if (message.starts_with("'' :")) message = trim(message.substr(4));
    constexpr std::string_view kInclude = "'#include' : ";
    if (message.starts_with(kInclude)) {
      std::string_view inner = message.substr(kInclude.size());
      for (const std::string& failure : includer_.failures()) {
        if (inner.starts_with(failure)) return failure;
      }
    }
    return std::string(message);
  }

  const std::string& main_path_;
  std::string entry_point_;
  const FileIncluder& includer_;
  std::vector<std::string> kernels_;  // an HLSL file's [numthreads] functions
  std::vector<std::string> names_;
};

void initialize_glslang_once() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

struct SpirvVersions {
  glslang::EShTargetClientVersion client;
  glslang::EShTargetLanguageVersion spirv;
};

SpirvVersions versions_for(TargetEnv env) {
  switch (env) {
    case TargetEnv::Vulkan1_0: return {glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0};
    case TargetEnv::Vulkan1_1: return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
    case TargetEnv::Vulkan1_2: return {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5};
    case TargetEnv::Vulkan1_3: return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
  }
  return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
}

// glslc's -D: `-DNAME` defines NAME with an empty body (not 1 as in C
// compilers), `-DNAME=VALUE` defines it as VALUE. GLSL also gets #include
// without having to ask for GL_GOOGLE_include_directive, as under glslc.
std::string make_preamble(const CompileOptions& options, Language language) {
  std::string preamble;
  for (const auto& [name, value] : options.defines) {
    preamble +=
        value.empty() ? fmt::format("#define {}\n", name) : fmt::format("#define {} {}\n", name, value);
  }
  if (language == Language::Glsl) preamble += "#extension GL_GOOGLE_include_directive : enable\n";
  return preamble;
}

// glslang keeps the pointers it is given until parse() returns, so these
// outlive every TShader that uses them.
struct ShaderStrings {
  const char* text;
  int length;
  const char* name;
};

void configure(glslang::TShader& shader, const ShaderStrings& strings, Language language,
               const CompileOptions& options, const std::string& preamble) {
  shader.setStringsWithLengthsAndNames(&strings.text, &strings.length, &strings.name, 1);
  shader.setPreamble(preamble.c_str());
  SpirvVersions versions = versions_for(options.target_env.value_or(kDefaultTargetEnv));
  shader.setEnvInput(language == Language::Hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl,
                     EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, versions.client);
  shader.setEnvTarget(glslang::EShTargetSpv, versions.spirv);
  if (language == Language::Hlsl) shader.setEntryPoint(options.entry_point.c_str());
  // Not shader.setDebugInfo(true): in glslang 12.0 it wraps nested blocks in
  // scopes that GlslangToSpv turns into NonSemantic debug instructions with no
  // import (id 0), even when only OpLine was asked for, so every shader with
  // an `if { }` became invalid SPIR-V. EShMsgDebugInfo alone names the file.
}

EShMessages messages_for(Language language) {
  // EShMsgDebugInfo records the file name and text for OpString/OpSource.
  int messages = EShMsgSpvRules | EShMsgVulkanRules | EShMsgDebugInfo;
  if (language == Language::Hlsl) messages |= EShMsgReadHlsl | EShMsgHlslOffsets;
  return static_cast<EShMessages>(messages);
}

// glslang's defaults reject workgroups over 1024x1024x64; whether a size fits
// is for the targets to say (workgroup-size-over-limit), not the compiler.
const TBuiltInResource& resource_limits() {
  static const TBuiltInResource kLimits = [] {
    TBuiltInResource limits = *GetDefaultResources();
    limits.maxComputeWorkGroupSizeX = limits.maxComputeWorkGroupSizeY = limits.maxComputeWorkGroupSizeZ = 65535;
    limits.maxComputeWorkGroupCountX = limits.maxComputeWorkGroupCountY = limits.maxComputeWorkGroupCountZ = 65535;
    return limits;
  }();
  return kLimits;
}

constexpr int kDefaultGlslVersion = 110;  // as glslc: a shader without #version is desktop GLSL 110

// glslc's `#pragma shader_stage(NAME)`: found in the preprocessed text, so
// that pragmas in #if'd-out code or in headers count as glslc counts them.
struct StagePragma {
  std::string stage;
  std::string file;
  uint32_t line = 0;
};

// The preprocessed text starts with one line per preamble line.
std::optional<StagePragma> find_stage_pragma(const std::string& preprocessed, const std::string& main_path,
                                             size_t preamble_lines) {
  constexpr std::string_view kPragma = "#pragma shader_stage";
  std::string file = main_path;
  uint32_t line = 1;
  std::string_view rest = preprocessed;
  for (; preamble_lines > 0 && !rest.empty(); --preamble_lines)
    rest.remove_prefix(std::min(rest.find('\n') + 1, rest.size()));
  while (!rest.empty()) {
    size_t end = std::min(rest.find('\n'), rest.size());
    std::string_view text = trim(rest.substr(0, end));
    rest.remove_prefix(std::min(end + 1, rest.size()));
    if (text.starts_with(kPragma)) {
      std::string_view stage = trim(text.substr(kPragma.size()));
      if (stage.starts_with('(') && stage.ends_with(')')) stage = trim(stage.substr(1, stage.size() - 2));
      return StagePragma{std::string(stage), file, line};
    }
    // Compute shaders need #version 310 es or 430, where `#line N` numbers the
    // line after it.
    if (text.starts_with("#line ")) {
      std::string_view args = trim(text.substr(6));
      uint32_t number = 0;
      auto [stop, error] = std::from_chars(args.data(), args.data() + args.size(), number);
      if (error == std::errc()) {
        line = number;
        std::string_view name = trim(args.substr(static_cast<size_t>(stop - args.data())));
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
          file = name.substr(1, name.size() - 2);
        continue;
      }
    }
    ++line;
  }
  return std::nullopt;
}

// glslang 12 cannot build its built-in symbol table for desktop GLSL below
// 150 under Vulkan and then prints the whole table to stdout. Such a shader
// cannot be a compute shader anyway, so it is rejected before glslang runs.
std::optional<Diagnostic> check_glsl_version(const std::string& path, const std::string& text) {
  const char* strings[] = {text.data()};
  size_t lengths[] = {text.size()};
  glslang::TInputScanner scanner(1, strings, lengths);
  int version = 0;
  EProfile profile = ENoProfile;
  bool not_first_token = false;
  scanner.scanVersion(version, profile, not_first_token);
  if (profile == EEsProfile || version >= 150) return std::nullopt;
  constexpr std::string_view kNeed = "compute shaders need #version 310 es, or 420 or later";
  if (version == 0) return compile_error(path, 0, fmt::format("no #version directive: {}", kNeed));
  size_t at = text.find("#version");
  uint32_t line = at == std::string::npos
                      ? 0
                      : 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));
  return compile_error(path, line, fmt::format("#version {}: {}", version, kNeed));
}

constexpr std::string_view kKnownStages[] = {"vertex",  "fragment", "tesscontrol", "tesseval", "geometry",
                                             "compute", "raygen",   "intersect",   "anyhit",   "closest",
                                             "miss",    "callable", "task",        "mesh"};

bool is_valid_spirv(const std::vector<uint32_t>& spirv, spv_target_env env) {
  spvtools::SpirvTools tools(env);
  // Friendly names only word messages, and cost time quadratic in repeated OpNames.
  spvtools::ValidatorOptions options;
  options.SetFriendlyNames(false);
  return tools.Validate(spirv.data(), spirv.size(), options);
}

// glslang's HLSL output often needs SPIRV-Tools' legalization (glslc runs it
// whenever its optimizer is on). The raw output is kept when it is valid: the
// passes move code around and analyses prefer what the user wrote.
void legalize_if_needed(std::vector<uint32_t>& spirv, spv_target_env env) {
  if (is_valid_spirv(spirv, env)) return;
  spvtools::Optimizer optimizer(env);
  optimizer.RegisterLegalizationPasses();
  std::vector<uint32_t> legal;
  if (optimizer.Run(spirv.data(), spirv.size(), &legal) && is_valid_spirv(legal, env))
    spirv = std::move(legal);
}

// glslang packs a string into words as `word |= (unsigned int)c << shift` of
// a plain, signed, char (spv::Instruction::addStringOperand), so every byte of
// 0x80 and up also sets each higher byte of its word: "naïve.comp" reaches
// OpString as "na\xC3\xFFve.comp", and an alert would name a file that does
// not exist. `sign_extend` spells a string as glslang does; without it, as
// SPIR-V says.
std::vector<uint32_t> string_words(std::string_view text, bool sign_extend) {
  std::vector<uint32_t> words((text.size() + 4) / 4, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const uint32_t value = sign_extend && byte >= 0x80 ? 0xFFFFFF00u | byte : byte;
    words[i / 4] |= value << (8 * (i % 4));
  }
  return words;
}

// Gives each OpString that names a file of this compile, as glslang spelled
// it, the file's own bytes: the words glslang mangled are matched against the
// names klint handed it (the path it was given and the includes it resolved),
// so the name always comes from klint and never from guessing at the bytes.
// Both spellings take the same number of words.
void restore_file_names(std::vector<uint32_t>& spirv, const std::vector<std::string>& files) {
  constexpr size_t kHeaderWords = 5;
  constexpr uint32_t kOpString = 7;
  std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> spellings;
  for (const std::string& file : files) {
    std::vector<uint32_t> mangled = string_words(file, true);
    std::vector<uint32_t> own = string_words(file, false);
    if (mangled != own) spellings.emplace_back(std::move(mangled), std::move(own));
  }
  if (spellings.empty()) return;
  for (size_t at = kHeaderWords; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) return;
    if ((spirv[at] & 0xFFFF) == kOpString && count > 2) {
      std::span<uint32_t> literal(spirv.data() + at + 2, count - 2);
      for (const auto& [mangled, own] : spellings) {
        if (std::equal(literal.begin(), literal.end(), mangled.begin(), mangled.end())) {
          std::copy(own.begin(), own.end(), literal.begin());
          break;
        }
      }
    }
    at += count;
  }
}

// The functions an HLSL file marks `[numthreads(...)]`, by name, in order.
std::vector<std::string> numthreads_functions(std::string_view text) {
  static const std::regex kKernel(R"(\[\s*numthreads\s*\([^)]*\)\s*\](?:\s*\[[^\]]*\])*\s*[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s*\()");
  std::vector<std::string> names;
  for (std::cregex_iterator it(text.data(), text.data() + text.size(), kKernel), end; it != end; ++it) {
    names.push_back((*it)[1].str());
  }
  return names;
}

// The entry point of an HLSL file: the one asked for, or, when that is the
// default `main` and no [numthreads] function has that name, the file's only
// [numthreads] function.
std::string hlsl_entry_point(std::string_view text, const std::string& asked, std::vector<std::string>& kernels) {
  kernels = numthreads_functions(text);
  if (asked != "main" || std::find(kernels.begin(), kernels.end(), "main") != kernels.end()) return asked;
  return kernels.size() == 1 ? kernels.front() : asked;
}

}  // namespace

CompiledShader compile_with_glslang(const std::string& path, const std::string& text, Language language,
                                    const CompileOptions& options, SourceCache& sources) {
  initialize_glslang_once();
  sources.add(path, text);
  CompiledShader result;
  std::vector<std::string> kernels;
  CompileOptions effective = options;
  if (language == Language::Hlsl) effective.entry_point = hlsl_entry_point(text, options.entry_point, kernels);
  FileIncluder includer(options.include_dirs, sources);
  const std::string preamble = make_preamble(options, language);
  const SpirvVersions versions = versions_for(options.target_env.value_or(kDefaultTargetEnv));
  const ShaderStrings strings{text.data(), static_cast<int>(text.size()), path.c_str()};
  auto finish = [&](bool ok) {
    result.ok = ok;
    result.files.push_back(path);
    for (const std::string& file : includer.files()) {
      if (file != path) result.files.push_back(file);
    }
    result.includes = includer.includes();
    return std::move(result);
  };

  if (language == Language::Glsl) {
    if (auto error = check_glsl_version(path, text)) {
      result.diagnostics.push_back(std::move(*error));
      return finish(false);
    }
  }

  // Preprocessing twice costs little, but is skipped unless the pragma may be there.
  if (language == Language::Glsl && text.find("shader_stage") != std::string::npos) {
    glslang::TShader shader(EShLangCompute);
    configure(shader, strings, language, effective, preamble);
    std::string preprocessed;
    // A failure here is reported by the real compile below.
    if (shader.preprocess(&resource_limits(), kDefaultGlslVersion, ENoProfile, false, false,
                          messages_for(language), &preprocessed, includer)) {
      if (auto pragma =
              find_stage_pragma(preprocessed, path, std::count(preamble.begin(), preamble.end(), '\n'))) {
        if (std::find(std::begin(kKnownStages), std::end(kKnownStages), pragma->stage) ==
            std::end(kKnownStages)) {
          result.diagnostics.push_back(
              compile_error(pragma->file, pragma->line,
                            fmt::format("invalid stage for 'shader_stage' #pragma: '{}'", pragma->stage)));
          return finish(false);
        }
        if (pragma->stage != "compute") {
          result.non_compute_stage = pragma->stage;
          return finish(false);
        }
      }
    }
  }

  glslang::TShader shader(EShLangCompute);
  configure(shader, strings, language, effective, preamble);
  const int default_version = language == Language::Hlsl ? 100 : kDefaultGlslVersion;
  bool parsed = shader.parse(&resource_limits(), default_version, ENoProfile, false, false,
                             messages_for(language), includer);
  InfoLogParser log(path, language == Language::Hlsl ? effective.entry_point : "main", includer, kernels);
  log.parse(shader.getInfoLog(), result.diagnostics);
  if (!parsed) {
    if (result.diagnostics.empty())
      result.diagnostics.push_back(compile_error(path, 0, "compilation failed"));
    return finish(false);
  }

  glslang::TProgram program;
  program.addShader(&shader);
  bool linked = program.link(messages_for(language));
  log.parse(program.getInfoLog(), result.diagnostics);
  if (!linked || !result.diagnostics.empty()) {
    if (result.diagnostics.empty()) result.diagnostics.push_back(compile_error(path, 0, "linking failed"));
    return finish(false);
  }

  glslang::TIntermediate& intermediate = *program.getIntermediate(EShLangCompute);
  if (language == Language::Glsl) {
    bool declared = intermediate.isLocalSizeSet();
    for (int dim = 0; dim < 3; ++dim) declared |= intermediate.getLocalSizeSpecId(dim) != glslang::TQualifier::layoutNotSet;
    result.workgroup_size_declared = declared;
  }
  // glslang's GLSL front-end switches to the StorageBuffer storage class from
  // SPIR-V 1.3 on, its HLSL front-end never does, and BufferBlock is invalid
  // from SPIR-V 1.4.
  if (versions.spirv >= glslang::EShTargetSpv_1_3) intermediate.setUseStorageBuffer();
  glslang::SpvOptions spv_options;
  spv_options.generateDebugInfo = true;
  spv_options.disableOptimizer = true;
  spv_options.validate = false;
  spv::SpvBuildLogger logger;
  glslang::GlslangToSpv(intermediate, result.spirv, &logger, &spv_options);
  std::vector<std::string> files = includer.files();
  files.push_back(path);
  restore_file_names(result.spirv, files);
  if (language == Language::Hlsl) {
    legalize_if_needed(result.spirv, to_spv_env(options.target_env.value_or(kDefaultTargetEnv)));
  }
  return finish(!result.spirv.empty());
}

}  // namespace klint
