// The source name of a loop's counter, for messages about loops.
#pragma once

#include <string>

#include "analyzer/module.h"
#include "analyzer/symbolic.h"

namespace klint {

// The name of the local variable a loop counter is, from the store glslang
// keeps of its update; empty when there is none.
std::string counter_name(const Module& module, const Induction& variable);

}  // namespace klint
