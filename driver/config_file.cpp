#include "driver/config_file.h"

#include <fmt/core.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>

#include "analyzer/printable.h"
#include "analyzer/source.h"
#include "driver/config_kernel.h"
#include "driver/paths.h"
#include "driver/suggestions.h"
#include "driver/toml_order.h"
#include "rules/rule.h"
#include "runner/spelling.h"
#include "validate/targets.h"

namespace klint {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 12> kLayerKeys{
    "select",      "ignore",         "extend-ignore",  "severity",      "defines",
    "include-dirs", "targets",       "target-env",     "entry-point",   "specialization",
    "workgroup-size", "subgroup-size-constant"};
constexpr std::array<std::string_view, 6> kVariantKeys{"files",          "name",           "defines",
                                                       "specialization", "workgroup-size", "subgroup-size-constant"};

bool is_identifier(std::string_view name) {
  auto letter = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (name.empty() || !letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "error") return Severity::Error;
  if (text == "warning") return Severity::Warning;
  if (text == "note") return Severity::Note;
  return std::nullopt;
}

// Names that --target resolves later: device[:INDEX] and target files.
bool is_device_name(std::string_view name) {
  if (name == "device") return true;
  if (!name.starts_with("device:") || name.size() == 7) return false;
  uint32_t index = 0;
  auto [end, ec] = std::from_chars(name.data() + 7, name.data() + name.size(), index);
  return ec == std::errc() && end == name.data() + name.size();
}

class Reader {
 public:
  Reader(std::string path, fs::path dir) : path_(std::move(path)), dir_(std::move(dir)) {}

  std::optional<ConfigFile> read(const toml::table& root) {
    ConfigFile config{path_, dir_, {}, {}, {}, {}, {}, {}, {}};
    for (const auto& [key, value] : in_file_order(root)) {
      bool ok = false;
      if (*key == "overrides") {
        ok = read_tables(*key, *value, [&](const toml::table& t) { return read_override(t, config); });
      } else if (*key == "variants") {
        ok = read_tables(*key, *value, [&](const toml::table& t) { return read_variant(t, config); });
      } else if (*key == "kernel") {
        ok = read_tables(*key, *value, [&](const toml::table& t) { return read_kernel_table(t, config); });
      } else if (*key == "exclude") {
        ok = read_excludes(*key, *value, config.exclude.emplace());
      } else if (*key == "extend-exclude") {
        ok = read_excludes(*key, *value, config.extend_exclude.emplace());
      } else {
        ok = read_layer_key(*key, *value, config.settings, "");
      }
      if (!ok) return std::nullopt;
    }
    return config;
  }

  bool fail(const toml::source_region& at, std::string_view message) {
    error_ = fmt::format("{}:{}:{}: {}", path_, at.begin.line, at.begin.column, printable(message));
    return false;
  }

  const std::string& error() const { return error_; }
  std::vector<std::string> take_notes() { return std::move(notes_); }

 private:
  // `section` is "" at the top level and "[[overrides]]" in an override.
  bool read_layer_key(const toml::key& key, const toml::node& value, ConfigLayer& layer, std::string_view section) {
    std::string_view name = key.str();
    if (name == "select") {
      if (!read_rules(name, value, layer.select.emplace())) return false;
      return !layer.select->empty() || fail(value.source(), "'select' is empty: leave it out to run every rule");
    }
    if (name == "ignore") return read_rules(name, value, layer.ignore.emplace());
    if (name == "extend-ignore") return read_rules(name, value, layer.extend_ignore);
    if (name == "severity") return read_severity(value, layer.severity);
    if (name == "defines") return read_defines(value, layer.defines);
    if (name == "include-dirs") {
      if (!read_strings(name, value, "directories", layer.include_dirs)) return false;
      for (std::string& dir : layer.include_dirs) dir = resolve_path(dir_, dir);
      return true;
    }
    if (name == "targets") return read_targets(value, layer.targets.emplace());
    if (name == "target-env") {
      const auto* text = value.as_string();
      if (!text) return fail(value.source(), "'target-env' must be a string such as \"vulkan1.2\"");
      layer.target_env = parse_target_env(text->get());
      if (!layer.target_env) {
        return fail(value.source(), fmt::format("unknown target-env '{}': use vulkan1.0 to vulkan1.3", text->get()));
      }
      return true;
    }
    if (name == "entry-point") {
      const auto* text = value.as_string();
      if (!text || text->get().empty()) return fail(value.source(), "'entry-point' must be a function name");
      layer.entry_point = text->get();
      return true;
    }
    if (std::optional<bool> read = read_specialization_key(name, value, layer.specialization)) return *read;
    std::vector<std::string_view> known(kLayerKeys.begin(), kLayerKeys.end());
    if (section.empty()) {
      known.insert(known.end(), {"overrides", "variants", "kernel", "exclude", "extend-exclude"});
    } else {
      known.push_back("files");
    }
    return fail(key.source(), fmt::format("unknown key '{}'{}{}", name, section.empty() ? "" : " in ", section) +
                                  did_you_mean(name, known));
  }

