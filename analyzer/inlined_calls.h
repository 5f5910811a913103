// Which call an inlined instruction came from. klint inlines every function
// into the entry point before it analyses (analyzer/normalize.h); the inlined
// instructions keep the callee's debug lines and lose the call. The lines each
// function of the module as compiled spans bring the call back: walking the
// inlined code in order, a line inside another function's span enters a call
// of it, made at the line seen just before; a line of the function itself
// returns from every call.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/ir/module.h"

namespace klint {

// The lines one function of the module as compiled spans, in one file.
struct FunctionLines {
  std::string file;
  uint32_t first = 0, last = 0;
  std::string name;  // as written: `blur`, not glslang's `blur(vf3;`
};

std::vector<FunctionLines> function_lines(const ir::Module& module);

// A call the instruction is inside: the function called, and the line of the
// caller that made the call.
struct InlinedCall {
  std::string function;
  std::string file;
  uint32_t line = 0;
  friend auto operator<=>(const InlinedCall&, const InlinedCall&) = default;
};

// Follows the debug lines of one function's inlined code, in order.
class InlinedCallTracker {
 public:
  explicit InlinedCallTracker(const std::vector<FunctionLines>& functions) : functions_(functions) {}
  // A new function: it is in no call, and its own lines are those of the
  // span of the first line it shows.
  void enter_function();
  void line(const std::string& file, uint32_t line);
  // Outermost first.
  const std::vector<InlinedCall>& calls() const { return calls_; }

 private:
  int span_of(const std::string& file, uint32_t line) const;
  const std::vector<FunctionLines>& functions_;
  int own_ = -2;  // -2: not known yet; -1: no span
  std::vector<int> spans_;  // the span of each call in calls_
  std::vector<InlinedCall> calls_;
  std::string last_file_;
  uint32_t last_line_ = 0;
};

}  // namespace klint
