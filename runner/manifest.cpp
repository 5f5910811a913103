#include "runner/manifest.h"

#include <fmt/core.h>

#include <algorithm>
#include <type_traits>
#include <charconv>
#include <cstring>
#include <limits>
#include <map>

#include "analyzer/printable.h"
#include "runner/resources.h"
#include "runner/spelling.h"

namespace klint::runner {
namespace {

// A descriptor's range is a uint32_t on most devices (maxStorageBufferRange).
constexpr uint64_t kMaxBufferBytes = std::numeric_limits<uint32_t>::max();

struct Context {
  const KernelManifest& manifest;
  const Shape& shape;
  std::string* error;

  // Always false, for `return fail(...)`.
  bool fail(ManifestLocation at, std::string_view message) const {
    *error = fmt::format("{}:{}:{}: {}", manifest.config_path, at.line, at.column, printable(message));
    return false;
  }

  // The value of `expression` for this shape; errors say which shape.
  std::optional<Number> evaluate(const Expression& expression, ManifestLocation at) const {
    std::string why;
    std::optional<Number> value = expression.evaluate(shape, &why);
    if (!value) fail(at, why + for_shape());
    return value;
  }

  std::string for_shape() const { return shape.empty() ? "" : " for shape " + describe_shape(shape); }
};

// "a uint", "an int": types in messages (no type starts with a sounded u).
std::string a_type(std::string_view type) {
  const bool vowel = !type.empty() && std::string_view("aeio").find(type[0]) != std::string_view::npos;
  return fmt::format("{} {}", vowel ? "an" : "a", type);
}


// IEEE binary16 from a float, rounding to nearest even.
uint16_t half_bits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  const uint32_t sign = (x >> 16) & 0x8000;
  const uint32_t exponent = (x >> 23) & 0xFF;
  uint32_t mantissa = x & 0x7FFFFF;
  if (exponent == 0xFF) return static_cast<uint16_t>(sign | 0x7C00 | (mantissa ? 0x200 : 0));
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00);
  uint32_t half = 0;
  uint32_t shift = 13;
  if (e <= 0) {  // a subnormal half, or 0
    if (e < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    shift = static_cast<uint32_t>(14 - e);
  } else {
    half = static_cast<uint32_t>(e) << 10;
  }
  half |= mantissa >> shift;
  const uint32_t rest = mantissa & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1))) ++half;  // a carry into the exponent is right
  return static_cast<uint16_t>(sign | half);
}

// Writes `value` as `type` (little-endian) at `out`, or says why it does not fit.
bool encode(const Number& value, const ScalarType& type, uint8_t* out, std::string* why) {
  if (type.is_float) {
    const double real = to_double(value);
    if (type.bytes == 8) {
      std::memcpy(out, &real, 8);
    } else if (type.bytes == 4) {
      const float single = static_cast<float>(real);
      std::memcpy(out, &single, 4);
    } else {
      const uint16_t half = half_bits(static_cast<float>(real));
      std::memcpy(out, &half, 2);
    }
    return true;
  }
  const int64_t* integer = std::get_if<int64_t>(&value);
  if (!integer) {
    *why = fmt::format("{} is not an integer", to_string(value));
    return false;
  }
  const uint32_t bits = type.bytes * 8;
  const bool fits = type.is_signed ? bits == 64 || (*integer >= -(int64_t{1} << (bits - 1)) &&
                                                    *integer < (int64_t{1} << (bits - 1)))
                                   : *integer >= 0 && (bits == 64 || *integer < (int64_t{1} << bits));
  if (!fits) {
    *why = fmt::format("{} is out of its range", *integer);
    return false;
  }
  const uint64_t bits_value = static_cast<uint64_t>(*integer);
  std::memcpy(out, &bits_value, type.bytes);  // little-endian: the low bytes first
  return true;
}

// "SET.BINDING" as numbers.
std::optional<std::pair<uint32_t, uint32_t>> set_and_binding(std::string_view name) {
  size_t dot = name.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  uint32_t set = 0, binding = 0;
  auto [end1, ec1] = std::from_chars(name.data(), name.data() + dot, set);
  auto [end2, ec2] = std::from_chars(name.data() + dot + 1, name.data() + name.size(), binding);
  if (ec1 != std::errc() || end1 != name.data() + dot || ec2 != std::errc() || end2 != name.data() + name.size()) {
    return std::nullopt;
  }
  return std::pair{set, binding};
}