  // The keys of a Specialization, in a layer or a variant; nullopt for another key.
  std::optional<bool> read_specialization_key(std::string_view name, const toml::node& value, Specialization& out) {
    if (name == "specialization") return read_specialization(value, out.constants);
    if (name == "workgroup-size") return read_workgroup_size(value, out.workgroup_size);
    if (name == "subgroup-size-constant") return read_subgroup_size_constant(value, out.subgroup_size_constant);
    return std::nullopt;
  }

  std::string origin(std::string_view what, const toml::source_region& at) const {
    return fmt::format("{} ({}:{}:{})", what, path_, at.begin.line, at.begin.column);
  }

  // `specialization = { BLOCK = 64, 1 = true }`, read as a [[kernel]]'s;
  // each value is a constant here: there are no shape variables.
  bool read_specialization(const toml::node& value, std::vector<SpecializationOption>& out) {
    std::optional<std::vector<runner::ManifestSetting>> settings =
        read_specialization_table(value, path_, dir_, &error_);
    if (!settings) return false;
    for (const runner::ManifestSetting& setting : *settings) {
      std::string why;
      std::optional<runner::Number> number = setting.value.evaluate({}, &why);
      if (!number) {
        error_ = fmt::format("{}:{}:{}: {}", path_, setting.value_at.line, setting.value_at.column, printable(why));
        return false;
      }
      out.push_back({{setting.name, *number},
                     fmt::format("specialization '{}' ({}:{}:{})", setting.name, path_, setting.name_at.line,
                                 setting.name_at.column)});
    }
    return true;
  }

  // `workgroup-size = [64, 1, 1]`: 1 to 3 sizes, the axes left out 1.
  bool read_workgroup_size(const toml::node& value, std::optional<GivenWorkgroupSize>& out) {
    constexpr std::string_view kShape = "'workgroup-size' must be an array of 1 to 3 integers, such as [64, 1, 1]";
    const toml::array* array = value.as_array();
    if (!array || array->empty() || array->size() > 3) return fail(value.source(), kShape);
    GivenWorkgroupSize given{{1, 1, 1}, origin("workgroup-size", value.source())};
    for (size_t axis = 0; axis < array->size(); ++axis) {
      const auto* size = (*array)[axis].as_integer();
      if (!size) return fail((*array)[axis].source(), kShape);
      if (size->get() < 1 || size->get() > std::numeric_limits<uint32_t>::max()) {
        return fail((*array)[axis].source(),
                    fmt::format("'workgroup-size' is {} in {}: a workgroup is at least 1 invocation in each axis",
                                size->get(), std::array{'x', 'y', 'z'}[axis]));
      }
      given.size[axis] = static_cast<uint32_t>(size->get());
    }
    out = std::move(given);
    return true;
  }

  // `subgroup-size-constant = "SUBGROUP_SIZE"`, or its constant_id.
  bool read_subgroup_size_constant(const toml::node& value, std::optional<SubgroupSizeConstant>& out) {
    std::string key;
    if (const auto* text = value.as_string(); text && !text->get().empty()) {
      key = text->get();
    } else if (const auto* id = value.as_integer(); id && id->get() >= 0 &&
                                                    id->get() <= std::numeric_limits<uint32_t>::max()) {
      key = std::to_string(id->get());
    } else {
      return fail(value.source(), "'subgroup-size-constant' must be a specialization constant's name or constant_id");
    }
    out = SubgroupSizeConstant{key, origin("subgroup-size-constant", value.source())};
    return true;
  }

  bool read_rules(std::string_view key, const toml::node& value, std::vector<const RuleInfo*>& out) {
    std::vector<std::string> ids;
    if (!read_strings(key, value, "rule ids", ids)) return false;
    const auto& elements = *value.as_array();
    for (size_t i = 0; i < ids.size(); ++i) {
      const RuleInfo* rule = RuleRegistry::find(ids[i]);
      if (!rule) {
        return fail(elements[i].source(),
                    fmt::format("unknown rule '{}' in '{}'{}", ids[i], key, did_you_mean_rule(ids[i])));
      }
      note_renamed(ids[i], elements[i].source());
      out.push_back(rule);
    }
    return true;
  }

