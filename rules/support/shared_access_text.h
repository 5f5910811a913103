// How the rules about workgroup-memory accesses name elements, invocations and
// what an access does, so that their messages read alike.
#pragma once

#include <string>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/module.h"

namespace klint {

// "tile[3][5]" for the element at a byte offset of a variable.
std::string element_text(const Module& module, uint32_t variable, int64_t offset);
// "5", or "(5, 1)" / "(5, 1, 0)" in a workgroup of two or three dimensions.
std::string invocation_text(const CollidingInvocation& invocation, const EntryPoint& entry);
// "writes", "reads", "atomically updates"; `plural` for "both write".
std::string verb(const MemoryAccess& access, bool plural);
// " in a later iteration (i = 4 vs 8)" when the loop values differ, else "".
std::string iteration_text(const Module& module, const Collision& collision);

}  // namespace klint
