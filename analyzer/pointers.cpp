#include "analyzer/pointers.h"

#include <algorithm>

namespace klint {

namespace {

using spv::Op;

constexpr int kMaxDepth = 64;

// The function whose parameter `parameter` is, and its position.
std::optional<std::pair<uint32_t, size_t>> parameter_of(const Module& module, uint32_t parameter) {
  for (const ir::Function& function : module.functions()) {
    size_t position = 0;
    for (const ir::Instruction& p : function.prelude) {
      if (p.opcode() != Op::OpFunctionParameter) continue;
      if (p.result_id() == parameter) return std::make_pair(function.id(), position);
      ++position;
    }
  }
  return std::nullopt;
}

// Puts the index operands of `chain` from `first` on before `below`.
void prepend(const ir::Instruction& chain, size_t first, std::vector<uint32_t>& below) {
  std::vector<uint32_t> own;
  for (size_t i = first; i < chain.operands().size(); ++i) own.push_back(chain.word(i));
  below.insert(below.begin(), own.begin(), own.end());
}

class Walk {
 public:
  Walk(const Module& module, bool follow_choices) : module_(module), follow_choices_(follow_choices) {}

  // `below`: the indices taken after `pointer`, outermost first.
  void from(uint32_t pointer, std::vector<uint32_t> below, bool element_step, bool chosen, int depth) {
    if (paths_.size() >= kMaxPointerPaths || depth > kMaxDepth) return;
    const ir::Instruction* def = module_.def(pointer);
    if (!def) return;
    switch (def->opcode()) {
      case Op::OpVariable:
        paths_.push_back(PointerPath{def, std::move(below), element_step, chosen});
        return;
      case Op::OpCopyObject:
        from(def->word(2), std::move(below), element_step, chosen, depth + 1);
        return;
      case Op::OpAccessChain:
      case Op::OpInBoundsAccessChain:
        prepend(*def, 3, below);
        from(def->word(2), std::move(below), element_step, chosen, depth + 1);
        return;
      case Op::OpPtrAccessChain:
      case Op::OpInBoundsPtrAccessChain: {
        if (module_.constant_value(def->word(3)) != 0) element_step = true;
        prepend(*def, 4, below);
        from(def->word(2), std::move(below), element_step, chosen, depth + 1);
        return;
      }
      default:
        break;
    }
    if (!follow_choices_ || std::find(stack_.begin(), stack_.end(), pointer) != stack_.end()) return;
    stack_.push_back(pointer);
    switch (def->opcode()) {
      case Op::OpSelect:
        from(def->word(3), below, element_step, true, depth + 1);
        from(def->word(4), below, element_step, true, depth + 1);
        break;
      case Op::OpPhi:
        for (size_t i = 2; i < def->operands().size(); i += 2) from(def->word(i), below, element_step, true, depth + 1);
        break;
      case Op::OpFunctionParameter:
        if (auto parameter = parameter_of(module_, pointer)) {
          const auto [function, position] = *parameter;
          for (const ir::Instruction* use : module_.uses(function)) {
            if (use->opcode() != Op::OpFunctionCall || use->word(2) != function) continue;
            if (3 + position >= use->operands().size()) continue;
            from(use->word(3 + position), below, element_step, true, depth + 1);
          }
        }
        break;
      default:
        break;
    }
    stack_.pop_back();
  }

  std::vector<PointerPath> take() { return std::move(paths_); }

 private:
  const Module& module_;
  const bool follow_choices_;
  std::vector<uint32_t> stack_;  // selects, phis and parameters being walked through
  std::vector<PointerPath> paths_;
};

}  // namespace

std::optional<PointerPath> pointer_path(const Module& module, uint32_t pointer) {
  Walk walk(module, /*follow_choices=*/false);
  walk.from(pointer, {}, false, false, 0);
  std::vector<PointerPath> paths = walk.take();
  if (paths.size() != 1) return std::nullopt;
  return std::move(paths.front());
}

std::vector<PointerPath> pointer_paths(const Module& module, uint32_t pointer) {
  Walk walk(module, /*follow_choices=*/true);
  walk.from(pointer, {}, false, false, 0);
  std::vector<PointerPath> paths = walk.take();
  // The same path reached twice (a phi of one pointer) is one path.
  std::vector<PointerPath> unique;
  for (PointerPath& path : paths) {
    if (std::find(unique.begin(), unique.end(), path) == unique.end()) unique.push_back(std::move(path));
  }
  return unique;
}

const ir::Instruction* pointer_variable(const Module& module, uint32_t pointer) {
  std::optional<PointerPath> path = pointer_path(module, pointer);
  return path ? path->variable : nullptr;
}

}  // namespace klint
