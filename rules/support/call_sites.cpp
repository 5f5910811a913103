#include "rules/support/call_sites.h"

#include <algorithm>

namespace klint {

std::optional<DivergingCalls> diverging_calls(const Module& module, const ir::Instruction& first,
                                              const ir::Instruction& second) {
  std::span<const InlinedCall> a = module.inlined_calls(first), b = module.inlined_calls(second);
  const auto differ = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  const size_t level = static_cast<size_t>(differ.first - a.begin());
  DivergingCalls calls{level < a.size() ? &a[level] : nullptr, level < b.size() ? &b[level] : nullptr};
  if (!calls.first) return std::nullopt;  // the first access is in the function both run in
  return calls;
}

}  // namespace klint
