// A copy of a kernel whose 16-bit float accumulators hold and sum 32-bit
// floats: the fix of a half-precision accumulator, made by klint, so that a
// run can compare what the kernel writes with what its fix writes from the
// same inputs (RunEvidence::WidenedAccumulator).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace klint::runner {

// The module with the accumulators at these ordinals (an OpPhi of a 16-bit
// float scalar or vector, or a Function OpVariable of one or of an array of
// them) widened to 32 bits, and every value computed from them with it: the
// arithmetic that reads a widened value is done in 32 bits, 16-bit operands
// converted up where it reads them, and a widened value converted down once,
// where something that is not arithmetic (a store to a buffer, a comparison,
// a call) reads it. A conversion of a widened value to 32 bits becomes the
// value itself. Fails, saying why, on an accumulator of another type, or a
// widened variable reached other than by access chains, loads and stores of
// its elements.
std::optional<std::vector<uint32_t>> widen_accumulators(std::span<const uint32_t> spirv,
                                                        const std::vector<size_t>& ordinals, std::string* error);

// Of these instruction ordinals, those that widen_accumulators takes: phis and
// Function variables whose type has 16-bit float components. Where there
// are none, `matrix` says whether one of them is a cooperative matrix
// (rather than a relaxed-precision float).
std::vector<size_t> half_accumulators(std::span<const uint32_t> spirv, const std::vector<size_t>& ordinals,
                                      bool* matrix = nullptr);

}  // namespace klint::runner
