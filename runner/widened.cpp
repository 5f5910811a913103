#include "runner/widened.h"

#include <fmt/format.h>

#include "runner/widen.h"

namespace klint::runner {

std::variant<WidenedCopy, Confirmation> widened_copy(const Diagnostic& finding, std::span<const uint32_t> spirv) {
  const std::string name =
      finding.location.token.empty() ? "the accumulator" : fmt::format("'{}'", finding.location.token);
  const std::vector<size_t> seeds = half_accumulators(spirv, finding.instructions);
  if (seeds.empty()) {
    // A relaxed-precision float: 32 bits, which a device may compute in 16.
    return Confirmation{Confirmation::Status::Inconclusive,
                        fmt::format("a run cannot show what relaxed precision does to {}: each device decides "
                                    "whether to compute it in 16 bits",
                                    name),
                        {},
                        {"no run: the accumulator is a 32-bit float that allows relaxed precision; lavapipe and "
                         "most desktop GPUs compute it in 32 bits"}};
  }
  std::string error;
  std::optional<std::vector<uint32_t>> widened = widen_accumulators(spirv, seeds, &error);
  if (!widened) {
    return Confirmation{Confirmation::Status::Inconclusive,
                        fmt::format("klint cannot make a copy of the kernel that sums {} in 32 bits: {}", name, error),
                        {},
                        {"no run: the copy that sums in 32 bits is what a run compares the kernel with"}};
  }
  return WidenedCopy{std::move(*widened), name};
}

std::optional<Found> widened_witness(const WidenedCopy& copy, const std::vector<uint32_t>& spirv,
                                     const std::string& entry_point, const Harness& harness, const Observations& o,
                                     const std::vector<Words>& words, const ObserveOptions& options,
                                     std::string* failure) {
  if (o.runs.empty() || o.runs.front().verdict != Verdict::Completed) return std::nullopt;
  const Observation& kernel = o.runs.front();
  const Observation again = run_alongside(spirv, entry_point, harness, options, kernel);
  if (again.verdict == Verdict::Completed) {
    if (std::optional<OutputDifference> diff = compare(harness, kernel, again, words)) {
      const Words kind = diff->buffer < words.size() ? words[diff->buffer] : Words::Integers;
      if (failure) {
        *failure = fmt::format("the kernel's own outputs differ from one run to the next ('{}' {}), so a copy's "
                               "differences show nothing",
                               kernel.buffers[diff->buffer].name, difference_text(*diff, kind));
      }
      return std::nullopt;
    }
  }
  const Observation wide = run_alongside(copy.spirv, entry_point, harness, options, kernel);
  if (wide.verdict != Verdict::Completed) {
    if (failure) *failure = "the copy that sums in 32 bits " + wide.message;
    return std::nullopt;
  }
  // A 16-bit sum is one rounding from the 32-bit one even where summing
  // lost nothing: more than that, in outputs of any width, is what it lost.
  std::optional<OutputDifference> diff = compare(harness, kernel, wide, words, kHalfTolerance);
  if (!diff) return std::nullopt;
  const Words kind = diff->buffer < words.size() ? words[diff->buffer] : Words::Integers;
  return Found{kernel.device,
               {kernel.subgroup_size},
               fmt::format("the output differs from a copy that sums {} in 32 bits: '{}' {} in the copy ({} of its "
                           "words differ; {})",
                           copy.accumulator, kernel.buffers[diff->buffer].name, difference_text(*diff, kind),
                           diff->words, diff->symptom),
               {}};
}

}  // namespace klint::runner
