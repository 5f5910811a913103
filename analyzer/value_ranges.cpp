#include "analyzer/value_ranges.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace klint {

using spv::Op;
using Range = ValueRange;
using Domain = NumberDomain;

std::optional<Test> test_of(spv::Op op) {
  switch (op) {
    case Op::OpIEqual: return Test{Relation::Equal, std::nullopt};
    case Op::OpINotEqual: return Test{Relation::NotEqual, std::nullopt};
    case Op::OpULessThan: return Test{Relation::Less, NumberDomain::Unsigned};
    case Op::OpULessThanEqual: return Test{Relation::LessEqual, NumberDomain::Unsigned};
    case Op::OpUGreaterThan: return Test{Relation::Greater, NumberDomain::Unsigned};
    case Op::OpUGreaterThanEqual: return Test{Relation::GreaterEqual, NumberDomain::Unsigned};
    case Op::OpSLessThan: return Test{Relation::Less, NumberDomain::Signed};
    case Op::OpSLessThanEqual: return Test{Relation::LessEqual, NumberDomain::Signed};
    case Op::OpSGreaterThan: return Test{Relation::Greater, NumberDomain::Signed};
    case Op::OpSGreaterThanEqual: return Test{Relation::GreaterEqual, NumberDomain::Signed};
    case Op::OpFOrdEqual: return Test{Relation::Equal, NumberDomain::Float};
    case Op::OpFOrdNotEqual: return Test{Relation::NotEqual, NumberDomain::Float};
    case Op::OpFOrdLessThan: return Test{Relation::Less, NumberDomain::Float};
    case Op::OpFOrdLessThanEqual: return Test{Relation::LessEqual, NumberDomain::Float};
    case Op::OpFOrdGreaterThan: return Test{Relation::Greater, NumberDomain::Float};
    case Op::OpFOrdGreaterThanEqual: return Test{Relation::GreaterEqual, NumberDomain::Float};
    case Op::OpFUnordEqual: return Test{Relation::Equal, NumberDomain::Float, true};
    case Op::OpFUnordNotEqual: return Test{Relation::NotEqual, NumberDomain::Float, true};
    case Op::OpFUnordLessThan: return Test{Relation::Less, NumberDomain::Float, true};
    case Op::OpFUnordLessThanEqual: return Test{Relation::LessEqual, NumberDomain::Float, true};
    case Op::OpFUnordGreaterThan: return Test{Relation::Greater, NumberDomain::Float, true};
    case Op::OpFUnordGreaterThanEqual: return Test{Relation::GreaterEqual, NumberDomain::Float, true};
    default: return std::nullopt;
  }
}



Range hull(const Range& a, const Range& b) {
  if (!a.numbers || !b.numbers) {
    Range out = a.numbers ? a : b;
    out.nan = a.nan || b.nan;
    return out;
  }
  Range out;
  out.low = std::min(a.low, b.low);
  out.low_open = a.low < b.low ? a.low_open : b.low < a.low ? b.low_open : a.low_open && b.low_open;
  out.high = std::max(a.high, b.high);
  out.high_open = a.high > b.high ? a.high_open : b.high > a.high ? b.high_open : a.high_open && b.high_open;
  out.nan = a.nan || b.nan;
  return out;
}

bool is_integer_comparison(spv::Op op) {
  std::optional<Test> test = test_of(op);
  return test && test->domain != NumberDomain::Float;
}

namespace {

// max(a, b) over the numbers of both.
Range numeric_max(const Range& a, const Range& b) {
  Range out;
  out.low = std::max(a.low, b.low);
  out.low_open = a.low > b.low ? a.low_open : b.low > a.low ? b.low_open : a.low_open && b.low_open;
  out.high = std::max(a.high, b.high);
  out.high_open = a.high > b.high ? a.high_open : b.high > a.high ? b.high_open : a.high_open && b.high_open;
  return out;
}

Range maximum(const Range& a, const Range& b, bool nan_ignored) {
  std::optional<Range> numbers;
  auto add = [&](const Range& part) { numbers = numbers ? hull(*numbers, part) : part; };
  if (a.numbers && b.numbers) add(numeric_max(a, b));
  if (nan_ignored) {
    // max(NaN, y) is y.
    if (a.nan && b.numbers) add(Range{true, b.low, b.high, b.low_open, b.high_open, false});
    if (b.nan && a.numbers) add(Range{true, a.low, a.high, a.low_open, a.high_open, false});
  }
  Range out = numbers.value_or(Range{false});
  out.nan = nan_ignored ? a.nan && b.nan : a.nan || b.nan;
  return out;
}

}  // namespace

Range extremum(const Range& a, const Range& b, bool max, bool nan_ignored) {
  if (max) return maximum(a, b, nan_ignored);
  return maximum(a.negated(), b.negated(), nan_ignored).negated();
}

namespace {

// `value relation bound` for every number of the range: true, false, or
// nullopt when it holds for some and not for others.
std::optional<bool> compare_numbers(const Range& range, Relation relation, double bound) {
  switch (relation) {
    case Relation::Less:
      if (range.high < bound || (range.high == bound && range.high_open)) return true;
      if (range.low >= bound) return false;
      return std::nullopt;
    case Relation::LessEqual:
      if (range.high <= bound) return true;
      if (range.low > bound || (range.low == bound && range.low_open)) return false;
      return std::nullopt;
    case Relation::Greater:
      return compare_numbers(range.negated(), Relation::Less, -bound);
    case Relation::GreaterEqual:
      return compare_numbers(range.negated(), Relation::LessEqual, -bound);
    case Relation::Equal:
      if (range.low == bound && range.high == bound && !range.low_open && !range.high_open) return true;
      if (bound < range.low || bound > range.high || (bound == range.low && range.low_open) ||
          (bound == range.high && range.high_open)) {
        return false;
      }
      return std::nullopt;
    case Relation::NotEqual:
      if (auto equal = compare_numbers(range, Relation::Equal, bound)) return !*equal;
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<bool> compare(const Range& range, const Test& test, double bound) {
  std::optional<bool> result;
  if (range.numbers) {
    result = compare_numbers(range, test.relation, bound);
    if (!result) return std::nullopt;
  }
  if (range.nan) {
    if (result && *result != test.holds_for_nan) return std::nullopt;
    result = test.holds_for_nan;
  }
  return result;
}

// The values `x relation bound` leaves x, of all x of its domain.
Range satisfying(const Test& test, double bound, const Range& all) {
  Range out = all;
  out.nan = all.nan && test.holds_for_nan;
  switch (test.relation) {
    case Relation::Less: out.high = std::min(out.high, bound); out.high_open = true; break;
    case Relation::LessEqual: out.high = std::min(out.high, bound); break;
    case Relation::Greater: out.low = std::max(out.low, bound); out.low_open = true; break;
    case Relation::GreaterEqual: out.low = std::max(out.low, bound); break;
    case Relation::Equal: out.low = out.high = bound; out.low_open = out.high_open = false; break;
    case Relation::NotEqual: break;
  }
  out.numbers = out.low < out.high || (out.low == out.high && !out.low_open && !out.high_open);
  return out;
}

// Every value of the domain.
Range everything(Domain domain, uint32_t width) {
  Range all;
  if (domain == Domain::Float) {
    all.nan = true;
  } else if (domain == Domain::Unsigned) {
    all.low = 0;
    all.high = std::ldexp(1.0, static_cast<int>(width)) - 1;
  } else {
    all.low = -std::ldexp(1.0, static_cast<int>(width) - 1);
    all.high = std::ldexp(1.0, static_cast<int>(width) - 1) - 1;
  }
  return all;
}


}  // namespace klint
