#include "driver/config.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "rules/rule.h"
#include "runner/manifest.h"
#include "validate/targets.h"

namespace klint {
namespace {

namespace fs = std::filesystem;

template <class T>
void append_new(std::vector<T>& to, const T& item) {
  if (std::find(to.begin(), to.end(), item) == to.end()) to.push_back(item);
}

void apply(const ConfigLayer& layer, FileSettings& settings) {
  if (layer.select) {
    settings.select.emplace();
    for (const RuleInfo* rule : *layer.select) append_new(*settings.select, rule);
  }
  if (layer.ignore) {
    settings.ignore.clear();
    for (const RuleInfo* rule : *layer.ignore) append_new(settings.ignore, rule);
  }
  for (const RuleInfo* rule : layer.extend_ignore) append_new(settings.ignore, rule);
  for (const auto& [rule, severity] : layer.severity) settings.severity[rule] = severity;
  add_defines(settings.defines, layer.defines);
  for (const std::string& dir : layer.include_dirs) append_new(settings.include_dirs, dir);
  if (layer.targets) settings.targets = *layer.targets;
  if (layer.target_env) settings.target_env = layer.target_env;
  if (layer.entry_point) settings.entry_point = layer.entry_point;
  add_specialization(settings.specialization, layer.specialization);
}

bool any_matches(const std::vector<Glob>& globs, const std::string& path) {
  return std::any_of(globs.begin(), globs.end(), [&](const Glob& glob) { return glob.matches(path); });
}

template <class T, class Text>
std::string array(const std::vector<T>& items, Text text) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + runner::toml_string(text(items[i]));
  return out + "]";
}

std::string define_text(const Define& define) {
  return define.second.empty() ? define.first : define.first + "=" + define.second;
}

// The keys of a Specialization as klint.toml writes them, each constant once
// (its last value), the settings' origins in comments; `none` for a
// Specialization that sets nothing, where one is wanted.
void print_specialization(std::ostream& out, const Specialization& s, bool say_defaults) {
  std::vector<const SpecializationOption*> last;
  for (const SpecializationOption& option : s.constants) {
    std::erase_if(last, [&](const SpecializationOption* o) { return o->setting.key == option.setting.key; });
    last.push_back(&option);
  }
  if (!last.empty()) {
    out << "specialization = {";
    for (size_t i = 0; i < last.size(); ++i) {
      const std::string& key = last[i]->setting.key;
      const bool bare = std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
      out << (i ? ", " : " ") << (bare ? key : runner::toml_string(key)) << " = " << runner::to_string(last[i]->setting.value);
    }
    out << " }\n";
    for (const SpecializationOption* option : last) out << "#   " << option->origin << "\n";
  } else if (say_defaults) {
    out << "# specialization: none, the constants keep their defaults\n";
  }
  if (s.workgroup_size) {
    const std::array<uint32_t, 3>& size = s.workgroup_size->size;
    out << fmt::format("workgroup-size = [{}, {}, {}]  # {}\n", size[0], size[1], size[2], s.workgroup_size->origin);
  } else if (say_defaults) {
    out << "# workgroup-size: the kernel's own\n";
  }
  if (s.subgroup_size_constant) {
    out << "subgroup-size-constant = " << runner::toml_string(s.subgroup_size_constant->key) << "  # "
        << s.subgroup_size_constant->origin << "\n";
  } else if (say_defaults) {
    out << "# subgroup-size-constant: none\n";
  }
}

std::string rule_id(const RuleInfo* rule) { return std::string(rule->id); }
std::string same(const std::string& text) { return text; }

void print_settings(std::ostream& out, const FileSettings& s) {
  if (s.select) {
    out << "select = " << array(*s.select, rule_id) << "\n";
  } else {
    out << "# select: every rule\n";
  }
  out << "ignore = " << array(s.ignore, rule_id) << "\n";
  out << "include-dirs = " << array(s.include_dirs, same) << "\n";
  out << "defines = " << array(s.defines, define_text) << "\n";
  if (s.targets.empty()) {
    std::vector<std::string> defaults(default_target_names().begin(), default_target_names().end());
    out << "# targets: klint's defaults, " << array(defaults, same) << "\n";
  } else {
    out << "targets = " << array(s.targets, same) << "\n";
  }
  if (s.target_env) {
    out << "target-env = " << runner::toml_string(to_string(*s.target_env)) << "\n";
  } else {
    out << "# target-env: klint's default, \"vulkan1.3\" for GLSL and HLSL, the one of its version for SPIR-V\n";
  }
  if (s.entry_point) {
    out << "entry-point = " << runner::toml_string(*s.entry_point) << "\n";
  } else {
    out << "# entry-point: klint's default, \"main\"\n";
  }
  print_specialization(out, s.specialization, true);
  out << "\n[severity]\n";
  if (s.severity.empty()) out << "# each rule's default\n";
  for (const auto& [rule, severity] : s.severity) out << rule->id << " = " << runner::toml_string(to_string(severity)) << "\n";
  if (s.variants.empty()) out << "\n# variants: none, the file is linted once\n";
  for (const Variant& variant : s.variants) {
    out << "\n[[variants]]\nname = " << runner::toml_string(variant.name) << "\ndefines = " << array(variant.defines, define_text)
        << "\n";
    print_specialization(out, variant.specialization, false);
  }
}

}  // namespace

