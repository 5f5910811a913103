#include "validate/targets.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace klint {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kSchema = "klint-target-1";
constexpr uint32_t kMaxSubgroupSize = 128;  // Vulkan: "the maximum number of invocations ... per subgroup is 128"

constexpr std::array<std::string_view, 8> kDefaultTargets = {
    "amd-rdna2-wave32", "apple-m1", "arm-mali-valhall", "intel-xe", "lavapipe", "nvidia-ampere", "qualcomm-adreno-6xx", "swiftshader",
};

struct SubgroupOperationName {
  std::string_view name;
  SubgroupFeature bit;
};
// In VkSubgroupFeatureFlagBits order, which is also the order they are written.
constexpr std::array<SubgroupOperationName, 8> kSubgroupOperations = {{
    {"basic", kSubgroupBasic},
    {"vote", kSubgroupVote},
    {"arithmetic", kSubgroupArithmetic},
    {"ballot", kSubgroupBallot},
    {"shuffle", kSubgroupShuffle},
    {"shuffle_relative", kSubgroupShuffleRelative},
    {"clustered", kSubgroupClustered},
    {"quad", kSubgroupQuad},
}};

struct Position {
  size_t line = 1;
  size_t column = 1;
};

// Byte offsets to 1-based lines and columns (columns count bytes, as
// nlohmann's own messages do).
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
    }
  }
  Position at(size_t offset) const {
    const auto line = std::upper_bound(starts_.begin(), starts_.end(), offset) - 1;
    return {static_cast<size_t>(line - starts_.begin()) + 1, offset - *line + 1};
  }

 private:
  std::vector<size_t> starts_{0};
};

std::string located(const std::string& file, Position at, const std::string& message) {
  return file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + message;
}

std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string element(const std::string& path, size_t index) { return path + "[" + std::to_string(index) + "]"; }

// Where each member and array element starts, by path ("occupancy.tiers[1].workgroups"):
// nlohmann::json keeps no positions, so this walks the text, which has
// already parsed, once more. It also finds duplicate keys, which the parser
// resolves silently by keeping the last.
class SourceMap {
 public:
  explicit SourceMap(std::string_view text) {
    const LineIndex lines(text);
    struct Frame {
      std::string path;
      bool array = false;
      bool expect_key = true;
      size_t index = 0;
      std::string member;  // path of the member whose value comes next
      std::set<std::string, std::less<>> keys;
    };
    std::vector<Frame> stack;
    // The path of a value starting at `offset`, recorded when it is an
    // array element (a member was recorded at its key).
    auto value_path = [&](size_t offset) -> std::string {
      if (stack.empty()) return "";
      Frame& frame = stack.back();
      if (!frame.array) return frame.member;
      std::string path = element(frame.path, frame.index++);
      positions_[path] = lines.at(offset);
      return path;
    };
    size_t i = 0;
    while (i < text.size()) {
      const char c = text[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':') {
        ++i;
      } else if (c == ',') {
        if (!stack.empty()) stack.back().expect_key = true;
        ++i;
      } else if (c == '{' || c == '[') {
        std::string path = value_path(i);
        if (stack.empty()) positions_[""] = lines.at(i);
        stack.push_back({std::move(path), c == '['});
        ++i;
      } else if (c == '}' || c == ']') {
        if (!stack.empty()) stack.pop_back();
        ++i;
      } else if (c == '"') {
        const size_t start = i++;
        std::string content;
        while (i < text.size() && text[i] != '"') {
          if (text[i] == '\\' && i + 1 < text.size()) ++i;
          content += text[i++];
        }
        ++i;
        if (!stack.empty() && !stack.back().array && stack.back().expect_key) {
          Frame& frame = stack.back();
          frame.expect_key = false;
          frame.member = join(frame.path, content);
          positions_[frame.member] = lines.at(start);
          if (!frame.keys.insert(content).second && duplicate_.empty()) duplicate_ = frame.member;
        } else {
          value_path(start);
        }
      } else {  // a number or a literal
        value_path(i);
        while (i < text.size() && !std::strchr(",]} \t\r\n", text[i])) ++i;
      }
    }
  }

  Position at(const std::string& path) const {
    auto found = positions_.find(path);
    return found == positions_.end() ? Position{} : found->second;
  }
  const std::string& duplicate() const { return duplicate_; }

 private:
  std::map<std::string, Position> positions_;
  std::string duplicate_;
};

