// Shape expressions: precedence, integer and float arithmetic, functions, and
// errors with their columns.
#include "runner/expression.h"

#include <gtest/gtest.h>

namespace klint::runner {
namespace {

const std::vector<std::string> kVariables{"rows", "cols", "eps"};
const Shape kShape{{"rows", int64_t{4}}, {"cols", int64_t{256}}, {"eps", 0.5}};

Number eval(std::string_view text, const Shape& shape = kShape) {
  ExpressionError parse_error;
  std::optional<Expression> expression = Expression::parse(text, kVariables, &parse_error);
  if (!expression) {
    ADD_FAILURE() << text << ": column " << parse_error.column << ": " << parse_error.message;
    return int64_t{-999999};
  }
  std::string error;
  std::optional<Number> value = expression->evaluate(shape, &error);
  if (!value) {
    ADD_FAILURE() << text << ": " << error;
    return int64_t{-999999};
  }
  return *value;
}

ExpressionError parse_error(std::string_view text) {
  ExpressionError error;
  EXPECT_FALSE(Expression::parse(text, kVariables, &error)) << text;
  return error;
}

std::string evaluation_error(std::string_view text, const Shape& shape = kShape) {
  ExpressionError parse_error;
  std::optional<Expression> expression = Expression::parse(text, kVariables, &parse_error);
  if (!expression) return "parse error: " + parse_error.message;
  std::string error;
  EXPECT_FALSE(expression->evaluate(shape, &error)) << text;
  return error;
}

TEST(Expression, PrecedenceAndAssociativity) {
  EXPECT_EQ(eval("1 + 2 * 3"), Number{int64_t{7}});
  EXPECT_EQ(eval("(1 + 2) * 3"), Number{int64_t{9}});
  EXPECT_EQ(eval("10 - 4 - 3"), Number{int64_t{3}});      // left to right
  EXPECT_EQ(eval("64 / 4 / 2"), Number{int64_t{8}});
  EXPECT_EQ(eval("7 % 4 * 2"), Number{int64_t{6}});
  EXPECT_EQ(eval("-2 * -3"), Number{int64_t{6}});
  EXPECT_EQ(eval("- -5"), Number{int64_t{5}});
  EXPECT_EQ(eval("2 - -rows"), Number{int64_t{6}});
  EXPECT_EQ(eval("rows*cols+1"), Number{int64_t{1025}});
  EXPECT_EQ(eval("  rows\t* ( cols - 1 )  "), Number{int64_t{1020}});
  EXPECT_EQ(eval("0x10 + 0XfF"), Number{int64_t{271}});
}

TEST(Expression, IntegersStayIntegersUntilAFloatJoins) {
  EXPECT_EQ(eval("7 / 2"), Number{int64_t{3}});
  EXPECT_EQ(eval("-7 / 2"), Number{int64_t{-3}});  // towards zero, as C
  EXPECT_EQ(eval("-7 % 2"), Number{int64_t{-1}});
  EXPECT_EQ(eval("7.0 / 2"), Number{3.5});
  EXPECT_EQ(eval("7 / 2."), Number{3.5});
  EXPECT_EQ(eval("7.5 % 2"), Number{1.5});
  EXPECT_EQ(eval("1e-5"), Number{1e-5});
  EXPECT_EQ(eval("2.5E2"), Number{250.0});
  EXPECT_EQ(eval(".5 + eps"), Number{1.0});
  EXPECT_EQ(eval("cols * eps"), Number{128.0});
  EXPECT_EQ(eval("1.0 / cols"), Number{1.0 / 256});
  EXPECT_EQ(eval("3 * 1"), Number{int64_t{3}});
}

TEST(Expression, Functions) {
  EXPECT_EQ(eval("min(rows, cols)"), Number{int64_t{4}});
  EXPECT_EQ(eval("max(rows, cols)"), Number{int64_t{256}});
  EXPECT_EQ(eval("max(rows, eps)"), Number{4.0});  // a float joins: the result is one
  EXPECT_EQ(eval("ceildiv(cols, 64)"), Number{int64_t{4}});
  EXPECT_EQ(eval("ceildiv(cols + 1, 64)"), Number{int64_t{5}});
  EXPECT_EQ(eval("ceildiv(0, 64)"), Number{int64_t{0}});
  EXPECT_EQ(eval("ceildiv(-7, 2)"), Number{int64_t{-3}});  // rounds up, not away from zero
  EXPECT_EQ(eval("ceildiv(-7, -2)"), Number{int64_t{4}});
  EXPECT_EQ(eval("ceildiv(5, 2.0)"), Number{3.0});
  EXPECT_EQ(eval("min(max(1, 2), ceildiv(rows * cols, 256)) * 3"), Number{int64_t{6}});
}

TEST(Expression, ConstantsAndText) {
  EXPECT_EQ(Expression::constant(int64_t{12}).text(), "12");
  EXPECT_EQ(Expression::constant(1e-05).text(), "1e-05");
  std::string error;
  EXPECT_EQ(Expression::constant(0.25).evaluate({}, &error), Number{0.25});
  ExpressionError parse;
  EXPECT_EQ(Expression::parse("rows * 2", kVariables, &parse)->text(), "rows * 2");
  EXPECT_EQ(to_string(Number{int64_t{-3}}), "-3");
  EXPECT_EQ(to_string(Number{16.0}), "16");
  EXPECT_EQ(to_string(Number{0.5}), "0.5");
}

TEST(Expression, ParseErrorsSayWhere) {
  struct Case {
    std::string text;
    size_t column;
    std::string message;
  };
  const std::vector<Case> cases{
      {"rows * colz", 8, "unknown variable 'colz' (did you mean 'cols'?)"},
      {"n + 1", 1, "unknown variable 'n'"},
      {"rows +", 7, "expected a number, a variable or '('"},
      {"", 1, "expected a number, a variable or '('"},
      {"(rows + 1", 10, "expected ')'"},
      {"rows cols", 6, "unexpected 'c'"},
      {"rows + 1)", 9, "unexpected ')'"},
      {"2 ^ 3", 3, "unexpected '^'"},
      {"floor(eps)", 1, "unknown function 'floor' (functions: min, max, ceildiv)"},
      {"min(rows)", 9, "expected ',': min takes two arguments"},
      {"max(1, 2, 3)", 9, "expected ')': max takes two arguments"},
      {"1.2.3", 1, "bad number '1.2.3'"},
      {"12abc", 1, "bad number"},
      {"1e", 1, "bad number '1e'"},
      {"99999999999999999999", 1, "'99999999999999999999' is out of range"},
      {"0x", 1, "bad hexadecimal number"},
  };
  for (const Case& c : cases) {
    ExpressionError error = parse_error(c.text);
    EXPECT_EQ(error.column, c.column) << c.text;
    EXPECT_EQ(error.message, c.message) << c.text;
  }
  ExpressionError none;
  EXPECT_FALSE(Expression::parse("x", {}, &none));
  EXPECT_EQ(none.message, "unknown variable 'x' (no variables are declared)");
}

TEST(Expression, EvaluationErrorsNameTheExpression) {
  EXPECT_EQ(evaluation_error("cols / (rows - 4)"), "division by zero in 'cols / (rows - 4)'");
  EXPECT_EQ(evaluation_error("cols % 0"), "division by zero in 'cols % 0'");
  EXPECT_EQ(evaluation_error("ceildiv(cols, rows - rows)"), "division by zero in 'ceildiv(cols, rows - rows)'");
  EXPECT_EQ(evaluation_error("eps / 0.0"), "division by zero in 'eps / 0.0'");
  EXPECT_EQ(evaluation_error("0x7fffffffffffffff * 2"), "integer overflow in '0x7fffffffffffffff * 2'");
  EXPECT_EQ(evaluation_error("0x7fffffffffffffff + 1"), "integer overflow in '0x7fffffffffffffff + 1'");
  EXPECT_EQ(evaluation_error("rows + 1", Shape{{"cols", int64_t{1}}}), "no value for 'rows' in 'rows + 1'");
}

}  // namespace
}  // namespace klint::runner