// The binding `name` means, by variable name, block type name or SET.BINDING.
const reflect::Binding* find_binding(const reflect::EntryPoint& entry, const std::string& name) {
  std::optional<std::pair<uint32_t, uint32_t>> numbers = set_and_binding(name);
  for (const reflect::Binding& binding : entry.bindings) {
    if (numbers ? numbers->first == binding.set && numbers->second == binding.binding
                : binding.name == name || (binding.block && binding.block->type_name == name)) {
      return &binding;
    }
  }
  return nullptr;
}

bool unknown_binding(const Context& context, const reflect::EntryPoint& entry, const std::string& name,
                     ManifestLocation at) {
  std::vector<std::string_view> known;
  std::string listed;
  for (const reflect::Binding& binding : entry.bindings) {
    known.push_back(binding.name);
    listed += fmt::format("{}{} ({}.{})", listed.empty() ? "" : ", ", binding.name, binding.set, binding.binding);
  }
  return context.fail(at, fmt::format("{} has no binding '{}'{}{}", entry.name, name, did_you_mean(name, known),
                                      listed.empty() ? "" : "; it has " + listed));
}

// Binding index -> the setting that sizes it, checking every name first.
bool resolve_buffers(const Context& context, const reflect::EntryPoint& entry,
                     std::map<size_t, const ManifestSetting*>& sized) {
  for (const ManifestSetting& setting : context.manifest.buffers) {
    const reflect::Binding* binding = find_binding(entry, setting.name);
    if (!binding) return unknown_binding(context, entry, setting.name, setting.name_at);
    const size_t index = binding - entry.bindings.data();
    if (sized.count(index)) {
      return context.fail(setting.name_at, fmt::format("{} is sized twice in 'buffers'", binding_label(*binding)));
    }
    if (binding->block && !ends_in_runtime_array(*binding->block)) {
      return context.fail(setting.name_at, fmt::format("{} has no runtime array: its block is {} bytes, as declared",
                                                       binding_label(*binding), binding->block->size));
    }
    sized[index] = &setting;
  }
  for (const ExpectedOutput& expected : context.manifest.expected) {
    if (!find_binding(entry, expected.binding)) return unknown_binding(context, entry, expected.binding, expected.at);
  }
  return true;
}

bool make_buffers(const Context& context, const reflect::EntryPoint& entry, const HarnessOptions& options,
                  Harness& harness) {
  std::map<size_t, const ManifestSetting*> sized;
  if (!resolve_buffers(context, entry, sized)) return false;
  SplitMix64 random(context.manifest.seed);
  std::vector<uint64_t> bytes(entry.bindings.size());
  std::vector<bool> given(entry.bindings.size());
  for (size_t i = 0; i < entry.bindings.size(); ++i) {
    const reflect::Binding& binding = entry.bindings[i];
    if (!is_plain_buffer(binding)) continue;  // add_resources, below
    uint64_t size = binding.block->size;
    if (ends_in_runtime_array(*binding.block)) {
      const reflect::Member& array = binding.block->members.back();
      const uint32_t stride = array.array_stride.value_or(4);
      uint64_t elements = 0;
      if (auto it = sized.find(i); it != sized.end()) {
        std::optional<Number> value = context.evaluate(it->second->value, it->second->value_at);
        if (!value) return false;
        const int64_t* count = std::get_if<int64_t>(&*value);
        if (!count || *count < 0) {
          return context.fail(it->second->value_at,
                              fmt::format("'{}' is {}{}: elements of {} must be an integer, 0 or more",
                                          it->second->value.text(), to_string(*value), context.for_shape(),
                                          binding_label(binding)));
        }
        elements = static_cast<uint64_t>(*count);
        const uint64_t limit = std::min(options.max_buffer_bytes, kMaxBufferBytes);
        if (array.offset > limit || elements > (limit - array.offset) / stride) {
          return context.fail(it->second->value_at,
                              fmt::format("{} elements of {} are more than {}{}", elements, binding_label(binding),
                                          limit == kMaxBufferBytes ? "a descriptor's 4 GiB range"
                                                                   : fmt::format("the {} bytes allowed", limit),
                                          context.for_shape()));
        }
      } else {
        elements = runtime_array_elements(entry, binding, harness.grid, options, harness.guesses);
      }
      size = array.offset + elements * stride;
    }
    bytes[i] = size;
    given[i] = sized.count(i) > 0;
  }
  if (!add_buffers(entry, bytes, given, random, harness, context.error, options.index_buffers)) return false;
  describe_contents(harness.buffers, context.manifest.seed, harness.guesses);
  HarnessOptions seeded = options;
  seeded.seed = context.manifest.seed;
  return add_resources(entry, seeded, random, harness, context.error);
}