  bool read_severity(const toml::node& value, std::vector<std::pair<const RuleInfo*, Severity>>& out) {
    const toml::table* table = value.as_table();
    if (!table) return fail(value.source(), "'severity' must be a table: [severity] rule-id = \"warning\"");
    for (const auto& [key, level] : in_file_order(*table)) {
      const RuleInfo* rule = RuleRegistry::find(key->str());
      if (!rule) {
        return fail(key->source(),
                    fmt::format("unknown rule '{}' in [severity]{}", key->str(), did_you_mean_rule(key->str())));
      }
      note_renamed(key->str(), key->source());
      const auto* text = level->as_string();
      std::optional<Severity> severity = text ? parse_severity(text->get()) : std::nullopt;
      if (!severity) {
        return fail(level->source(),
                    fmt::format("bad severity for '{}': use \"error\", \"warning\" or \"note\"", key->str()));
      }
      out.emplace_back(rule, *severity);
    }
    return true;
  }

  // An array of "NAME" and "NAME=VALUE", or a table NAME = "value" | integer | true.
  bool read_defines(const toml::node& value, std::vector<Define>& out) {
    constexpr std::string_view kShape = "'defines' must be an array such as [\"FOO\", \"BAR=2\"] or a table";
    if (const toml::array* array = value.as_array()) {
      for (const toml::node& element : *array) {
        const auto* text = element.as_string();
        if (!text) return fail(element.source(), kShape);
        const std::string& define = text->get();
        size_t equals = define.find('=');
        Define parsed{define.substr(0, equals), equals == std::string::npos ? "" : define.substr(equals + 1)};
        if (!check_macro_name(parsed.first, element)) return false;
        out.push_back(std::move(parsed));
      }
      return true;
    }
    const toml::table* table = value.as_table();
    if (!table) return fail(value.source(), kShape);
    for (const auto& [key, definition] : in_file_order(*table)) {
      std::string name(key->str());
      if (!check_macro_name(name, *definition)) return false;
      if (const auto* text = definition->as_string()) {
        out.emplace_back(name, text->get());
      } else if (const auto* number = definition->as_integer()) {
        out.emplace_back(name, std::to_string(number->get()));
      } else if (const auto* flag = definition->as_boolean(); flag && flag->get()) {
        out.emplace_back(name, "");
      } else {
        return fail(definition->source(),
                    fmt::format("the value of '{}' must be a string, an integer or true (defined, no value)", name));
      }
    }
    return true;
  }

  bool check_macro_name(std::string_view name, const toml::node& at) {
    if (is_identifier(name)) return true;
    std::string hint = name.starts_with("-D") ? " (leave out the -D)" : "";
    return fail(at.source(), fmt::format("bad macro name '{}': it must be an identifier{}", name, hint));
  }

  bool read_targets(const toml::node& value, std::vector<std::string>& out) {
    if (!read_strings("targets", value, "target names", out)) return false;
    const auto& elements = *value.as_array();
    for (size_t i = 0; i < out.size(); ++i) {
      if (find_target(out[i]) || is_device_name(out[i])) continue;
      if (out[i].ends_with(".json")) {
        out[i] = resolve_path(dir_, out[i]);
        continue;
      }
      return fail(elements[i].source(), fmt::format("unknown target '{}' (klint targets lists them){}", out[i],
                                                    did_you_mean_target(out[i])));
    }
    return true;
  }

  bool read_strings(std::string_view key, const toml::node& value, std::string_view what,
                    std::vector<std::string>& out) {
    std::string shape = fmt::format("'{}' must be an array of {}", key, what);
    const toml::array* array = value.as_array();
    if (!array) return fail(value.source(), shape);
    for (const toml::node& element : *array) {
      const auto* text = element.as_string();
      if (!text) return fail(element.source(), shape);
      out.push_back(text->get());
    }
    return true;
  }

  bool read_globs(const toml::table& table, std::string_view section, std::vector<Glob>& out) {
    const toml::node* files = table.get("files");
    if (!files) return fail(table.source(), fmt::format("{} needs 'files', a list of globs", section));
    std::vector<std::string> patterns;
    if (!read_strings("files", *files, "globs", patterns)) return false;
    if (patterns.empty()) return fail(files->source(), "'files' is empty: it must name at least one glob");
    for (size_t i = 0; i < patterns.size(); ++i) {
      std::string error;
      std::optional<Glob> glob = Glob::parse(patterns[i], &error);
      if (!glob) return fail((*files->as_array())[i].source(), error);
      out.push_back(std::move(*glob));
    }
    return true;
  }

  // `exclude = ["gen/", "*.spv"]`: gitignore patterns, relative to this file's directory.
  bool read_excludes(std::string_view key, const toml::node& value, IgnoreList& out) {
    std::vector<std::string> patterns;
    if (!read_strings(key, value, "gitignore patterns", patterns)) return false;
    for (size_t i = 0; i < patterns.size(); ++i) {
      std::string error;
      if (!IgnoreList::from_patterns({patterns[i]}, dir_, &error)) {
        return fail((*value.as_array())[i].source(), fmt::format("in '{}': {}", key, error));
      }
    }
    std::string error;
    out = *IgnoreList::from_patterns(patterns, dir_, &error);
    return true;
  }

