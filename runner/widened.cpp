#include "runner/widened.h"

#include <fmt/format.h>

#include <optional>

#include "runner/widen.h"

namespace klint::runner {

namespace {

// Where two runs' outputs differ, as compare() reads them, and what: a
// buffer, or an element of an image or texel buffer the kernel writes.
struct Difference {
  OutputDifference diff;
  std::string name;
  Words words = Words::Integers;
};

// How a written resource's texels read, where klint can tell one rounding
// from a difference: floats and halves; nullopt for other formats.
std::optional<Words> texel_words(const ResourceSpec& spec) {
  if (spec.kind == ResourceKind::AddressedBuffer || spec.kind == ResourceKind::StorageBuffer) return Words::Floats;
  if (spec.format_name.ends_with("16f")) return Words::Halves;
  if (spec.format_name.ends_with("32f")) return Words::Floats;
  return std::nullopt;
}

// The first difference between two runs' outputs: their buffers, then each
// element of their written resources of a float format. `unread` names the
// written resources of another format, which no difference is looked for in.
std::optional<Difference> outputs_differ(const Harness& harness, const Observation& a, const Observation& b,
                                         const std::vector<Words>& words, double tolerance, double floor,
                                         std::vector<std::string>* unread = nullptr) {
  if (std::optional<OutputDifference> diff = compare(harness, a, b, words, tolerance, floor)) {
    const Words kind = diff->buffer < words.size() ? words[diff->buffer] : Words::Integers;
    return Difference{*diff, a.buffers[diff->buffer].name, kind};
  }
  for (size_t r = 0; r < a.resources.size() && r < b.resources.size(); ++r) {
    const size_t index = a.resources[r].resource;
    if (index >= harness.resources.size() || b.resources[r].resource != index) continue;
    const ResourceSpec& spec = harness.resources[index];
    const std::optional<Words> kind = texel_words(spec);
    if (!kind) {
      if (unread) unread->push_back(fmt::format("'{}' ({})", spec.name, spec.format_name));
      continue;
    }
    for (size_t e = 0; e < a.resources[r].data.size() && e < b.resources[r].data.size() && e < spec.data.size(); ++e) {
      // One element as a buffer of its own, for compare().
      Harness one;
      one.buffers.push_back(BufferSpec{spec.set, spec.binding, BufferKind::Storage, spec.name, spec.data[e], false});
      Observation x, y;
      x.buffers.push_back({spec.set, spec.binding, spec.name, a.resources[r].data[e]});
      y.buffers.push_back({spec.set, spec.binding, spec.name, b.resources[r].data[e]});
      if (std::optional<OutputDifference> diff = compare(one, x, y, {*kind}, tolerance, floor)) {
        const std::string name = spec.count > 1 ? fmt::format("{}[{}]", spec.name, e) : spec.name;
        return Difference{*diff, name, *kind};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::variant<WidenedCopy, Confirmation> widened_copy(const Diagnostic& finding, std::span<const uint32_t> spirv) {
  const std::string name =
      finding.location.token.empty() ? "the accumulator" : fmt::format("'{}'", finding.location.token);
  bool matrix = false;
  const std::vector<size_t> seeds = half_accumulators(spirv, finding.instructions, &matrix);
  if (seeds.empty() && !matrix) {
    // A relaxed-precision float: 32 bits, which a device may compute in 16.
    return Confirmation{Confirmation::Status::Inconclusive,
                        fmt::format("a run cannot show what relaxed precision does to {}: each device decides "
                                    "whether to compute it in 16 bits",
                                    name),
                        {},
                        {"no run: the accumulator is a 32-bit float that allows relaxed precision; lavapipe and "
                         "most desktop GPUs compute it in 32 bits"}};
  }
  std::string error = "it is a cooperative matrix";
  std::optional<std::vector<uint32_t>> widened =
      seeds.empty() ? std::nullopt : widen_accumulators(spirv, seeds, &error);
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
                                     const Covered& lines, const std::vector<Words>& words,
                                     const ObserveOptions& options, std::string* failure) {
  if (o.runs.empty() || o.runs.front().verdict != Verdict::Completed) return std::nullopt;
  const Observation& instrumented = o.runs.front();
  // One term summed loses nothing to summing: a setup shows the finding only
  // where the loop ran twice, as far as its logged exit says.
  Reach reach;
  note_reach(RunEvidence::WidenedAccumulator, o.instrumented, {instrumented}, lines, reach);
  if (reach.exits && !reach.repeated) return std::nullopt;
  // The kernel and its copy as written, not instrumented: a compiler fuses
  // a product into a sum (an FMA) differently in code that also logs.
  const Observation kernel = run_alongside(spirv, entry_point, harness, options, instrumented);
  const Observation wide = run_alongside(copy.spirv, entry_point, harness, options, instrumented);
  for (const Observation* run : {&kernel, &wide}) {
    if (run->verdict != Verdict::Completed) {
      if (failure) *failure = (run == &wide ? "the copy that sums in 32 bits " : "the kernel ") + run->message;
      return std::nullopt;
    }
  }
  // A 16-bit sum is one rounding from the 32-bit one even where summing
  // lost nothing: more than that, in outputs of any width, is what it lost.
  std::vector<std::string> unread;
  std::optional<Difference> d = outputs_differ(harness, kernel, wide, words, kHalfTolerance, kHalfFloor, &unread);
  if (!d) {
    if (!unread.empty() && failure) {
      *failure = fmt::format("the kernel writes {}, whose format klint does not compare", fmt::join(unread, ", "));
    }
    return std::nullopt;
  }
  // A difference shows something only where the kernel writes the same twice.
  const Observation again = run_alongside(spirv, entry_point, harness, options, instrumented);
  if (again.verdict == Verdict::Completed) {
    if (std::optional<Difference> noise = outputs_differ(harness, kernel, again, words, 0, 0)) {
      if (failure) {
        *failure = fmt::format("the kernel's own outputs differ from one run to the next ('{}' {}), so a copy's "
                               "differences show nothing",
                               noise->name, difference_text(noise->diff, noise->words));
      }
      return std::nullopt;
    }
  }
  return Found{kernel.device,
               {instrumented.subgroup_size},
               fmt::format("the output differs from a copy that sums {} in 32 bits: '{}' {} in the copy ({} of its "
                           "words differ; {})",
                           copy.accumulator, d->name, difference_text(d->diff, d->words), d->diff.words,
                           d->diff.symptom),
               {}};
}

}  // namespace klint::runner
