// The source name of a loop's counter, for messages about loops.
#pragma once

#include <string>

#include "analyzer/module.h"
#include "analyzer/symbolic.h"

namespace klint {

// The name of the local variable a loop counter is, from the store glslang
// keeps of its update, else as the source's `for` names it
// (loop_counter_name); empty when neither says.
std::string counter_name(const Module& module, const Induction& variable);

}  // namespace klint
