// Arithmetic on shape variables, as a kernel manifest writes sizes, grids and
// push constants: "rows * cols", "ceildiv(cols, 256)", "1.0 / cols".
//
//   expression := term (('+' | '-') term)*
//   term       := unary (('*' | '/' | '%') unary)*
//   unary      := '-' unary | primary
//   primary    := number | variable | function '(' expression ',' expression ')' | '(' expression ')'
//
// Numbers are integers (42, 0x2A) or floats (1.5, 1e-5, 2.); a value is an
// integer while every number and variable it comes from is one. `/` and `%`
// of two integers are C's: integer division rounding towards zero and its
// remainder; with a float on either side, real division and fmod. Functions:
// min(a, b), max(a, b) and ceildiv(a, b), the quotient rounded up (for
// integers, the number of groups of b that cover a; for floats, ceil(a / b)).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace klint::runner {

using Number = std::variant<int64_t, double>;

double to_double(const Number& number);
// "16", "-3", "1e-05", "0.5": integers as integers, floats as the shortest
// text that reads back the same.
std::string to_string(const Number& number);

// One value per shape variable, in the manifest's order of `variables`.
using Shape = std::vector<std::pair<std::string, Number>>;

struct ExpressionError {
  size_t column = 0;  // 1-based, inside the expression's text
  std::string message;
};

class Expression {
 public:
  // Parses `text`, whose variables must be among `variables`. On failure
  // `error` says where and why; the message names no file.
  static std::optional<Expression> parse(std::string_view text, const std::vector<std::string>& variables,
                                         ExpressionError* error);
  static Expression constant(Number value);

  // The value for `shape`, which must give every variable the expression
  // uses. Fails with a reason naming the expression: division by zero, an
  // integer result out of 64 bits.
  std::optional<Number> evaluate(const Shape& shape, std::string* error) const;

  // As written; for a constant, its value.
  const std::string& text() const { return text_; }

  struct Node;

 private:
  Expression(std::shared_ptr<const Node> root, std::string text) : root_(std::move(root)), text_(std::move(text)) {}

  std::shared_ptr<const Node> root_;  // immutable, so copies share it
  std::string text_;
};

}  // namespace klint::runner
