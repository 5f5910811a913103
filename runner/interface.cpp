#include "runner/interface.h"

#include <algorithm>

#include "reflect/reflection.h"
#include "runner/resources.h"

namespace klint::runner {

bool check_interface(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                     std::vector<bool>* runtime_sized, std::string* error) {
  std::optional<reflect::ModuleReflection> module = reflect::reflect_module(spirv, error);
  if (!module) return false;
  auto entry = std::find_if(module->entry_points.begin(), module->entry_points.end(),
                            [&](const reflect::EntryPoint& e) { return e.name == entry_point; });
  if (entry == module->entry_points.end()) {
    *error = "no compute entry point named '" + entry_point + "'";
    return false;
  }
  if (!distinct_bindings(*entry, error)) return false;
  for (const reflect::Binding& binding : entry->bindings) {
    const std::string name = "binding " + std::to_string(binding.set) + "." + std::to_string(binding.binding) +
                             " (" + binding.name + ")";
    const bool is_storage = binding.type == reflect::DescriptorType::StorageBuffer;
    if (!is_plain_buffer(binding)) {
      auto resource = std::find_if(harness.resources.begin(), harness.resources.end(), [&](const ResourceSpec& r) {
        return r.kind != ResourceKind::AddressedBuffer && r.set == binding.set && r.binding == binding.binding;
      });
      if (resource == harness.resources.end()) {
        *error = "the harness has no resource for " + name + ", a " + std::string(reflect::to_string(binding.type));
        return false;
      }
      if (to_string(resource->kind) != reflect::to_string(binding.type) ||
          (binding.array_size != 0 && resource->count != binding.array_size) || resource->count == 0) {
        *error = "the harness gives " + name + " the wrong kind or number of resources";
        return false;
      }
      continue;
    }
    auto given = std::find_if(harness.buffers.begin(), harness.buffers.end(), [&](const BufferSpec& b) {
      return b.set == binding.set && b.binding == binding.binding;
    });
    if (given == harness.buffers.end()) {
      *error = "the harness has no buffer for " + name;
      return false;
    }
    if ((given->kind == BufferKind::Storage) != is_storage) {
      *error = "the harness gives " + name + " the wrong kind of buffer";
      return false;
    }
    (*runtime_sized)[given - harness.buffers.begin()] =
        binding.block && !binding.block->members.empty() && binding.block->members.back().type.ends_with("[]");
  }
  if (entry->push_constants && harness.push_constants.size() < entry->push_constants->block.size) {
    *error = "the harness gives " + std::to_string(harness.push_constants.size()) +
             " bytes of push constants, the kernel reads " + std::to_string(entry->push_constants->block.size);
    return false;
  }
  return true;
}

}  // namespace klint::runner
