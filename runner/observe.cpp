#include "runner/observe.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "runner/harness.h"

namespace klint::runner {

namespace {

// A run at `subgroup_size` (0: the device's choice), asked of lavapipe through
// its environment, of other devices as the pipeline's required size.
Observation run_once(const std::vector<uint32_t>& spirv, const Instrumented* instrumented, const Harness& harness,
                     const std::string& entry_point, const ObserveOptions& options, uint32_t subgroup_size,
                     bool required) {
  IsolateOptions isolate;
  isolate.timeout_seconds = options.timeout_seconds;
  isolate.execute.device_index = options.device_index;
  isolate.execute.target_env = options.target_env;
  // What a finding's evidence reads of the buffers is what the kernel wrote.
  isolate.execute.read_back_unwritten = false;
  if (required) {
    isolate.execute.required_subgroup_size = subgroup_size;
  } else if (subgroup_size) {
    // Read by lavapipe when the loader loads it, which happens in the child
    // (runner/isolate.cpp keeps Mesa's shader cache out of it).
    isolate.environment.emplace_back("LP_NATIVE_VECTOR_WIDTH", std::to_string(subgroup_size * 32));
  }
  IsolatedRun run = run_isolated(spirv, entry_point, harness, isolate);
  Observation observation;
  observation.subgroup_size = subgroup_size;
  observation.verdict = run.verdict;
  observation.message = run.message;
  observation.device = run.execution.device;
  observation.min_subgroup_size = run.execution.min_subgroup_size;
  observation.max_subgroup_size = run.execution.max_subgroup_size;
  if (run.verdict != Verdict::Completed || run.execution.buffers.empty()) return observation;
  if (instrumented) observation.shadow = take_log(*instrumented, run.execution);
  observation.buffers = std::move(run.execution.buffers);
  observation.resources = std::move(run.execution.resources);
  observation.guard_violations = std::move(run.execution.guard_violations);
  return observation;
}

float as_float(uint32_t word) {
  float f;
  std::memcpy(&f, &word, 4);
  return f;
}

}  // namespace

std::optional<Observations> observe(const std::vector<uint32_t>& spirv, const ModuleOrigin& origin,
                                    const std::string& entry_point, const Harness& harness,
                                    const ObserveOptions& options, std::string* error) {
  InstrumentOptions instrument_options = options.instrument;
  instrument_options.specialization = harness.specialization;
  std::optional<Instrumented> instrumented = instrument(spirv, origin, instrument_options, error);
  if (!instrumented) return std::nullopt;
  Observations o{std::move(*instrumented), {}};
  observe_more(o, entry_point, harness, options);
  return o;
}

void observe_more(Observations& o, const std::string& entry_point, const Harness& harness,
                  const ObserveOptions& options) {
  auto ran = [&](uint32_t size) {
    return std::any_of(o.runs.begin(), o.runs.end(), [&](const Observation& run) { return run.subgroup_size == size; });
  };
  const bool lavapipe = !o.runs.empty() && is_lavapipe(o.runs.front().device);
  if (lavapipe && std::all_of(options.subgroup_sizes.begin(), options.subgroup_sizes.end(), ran)) return;
  Harness with_log = harness;
  with_log.buffers.push_back(log_buffer(o.instrumented));
  // The first run says which device this is; only lavapipe takes a subgroup
  // size from the environment.
  if (o.runs.empty()) {
    const uint32_t first = options.subgroup_sizes.empty() ? 0 : options.subgroup_sizes.front();
    o.runs.push_back(run_once(o.instrumented.spirv, &o.instrumented, with_log, entry_point, options, first, false));
  }
  const Observation& device = o.runs.front();
  if (device.verdict == Verdict::Completed && !is_lavapipe(device.device)) {
    // Another device runs at the size it picks, then at every size its
    // subgroup size control can require, when it offers more than one.
    o.runs.front().subgroup_size = 0;
    const uint32_t low = device.min_subgroup_size, high = device.max_subgroup_size;
    if (o.runs.size() == 1 && options.subgroup_sizes.size() > 1 && low && low < high) {
      for (uint32_t size = low; size <= high; size *= 2) {
        o.runs.push_back(run_once(o.instrumented.spirv, &o.instrumented, with_log, entry_point, options, size, true));
      }
    }
    return;
  }
  for (uint32_t size : options.subgroup_sizes) {
    if (ran(size)) continue;
    o.runs.push_back(run_once(o.instrumented.spirv, &o.instrumented, with_log, entry_point, options, size, false));
  }
}

std::optional<OutputDifference> compare(const Harness& harness, const Observation& a, const Observation& b,
                                        const std::vector<Words>& words, double least, double floor) {
  for (size_t k = 0; k < a.buffers.size() && k < b.buffers.size(); ++k) {
    const std::vector<uint8_t>& x = a.buffers[k].data;
    const std::vector<uint8_t>& y = b.buffers[k].data;
    const std::vector<uint8_t>& initial = harness.buffers[k].data;
    const Words kind = k < words.size() ? words[k] : Words::Integers;
    const bool floats = kind != Words::Integers;
    const double tolerance = std::max(kind == Words::Halves ? kHalfTolerance : 1e-5, least);
    OutputDifference d;
    d.buffer = k;
    double max_diff = 0, sum_diff = 0, max_magnitude = 0;
    bool unwritten = false, non_finite = false;
    for (size_t w = 0; w * 4 + 4 <= std::min({x.size(), y.size(), initial.size()}); ++w) {
      uint32_t wx, wy, wi;
      std::memcpy(&wx, &x[w * 4], 4);
      std::memcpy(&wy, &y[w * 4], 4);
      std::memcpy(&wi, &initial[w * 4], 4);
      if (wx == wy) continue;
      double diff = 0;
      if (floats) {
        // One float, or the two halves of the word.
        const size_t parts = kind == Words::Halves ? 2 : 1;
        bool equal = true;
        uint32_t first_part = 0;
        for (size_t part = parts; part-- > 0;) {
          const double fx = parts == 1 ? as_float(wx) : from_half(static_cast<uint16_t>(wx >> (16 * part)));
          const double fy = parts == 1 ? as_float(wy) : from_half(static_cast<uint16_t>(wy >> (16 * part)));
          if (std::isfinite(fx) && std::isfinite(fy)) {
            const double apart = std::fabs(fx - fy);
            if (apart <= std::max(tolerance * std::max({std::fabs(fx), std::fabs(fy), 1e-30}), floor)) continue;
            equal = false;
            first_part = static_cast<uint32_t>(part);
            diff = std::max(diff, apart);
            max_magnitude = std::max({max_magnitude, std::fabs(fx), std::fabs(fy)});
          } else if (fx != fy && !(std::isnan(fx) && std::isnan(fy))) {
            equal = false;
            first_part = static_cast<uint32_t>(part);
            non_finite |= (wx != wi && !std::isfinite(fx)) || (wy != wi && !std::isfinite(fy));
          }
        }
        if (equal) continue;
        d.part = d.words == 0 ? first_part : d.part;
      }
      if (d.words++ == 0) {
        d.first_word = w;
        d.a = wx;
        d.b = wy;
      }
      unwritten |= wx == wi || wy == wi;
      max_diff = std::max(max_diff, diff);
      sum_diff += diff;
    }
    if (d.words == 0) continue;
    if (unwritten) {
      d.symptom = "never written in one of the runs";
    } else if (non_finite) {
      d.symptom = "NaN or Inf";
    } else if (floats && max_diff <= 1e-2 * std::max(max_magnitude, 1.0)) {
      d.symptom = fmt::format("close but wrong (max difference {:.2g}, mean {:.2g})", max_diff, sum_diff / d.words);
    } else if (floats) {
      d.symptom = fmt::format("completely wrong (max difference {:.2g}, mean {:.2g})", max_diff, sum_diff / d.words);
    } else {
      d.symptom = "completely wrong";
    }
    return d;
  }
  return std::nullopt;
}

Observation run_alongside(const std::vector<uint32_t>& spirv, const std::string& entry_point, const Harness& harness,
                          const ObserveOptions& options, const Observation& like) {
  const bool required = like.subgroup_size != 0 && !is_lavapipe(like.device);
  return run_once(spirv, nullptr, harness, entry_point, options, like.subgroup_size, required);
}

bool is_lavapipe(const std::string& device) { return device.find("llvmpipe") != std::string::npos; }

Words words_of(const reflect::Binding& binding) {
  if (holds_halves(binding)) return Words::Halves;
  if (!binding.block || binding.block->members.empty()) return Words::Integers;
  const std::string& type = binding.block->members.back().type;
  const bool floats = type.starts_with("float") || type.starts_with("vec") || type.starts_with("mat");
  return floats ? Words::Floats : Words::Integers;
}

std::string difference_text(const OutputDifference& d, Words words) {
  if (words == Words::Halves) {
    auto half = [&](uint32_t word) { return from_half(static_cast<uint16_t>(word >> (16 * d.part))); };
    return fmt::format("half {} is {:g} and {:g}", d.first_word * 2 + d.part, half(d.a), half(d.b));
  }
  return fmt::format("word {} is {} and {}", d.first_word, word_text(d.a, words), word_text(d.b, words));
}

std::string word_text(uint32_t word, Words words) {
  switch (words) {
    case Words::Floats:
      return fmt::format("{:g}", as_float(word));
    case Words::Halves:
      return fmt::format("{:g}, {:g}", from_half(static_cast<uint16_t>(word)),
                         from_half(static_cast<uint16_t>(word >> 16)));
    case Words::Integers:
      break;
  }
  return std::to_string(word);
}

}  // namespace klint::runner
