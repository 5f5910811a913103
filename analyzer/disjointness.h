// Proofs that two memory accesses never touch a common byte from two
// different invocations of one workgroup: what a barrier between them would
// order does not exist. CollisionFinder looks for a colliding pair and stays
// silent on what it cannot evaluate; here anything unknown fails the proof.
//
// Both offsets are evaluated for every invocation (local ids only: subgroup
// ids and sizes stay unknown) and every iteration of loops with constant
// bounds. The two sides' iterations are enumerated independently, as if any
// iteration of one could meet any iteration of the other. Values that are the
// same for the whole workgroup (workgroup ids, push constants) must cancel
// between the two offsets. Guards klint cannot evaluate are taken to hold.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "analyzer/accesses.h"
#include "analyzer/collision.h"
#include "analyzer/loops.h"
#include "analyzer/module.h"
#include "analyzer/symbolic.h"

namespace klint {

class Disjointness {
 public:
  Disjointness(const Module& module, const ir::Function& function);

  // False when the proof fails or klint cannot carry it out: offsets or
  // widths unknown, a workgroup over 1024 invocations, too many iterations,
  // or a module with specialization constants (the workgroup size and the
  // constants in an offset are known only at their defaults).
  bool proven(const MemoryAccess& a, const MemoryAccess& b) const;

 private:
  bool enumerable(Symbol symbol) const;
  bool fixed(Symbol symbol, const MemoryAccess& a, const MemoryAccess& b) const;
  std::optional<std::vector<std::pair<int64_t, uint32_t>>> footprint(const MemoryAccess& access,
                                                                      const Polynomial& offset) const;
  bool may_run(const std::vector<Constraint>& guards, const Assignment& assignment) const;

  const Module& module_;
  const ir::Function& function_;
  const SymbolicValues& values_;
  const Accesses& accesses_;
  CollisionFinder finder_;  // for the values of loop induction variables
  std::vector<Loop> loops_;
  std::vector<Assignment> invocations_;  // empty when no proof is possible
};

// Whether the module declares specialization constants.
bool has_spec_constants(const Module& module);

}  // namespace klint