  template <class ReadOne>
  bool read_tables(const toml::key& key, const toml::node& value, ReadOne read_one) {
    const toml::array* array = value.as_array();
    if (!array || !array->is_array_of_tables()) {
      return fail(value.source(), fmt::format("'{0}' must be an array of tables: write [[{0}]]", key.str()));
    }
    for (const toml::node& element : *array) {
      if (!read_one(*element.as_table())) return false;
    }
    return true;
  }

  bool read_override(const toml::table& table, ConfigFile& config) {
    ConfigOverride override;
    override.line = table.source().begin.line;
    if (!read_globs(table, "[[overrides]]", override.files)) return false;
    for (const auto& [key, value] : in_file_order(table)) {
      if (*key != "files" && !read_layer_key(*key, *value, override.settings, "[[overrides]]")) return false;
    }
    config.overrides.push_back(std::move(override));
    return true;
  }

  bool read_variant(const toml::table& table, ConfigFile& config) {
    ConfigVariant variant;
    variant.line = table.source().begin.line;
    if (!read_globs(table, "[[variants]]", variant.files)) return false;
    for (const auto& [key, value] : in_file_order(table)) {
      if (*key == "files") continue;
      if (*key == "name") {
        const auto* text = value->as_string();
        if (!text || text->get().empty()) return fail(value->source(), "'name' must be a non-empty string");
        variant.name = text->get();
      } else if (*key == "defines") {
        if (!read_defines(*value, variant.defines)) return false;
      } else if (std::optional<bool> read = read_specialization_key(key->str(), *value, variant.specialization)) {
        if (!*read) return false;
      } else {
        std::vector<std::string_view> known(kVariantKeys.begin(), kVariantKeys.end());
        return fail(key->source(),
                    fmt::format("unknown key '{}' in [[variants]]{}", key->str(), did_you_mean(key->str(), known)));
      }
    }
    if (variant.name.empty()) return fail(table.source(), "[[variants]] needs 'name'");
    config.variants.push_back(std::move(variant));
    return true;
  }

  bool read_kernel_table(const toml::table& table, ConfigFile& config) {
    std::optional<runner::KernelManifest> kernel = read_kernel(table, path_, dir_, &error_);
    if (!kernel) return false;
    for (const runner::KernelManifest& other : config.kernels) {
      if (other.file == kernel->file) {
        return fail(table.source(), fmt::format("a second [[kernel]] for {} (the first is at line {})",
                                                display_path(kernel->file), other.at.line));
      }
    }
    config.kernels.push_back(std::move(*kernel));
    return true;
  }

  void note_renamed(std::string_view id, const toml::source_region& at) {
    std::string note = renamed_rule_note(id);
    if (!note.empty()) notes_.push_back(fmt::format("{}:{}:{}: {}", path_, at.begin.line, at.begin.column, note));
  }

  std::string path_;
  fs::path dir_;
  std::string error_;
  std::vector<std::string> notes_;
};

}  // namespace

std::optional<ConfigFile> parse_config(std::string_view text, const fs::path& path, std::string* error) {
  fs::path absolute = fs::absolute(path).lexically_normal();
  Reader reader(display_path(absolute), absolute.parent_path());
  try {
    toml::table root = toml::parse(text, path.string());
    std::optional<ConfigFile> config = reader.read(root);
    if (!config) *error = reader.error();
    if (config) config->notes = reader.take_notes();
    return config;
  } catch (const toml::parse_error& e) {
    std::string description(e.description());  // "Error while parsing ...": klint's messages are lower case
    if (!description.empty())
      description[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(description[0])));
    reader.fail(e.source(), description);
    *error = reader.error();
    return std::nullopt;
  }
}

const runner::KernelManifest* ConfigFile::kernel_for(const fs::path& shader) const {
  std::error_code ec;
  const fs::path absolute = fs::absolute(shader, ec).lexically_normal();
  for (const runner::KernelManifest& kernel : kernels) {
    if (kernel.file == absolute || fs::equivalent(kernel.file, absolute, ec)) return &kernel;
  }
  return nullptr;
}

std::optional<ConfigFile> load_config(const fs::path& path, std::string* error) {
  ReadError read_error;
  std::optional<std::string> text = read_file(path.string(), &read_error);
  if (!text) {
    *error = fmt::format("{}: {}", display_path(path), read_error.reason);
    return std::nullopt;
  }
  return parse_config(*text, path, error);
}

}  // namespace klint
