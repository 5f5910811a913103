// nlohmann::json keeps object keys in a std::map, so every object comes out
// with its keys sorted: the order is part of the schema (docs/reflect.md).
#include <nlohmann/json.hpp>

#include "reflect/format.h"

namespace klint::reflect {
namespace {

using nlohmann::json;

json to_json(const MemoryOps& ops) {
  return {{"scalar", ops.scalar}, {"vector", ops.vector}, {"widest_bits", ops.widest_bits}};
}

json to_json(const Member& member) {
  json out{{"name", member.name}, {"offset", member.offset}, {"size", member.size}, {"type", member.type}};
  if (member.array_stride) out["array_stride"] = *member.array_stride;
  if (member.matrix_stride) {
    out["matrix_stride"] = *member.matrix_stride;
    out["row_major"] = member.row_major;
  }
  if (!member.members.empty()) {
    json members = json::array();
    for (const Member& m : member.members) members.push_back(to_json(m));
    out["members"] = std::move(members);
  }
  return out;
}

json to_json(const BlockLayout& block) {
  json members = json::array();
  for (const Member& member : block.members) members.push_back(to_json(member));
  return {{"members", std::move(members)}, {"size", block.size}, {"type_name", block.type_name}};
}

json to_json(const Binding& binding) {
  json out{{"access", to_string(binding.access)},
           {"array_size", binding.array_size},
           {"binding", binding.binding},
           {"declared", to_string(binding.declared)},
           {"name", binding.name},
           {"set", binding.set},
           {"type", to_string(binding.type)}};
  if (binding.block) {
    out["block"] = to_json(*binding.block);
    out["loads"] = to_json(binding.loads);
    out["stores"] = to_json(binding.stores);
    out["atomics"] = binding.atomics;
  }
  return out;
}

json to_json(const std::optional<std::array<WorkgroupDimension, 3>>& size) {
  if (!size) return nullptr;
  json out = json::object();
  const char* axes[] = {"x", "y", "z"};
  for (size_t i = 0; i < 3; ++i) {
    json dimension{{"value", (*size)[i].value}};
    if ((*size)[i].spec_id) {
      dimension["spec_id"] = *(*size)[i].spec_id;
      dimension["default_declared"] = (*size)[i].default_declared;
    }
    out[axes[i]] = std::move(dimension);
  }
  return out;
}

json to_json(const EntryPoint& entry) {
  json bindings = json::array();
  for (const Binding& binding : entry.bindings) bindings.push_back(to_json(binding));
  json push_constants = nullptr;
  if (entry.push_constants) {
    push_constants = {{"access", to_string(entry.push_constants->access)},
                      {"block", to_json(entry.push_constants->block)},
                      {"name", entry.push_constants->name}};
  }
  json variables = json::array();
  for (const WorkgroupVariable& variable : entry.workgroup_memory.variables) {
    variables.push_back({{"bytes", variable.bytes ? json(*variable.bytes) : json(nullptr)},
                         {"name", variable.name},
                         {"type", variable.type},
                         {"used", variable.used}});
  }
  json occupancy = json::array();
  for (const Residency& r : entry.occupancy) {
    occupancy.push_back({{"fits", r.fits},
                         {"limited_by", r.limited_by.empty() ? json(nullptr) : json(r.limited_by)},
                         {"resident_workgroups", r.resident_workgroups ? json(*r.resident_workgroups) : json(nullptr)},
                         {"target", r.target}});
  }
  return {{"barriers", {{"memory", entry.barriers.memory}, {"workgroup", entry.barriers.workgroup}}},
          {"bindings", std::move(bindings)},
          {"name", entry.name},
          {"occupancy", std::move(occupancy)},
          {"push_constants", std::move(push_constants)},
          {"workgroup_memory", {{"total_bytes", entry.workgroup_memory.total_bytes}, {"variables", std::move(variables)}}},
          {"workgroup_size", to_json(entry.workgroup_size)}};
}

json to_json(const ReflectedFile& file) {
  const ModuleReflection& module = file.module;
  json entry_points = json::array();
  for (const EntryPoint& entry : module.entry_points) entry_points.push_back(to_json(entry));
  json constants = json::array();
  for (const SpecializationConstant& constant : module.specialization_constants) {
    json value;
    std::visit([&](auto v) { value = v; }, constant.default_value);
    constants.push_back({{"default", std::move(value)}, {"id", constant.id}, {"name", constant.name}, {"type", constant.type}});
  }
  return {{"capabilities", module.capabilities},
          {"entry_points", std::move(entry_points)},
          {"extensions", module.extensions},
          {"features",
           {{"arithmetic_types", module.features.arithmetic_types},
            {"storage", module.features.storage},
            {"subgroup_operations", module.features.subgroup_operations}}},
          {"path", file.path},
          {"specialization_constants", std::move(constants)}};
}

}  // namespace

void write_json(std::ostream& out, const std::vector<ReflectedFile>& files) {
  json list = json::array();
  for (const ReflectedFile& file : files) list.push_back(to_json(file));
  json document{{"files", std::move(list)}, {"schema", kJsonSchema}};
  // OpName strings of a hand-written module need not be UTF-8.
  out << document.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace klint::reflect