bool write_push_constants(const Context& context, const reflect::EntryPoint& entry, Harness& harness) {
  const std::vector<ManifestSetting>& settings = context.manifest.push_constants;
  if (!entry.push_constants) {
    if (settings.empty()) return true;
    return context.fail(settings.front().name_at, fmt::format("{} has no push constants", entry.name));
  }
  const reflect::BlockLayout& block = entry.push_constants->block;
  harness.push_constants.assign((block.size + 3) / 4 * 4, 0);
  std::vector<std::string_view> names;
  for (const reflect::Member& member : block.members) names.push_back(member.name);
  std::vector<bool> named(block.members.size());
  for (const ManifestSetting& setting : settings) {
    auto member = std::find_if(block.members.begin(), block.members.end(),
                               [&](const reflect::Member& m) { return m.name == setting.name; });
    if (member == block.members.end()) {
      return context.fail(setting.name_at, fmt::format("the push constants of {} have no member '{}'{}", entry.name,
                                                       setting.name, did_you_mean(setting.name, names)));
    }
    std::optional<ScalarType> type = scalar_type(member->type);
    if (!type) {
      return context.fail(setting.name_at, fmt::format("push constant '{}' is {}: the manifest sets scalar "
                                                       "members only",
                                                       setting.name, a_type(member->type)));
    }
    std::optional<Number> value = context.evaluate(setting.value, setting.value_at);
    if (!value) return false;
    std::string why;
    if (!encode(*value, *type, harness.push_constants.data() + member->offset, &why)) {
      return context.fail(setting.value_at, fmt::format("push constant '{}' is {}: {}{}", setting.name,
                                                        a_type(member->type), why, context.for_shape()));
    }
    named[member - block.members.begin()] = true;
  }
  std::string zero;
  for (size_t i = 0; i < block.members.size(); ++i) {
    if (!named[i]) zero += (zero.empty() ? "" : ", ") + block.members[i].name;
  }
  if (!zero.empty()) {
    harness.guesses.push_back(fmt::format("push constants: 0 for {} ({})", zero,
                                          context.manifest.inferred ? "no use klint knows needs another value"
                                                                    : "not in the manifest"));
  }
  return true;
}

// The values of uniform members, over the seeded contents of their buffers.
bool write_uniforms(const Context& context, const reflect::EntryPoint& entry, Harness& harness) {
  for (const ManifestSetting& setting : context.manifest.uniforms) {
    std::optional<Number> value = context.evaluate(setting.value, setting.value_at);
    if (!value) return false;
    std::string why;
    if (!set_uniform(entry, setting.name, *value, harness, &why)) {
      return context.fail(setting.name_at, why + context.for_shape());
    }
  }
  return true;
}

// A constant's value in its own type; fails with why when it does not fit.
std::optional<SpecializationValue> encode_specialization(const reflect::SpecializationConstant& constant,
                                                         const Number& value, std::string* why) {
  SpecializationValue spec{constant.id, {}};
  if (constant.type == "bool") {  // a VkBool32
    spec.bytes.assign(4, 0);
    spec.bytes[0] = to_double(value) != 0;
    return spec;
  }
  std::optional<ScalarType> type = scalar_type(constant.type);
  if (!type) {
    *why = "klint cannot set it";
    return std::nullopt;
  }
  spec.bytes.resize(type->bytes);
  if (!encode(value, *type, spec.bytes.data(), why)) return std::nullopt;
  return spec;
}

bool specialize(const Context& context, const reflect::ModuleReflection& module, Harness& harness) {
  for (const ManifestSetting& setting : context.manifest.specialization) {
    const std::string& key = setting.name;
    std::string why;
    const reflect::SpecializationConstant* constant = find_specialization_constant(module, key, &why);
    if (!constant) return context.fail(setting.name_at, why);
    if (std::any_of(harness.specialization.begin(), harness.specialization.end(),
                    [&](const SpecializationValue& v) { return v.id == constant->id; })) {
      return context.fail(setting.name_at, fmt::format("specialization constant {} is set twice", constant->id));
    }
    std::optional<Number> value = context.evaluate(setting.value, setting.value_at);
    if (!value) return false;
    std::optional<SpecializationValue> spec = encode_specialization(*constant, *value, &why);
    if (!spec) {
      return context.fail(scalar_type(constant->type) || constant->type == "bool" ? setting.value_at : setting.name_at,
                          fmt::format("specialization constant '{}' is {}: {}{}", key, a_type(constant->type), why,
                                      scalar_type(constant->type) ? context.for_shape() : ""));
    }
    harness.specialization.push_back(std::move(*spec));
  }
  return true;
}