struct Key {
  std::string_view name;
  bool required;
};

constexpr std::array<Key, 21> kTargetKeys = {{
    {"schema", true},
    {"name", true},
    {"description", true},
    {"vendor", true},
    {"vulkan_version", true},
    {"max_compute_shared_memory_size", true},
    {"max_compute_work_group_invocations", true},
    {"max_compute_work_group_size", true},
    {"max_compute_work_group_count", true},
    {"subgroup_size", true},
    {"subgroup_supported_operations", true},
    {"subgroup_supported_in_compute", false},
    {"features", true},
    {"occupancy", false},
    {"shared_memory_banks", false},
    {"shared_memory_bank_width", false},
    {"peak_bandwidth_gb_per_s", false},
    {"peak_fp32_tflops", false},
    {"peak_fp16_tflops", false},
    {"sources", true},
    {"notes", false},
}};
constexpr std::array<Key, 4> kSubgroupSizeKeys = {
    {{"min", true}, {"max", true}, {"preferred", true}, {"varies_per_shader", false}}};
// The shader features, by key; reading, checking and writing all use this.
struct FeatureField {
  std::string_view name;
  std::optional<bool> TargetFeatures::*member;
  bool required = true;
};
constexpr std::array<FeatureField, 8> kFeatureFields = {{
    {"shader_float16", &TargetFeatures::shader_float16},
    {"shader_float64", &TargetFeatures::shader_float64},
    {"shader_int8", &TargetFeatures::shader_int8},
    {"shader_int16", &TargetFeatures::shader_int16},
    {"shader_int64", &TargetFeatures::shader_int64},
    {"storage_buffer_8bit_access", &TargetFeatures::storage_buffer_8bit_access},
    {"storage_buffer_16bit_access", &TargetFeatures::storage_buffer_16bit_access},
    {"subgroup_extended_types", &TargetFeatures::subgroup_extended_types},
}};
constexpr std::array<Key, 5> kOccupancyKeys = {{
    {"shared_memory_per_compute_unit", false},
    {"max_workgroups_per_compute_unit", false},
    {"max_invocations_per_compute_unit", false},
    {"tiers", false},
    {"min_workgroups_to_hide_latency", false},
}};
constexpr std::array<Key, 2> kTierKeys = {{{"max_shared_memory", true}, {"workgroups", true}}};

constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();

// Reads one parsed document into a Target; the first problem ends the read.
class TargetReader {
 public:
  TargetReader(const std::string& file, const SourceMap& map) : file_(file), map_(map) {}

