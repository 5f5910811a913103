#include "driver/shell_words.h"

#include <fmt/core.h>

namespace klint {
namespace {

class Splitter {
 public:
  explicit Splitter(std::string_view text) : text_(text) {}

  std::optional<std::vector<ShellCommand>> split(ShellError* error) {
    while (i_ < text_.size()) {
      if (!step()) {
        *error = error_;
        return std::nullopt;
      }
    }
    end_command();
    return std::move(commands_);
  }

 private:
  bool step() {
    char c = text_[i_];
    switch (c) {
      case '\\': return escape();
      case '\'':
      case '"': return quoted(c);
      case ' ':
      case '\t':
      case '\r':
        end_word();
        ++i_;
        return true;
      case '\n':
        end_command();
        ++line_;
        ++i_;
        return true;
      case '$':
      case '`':
      case ';':
      case '&':
      case '|':
      case '<':
      case '>':
      case '(':
      case ')': return unsupported(c);
      case '#':
        if (in_word_) break;  // only a word's first character starts a comment
        while (i_ < text_.size() && text_[i_] != '\n') ++i_;
        return true;
    }
    take(c);
    ++i_;
    return true;
  }

  bool fail(uint32_t line, std::string reason) {
    error_ = ShellError{line, std::move(reason)};
    return false;
  }

  void take(char c) {
    if (!in_word_ && words_.empty()) command_line_ = line_;
    in_word_ = true;
    word_ += c;
  }

  void end_word() {
    if (in_word_) words_.push_back(std::move(word_));
    word_.clear();
    in_word_ = false;
  }

  void end_command() {
    end_word();
    if (!words_.empty()) commands_.push_back(ShellCommand{std::move(words_), command_line_});
    words_.clear();
  }

  // Outside quotes a backslash takes the next character literally, and a
  // backslash before a newline joins the lines.
  bool escape() {
    if (i_ + 1 == text_.size()) return fail(line_, "the text ends with a backslash");
    char next = text_[i_ + 1];
    i_ += 2;
    if (next == '\n') {
      ++line_;
    } else if (next == '\r' && i_ < text_.size() && text_[i_] == '\n') {
      ++line_;
      ++i_;
    } else {
      take(next);
    }
    return true;
  }

  bool quoted(char quote) {
    uint32_t opened = line_;
    if (!in_word_ && words_.empty()) command_line_ = line_;
    in_word_ = true;
    for (++i_; i_ < text_.size(); ++i_) {
      char c = text_[i_];
      if (c == quote) {
        ++i_;
        return true;
      }
      if (c == '\n') ++line_;
      if (quote == '"' && (c == '$' || c == '`')) return unsupported(c);
      if (quote == '"' && c == '\\' && i_ + 1 < text_.size() &&
          std::string_view("\"\\$`\n").find(text_[i_ + 1]) != std::string_view::npos) {
        c = text_[++i_];
        if (c == '\n') {
          ++line_;
          continue;
        }
      }
      word_ += c;
    }
    return fail(opened, fmt::format("unterminated {} quote", quote == '"' ? "double" : "single"));
  }

  bool unsupported(char c) {
    if (c == '$' || c == '`') {
      return fail(line_,
                  fmt::format("'{}': klint does not expand variables or commands; give the command as it runs", c));
    }
    return fail(line_, fmt::format("'{}': shell operators are not supported; give one command per line", c));
  }

  std::string_view text_;
  size_t i_ = 0;
  uint32_t line_ = 1;
  uint32_t command_line_ = 1;
  std::string word_;
  bool in_word_ = false;
  std::vector<std::string> words_;
  std::vector<ShellCommand> commands_;
  ShellError error_;
};

}  // namespace

std::optional<std::vector<ShellCommand>> split_shell_lines(std::string_view text, ShellError* error) {
  return Splitter(text).split(error);
}

}  // namespace klint