bool evaluate_grid(const Context& context, Harness& harness) {
  const std::vector<ManifestValue>& grid = context.manifest.grid;
  if (grid.empty()) {
    harness.guesses.push_back("grid 1,1,1 workgroups (the manifest gives no grid)");
    return true;
  }
  for (size_t axis = 0; axis < grid.size() && axis < 3; ++axis) {
    std::optional<Number> value = context.evaluate(grid[axis].value, grid[axis].at);
    if (!value) return false;
    const int64_t* count = std::get_if<int64_t>(&*value);
    if (!count || *count < 1 || *count > std::numeric_limits<uint32_t>::max()) {
      return context.fail(grid[axis].at, fmt::format("'{}' is {}{}: workgroups must be an integer from 1 to {}",
                                                     grid[axis].value.text(), to_string(*value), context.for_shape(),
                                                     std::numeric_limits<uint32_t>::max()));
    }
    harness.grid[axis] = static_cast<uint32_t>(*count);
  }
  return true;
}

}  // namespace

std::optional<ScalarType> scalar_type(std::string_view type) {
  static const std::map<std::string_view, ScalarType> kTypes{
      {"int8_t", {false, true, 1}},   {"uint8_t", {false, false, 1}},  {"int16_t", {false, true, 2}},
      {"uint16_t", {false, false, 2}}, {"int", {false, true, 4}},        {"uint", {false, false, 4}},
      {"int64_t", {false, true, 8}},  {"uint64_t", {false, false, 8}}, {"float16_t", {true, true, 2}},
      {"float", {true, true, 4}},     {"double", {true, true, 8}},
  };
  auto it = kTypes.find(type);
  if (it == kTypes.end()) return std::nullopt;
  return it->second;
}

const std::vector<std::vector<Number>>& default_two_variable_matrix() {
  static const std::vector<std::vector<Number>> kMatrix{
      {int64_t{1}, int64_t{1}},   {int64_t{1}, int64_t{16}},    {int64_t{1}, int64_t{32}},
      {int64_t{1}, int64_t{33}},  {int64_t{1}, int64_t{256}},   {int64_t{4}, int64_t{256}},
      {int64_t{64}, int64_t{1024}}, {int64_t{1}, int64_t{4096}}, {int64_t{1}, int64_t{16384}},
  };
  return kMatrix;
}

Shape shape_at(const KernelManifest& manifest, size_t index) {
  Shape shape;
  const std::vector<Number>& row = manifest.matrix.at(index);
  for (size_t i = 0; i < manifest.variables.size() && i < row.size(); ++i) {
    shape.emplace_back(manifest.variables[i], row[i]);
  }
  return shape;
}

std::string toml_string(std::string_view text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      quoted += fmt::format("\\u{:04x}", c);
    } else {
      quoted += c;
    }
  }
  return quoted + '"';
}

std::string describe_shape(const Shape& shape) {
  std::string text;
  for (const auto& [name, value] : shape) text += (text.empty() ? "" : " ") + name + "=" + to_string(value);
  return text;
}

const reflect::EntryPoint* manifest_entry_point(const reflect::ModuleReflection& module,
                                                const KernelManifest& manifest, std::string* error) {
  if (module.entry_points.empty()) {
    *error = "no compute entry point";
    return nullptr;
  }
  if (!manifest.entry_point) return &module.entry_points.front();
  std::vector<std::string_view> names;
  for (const reflect::EntryPoint& entry : module.entry_points) {
    if (entry.name == *manifest.entry_point) return &entry;
    names.push_back(entry.name);
  }
  const ManifestLocation at = manifest.entry_point_at.value_or(manifest.at);
  *error = fmt::format("{}:{}:{}: {} has no compute entry point '{}'{}", manifest.config_path, at.line, at.column,
                       printable(manifest.file.filename().string()), printable(*manifest.entry_point),
                       printable(did_you_mean(*manifest.entry_point, names)));
  return nullptr;
}

