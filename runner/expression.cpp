#include "runner/expression.h"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "runner/spelling.h"

namespace klint::runner {

double to_double(const Number& number) {
  return std::holds_alternative<int64_t>(number) ? static_cast<double>(std::get<int64_t>(number))
                                                 : std::get<double>(number);
}

std::string to_string(const Number& number) {
  if (const int64_t* integer = std::get_if<int64_t>(&number)) return std::to_string(*integer);
  return fmt::format("{}", std::get<double>(number));
}

struct Expression::Node {
  enum class Kind { Literal, Variable, Negate, Add, Subtract, Multiply, Divide, Modulo, Min, Max, CeilDiv };
  Kind kind = Kind::Literal;
  Number value = int64_t{0};
  std::string variable;
  std::shared_ptr<const Node> left;
  std::shared_ptr<const Node> right;
};

namespace {

using Node = Expression::Node;
using NodePtr = std::shared_ptr<const Node>;

bool is_letter(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Recursive descent over the grammar in expression.h; positions are 0-based
// offsets, reported 1-based.
class Parser {
 public:
  Parser(std::string_view text, const std::vector<std::string>& variables) : text_(text), variables_(variables) {}

  NodePtr parse(ExpressionError* error) {
    NodePtr root = expression();
    if (root && !at_end()) root = fail(fmt::format("unexpected '{}'", text_[pos_]));
    if (!root) *error = error_;
    return root;
  }

 private:
  NodePtr expression() {
    NodePtr left = term();
    while (left && (peek('+') || peek('-'))) {
      Node::Kind kind = text_[pos_++] == '+' ? Node::Kind::Add : Node::Kind::Subtract;
      NodePtr right = term();
      if (!right) return nullptr;
      left = binary(kind, left, right);
    }
    return left;
  }

  NodePtr term() {
    NodePtr left = unary();
    while (left && (peek('*') || peek('/') || peek('%'))) {
      char op = text_[pos_++];
      Node::Kind kind = op == '*' ? Node::Kind::Multiply : op == '/' ? Node::Kind::Divide : Node::Kind::Modulo;
      NodePtr right = unary();
      if (!right) return nullptr;
      left = binary(kind, left, right);
    }
    return left;
  }

  NodePtr unary() {
    if (!peek('-')) return primary();
    ++pos_;
    NodePtr operand = unary();
    if (!operand) return nullptr;
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::Negate;
    node->left = operand;
    return node;
  }

  NodePtr primary() {
    if (at_end()) return fail("expected a number, a variable or '('");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr inner = expression();
      if (!inner) return nullptr;
      if (!peek(')')) return fail("expected ')'");
      ++pos_;
      return inner;
    }
    if (is_digit(c) || c == '.') return number();
    if (is_letter(c)) return name();
    return fail(fmt::format("unexpected '{}'", c));
  }

  NodePtr number() {
    const size_t start = pos_;
    auto node = std::make_shared<Node>();
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X") {
      pos_ += 2;
      uint64_t value = 0;
      auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value, 16);
      if (ec != std::errc() || value > uint64_t(std::numeric_limits<int64_t>::max())) {
        return fail_at(start, "bad hexadecimal number");
      }
      pos_ = end - text_.data();
      node->value = static_cast<int64_t>(value);
    } else {
      bool real = false;
      while (pos_ < text_.size() && (is_digit(text_[pos_]) || text_[pos_] == '.')) real |= text_[pos_++] == '.';
      if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
        real = true;
        ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
      }
      const std::string literal(text_.substr(start, pos_ - start));
      char* end = nullptr;
      errno = 0;
      if (real) {
        node->value = std::strtod(literal.c_str(), &end);
      } else {
        node->value = static_cast<int64_t>(std::strtoll(literal.c_str(), &end, 10));
      }
      if (end != literal.c_str() + literal.size()) return fail_at(start, fmt::format("bad number '{}'", literal));
      if (errno == ERANGE) return fail_at(start, fmt::format("'{}' is out of range", literal));
    }
    if (pos_ < text_.size() && (is_letter(text_[pos_]) || is_digit(text_[pos_]))) {
      return fail_at(start, "bad number");
    }
    return node;
  }

  NodePtr name() {
    const size_t start = pos_;
    while (pos_ < text_.size() && (is_letter(text_[pos_]) || is_digit(text_[pos_]))) ++pos_;
    const std::string identifier(text_.substr(start, pos_ - start));
    if (peek('(')) return call(identifier, start);
    if (std::find(variables_.begin(), variables_.end(), identifier) == variables_.end()) {
      std::vector<std::string_view> known(variables_.begin(), variables_.end());
      return fail_at(start, fmt::format("unknown variable '{}'{}", identifier,
                                        known.empty() ? " (no variables are declared)" : did_you_mean(identifier, known)));
    }
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::Variable;
    node->variable = identifier;
    return node;
  }

  NodePtr call(const std::string& function, size_t start) {
    auto node = std::make_shared<Node>();
    if (function == "min") {
      node->kind = Node::Kind::Min;
    } else if (function == "max") {
      node->kind = Node::Kind::Max;
    } else if (function == "ceildiv") {
      node->kind = Node::Kind::CeilDiv;
    } else {
      return fail_at(start, fmt::format("unknown function '{}' (functions: min, max, ceildiv)", function));
    }
    ++pos_;  // '('
    node->left = expression();
    if (!node->left) return nullptr;
    if (!peek(',')) return fail(fmt::format("expected ',': {} takes two arguments", function));
    ++pos_;
    node->right = expression();
    if (!node->right) return nullptr;
    if (!peek(')')) return fail(fmt::format("expected ')': {} takes two arguments", function));
    ++pos_;
    return node;
  }

  static NodePtr binary(Node::Kind kind, NodePtr left, NodePtr right) {
    auto node = std::make_shared<Node>();
    node->kind = kind;
    node->left = std::move(left);
    node->right = std::move(right);
    return node;
  }

  // Skips blanks, then whether the next character is `c`.
  bool peek(char c) {
    skip_blanks();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool at_end() {
    skip_blanks();
    return pos_ == text_.size();
  }
  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  NodePtr fail(std::string message) { return fail_at(pos_, std::move(message)); }
  NodePtr fail_at(size_t at, std::string message) {
    if (error_.message.empty()) error_ = {at + 1, std::move(message)};
    return nullptr;
  }

  std::string_view text_;
  const std::vector<std::string>& variables_;
  size_t pos_ = 0;
  ExpressionError error_;
};