  std::optional<Target> read(const Json& root) {
    Target t;
    const bool ok =
        object(root, "", kTargetKeys) && schema(root) && name(root, &t.name) &&
        string(root, "description", &t.description) && string(root, "vendor", &t.vendor) &&
        vulkan_version(root, &t.vulkan_version) &&
        integer(root, "", "max_compute_shared_memory_size", 1, UINT64_MAX, &t.max_compute_shared_memory_size) &&
        unknown_or(root, "max_compute_work_group_invocations",
                   [&] { return integer(root, "", "max_compute_work_group_invocations", 1, kMaxU32,
                                        &t.max_compute_work_group_invocations); }) &&
        unknown_or(root, "max_compute_work_group_size",
                   [&] { return triple(root, "max_compute_work_group_size", &t.max_compute_work_group_size); }) &&
        triple(root, "max_compute_work_group_count", &t.max_compute_work_group_count) &&
        subgroup_size(root, &t.subgroup_size) &&
        boolean(root, "", "subgroup_supported_in_compute", &t.subgroup_supported_in_compute) &&
        subgroup_operations(root, t.subgroup_supported_in_compute, &t.subgroup_supported_operations) &&
        features(root, &t.features) && occupancy(root, &t.occupancy) &&
        integer(root, "", "shared_memory_banks", 0, kMaxU32, &t.shared_memory_banks) &&
        integer(root, "", "shared_memory_bank_width", 0, kMaxU32, &t.shared_memory_bank_width) &&
        peak(root, "peak_bandwidth_gb_per_s", &t.peak_bandwidth_gb_per_s) &&
        peak(root, "peak_fp32_tflops", &t.peak_fp32_tflops) && peak(root, "peak_fp16_tflops", &t.peak_fp16_tflops) &&
        sources(root, &t.sources) && string(root, "notes", &t.notes);
    if (!ok) return std::nullopt;
    return t;
  }

  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& path, const std::string& message) {
    error_ = located(file_, map_.at(path), message);
    return false;
  }

  // `value`, found at `path`, must be an object with no keys but `keys` and
  // every required one of them.
  template <typename Keys>
  bool object(const Json& value, const std::string& path, const Keys& keys) {
    if (!value.is_object())
      return fail(path, path.empty() ? "a target must be a JSON object" : "'" + path + "' must be an object");
    for (const auto& item : value.items()) {
      const std::string& key = item.key();
      bool known = std::any_of(std::begin(keys), std::end(keys), [&](const auto& k) { return k.name == key; });
      if (!known) return fail(join(path, key), "unknown key '" + join(path, key) + "'");
    }
    for (const auto& key : keys) {
      if (key.required && !value.contains(key.name)) return fail(path, "missing key '" + join(path, key.name) + "'");
    }
    return true;
  }

  // Optional members are left at their defaults when absent.
  bool string(const Json& parent, std::string_view key, std::string* out) {
    if (!parent.contains(std::string(key))) return true;
    const Json& value = parent.at(std::string(key));
    if (!value.is_string()) return fail(std::string(key), "'" + std::string(key) + "' must be a string");
    *out = value.get<std::string>();
    return true;
  }

  bool schema(const Json& root) {
    std::string schema;
    if (!string(root, "schema", &schema)) return false;
    return schema == kSchema ||
           fail("schema", "'schema' must be \"" + std::string(kSchema) + "\", not \"" + schema + "\"");
  }

  bool name(const Json& root, std::string* out) {
    if (!string(root, "name", out)) return false;
    // Kebab-case, with dots for versions ("vulkan-1.3-minimum"); never a
    // ':' so that no file can shadow a live "device:N" target.
    const bool kebab = !out->empty() && std::isalnum(static_cast<unsigned char>(out->front())) &&
                       std::all_of(out->begin(), out->end(), [](char c) {
                         return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
                       });
    return kebab || fail("name", "'name' must be kebab-case (a-z, 0-9, '-' and '.'), not '" + *out + "'");
  }

  bool vulkan_version(const Json& root, std::string* out) {
    if (!string(root, "vulkan_version", out)) return false;
    const size_t dot = out->find('.');
    auto digits = [](std::string_view s) {
      return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const bool ok = dot != std::string::npos && digits(std::string_view(*out).substr(0, dot)) &&
                    digits(std::string_view(*out).substr(dot + 1));
    return ok ||
           fail("vulkan_version", "'vulkan_version' must be \"<major>.<minor>\", e.g. \"1.3\", not \"" + *out + "\"");
  }

  template <typename Int>
  bool integer(const Json& parent, const std::string& path, std::string_view key, uint64_t min, uint64_t max,
               Int* out) {
    if (!parent.contains(std::string(key))) return true;
    const std::string at = join(path, key);
    const Json& value = parent.at(std::string(key));
    if (!value.is_number_unsigned() || value.get<uint64_t>() < min) {
      return fail(at, "'" + at + "' must be a " + (min > 0 ? "positive" : "non-negative") + " integer");
    }
    if (value.get<uint64_t>() > max) return fail(at, "'" + at + "' must be at most " + std::to_string(max));
    *out = static_cast<Int>(value.get<uint64_t>());
    return true;
  }

  // A limit no source gives is null: it stays 0, which rules read as
  // unknown and never report on.
  template <typename Read>
  bool unknown_or(const Json& root, std::string_view key, Read read) {
    return root.at(std::string(key)).is_null() || read();
  }

  bool triple(const Json& root, std::string_view key, std::array<uint32_t, 3>* out) {
    const Json& value = root.at(std::string(key));
    const bool ok = value.is_array() && value.size() == 3 && std::all_of(value.begin(), value.end(), [](const Json& v) {
                      return v.is_number_unsigned() && v.get<uint64_t>() > 0 && v.get<uint64_t>() <= kMaxU32;
                    });
    if (!ok) return fail(std::string(key), "'" + std::string(key) + "' must be an array of 3 positive integers");
    for (size_t i = 0; i < 3; ++i) (*out)[i] = value[i].get<uint32_t>();
    return true;
  }

  bool boolean(const Json& parent, const std::string& path, std::string_view key, bool* out) {
    if (!parent.contains(std::string(key))) return true;
    const std::string at = join(path, key);
    const Json& value = parent.at(std::string(key));
    if (!value.is_boolean()) return fail(at, "'" + at + "' must be true or false");
    *out = value.get<bool>();
    return true;
  }

  // true, false, or null for "not verified".
  bool known_boolean(const Json& parent, const std::string& path, std::string_view key, std::optional<bool>* out) {
    if (!parent.contains(std::string(key))) return true;
    const std::string at = join(path, key);
    const Json& value = parent.at(std::string(key));
    if (value.is_null()) {
      out->reset();
      return true;
    }
    if (!value.is_boolean()) return fail(at, "'" + at + "' must be true, false or null (not verified)");
    *out = value.get<bool>();
    return true;
  }

  bool subgroup_size(const Json& root, SubgroupSizes* out) {
    const std::string path = "subgroup_size";
    const Json& value = root.at(path);
    if (!object(value, path, kSubgroupSizeKeys)) return false;
    for (auto [key, field] : {std::pair{"min", &out->min}, {"max", &out->max}, {"preferred", &out->preferred}}) {
      const std::string at = join(path, key);
      if (!integer(value, path, key, 1, kMaxSubgroupSize, field)) return false;
      if (!std::has_single_bit(*field))
        return fail(at, "'" + at + "' must be a power of two, not " + std::to_string(*field));
    }
    if (out->min > out->max) {
      return fail(path + ".min", "'subgroup_size.min' (" + std::to_string(out->min) +
                                     ") is greater than 'subgroup_size.max' (" + std::to_string(out->max) + ")");
    }
    if (out->preferred < out->min || out->preferred > out->max) {
      return fail(path + ".preferred", "'subgroup_size.preferred' (" + std::to_string(out->preferred) +
                                           ") is outside 'subgroup_size.min'..'subgroup_size.max' (" +
                                           std::to_string(out->min) + ".." + std::to_string(out->max) + ")");
    }
    return boolean(value, path, "varies_per_shader", &out->varies_per_shader);
  }

  bool subgroup_operations(const Json& root, bool in_compute, uint32_t* out) {
    const std::string path = "subgroup_supported_operations";
    const Json& value = root.at(path);
    if (!value.is_array()) return fail(path, "'" + path + "' must be an array of operation names");
    for (size_t i = 0; i < value.size(); ++i) {
      const std::string at = element(path, i);
      const std::string name = value[i].is_string() ? value[i].get<std::string>() : "";
      auto found = std::find_if(kSubgroupOperations.begin(), kSubgroupOperations.end(),
                                [&](const SubgroupOperationName& op) { return op.name == name; });
      if (found == kSubgroupOperations.end()) {
        std::string known;
        for (const SubgroupOperationName& op : kSubgroupOperations)
          known += (known.empty() ? "" : ", ") + std::string(op.name);
        return fail(at, value[i].is_string()
                            ? "unknown subgroup operation '" + name + "' in '" + path + "' (known: " + known + ")"
                            : "'" + at + "' must be an operation name");
      }
      if (*out & found->bit) return fail(at, "subgroup operation '" + name + "' is listed twice");
      *out |= found->bit;
    }
    if (in_compute && !(*out & kSubgroupBasic)) {
      return fail(path, "'" + path + "' must include \"basic\": Vulkan requires it wherever subgroups are supported");
    }
    return true;
  }

  bool features(const Json& root, TargetFeatures* out) {
    const std::string path = "features";
    const Json& value = root.at(path);
    return object(value, path, kFeatureFields) &&
           std::all_of(kFeatureFields.begin(), kFeatureFields.end(), [&](const FeatureField& field) {
             return known_boolean(value, path, field.name, &(out->*field.member));
           });
  }

  bool occupancy(const Json& root, TargetOccupancy* out) {
    const std::string path = "occupancy";
    if (!root.contains(path)) return true;
    const Json& value = root.at(path);
    if (!object(value, path, kOccupancyKeys) ||
        !integer(value, path, "shared_memory_per_compute_unit", 0, UINT64_MAX, &out->shared_memory_per_compute_unit) ||
        !integer(value, path, "max_workgroups_per_compute_unit", 0, kMaxU32, &out->max_workgroups_per_compute_unit) ||
        !integer(value, path, "max_invocations_per_compute_unit", 0, kMaxU32, &out->max_invocations_per_compute_unit) ||
        !integer(value, path, "min_workgroups_to_hide_latency", 1, kMaxU32, &out->min_workgroups_to_hide_latency)) {
      return false;
    }
    if (!value.contains("tiers")) return true;
    const std::string tiers_path = join(path, "tiers");
    const Json& tiers = value.at("tiers");
    if (!tiers.is_array())
      return fail(tiers_path, "'" + tiers_path + "' must be an array of {max_shared_memory, workgroups}");
    for (size_t i = 0; i < tiers.size(); ++i) {
      const std::string at = element(tiers_path, i);
      TargetOccupancy::Tier tier;
      if (!object(tiers[i], at, kTierKeys) ||
          !integer(tiers[i], at, "max_shared_memory", 1, UINT64_MAX, &tier.max_shared_memory) ||
          !integer(tiers[i], at, "workgroups", 1, kMaxU32, &tier.workgroups)) {
        return false;
      }
      if (!out->tiers.empty() && tier.max_shared_memory <= out->tiers.back().max_shared_memory) {
        return fail(at, "'" + tiers_path +
                            "' must ascend by max_shared_memory: " + std::to_string(tier.max_shared_memory) +
                            " follows " + std::to_string(out->tiers.back().max_shared_memory));
      }
      out->tiers.push_back(tier);
    }
    return true;
  }

  bool peak(const Json& root, std::string_view key, std::optional<double>* out) {
    if (!root.contains(std::string(key))) return true;
    const Json& value = root.at(std::string(key));
    if (!value.is_number() || value.get<double>() <= 0) {
      return fail(std::string(key), "'" + std::string(key) + "' must be a positive number");
    }
    *out = value.get<double>();
    return true;
  }

  bool sources(const Json& root, std::vector<std::string>* out) {
    const Json& value = root.at("sources");
    if (!value.is_array() || value.empty()) return fail("sources", "'sources' must be a non-empty array of strings");
    for (size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string() || value[i].get<std::string>().empty()) {
        return fail(element("sources", i), "'" + element("sources", i) + "' must be a non-empty string");
      }
      out->push_back(value[i].get<std::string>());
    }
    return true;
  }

  const std::string& file_;
  const SourceMap& map_;
  std::string error_;
};