const reflect::SpecializationConstant* find_specialization_constant(const reflect::ModuleReflection& module,
                                                                   const std::string& key, std::string* error) {
  const std::vector<reflect::SpecializationConstant>& constants = module.specialization_constants;
  uint32_t id = 0;
  auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
  const bool by_id = ec == std::errc() && end == key.data() + key.size();
  auto constant = std::find_if(constants.begin(), constants.end(), [&](const reflect::SpecializationConstant& c) {
    return by_id ? c.id == id : c.name == key;
  });
  if (constant != constants.end()) return &*constant;
  std::vector<std::string_view> names;
  std::string ids;
  for (const reflect::SpecializationConstant& c : constants) {
    names.push_back(c.name);
    ids += fmt::format("{}{} ({})", ids.empty() ? "" : ", ", c.id, c.name.empty() ? "unnamed" : c.name);
  }
  *error = fmt::format("no specialization constant {}'{}'{}{}", by_id ? "with constant_id " : "", key,
                       by_id ? "" : did_you_mean(key, names), ids.empty() ? "; the kernel has none" : "; it has " + ids);
  return nullptr;
}

bool set_push_constant(const reflect::EntryPoint& entry, const std::string& name, const Number& value,
                       Harness& harness, std::string* error) {
  if (!entry.push_constants) {
    *error = fmt::format("{} has no push constants", entry.name);
    return false;
  }
  const std::vector<reflect::Member>& members = entry.push_constants->block.members;
  auto member = std::find_if(members.begin(), members.end(), [&](const reflect::Member& m) { return m.name == name; });
  if (member == members.end()) {
    std::vector<std::string_view> names;
    std::string listed;
    for (const reflect::Member& m : members) {
      names.push_back(m.name);
      listed += (listed.empty() ? "" : ", ") + m.name;
    }
    *error = fmt::format("the push constants of {} have no member '{}'{}; it has {}", entry.name, printable(name),
                         did_you_mean(name, names), listed);
    return false;
  }
  std::optional<ScalarType> type = scalar_type(member->type);
  if (!type) {
    *error = fmt::format("push constant '{}' is {}: only scalar members can be set", name, a_type(member->type));
    return false;
  }
  if (harness.push_constants.size() < member->offset + type->bytes) {
    harness.push_constants.resize((member->offset + type->bytes + 3) / 4 * 4, 0);
  }
  std::string why;
  if (!encode(value, *type, harness.push_constants.data() + member->offset, &why)) {
    *error = fmt::format("push constant '{}' is {}: {}", name, a_type(member->type), why);
    return false;
  }
  return true;
}

const reflect::Member* member_at(const std::vector<reflect::Member>& members, const std::vector<std::string>& path,
                                 uint32_t* offset) {
  const std::vector<reflect::Member>* level = &members;
  const reflect::Member* found = nullptr;
  *offset = 0;
  for (const std::string& name : path) {
    auto it = std::find_if(level->begin(), level->end(), [&](const reflect::Member& m) { return m.name == name; });
    if (it == level->end()) return nullptr;
    found = &*it;
    *offset += it->offset;
    level = &it->members;
  }
  return found;
}

