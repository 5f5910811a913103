#include "driver/output/markdown_terminal.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace klint {
namespace {

constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kUnderline = "\x1b[4m";
constexpr std::string_view kBoldUnderline = "\x1b[1;4m";
constexpr std::string_view kReset = "\x1b[0m";

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Characters as a terminal shows them: UTF-8 continuation bytes take no column.
size_t columns(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

class Inline {
 public:
  explicit Inline(bool styled) : styled_(styled) {}

  std::string render(std::string_view text) const {
    std::string out;
    for (size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (c == '\\' && i + 1 < text.size() && std::ispunct(static_cast<unsigned char>(text[i + 1]))) {
        out += text[i + 1];
        i += 2;
      } else if (c == '`') {
        // A code span is literal: no emphasis or links inside.
        size_t end = text.find('`', i + 1);
        if (end == std::string_view::npos) end = text.size();
        out += text.substr(i + 1, end - i - 1);
        i = end + 1;
      } else if (text.substr(i).starts_with("**") && closes(text, i + 2, "**")) {
        size_t end = text.find("**", i + 2);
        out += paint(kBold, render(text.substr(i + 2, end - i - 2)));
        i = end + 2;
      } else if ((c == '*' || (c == '_' && (i == 0 || !is_word(text[i - 1])))) && closes(text, i + 1, {&c, 1})) {
        size_t end = text.find(c, i + 1);
        out += paint(kUnderline, render(text.substr(i + 1, end - i - 1)));
        i = end + 1;
      } else if (c == '[' && link_end(text, i)) {
        const size_t middle = text.find("](", i);
        const size_t end = *link_end(text, i);
        out += render(text.substr(i + 1, middle - i - 1)) + " (" + std::string(text.substr(middle + 2, end - middle - 2)) +
               ")";
        i = end + 1;
      } else {
        out += c;
        ++i;
      }
    }
    return out;
  }

  std::string paint(std::string_view style, const std::string& text) const {
    return styled_ ? std::string(style) + text + std::string(kReset) : text;
  }

 private:
  // Whether `marker` closes a span opened just before `from`: text follows
  // the opening at once, and the closing ends a word (`_` not inside one).
  static bool closes(std::string_view text, size_t from, std::string_view marker) {
    if (from >= text.size() || std::isspace(static_cast<unsigned char>(text[from]))) return false;
    const size_t end = text.find(marker, from);
    if (end == std::string_view::npos || end == from) return false;
    if (std::isspace(static_cast<unsigned char>(text[end - 1]))) return false;
    const size_t after = end + marker.size();
    return marker != "_" || after >= text.size() || !is_word(text[after]);
  }

  // The `)` of a link `[text](target)` opening at `at`.
  static std::optional<size_t> link_end(std::string_view text, size_t at) {
    const size_t middle = text.find("](", at);
    if (middle == std::string_view::npos || text.substr(at, middle - at).find('\n') != std::string_view::npos) {
      return std::nullopt;
    }
    const size_t end = text.find(')', middle + 2);
    if (end == std::string_view::npos) return std::nullopt;
    return end;
  }

  bool styled_;
};

// `## Text`: one to six `#` and a space.
bool is_heading(std::string_view line) {
  const size_t level = line.find_first_not_of('#');
  return level >= 1 && level <= 6 && level < line.size() && line[level] == ' ';
}

// The cells of a table row `| a | b |`.
std::vector<std::string_view> cells(std::string_view row) {
  row = trim(row);
  if (row.starts_with('|')) row.remove_prefix(1);
  if (row.ends_with('|')) row.remove_suffix(1);
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= row.size(); ++i) {
    if (i < row.size() && row[i] == '\\') {
      ++i;
      continue;
    }
    if (i == row.size() || row[i] == '|') {
      out.push_back(trim(row.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

// `| --- | :---: |`
bool is_rule_row(const std::vector<std::string_view>& row) {
  return std::all_of(row.begin(), row.end(), [](std::string_view cell) {
    return !cell.empty() && cell.find_first_not_of(":-") == std::string_view::npos;
  });
}

class Renderer {
 public:
  explicit Renderer(bool styled) : inline_(styled) {}

  std::string render(std::string_view markdown) {
    std::vector<std::string_view> table;
    bool in_code = false;
    const std::string text = without_comments(markdown);
    for (std::string_view line : lines(text)) {
      if (!table.empty() && !(!in_code && trim(line).starts_with('|'))) flush_table(table);
      if (trim(line).starts_with("```")) {
        in_code = !in_code;
        continue;
      }
      if (in_code) {
        add(trim(line).empty() ? "" : "    " + std::string(line));
      } else if (trim(line).starts_with('|')) {
        table.push_back(line);
      } else if (trim(line).empty()) {
        blank();
      } else if (is_heading(line)) {
        const size_t level = line.find_first_not_of('#');
        blank();
        const std::string text = inline_.render(trim(line.substr(level)));
        add(inline_.paint(level == 1 ? kBoldUnderline : kBold, text));
      } else {
        add(inline_.render(line));
      }
    }
    flush_table(table);
    while (out_.ends_with("\n\n")) out_.pop_back();
    return out_;
  }

 private:
  // The text without <!-- ... -->; a line that held only a comment goes too.
  std::string without_comments(std::string_view markdown) {
    std::string out;
    for (std::string_view line : lines(markdown)) {
      std::string kept;
      bool had_comment = in_comment_;
      while (!line.empty()) {
        if (in_comment_) {
          const size_t end = line.find("-->");
          if (end == std::string_view::npos) break;
          in_comment_ = false;
          line.remove_prefix(end + 3);
          continue;
        }
        const size_t begin = line.find("<!--");
        kept += line.substr(0, begin);
        if (begin == std::string_view::npos) break;
        in_comment_ = had_comment = true;
        line.remove_prefix(begin + 4);
      }
      if (had_comment && trim(kept).empty()) continue;
      out += kept + "\n";
    }
    return out;
  }

  static std::vector<std::string_view> lines(std::string_view text) {
    std::vector<std::string_view> out;
    while (!text.empty()) {
      const size_t end = text.find('\n');
      out.push_back(text.substr(0, end));
      text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    }
    return out;
  }

  void add(const std::string& line) { out_ += line + "\n"; }

  void blank() {
    if (!out_.empty() && !out_.ends_with("\n\n")) out_ += "\n";
  }

  void flush_table(std::vector<std::string_view>& rows) {
    std::vector<std::vector<std::string>> plain, shown;
    for (std::string_view row : rows) {
      std::vector<std::string_view> row_cells = cells(row);
      if (is_rule_row(row_cells)) continue;
      std::vector<std::string>& p = plain.emplace_back();
      std::vector<std::string>& s = shown.emplace_back();
      for (std::string_view cell : row_cells) {
        p.push_back(Inline(false).render(cell));
        s.push_back(inline_.render(cell));
      }
    }
    rows.clear();
    std::vector<size_t> width;
    for (const auto& row : plain) {
      width.resize(std::max(width.size(), row.size()), 0);
      for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], columns(row[i]));
    }
    for (size_t r = 0; r < plain.size(); ++r) {
      std::string line;
      for (size_t i = 0; i < plain[r].size(); ++i) {
        line += shown[r][i];
        if (i + 1 < plain[r].size()) line += std::string(width[i] - columns(plain[r][i]) + 2, ' ');
      }
      add(line);
    }
  }

  Inline inline_;
  std::string out_;
  bool in_comment_ = false;
};

}  // namespace

std::string render_markdown(std::string_view markdown, bool styled) { return Renderer(styled).render(markdown); }

}  // namespace klint