void set(std::string* error, std::string text) {
  if (error) *error = std::move(text);
}

// "[json.exception.parse_error.101] parse error at line 1, column 2: syntax
// error ..." becomes "syntax error ...": the position is given our way.
std::string parse_error_reason(const std::string& what) {
  const size_t at = what.find("parse error");
  const size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

struct Catalog {
  std::vector<Target> targets;
  std::vector<std::string> errors;
};

const Catalog& catalog() {
  static const Catalog built = [] {
    Catalog c;
    for (const EmbeddedTargetFile& file : embedded_target_files()) {
      std::string error;
      std::optional<Target> target = parse_target(file.text, std::string(file.path), &error);
      if (!target) {
        c.errors.push_back(error);
        continue;
      }
      const std::string expected = "targets/" + target->name + ".json";
      if (file.path != expected) {
        c.errors.push_back(std::string(file.path) + ": 'name' is '" + target->name + "', so the file must be " +
                           expected);
        continue;
      }
      c.targets.push_back(std::move(*target));
    }
    std::sort(c.targets.begin(), c.targets.end(), [](const Target& a, const Target& b) { return a.name < b.name; });
    return c;
  }();
  return built;
}

}  // namespace

std::optional<Target> parse_target(std::string_view json_text, const std::string& path, std::string* error) {
  try {
    const Json root = Json::parse(json_text.begin(), json_text.end());
    const SourceMap map(json_text);
    TargetReader reader(path, map);
    if (!map.duplicate().empty()) {
      set(error, located(path, map.at(map.duplicate()), "duplicate key '" + map.duplicate() + "'"));
      return std::nullopt;
    }
    std::optional<Target> target = reader.read(root);
    if (!target) set(error, reader.error());
    return target;
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based and points at the last character read.
    const Position at = LineIndex(json_text).at(e.byte == 0 ? 0 : e.byte - 1);
    set(error, located(path, at, parse_error_reason(e.what())));
  } catch (const Json::exception& e) {
    set(error, path + ": internal error while reading the target: " + e.what());
  }
  return std::nullopt;
}

