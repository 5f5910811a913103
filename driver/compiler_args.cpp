#include "driver/compiler_args.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <filesystem>

namespace klint {
namespace {

using Define = std::pair<std::string, std::string>;

// -fshader-stage= and -S names, each with the name klint reports.
constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kStages{{
    {"comp", "compute"},  {"compute", "compute"},   {"vert", "vertex"},      {"vertex", "vertex"},
    {"frag", "fragment"}, {"fragment", "fragment"}, {"tesc", "tesscontrol"}, {"tesscontrol", "tesscontrol"},
    {"tese", "tesseval"}, {"tesseval", "tesseval"}, {"geom", "geometry"},    {"geometry", "geometry"},
    {"mesh", "mesh"},     {"task", "task"},         {"rgen", "raygen"},      {"rint", "intersect"},
    {"rahit", "anyhit"},  {"rchit", "closest"},     {"rmiss", "miss"},       {"rcall", "callable"},
}};

bool is_number(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool one_of(std::string_view arg, std::initializer_list<std::string_view> options) {
  return std::find(options.begin(), options.end(), arg) != options.end();
}

// How the shader is compiled, as the options read so far say.
struct Settings {
  std::vector<Define> defines;
  std::vector<std::string> include_dirs;
  TargetEnv target_env = TargetEnv::Vulkan1_0;  // both compilers' default
  std::optional<Language> language;             // -x, or glslangValidator's bare -D
  std::optional<std::string> stage;             // as klint names stages
  std::string entry_point = "main";
  std::string output;
};

struct PendingInput {
  std::string file;
  std::optional<Language> language;
  std::optional<std::string> stage;
  std::string entry_point;
};

class ArgReader {
 public:
  ArgReader(Compiler compiler, const std::vector<std::string>& args) : compiler_(compiler), args_(args) {}

  std::optional<CompilerCommand> read(std::string* error) {
    while (i_ < args_.size()) {
      const std::string& arg = args_[i_++];
      bool ok = arg.size() > 1 && arg[0] == '-'
                    ? (compiler_ == Compiler::Glslc ? glslc_option(arg) : validator_option(arg))
                    : add_input(arg);
      if (!ok) {
        *error = error_;
        return std::nullopt;
      }
    }
    return finish(error);
  }

 private:
  std::string_view tool() const { return compiler_ == Compiler::Glslc ? "glslc" : "glslangValidator"; }

  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  // Stores in `out` the value of `option`: attached ("-Iinc") or the next word ("-I inc").
  bool take_value(std::string_view arg, std::string_view option, std::string& out) {
    if (arg.size() > option.size()) {
      out = arg.substr(option.size());
    } else if (i_ < args_.size()) {
      out = args_[i_++];
    } else {
      return fail(fmt::format("'{}' needs a value", option));
    }
    return true;
  }

  bool skip_values(std::string_view option, size_t count) {
    if (i_ + count > args_.size())
      return fail(fmt::format("'{}' needs {} value{}", option, count, count > 1 ? "s" : ""));
    i_ += count;
    return true;
  }

  bool add_input(const std::string& file) {
    if (file == "-") return fail("the command reads the shader from standard input");
    if (compiler_ == Compiler::GlslangValidator && file.ends_with(".conf"))
      return fail(fmt::format("{}: klint cannot follow custom resource limits", file));
    inputs_.push_back(PendingInput{file, settings_.language, settings_.stage, settings_.entry_point});
    return true;
  }

  bool define(std::string_view text) {
    size_t equals = text.find('=');
    std::string name(text.substr(0, equals));
    std::string body = equals == std::string_view::npos ? "" : std::string(text.substr(equals + 1));
    std::erase_if(settings_.defines, [&](const Define& d) { return d.first == name; });
    settings_.defines.emplace_back(std::move(name), std::move(body));
    return true;
  }

  // glslangValidator's -U. klint's front-end only takes definitions, so only a
  // macro this command defined can be undefined (by not defining it).
  bool undefine(std::string_view name) {
    if (std::erase_if(settings_.defines, [&](const Define& d) { return d.first == name; }) == 0) {
      return fail(fmt::format("-U{}: klint can only undefine a macro that the same command defines", name));
    }
    return true;
  }

  bool stage(std::string_view name, std::string_view option) {
    for (auto [spelling, stage] : kStages) {
      if (spelling == name) {
        settings_.stage = std::string(stage);
        return true;
      }
    }
    return fail(fmt::format("{}{}: unknown shader stage", option, name));
  }

  // vulkan1.0 to vulkan1.3 are followed; SPIR-V versions only shape the output.
  bool target_env(std::string_view env, std::string_view option) {
    if (auto parsed = parse_target_env(env)) {
      settings_.target_env = *parsed;
    } else if (env == "vulkan") {
      settings_.target_env = TargetEnv::Vulkan1_0;
    } else if (env.starts_with("opengl")) {
      return fail(fmt::format("{}{}: klint lints Vulkan shaders", option, env));
    } else if (!(compiler_ == Compiler::GlslangValidator && env.starts_with("spirv1."))) {
      return fail(fmt::format("{}{}: unknown target environment", option, env));
    }
    return true;
  }

  bool cannot_follow(std::string_view arg) {
    return fail(fmt::format("klint cannot follow {} '{}': it changes how the shader compiles", tool(), arg));
  }

  bool not_a_compile(std::string_view arg) { return fail(fmt::format("'{}' does not compile a shader", arg)); }

  bool glslc_option(const std::string& arg) {
    std::string v;
    if (arg.starts_with("-D")) {
      if (arg == "-D") return fail("'-D' needs a macro attached: -DNAME or -DNAME=VALUE");
      return define(std::string_view(arg).substr(2));
    }
    if (arg.starts_with("-I")) {
      if (!take_value(arg, "-I", v)) return false;
      settings_.include_dirs.push_back(v);
      return true;
    }
    if (arg.starts_with("-o")) return take_value(arg, "-o", settings_.output);
    if (arg.starts_with("-x")) {
      if (!take_value(arg, "-x", v)) return false;
      if (v != "glsl" && v != "hlsl") return fail(fmt::format("-x {}: glslc reads glsl and hlsl", v));
      settings_.language = v == "glsl" ? Language::Glsl : Language::Hlsl;
      return true;
    }
    if (arg.starts_with("--target-env=")) return target_env(arg.substr(13), "--target-env=");
    if (arg.starts_with("-fshader-stage=")) return stage(arg.substr(15), "-fshader-stage=");
    if (arg.starts_with("-fentry-point=")) {
      settings_.entry_point = arg.substr(14);
      return !settings_.entry_point.empty() || fail("'-fentry-point=' needs a name");
    }
    if (one_of(arg, {"-c", "-E", "-g", "-O", "-Os", "-O0", "-S", "-w", "-Werror", "-M", "-MM", "-MD", "-finvert-y",
                     "-fnan-clamp", "-fhlsl-iomap", "-fhlsl_functionality1", "-fhlsl-functionality1",
                     "-fauto-map-locations"}) ||
        arg.starts_with("-mfmt=") || arg.starts_with("--target-spv=")) {
      return true;
    }
    if (one_of(arg, {"-MF", "-MT"})) return skip_values(arg, 1);
    if (arg.starts_with("-f") && arg.ends_with("-binding-base")) {
      if (i_ < args_.size() && !is_number(args_[i_])) ++i_;  // [stage]
      return skip_values(arg, 1);
    }
    if (arg == "-fresource-set-binding") {
      if (i_ < args_.size() && !is_number(args_[i_])) ++i_;  // [stage]
      if (!skip_values(arg, 3)) return false;
      while (i_ + 2 < args_.size() && is_number(args_[i_ + 1]) && is_number(args_[i_ + 2])) i_ += 3;
      return true;
    }
    if (one_of(arg, {"-flimit-file", "-fhlsl-16bit-types", "-fhlsl-offsets", "-fauto-bind-uniforms",
                     "-fauto-combined-image-sampler"}) ||
        arg.starts_with("-std=") || arg.starts_with("-flimit=")) {
      return cannot_follow(arg);
    }
    if (one_of(arg, {"-h", "--help", "--version", "--show-limits"})) return not_a_compile(arg);
    return fail(fmt::format("unknown glslc option '{}'", arg));
  }

  // Only "-D", "-DNAME", "-U", "-UNAME" and "-IDIR" take attached values;
  // every other option with a value takes the next word.
  bool validator_option(const std::string& arg) {
    std::string v;
    if (arg == "-D") {  // "input is HLSL"; a macro is always attached
      settings_.language = Language::Hlsl;
      return true;
    }
    if (arg.starts_with("-D")) return define(std::string_view(arg).substr(2));
    if (one_of(arg, {"--D", "--define-macro"})) return take_value(arg, arg, v) && define(v);
    if (arg.starts_with("-U") && arg.size() > 2) return undefine(std::string_view(arg).substr(2));
    if (one_of(arg, {"--U", "--undef-macro"})) return take_value(arg, arg, v) && undefine(v);
    if (arg.starts_with("-I")) {
      if (arg == "-I") return fail("'-I' needs the directory attached: -IDIR");
      settings_.include_dirs.push_back(arg.substr(2));
      return true;
    }
    if (arg == "-S") return take_value(arg, arg, v) && stage(v, "-S ");
    if (one_of(arg, {"-e", "--entry-point"})) return take_value(arg, arg, settings_.entry_point);
    if (one_of(arg, {"--source-entrypoint", "--sep"})) return take_value(arg, arg, source_entry_point_);
    if (arg == "--target-env") return take_value(arg, arg, v) && target_env(v, "--target-env ");
    if (arg == "--client") {
      if (!take_value(arg, arg, v)) return false;
      return !v.starts_with("opengl") || fail(fmt::format("--client {}: klint lints Vulkan shaders", v));
    }
    if (arg == "-o") return take_value(arg, arg, settings_.output);
    if ((arg.starts_with("-V") && (arg.size() == 2 || is_number(arg.substr(2)))) ||
        one_of(arg, {"-C",
                     "-E",
                     "-H",
                     "-Od",
                     "-Os",
                     "-g",
                     "-g0",
                     "-gV",
                     "-gVS",
                     "-i",
                     "-l",
                     "-m",
                     "-q",
                     "-s",
                     "-t",
                     "-w",
                     "-x",
                     "--suppress-warnings",
                     "--quiet",
                     "--spirv-dis",
                     "--spirv-val",
                     "--keep-uncalled",
                     "--ku",
                     "--enhanced-msgs",
                     "--nan-clamp",
                     "--invert-y",
                     "--iy",
                     "--hlsl-iomap",
                     "--hlsl-dx-position-w",
                     "--auto-map-locations",
                     "--aml",
                     "--no-storage-format",
                     "--nsf",
                     "--dump-builtin-symbols",
                     "-fhlsl_functionality1"}) ||
        arg.starts_with("--reflect-") || (arg.starts_with("-u") && arg.size() > 2)) {
      return true;
    }
    if (one_of(arg, {"--depfile", "--variable-name", "--vn", "--uniform-base"})) return skip_values(arg, 1);
    if (one_of(arg, {"--set-block-backing", "--sbs", "--set-atomic-counter-block", "--sacb"}))
      return skip_values(arg, 2);
    if (one_of(arg, {"--set-default-uniform-block", "--sdub"})) return skip_values(arg, 3);
    if ((arg.starts_with("--shift-") && arg.ends_with("-binding")) ||
        one_of(arg, {"--sib", "--ssb", "--sbb", "--stb", "--suavb", "--sub", "--scb"})) {
      if (i_ < args_.size() && !is_number(args_[i_])) ++i_;  // [stage]
      if (i_ + 1 < args_.size() && is_number(args_[i_]) && is_number(args_[i_ + 1])) {
        while (i_ + 1 < args_.size() && is_number(args_[i_]) && is_number(args_[i_ + 1])) i_ += 2;  // per-set bases
        return true;
      }
      return skip_values(arg, 1);
    }
    if (one_of(arg, {"--resource-set-binding", "--rsb"})) {
      if (!skip_values(arg, 1)) return false;
      if (!is_number(args_[i_ - 1])) {  // [stage] then every word up to the next option
        while (i_ < args_.size() && !args_[i_].starts_with("-")) ++i_;
      }
      return true;
    }
    if (arg == "--glsl-version") return cannot_follow(arg);
    if ((arg.starts_with("-G") && (arg.size() == 2 || is_number(arg.substr(2))))) {
      return fail(fmt::format("{}: klint lints Vulkan shaders", arg));
    }
    if (one_of(arg, {"-R", "-d", "-r", "--relaxed-errors", "--hlsl-offsets", "--hlsl-enable-16bit-types",
                     "--hlsl-dx9-compatible", "--auto-map-bindings", "--amb", "--flatten-uniform-arrays", "--fua",
                     "--auto-sampled-textures"})) {
      return cannot_follow(arg);
    }
    if (arg == "--stdin") return fail("the command reads the shader from standard input");
    if (one_of(arg, {"-h", "-v", "--version", "-c", "-dumpversion", "-dumpfullversion"})) return not_a_compile(arg);
    return fail(fmt::format("unknown glslangValidator option '{}'", arg));
  }

  std::optional<CompilerCommand> finish(std::string* error) {
    CompilerCommand command;
    if (compiler_ == Compiler::GlslangValidator) {
      // Its options hold for every file, wherever they stand.
      for (PendingInput& input : inputs_) {
        input.language = settings_.language;
        input.stage = settings_.stage;
        input.entry_point = source_entry_point_.empty() ? settings_.entry_point : source_entry_point_;
      }
    }
    for (const PendingInput& input : inputs_) {
      // Without -S or -fshader-stage, the name's stage ("x.frag", and
      // "x.frag.glsl" as glslangValidator reads it); none compiles a kernel.
      std::optional<std::string> stage = input.stage ? input.stage : non_compute_stage_for_path(input.file);
      if (stage && *stage != "compute") {
        command.skipped.emplace_back(input.file, *stage);
        continue;
      }
      CompilerInput compiled;
      compiled.file = input.file;
      compiled.language = input.language.value_or(language_for_path(input.file, true).value_or(Language::Glsl));
      compiled.options.include_dirs = settings_.include_dirs;
      compiled.options.defines = settings_.defines;
      compiled.options.target_env = settings_.target_env;
      compiled.options.force_compute = input.stage.has_value();
      compiled.options.entry_point = input.entry_point;
      compiled.output = settings_.output;
      command.inputs.push_back(std::move(compiled));
    }
    if (inputs_.empty()) {
      *error = "the command names no shader";
      return std::nullopt;
    }
    if (compiler_ == Compiler::GlslangValidator && command.inputs.size() > 1) {
      *error = fmt::format("the command links {} compute shaders into one module; klint lints one at a time",
                           command.inputs.size());
      return std::nullopt;
    }
    return command;
  }

  Compiler compiler_;
  const std::vector<std::string>& args_;
  size_t i_ = 0;
  Settings settings_;
  // glslangValidator's --source-entrypoint: the function the source names,
  // which -e only renames in the output.
  std::string source_entry_point_;
  std::vector<PendingInput> inputs_;
  std::string error_;
};

}  // namespace

std::optional<Compiler> compiler_for(std::string_view program) {
  std::string name = std::filesystem::path(program).filename().string();
  if (name.ends_with(".exe")) name.resize(name.size() - 4);
  if (name == "glslc") return Compiler::Glslc;
  if (name == "glslangValidator" || name == "glslang") return Compiler::GlslangValidator;
  return std::nullopt;
}

std::optional<CompilerCommand> read_compiler_args(Compiler compiler, const std::vector<std::string>& args,
                                                  std::string* error) {
  return ArgReader(compiler, args).read(error);
}

}  // namespace klint
