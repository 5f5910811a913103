// Whether a harness fits the kernel it is meant to run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runner/executor.h"

namespace klint::runner {

// The harness must give every binding the entry point declares, as the kind of
// buffer or resource (with as many descriptors) it declares, and push
// constants as large as its block: a pipeline
// that leaves one out is invalid, and drivers may crash on it. Sets
// runtime_sized[i] when harness.buffers[i] is a block that ends in a runtime
// array, whose length the shader reads from the descriptor's range. The
// module must be valid SPIR-V.
bool check_interface(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                     std::vector<bool>* runtime_sized, std::string* error);

}  // namespace klint::runner