std::optional<Target> load_target_file(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    set(error, path + ": cannot open the target file: " + std::strerror(errno));
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_target(text.str(), path, error);
}

std::string target_to_json(const Target& t) {
  nlohmann::ordered_json j;
  j["schema"] = kSchema;
  j["name"] = t.name;
  j["description"] = t.description;
  j["vendor"] = t.vendor;
  j["vulkan_version"] = t.vulkan_version;
  j["max_compute_shared_memory_size"] = t.max_compute_shared_memory_size;
  // 0: no source gives the limit.
  j["max_compute_work_group_invocations"] = t.max_compute_work_group_invocations
                                               ? nlohmann::ordered_json(t.max_compute_work_group_invocations)
                                               : nlohmann::ordered_json(nullptr);
  j["max_compute_work_group_size"] = t.max_compute_work_group_size[0]
                                         ? nlohmann::ordered_json(t.max_compute_work_group_size)
                                         : nlohmann::ordered_json(nullptr);
  j["max_compute_work_group_count"] = t.max_compute_work_group_count;
  j["subgroup_size"] = {
      {"min", t.subgroup_size.min}, {"max", t.subgroup_size.max}, {"preferred", t.subgroup_size.preferred}};
  if (t.subgroup_size.varies_per_shader) j["subgroup_size"]["varies_per_shader"] = true;
  j["subgroup_supported_operations"] = nlohmann::ordered_json::array();
  for (const SubgroupOperationName& op : kSubgroupOperations) {
    if (t.subgroup_supported_operations & op.bit) j["subgroup_supported_operations"].push_back(op.name);
  }
  j["subgroup_supported_in_compute"] = t.subgroup_supported_in_compute;
  nlohmann::ordered_json& features = j["features"];
  for (const FeatureField& field : kFeatureFields) {
    const std::optional<bool>& known = t.features.*field.member;
    features[std::string(field.name)] = known ? nlohmann::ordered_json(*known) : nlohmann::ordered_json(nullptr);
  }
  const TargetOccupancy& o = t.occupancy;
  nlohmann::ordered_json tiers = nlohmann::ordered_json::array();
  for (const TargetOccupancy::Tier& tier : o.tiers) {
    tiers.push_back({{"max_shared_memory", tier.max_shared_memory}, {"workgroups", tier.workgroups}});
  }
  j["occupancy"] = {{"shared_memory_per_compute_unit", o.shared_memory_per_compute_unit},
                    {"max_workgroups_per_compute_unit", o.max_workgroups_per_compute_unit},
                    {"max_invocations_per_compute_unit", o.max_invocations_per_compute_unit},
                    {"tiers", tiers},
                    {"min_workgroups_to_hide_latency", o.min_workgroups_to_hide_latency}};
  j["shared_memory_banks"] = t.shared_memory_banks;
  j["shared_memory_bank_width"] = t.shared_memory_bank_width;
  if (t.peak_bandwidth_gb_per_s) j["peak_bandwidth_gb_per_s"] = *t.peak_bandwidth_gb_per_s;
  if (t.peak_fp32_tflops) j["peak_fp32_tflops"] = *t.peak_fp32_tflops;
  if (t.peak_fp16_tflops) j["peak_fp16_tflops"] = *t.peak_fp16_tflops;
  j["sources"] = t.sources;
  if (!t.notes.empty()) j["notes"] = t.notes;
  return j.dump(2) + "\n";
}

const std::vector<Target>& builtin_targets() { return catalog().targets; }

const std::vector<std::string>& builtin_target_errors() { return catalog().errors; }

const Target* find_target(std::string_view name) {
  const std::vector<Target>& targets = builtin_targets();
  auto found = std::lower_bound(targets.begin(), targets.end(), name,
                                [](const Target& t, std::string_view n) { return t.name < n; });
  return found != targets.end() && found->name == name ? &*found : nullptr;
}

std::vector<const Target*> default_targets() {
  std::vector<const Target*> targets;
  for (std::string_view name : kDefaultTargets) {
    if (const Target* target = find_target(name)) targets.push_back(target);
  }
  return targets;
}

std::span<const std::string_view> default_target_names() { return kDefaultTargets; }

std::optional<WidthRange> run_widths(const Target& target) {
  const SubgroupSizes& size = target.subgroup_size;
  if (size.varies_per_shader) {
    if (size.min == 0) return std::nullopt;
    return WidthRange{size.min, std::max(size.min, size.max)};
  }
  if (size.preferred == 0) return std::nullopt;
  return WidthRange{size.preferred, size.preferred};
}

}  // namespace klint