bool set_uniform(const reflect::EntryPoint& entry, const std::string& path, const Number& value, Harness& harness,
                 std::string* error) {
  std::vector<std::string> names;
  for (size_t start = 0;;) {
    const size_t dot = path.find('.', start);
    names.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (const reflect::Binding& binding : entry.bindings) {
    if (binding.type != reflect::DescriptorType::UniformBuffer || !binding.block || binding.array_size != 1) continue;
    uint32_t offset = 0;
    const reflect::Member* member = member_at(binding.block->members, names, &offset);
    if (!member) continue;
    auto buffer = std::find_if(harness.buffers.begin(), harness.buffers.end(), [&](const BufferSpec& b) {
      return b.kind == BufferKind::Uniform && b.set == binding.set && b.binding == binding.binding;
    });
    std::optional<ScalarType> type = scalar_type(member->type);
    if (!type) {
      *error = fmt::format("uniform '{}' is {}: only scalar members can be set", printable(path), a_type(member->type));
      return false;
    }
    if (buffer == harness.buffers.end() || buffer->data.size() < offset + type->bytes) {
      *error = fmt::format("uniform '{}' lies past its buffer", printable(path));
      return false;
    }
    std::string why;
    if (!encode(value, *type, buffer->data.data() + offset, &why)) {
      *error = fmt::format("uniform '{}' is {}: {}", printable(path), a_type(member->type), why);
      return false;
    }
    return true;
  }
  *error = fmt::format("no uniform block of {} has a member '{}'", entry.name, printable(path));
  return false;
}

bool set_specialization(const reflect::ModuleReflection& module, const std::string& key, const Number& value,
                        Harness& harness, std::string* error) {
  const reflect::SpecializationConstant* constant = find_specialization_constant(module, key, error);
  if (!constant) return false;
  std::string why;
  std::optional<SpecializationValue> spec = encode_specialization(*constant, value, &why);
  if (!spec) {
    *error = fmt::format("specialization constant '{}' is {}: {}", key, a_type(constant->type), why);
    return false;
  }
  std::erase_if(harness.specialization, [&](const SpecializationValue& v) { return v.id == constant->id; });
  harness.specialization.push_back(std::move(*spec));
  return true;
}

void give_default_specialization(const reflect::ModuleReflection& module, Harness& harness) {
  size_t given = 0;
  for (const reflect::SpecializationConstant& constant : module.specialization_constants) {
    if (std::any_of(harness.specialization.begin(), harness.specialization.end(),
                    [&](const SpecializationValue& v) { return v.id == constant.id; })) {
      continue;
    }
    const Number value = std::visit(
        [](auto v) -> Number {
          if constexpr (std::is_same_v<decltype(v), double>) {
            return v;
          } else {
            return static_cast<int64_t>(v);
          }
        },
        constant.default_value);
    std::string why;
    std::optional<SpecializationValue> spec = encode_specialization(constant, value, &why);
    if (!spec) continue;
    harness.specialization.push_back(std::move(*spec));
    ++given;
  }
  if (given) {
    harness.guesses.push_back(fmt::format("specialization constants: {} at {} declared default{}, given to the pipeline",
                                          given, given == 1 ? "its" : "their", given == 1 ? "" : "s"));
  }
}

std::array<uint32_t, 3> workgroup_size(const reflect::EntryPoint& entry, const Harness& harness) {
  std::array<uint32_t, 3> size{1, 1, 1};
  if (!entry.workgroup_size) return size;
  for (size_t axis = 0; axis < 3; ++axis) {
    const reflect::WorkgroupDimension& dimension = (*entry.workgroup_size)[axis];
    size[axis] = static_cast<uint32_t>(dimension.value);
    if (!dimension.spec_id) continue;
    for (const SpecializationValue& v : harness.specialization) {
      if (v.id == *dimension.spec_id && v.bytes.size() >= 4) std::memcpy(&size[axis], v.bytes.data(), 4);
    }
  }
  return size;
}

void set_workgroup_size(const reflect::EntryPoint& entry, size_t axis, uint32_t value, Harness& harness) {
  if (!entry.workgroup_size || axis >= 3 || !(*entry.workgroup_size)[axis].spec_id) return;
  const uint32_t id = *(*entry.workgroup_size)[axis].spec_id;
  std::erase_if(harness.specialization, [&](const SpecializationValue& v) { return v.id == id; });
  harness.specialization.push_back(spec_u32(id, value));
}

std::optional<Harness> manifest_harness(const reflect::EntryPoint& entry, const reflect::ModuleReflection& module,
                                        const KernelManifest& manifest, const Shape& shape,
                                        const HarnessOptions& options, std::string* error) {
  Context context{manifest, shape, error};
  Harness harness;
  for (const auto& [name, value] : shape) harness.shape.emplace_back(name, to_string(value));
  // The grid first: guessed buffer sizes follow it.
  if (!evaluate_grid(context, harness) || (options.contents && !make_buffers(context, entry, options, harness)) ||
      (options.contents && !write_uniforms(context, entry, harness)) || !write_push_constants(context, entry, harness) ||
      !specialize(context, module, harness)) {
    return std::nullopt;
  }
  return harness;
}

std::filesystem::path expected_file(const KernelManifest& manifest, const ExpectedOutput& output, const Shape& shape) {
  std::string path;
  const std::string& pattern = output.pattern;
  for (size_t i = 0; i < pattern.size(); ++i) {
    size_t close = pattern.find('}', i);
    if (pattern[i] == '{' && close != std::string::npos) {
      const std::string name = pattern.substr(i + 1, close - i - 1);
      auto value = std::find_if(shape.begin(), shape.end(), [&](const auto& v) { return v.first == name; });
      if (value != shape.end()) {
        path += to_string(value->second);
        i = close;
        continue;
      }
    }
    path += pattern[i];
  }
  return (manifest.dir / path).lexically_normal();
}

}  // namespace klint::runner
