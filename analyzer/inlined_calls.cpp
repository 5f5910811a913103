#include "analyzer/inlined_calls.h"

#include <algorithm>
#include <map>

namespace klint {

std::vector<FunctionLines> function_lines(const ir::Module& module) {
  std::map<uint32_t, std::string> strings, names;
  for (const ir::Instruction& instruction : module.globals) {
    if (instruction.opcode() == spv::Op::OpString) strings[instruction.result_id()] = instruction.string(1);
    if (instruction.opcode() == spv::Op::OpName) names[instruction.word(0)] = instruction.string(1);
  }
  std::vector<FunctionLines> spans;
  for (const ir::Function& function : module.functions) {
    std::string name = names.count(function.id()) ? names[function.id()] : std::string();
    name = name.substr(0, name.find('('));  // glslang appends the parameter types
    std::map<uint32_t, FunctionLines> by_file;
    auto add = [&](const ir::Instruction& instruction) {
      if (instruction.opcode() != spv::Op::OpLine || !strings.count(instruction.word(0))) return;
      FunctionLines& span = by_file[instruction.word(0)];
      uint32_t line = instruction.word(1);
      if (span.first == 0) span = {strings[instruction.word(0)], line, line, name};
      span.first = std::min(span.first, line);
      span.last = std::max(span.last, line);
    };
    for (const ir::Instruction& instruction : function.prelude) add(instruction);
    for (const ir::Block& block : function.blocks) {
      for (const ir::Instruction& instruction : block.instructions) add(instruction);
    }
    for (auto& [file, span] : by_file) spans.push_back(std::move(span));
  }
  return spans;
}

int InlinedCallTracker::span_of(const std::string& file, uint32_t line) const {
  // The narrowest span that holds the line: a function's own lines, not
  // those of one it happens to enclose in the text.
  int best = -1;
  for (size_t i = 0; i < functions_.size(); ++i) {
    const FunctionLines& span = functions_[i];
    if (span.file != file || line < span.first || line > span.last) continue;
    if (best < 0 || span.last - span.first < functions_[best].last - functions_[best].first) best = static_cast<int>(i);
  }
  return best;
}

void InlinedCallTracker::enter_function() {
  own_ = -2;
  spans_.clear();
  calls_.clear();
  last_file_.clear();
  last_line_ = 0;
}

void InlinedCallTracker::line(const std::string& file, uint32_t line) {
  const int span = span_of(file, line);
  if (own_ == -2) own_ = span;
  if (span < 0 || span == own_) {
    spans_.clear();
    calls_.clear();
  } else if (auto open = std::find(spans_.begin(), spans_.end(), span); open != spans_.end()) {
    // Back in a call already open: the calls it made have returned.
    const auto depth = open - spans_.begin() + 1;
    spans_.resize(static_cast<size_t>(depth));
    calls_.resize(static_cast<size_t>(depth));
  } else if (last_line_ != 0) {
    spans_.push_back(span);
    calls_.push_back({functions_[static_cast<size_t>(span)].name, last_file_, last_line_});
  }
  last_file_ = file;
  last_line_ = line;
}

}  // namespace klint
