// Where two accesses that klint found in inlined code part ways: the calls,
// in the innermost function both run in, that led to each. A race between
// two calls is fixed between the calls, so that is where it is reported.
#pragma once

#include <optional>

#include "analyzer/module.h"

namespace klint {

struct DivergingCalls {
  const InlinedCall* first = nullptr;   // the call that led to the first access; null: it is in that function's code
  const InlinedCall* second = nullptr;  // likewise for the second
};

// Nothing when both accesses come from one call (or from no call): the fix
// is then where the accesses are.
std::optional<DivergingCalls> diverging_calls(const Module& module, const ir::Instruction& first,
                                              const ir::Instruction& second);

}  // namespace klint
