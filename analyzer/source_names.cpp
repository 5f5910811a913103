#include "analyzer/source_names.h"

#include <algorithm>
#include <cctype>

namespace klint {

using spv::Op;

SourceText source_text(const Module& module) {
  std::unordered_map<uint32_t, std::string> strings;
  std::vector<std::pair<std::string, std::string>> texts;  // path, text
  for (const ir::Instruction& global : module.ir().globals) {
    if (global.opcode() == Op::OpString) strings[global.result_id()] = global.string(1);
    if (global.opcode() == Op::OpSource && global.operands().size() > 3) {
      auto path = strings.find(global.word(2));
      texts.emplace_back(path != strings.end() ? path->second : module.path(), global.string(3));
    }
    if (global.opcode() == Op::OpSourceContinued && !texts.empty()) texts.back().second += global.string(0);
  }
  SourceText source;
  for (const auto& [path, text] : texts) {
    std::vector<std::string>& lines = source.files[path];
    lines.assign(1, "");
    for (size_t begin = 0; begin < text.size();) {
      size_t end = std::min(text.find('\n', begin), text.size());
      lines.push_back(text.substr(begin, end - begin));
      begin = end + 1;
    }
  }
  return source;
}

namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

bool declares(std::string_view line, std::string_view name) {
  line = line.substr(0, line.find("//"));
  for (size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at > 0 && is_identifier_char(line[at - 1])) || (end < line.size() && is_identifier_char(line[end]))) continue;
    size_t after = line.find_first_not_of(" \t", end);
    if (after == std::string_view::npos || std::string_view("[=;,").find(line[after]) == std::string_view::npos) continue;
    size_t before = line.find_last_not_of(" \t", at == 0 ? 0 : at - 1);
    if (at == 0 || before == std::string_view::npos) continue;
    // `float a, b[4]` and `uint[4] b`, but not the arguments of a call: `f(a, b[1])`.
    if (line[before] == ',' || line[before] == ']') {
      if (line.substr(0, at).find('(') == std::string_view::npos) return true;
      continue;
    }
    if (!is_identifier_char(line[before])) continue;
    size_t word = before;
    while (word > 0 && is_identifier_char(line[word - 1])) --word;
    std::string_view type = line.substr(word, before + 1 - word);
    if (type != "return" && type != "else" && type != "case") return true;
  }
  return false;
}

std::optional<Location> declaration_line(const SourceText& source, std::string_view name, const Location& use) {
  const std::vector<std::string>* lines = source.lines(use.file);
  if (name.empty() || name.front() == '%' || !use.has_line() || !lines) return std::nullopt;
  for (size_t line = std::min<size_t>(use.line, lines->size() - 1); line > 0; --line) {
    if (declares((*lines)[line], name)) return Location{use.file, static_cast<uint32_t>(line), 0, 0, {}, std::string(name)};
  }
  return std::nullopt;
}

std::string variable_name(const Module& module, const SourceText& source, uint32_t variable, bool indexed,
                          std::initializer_list<const ir::Instruction*> uses) {
  std::string name = module.name(variable);
  if (!name.starts_with('%')) return name;
  for (const ir::Instruction* use : uses) {
    if (!use) continue;
    Location at = module.location(*use);
    const std::vector<std::string>* lines = source.lines(at.file);
    if (!at.has_line() || !lines || at.line >= lines->size()) continue;
    std::string_view line = (*lines)[at.line];
    line = line.substr(0, line.find("//"));
    for (size_t begin = 0; begin < line.size();) {
      while (begin < line.size() && !is_identifier_char(line[begin])) ++begin;
      size_t end = begin;
      while (end < line.size() && is_identifier_char(line[end])) ++end;
      std::string_view word = line.substr(begin, end - begin);
      size_t after = line.find_first_not_of(" \t", end);
      bool subscripted = after != std::string_view::npos && line[after] == '[';
      if (!word.empty() && !std::isdigit(static_cast<unsigned char>(word.front())) && (subscripted || !indexed) &&
          declaration_line(source, word, at)) {
        return std::string(word);
      }
      begin = end;
    }
  }
  return {};
}

}  // namespace klint
