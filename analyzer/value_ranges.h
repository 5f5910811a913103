// Intervals of the values an expression may take, with NaN: what published
// votes (analyzer/published_votes.h) evaluate a comparison over, in each case
// of a split.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

namespace klint {

enum class NumberDomain { Float, Signed, Unsigned };

// The values one expression may take: an interval of numbers (none when
// `numbers` is false), and NaN.
struct ValueRange {
  bool numbers = true;
  double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
  bool low_open = false, high_open = false;
  bool nan = false;

  static ValueRange point(double value) {
    ValueRange range;
    range.low = range.high = value;
    return range;
  }
  ValueRange negated() const {
    ValueRange range = *this;
    range.low = -high;
    range.high = -low;
    std::swap(range.low_open, range.high_open);
    return range;
  }
};


// What a comparison tests, whatever the domain it reads its operands in.
enum class Relation { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };

struct Test {
  Relation relation;
  std::optional<NumberDomain> domain;  // nullopt for integer equality, which reads both signs alike
  bool holds_for_nan = false;    // an unordered float comparison
};

std::optional<Test> test_of(spv::Op op);
// OpIEqual through OpSGreaterThanEqual.
bool is_integer_comparison(spv::Op op);

// The values either range may take.
ValueRange hull(const ValueRange& a, const ValueRange& b);
// max (or min) of a value of each, where a NaN operand is ignored or returned.
ValueRange extremum(const ValueRange& a, const ValueRange& b, bool max, bool nan_ignored);
// `value test bound` for every value of the range: true, false, or nullopt
// when it holds for some and not for others.
std::optional<bool> compare(const ValueRange& range, const Test& test, double bound);
// The values `x test bound` leaves x, of all x of its domain.
ValueRange satisfying(const Test& test, double bound, const ValueRange& all);
// Every value of the domain, for integers of `width` bits.
ValueRange everything(NumberDomain domain, uint32_t width);

}  // namespace klint