void add_defines(std::vector<Define>& defines, const std::vector<Define>& more) {
  for (const Define& define : more) {
    auto same_name = [&](const Define& d) { return d.first == define.first; };
    if (auto it = std::find_if(defines.begin(), defines.end(), same_name); it != defines.end()) {
      it->second = define.second;
    } else {
      defines.push_back(define);
    }
  }
}

std::string FileSettings::key() const {
  std::ostringstream out;
  print_settings(out, *this);
  return out.str();
}

void print_effective_config(std::ostream& out, const std::string& file, const FileSettings& settings) {
  out << "# settings for " << file << "\n";
  if (settings.config_path.empty()) {
    out << "# no klint.toml applies: klint's defaults\n";
  } else {
    out << "# from " << settings.config_path << "\n";
  }
  for (const AppliedOverride& override : settings.overrides) {
    out << fmt::format("# [[overrides]] at {}:{} applies (files = {})\n", settings.config_path, override.line,
                       array(override.patterns, same));
  }
  if (settings.overrides.empty() && settings.overrides_in_config > 0) {
    out << fmt::format("# no [[overrides]] applies ({} has {})\n", settings.config_path, settings.overrides_in_config);
  }
  print_settings(out, settings);
}

// A configuration as read once: the file, or why it could not be used.
struct ConfigResolver::Loaded {
  std::optional<ConfigFile> config;
  std::string error;
};

ConfigResolver::ConfigResolver(std::optional<std::string> explicit_config) {
  if (explicit_config) explicit_config_ = fs::path(*explicit_config);
}

ConfigResolver::~ConfigResolver() = default;

const ConfigResolver::Loaded* ConfigResolver::load(const fs::path& path) {
  auto [it, inserted] = by_path_.try_emplace(path);
  if (inserted) {
    it->second = std::make_unique<Loaded>();
    it->second->config = load_config(path, &it->second->error);
  }
  return it->second.get();
}

const ConfigResolver::Loaded* ConfigResolver::config_for(const fs::path& dir) {
  std::vector<fs::path> visited;
  const Loaded* found = nullptr;
  for (fs::path at = dir;; at = at.parent_path()) {
    if (auto it = by_directory_.find(at); it != by_directory_.end()) {
      found = it->second;
      break;
    }
    visited.push_back(at);
    std::error_code ec;
    if (fs::is_regular_file(at / "klint.toml", ec)) {
      found = load(at / "klint.toml");
      break;
    }
    if (at == at.parent_path()) break;
  }
  for (const fs::path& at : visited) by_directory_[at] = found;
  return found;
}

const ConfigResolver::Loaded* ConfigResolver::loaded_for(const fs::path& absolute) {
  std::lock_guard lock(mutex_);
  return explicit_config_ ? load(*explicit_config_) : config_for(absolute.parent_path());
}

const ConfigFile* ConfigResolver::config_for_directory(const fs::path& dir) {
  std::lock_guard lock(mutex_);
  const Loaded* loaded = explicit_config_ ? load(*explicit_config_) : config_for(dir);
  return loaded && loaded->config ? &*loaded->config : nullptr;
}

std::optional<const runner::KernelManifest*> ConfigResolver::kernel_for(const std::string& file, std::string* error) {
  std::error_code ec;
  fs::path absolute = fs::absolute(file, ec).lexically_normal();
  if (ec) {
    *error = fmt::format("{}: {}", file, ec.message());
    return std::nullopt;
  }
  const Loaded* loaded = loaded_for(absolute);
  if (!loaded) return nullptr;
  if (!loaded->config) {
    *error = loaded->error;
    return std::nullopt;
  }
  return loaded->config->kernel_for(absolute);
}

std::optional<FileSettings> ConfigResolver::settings_for(const std::string& file, std::string* error) {
  std::error_code ec;
  fs::path absolute = fs::absolute(file, ec).lexically_normal();
  if (ec) {
    *error = fmt::format("{}: {}", file, ec.message());
    return std::nullopt;
  }
  const Loaded* loaded = loaded_for(absolute);
  FileSettings settings;
  if (!loaded) return settings;
  if (!loaded->config) {
    *error = loaded->error;
    return std::nullopt;
  }
  const ConfigFile& config = *loaded->config;
  settings.config_path = config.path;
  settings.notes = config.notes;
  settings.overrides_in_config = config.overrides.size();
  apply(config.settings, settings);
  std::string relative = absolute.lexically_relative(config.dir).generic_string();
  for (const ConfigOverride& override : config.overrides) {
    if (!any_matches(override.files, relative)) continue;
    apply(override.settings, settings);
    AppliedOverride& applied = settings.overrides.emplace_back();
    applied.line = override.line;
    for (const Glob& glob : override.files) applied.patterns.push_back(glob.pattern());
  }
  for (const ConfigVariant& variant : config.variants) {
    if (!any_matches(variant.files, relative)) continue;
    auto same_name = [&](const Variant& v) { return v.name == variant.name; };
    if (std::any_of(settings.variants.begin(), settings.variants.end(), same_name)) {
      *error = fmt::format("{}:{}:1: two [[variants]] named '{}' apply to {}", config.path, variant.line, variant.name,
                           file);
      return std::nullopt;
    }
    settings.variants.push_back(Variant{variant.name, variant.defines, variant.specialization});
  }
  return settings;
}

}  // namespace klint