struct Evaluator {
  const Shape& shape;
  const std::string& text;
  std::string* error;

  std::optional<Number> fail(std::string_view what) {
    *error = fmt::format("{} in '{}'", what, text);
    return std::nullopt;
  }

  std::optional<Number> operator()(const Node& node) {
    switch (node.kind) {
      case Node::Kind::Literal:
        return node.value;
      case Node::Kind::Variable: {
        auto it = std::find_if(shape.begin(), shape.end(), [&](const auto& v) { return v.first == node.variable; });
        if (it == shape.end()) return fail(fmt::format("no value for '{}'", node.variable));
        return it->second;
      }
      case Node::Kind::Negate: {
        std::optional<Number> operand = (*this)(*node.left);
        if (!operand) return std::nullopt;
        if (const int64_t* i = std::get_if<int64_t>(&*operand)) {
          if (*i == std::numeric_limits<int64_t>::min()) return fail("integer overflow");
          return Number{-*i};
        }
        return Number{-std::get<double>(*operand)};
      }
      default:
        break;
    }
    std::optional<Number> left = (*this)(*node.left);
    if (!left) return std::nullopt;
    std::optional<Number> right = (*this)(*node.right);
    if (!right) return std::nullopt;
    if (std::holds_alternative<int64_t>(*left) && std::holds_alternative<int64_t>(*right)) {
      return integers(node.kind, std::get<int64_t>(*left), std::get<int64_t>(*right));
    }
    return reals(node.kind, to_double(*left), to_double(*right));
  }

  std::optional<Number> integers(Node::Kind kind, int64_t a, int64_t b) {
    int64_t result = 0;
    bool overflow = false;
    switch (kind) {
      case Node::Kind::Add: overflow = __builtin_add_overflow(a, b, &result); break;
      case Node::Kind::Subtract: overflow = __builtin_sub_overflow(a, b, &result); break;
      case Node::Kind::Multiply: overflow = __builtin_mul_overflow(a, b, &result); break;
      case Node::Kind::Min: result = std::min(a, b); break;
      case Node::Kind::Max: result = std::max(a, b); break;
      case Node::Kind::Divide:
      case Node::Kind::Modulo:
      case Node::Kind::CeilDiv:
        if (b == 0) return fail("division by zero");
        if (a == std::numeric_limits<int64_t>::min() && b == -1) return fail("integer overflow");
        if (kind == Node::Kind::Modulo) {
          result = a % b;
        } else {
          result = a / b;
          // C rounds towards zero; a positive quotient with a remainder rounds up.
          if (kind == Node::Kind::CeilDiv && a % b != 0 && (a < 0) == (b < 0)) ++result;
        }
        break;
      default: break;
    }
    if (overflow) return fail("integer overflow");
    return Number{result};
  }

  std::optional<Number> reals(Node::Kind kind, double a, double b) {
    switch (kind) {
      case Node::Kind::Add: return Number{a + b};
      case Node::Kind::Subtract: return Number{a - b};
      case Node::Kind::Multiply: return Number{a * b};
      case Node::Kind::Min: return Number{std::min(a, b)};
      case Node::Kind::Max: return Number{std::max(a, b)};
      default: break;
    }
    if (b == 0) return fail("division by zero");
    if (kind == Node::Kind::Modulo) return Number{std::fmod(a, b)};
    if (kind == Node::Kind::CeilDiv) return Number{std::ceil(a / b)};
    return Number{a / b};
  }
};

}  // namespace

std::optional<Expression> Expression::parse(std::string_view text, const std::vector<std::string>& variables,
                                            ExpressionError* error) {
  Parser parser(text, variables);
  NodePtr root = parser.parse(error);
  if (!root) return std::nullopt;
  return Expression(root, std::string(text));
}

Expression Expression::constant(Number value) {
  auto node = std::make_shared<Node>();
  node->value = value;
  return Expression(node, to_string(value));
}

std::optional<Number> Expression::evaluate(const Shape& shape, std::string* error) const {
  return Evaluator{shape, text_, error}(*root_);
}

}  // namespace klint::runner
