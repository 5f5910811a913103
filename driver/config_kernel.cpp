#include "driver/config_kernel.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>

#include "analyzer/printable.h"
#include "driver/toml_order.h"
#include "runner/spelling.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using runner::Expression;
using runner::KernelManifest;
using runner::ManifestLocation;
using runner::ManifestSetting;
using runner::Number;

constexpr std::array<std::string_view, 12> kKernelKeys{"file",     "entry-point",    "variables", "matrix",
                                                       "grid",     "push-constants", "uniforms",  "buffers",
                                                       "specialization", "seed",    "reference", "expected"};
constexpr std::array<std::string_view, 3> kFunctions{"min", "max", "ceildiv"};

ManifestLocation location(const toml::source_region& at) { return {at.begin.line, at.begin.column}; }

bool is_identifier(std::string_view name) {
  auto letter = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (name.empty() || !letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

class KernelReader {
 public:
  KernelReader(const std::string& config_path, const fs::path& dir, std::string* error)
      : config_path_(config_path), dir_(dir), error_(error) {}

  std::optional<std::vector<ManifestSetting>> read_specialization(const toml::node& value) {
    std::vector<ManifestSetting> settings;
    if (!read_settings("specialization", value, {}, settings)) return std::nullopt;
    return settings;
  }

  std::optional<KernelManifest> read(const toml::table& table) {
    KernelManifest kernel;
    kernel.config_path = config_path_;
    kernel.dir = dir_;
    kernel.at = location(table.source());
    // Expressions name the variables, wherever `variables` stands.
    if (const toml::node* variables = table.get("variables"); variables && !read_variables(*variables, kernel)) {
      return std::nullopt;
    }
    bool has_file = false;
    for (const auto& [key, value] : in_file_order(table)) {
      const std::string_view name = key->str();
      bool ok = true;
      if (name == "file") {
        has_file = true;
        ok = read_path(name, *value, kernel.file);
      } else if (name == "entry-point") {
        const auto* text = value->as_string();
        if (!text || text->get().empty()) return failed(*value, "'entry-point' must be a function name");
        kernel.entry_point = text->get();
        kernel.entry_point_at = location(value->source());
      } else if (name == "variables") {
        continue;
      } else if (name == "matrix") {
        ok = read_matrix(*value, kernel);
      } else if (name == "grid") {
        ok = read_grid(*value, kernel);
      } else if (name == "push-constants" || name == "uniforms" || name == "buffers" || name == "specialization") {
        std::vector<ManifestSetting>& settings = name == "buffers"          ? kernel.buffers
                                                 : name == "push-constants" ? kernel.push_constants
                                                 : name == "uniforms"       ? kernel.uniforms
                                                                            : kernel.specialization;
        ok = read_settings(name, *value, kernel.variables, settings);
      } else if (name == "seed") {
        const auto* seed = value->as_integer();
        if (!seed || seed->get() < 0) return failed(*value, "'seed' must be an integer, 0 or more");
        kernel.seed = static_cast<uint64_t>(seed->get());
      } else if (name == "reference") {
        ok = read_path(name, *value, kernel.reference.emplace());
      } else if (name == "expected") {
        ok = read_expected(*value, kernel);
      } else {
        std::vector<std::string_view> known(kKernelKeys.begin(), kKernelKeys.end());
        return failed(*key, fmt::format("unknown key '{}' in [[kernel]]{}", name, did_you_mean(name, known)));
      }
      if (!ok) return std::nullopt;
    }
    if (!has_file) return failed(table, "[[kernel]] needs 'file', the shader it describes");
    if (kernel.matrix.empty()) {
      if (kernel.variables.size() == 2) {
        kernel.matrix = runner::default_two_variable_matrix();
      } else if (!kernel.variables.empty()) {
        return failed(table, fmt::format("[[kernel]] for {} has {} variables and no 'matrix': only two variables "
                                       "(rows, columns) have a default",
                                       kernel.file.filename().string(), kernel.variables.size()));
      } else {
        kernel.matrix.emplace_back();  // one shape, of no variables
      }
    }
    return kernel;
  }

 private:
  // Always false, for `return fail(...)`.
  template <class At>
  bool fail(const At& at, std::string_view message) {
    fail_at(location(at.source()), message);
    return false;
  }
  template <class At>
  std::nullopt_t failed(const At& at, std::string_view message) {
    fail(at, message);
    return std::nullopt;
  }
  void fail_at(ManifestLocation at, std::string_view message) {
    *error_ = printable(fmt::format("{}:{}:{}: {}", config_path_, at.line, at.column, message));
  }

  bool read_path(std::string_view key, const toml::node& value, fs::path& out) {
    const auto* text = value.as_string();
    if (!text || text->get().empty()) return fail(value, fmt::format("'{}' must be the path of a shader", key));
    out = (dir_ / text->get()).lexically_normal();
    std::error_code ec;
    if (fs::is_regular_file(out, ec)) return true;
    const bool glob = text->get().find_first_of("*?[") != std::string::npos;
    return fail(value, fmt::format("'{}' names {}: {}", key, glob ? "one file, not a glob" : "no file",
                                    text->get()));
  }

  bool read_variables(const toml::node& value, KernelManifest& kernel) {
    const toml::array* array = value.as_array();
    if (!array) return fail(value, "'variables' must be an array of names, such as [\"rows\", \"cols\"]");
    for (const toml::node& element : *array) {
      const auto* text = element.as_string();
      if (!text || !is_identifier(text->get())) {
        return fail(element, "'variables' must be an array of names (identifiers), such as [\"rows\", \"cols\"]");
      }
      const std::string& name = text->get();
      if (std::find(kFunctions.begin(), kFunctions.end(), name) != kFunctions.end()) {
        return fail(element, fmt::format("'{}' is a function: name the variable otherwise", name));
      }
      if (std::find(kernel.variables.begin(), kernel.variables.end(), name) != kernel.variables.end()) {
        return fail(element, fmt::format("variable '{}' is declared twice", name));
      }
      kernel.variables.push_back(name);
    }
    return true;
  }

  bool read_matrix(const toml::node& value, KernelManifest& kernel) {
    const toml::array* rows = value.as_array();
    if (!rows) return fail(value, "'matrix' must be an array of rows, such as [[1, 16], [4, 256]]");
    if (kernel.variables.empty()) return fail(value, "'matrix' needs 'variables', the names of its columns");
    if (rows->empty()) return fail(value, "'matrix' is empty: leave it out or give at least one row");
    for (const toml::node& row : *rows) {
      const toml::array* values = row.as_array();
      if (!values) return fail(row, "each row of 'matrix' must be an array of numbers");
      if (values->size() != kernel.variables.size()) {
        return fail(row, fmt::format("this row of 'matrix' has {} values, 'variables' names {}", values->size(),
                                      kernel.variables.size()));
      }
      std::vector<Number>& shape = kernel.matrix.emplace_back();
      for (const toml::node& element : *values) {
        std::optional<Number> number = number_of(element);
        if (!number) return fail(element, "each value of 'matrix' must be an integer or a float");
        shape.push_back(*number);
      }
    }
    return true;
  }

  static std::optional<Number> number_of(const toml::node& node) {
    if (const auto* integer = node.as_integer()) return Number{integer->get()};
    if (const auto* real = node.as_floating_point()) return Number{real->get()};
    return std::nullopt;
  }

  // A number, or a string holding an expression of the variables.
  std::optional<Expression> expression_of(const toml::node& node, const std::vector<std::string>& variables,
                                          bool integers_only) {
    if (const auto* text = node.as_string()) {
      runner::ExpressionError error;
      std::optional<Expression> expression = Expression::parse(text->get(), variables, &error);
      if (expression) return expression;
      // The column inside the string, where the string is written as it reads
      // (no escapes); else the string's own.
      const toml::source_region& at = node.source();
      ManifestLocation where = location(at);
      if (at.begin.line == at.end.line && at.end.column - at.begin.column == text->get().size() + 2) {
        where.column += static_cast<uint32_t>(error.column);
      }
      fail_at(where, fmt::format("in '{}': {}", text->get(), error.message));
      return std::nullopt;
    }
    if (node.is_floating_point() && integers_only) return std::nullopt;
    if (std::optional<Number> number = number_of(node)) return Expression::constant(*number);
    if (const auto* flag = node.as_boolean()) return Expression::constant(Number{int64_t{flag->get() ? 1 : 0}});
    return std::nullopt;
  }

  bool read_grid(const toml::node& value, KernelManifest& kernel) {
    constexpr std::string_view kShape = "'grid' must be an array of 1 to 3 workgroup counts, such as [\"rows\", 1, 1]";
    const toml::array* array = value.as_array();
    if (!array || array->empty() || array->size() > 3) return fail(value, kShape);
    for (const toml::node& element : *array) {
      if (!element.is_string() && !element.is_integer()) return fail(element, kShape);
      std::optional<Expression> count = expression_of(element, kernel.variables, true);
      if (!count) return false;
      kernel.grid.push_back({*count, location(element.source())});
    }
    return true;
  }

  bool read_settings(std::string_view key, const toml::node& value, const std::vector<std::string>& variables,
                     std::vector<ManifestSetting>& out) {
    const bool buffers = key == "buffers";
    const std::string what = buffers ? "a number of elements: an integer or an expression"
                             : key == "specialization" ? "a number, true, false or an expression"
                                                       : "a number or an expression";
    const toml::table* table = value.as_table();
    if (!table) return fail(value, fmt::format("'{}' must be a table: {{ name = {} }}", key, what));
    for (const auto& [name, setting] : in_file_order(*table)) {
      const bool allowed = setting->is_string() || setting->is_integer() ||
                           (!buffers && setting->is_floating_point()) ||
                           (key == "specialization" && setting->is_boolean());
      if (!allowed) {
        return fail(*setting, fmt::format("the value of '{}' in '{}' must be {}", name->str(), key, what));
      }
      std::optional<Expression> expression = expression_of(*setting, variables, buffers);
      if (!expression) return false;
      out.push_back({std::string(name->str()), *expression, location(name->source()), location(setting->source())});
    }
    return true;
  }

  bool read_expected(const toml::node& value, KernelManifest& kernel) {
    const toml::table* table = value.as_table();
    if (!table) return fail(value, "'expected' must be a table: { binding = \"expected/y_{rows}x{cols}.bin\" }");
    for (const auto& [name, pattern] : in_file_order(*table)) {
      const auto* text = pattern->as_string();
      if (!text || text->get().empty()) {
        return fail(*pattern, fmt::format("the value of '{}' in 'expected' must be a file name pattern", name->str()));
      }
      if (!check_pattern(text->get(), kernel.variables, *pattern)) return false;
      kernel.expected.push_back({std::string(name->str()), text->get(), location(name->source())});
    }
    return true;
  }

  // Every {name} a declared variable, every brace closed.
  bool check_pattern(const std::string& pattern, const std::vector<std::string>& variables, const toml::node& at) {
    for (size_t open = pattern.find_first_of("{}"); open != std::string::npos;
         open = pattern.find_first_of("{}", open + 1)) {
      const size_t close = pattern.find('}', open);
      if (pattern[open] == '}' || close == std::string::npos) {
        return fail(at, fmt::format("unbalanced brace in '{}': write {{variable}}", pattern));
      }
      const std::string name = pattern.substr(open + 1, close - open - 1);
      if (std::find(variables.begin(), variables.end(), name) == variables.end()) {
        return fail(at, fmt::format("unknown variable '{{{}}}' in '{}'", name, pattern));
      }
      open = close;
    }
    return true;
  }

  const std::string& config_path_;
  const fs::path& dir_;
  std::string* error_;
};

}  // namespace

std::optional<runner::KernelManifest> read_kernel(const toml::table& table, const std::string& config_path,
                                                  const fs::path& dir, std::string* error) {
  return KernelReader(config_path, dir, error).read(table);
}

std::optional<std::vector<runner::ManifestSetting>> read_specialization_table(const toml::node& value,
                                                                              const std::string& config_path,
                                                                              const fs::path& dir, std::string* error) {
  return KernelReader(config_path, dir, error).read_specialization(value);
}

}  // namespace klint
