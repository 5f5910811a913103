// Which bytes of an element of a storage buffer's array its explicit layout
// leaves to padding: the gap after a vec3 at the end of a struct, the fourth
// word of each element of an std430 array of vec3. An invocation that reads
// every member of its element reads it whole, padding or not.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/module.h"

namespace klint {

// By byte of a `stride`-byte block (the blocks counted from the buffer's
// start): whether it is padding of the element of the array that `pointer`
// indexes with that stride. Empty when the pointer goes through no array of
// that stride, or its offset in the buffer is not a constant.
std::vector<bool> element_padding(const Module& module, uint32_t pointer, int64_t stride);

}  // namespace klint
