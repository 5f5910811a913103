#include "analyzer/source_names.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>

#include "analyzer/symbolic.h"

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

// The variable `for (uint j = ...` or `for (j = ...` names, first on the line.
// By hand, not std::regex: compiling that pattern took 7 % of klint's
// time on a ggml kernel. Words and spaces here cannot end early and still
// match, so reading each to its end finds what the pattern
// for\s*\(\s*(?:\w+\s+)?(\w+)\s*= would.
std::optional<std::string> for_counter(std::string_view line) {
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
  auto skip = [&](size_t at, auto&& in_class) {
    while (at < line.size() && in_class(line[at])) ++at;
    return at;
  };
  for (size_t start = line.find("for"); start != std::string_view::npos; start = line.find("for", start + 1)) {
    size_t at = skip(start + 3, is_space);
    if (at >= line.size() || line[at] != '(') continue;
    size_t first = skip(at + 1, is_space);
    size_t first_end = skip(first, is_word);
    if (first_end == first) continue;
    size_t after_spaces = skip(first_end, is_space);
    // `type name =`
    size_t second_end = skip(after_spaces, is_word);
    if (after_spaces > first_end && second_end > after_spaces) {
      size_t equals = skip(second_end, is_space);
      if (equals < line.size() && line[equals] == '=') {
        return std::string(line.substr(after_spaces, second_end - after_spaces));
      }
    }
    // `name =`
    if (after_spaces < line.size() && line[after_spaces] == '=') {
      return std::string(line.substr(first, first_end - first));
    }
  }
  return std::nullopt;
}

// Whether `phi` is the only induction variable of the loop whose header
// holds it.
bool sole_induction(const Module& module, const ir::Instruction& phi) {
  const ir::Block* header = module.block_of(phi);
  const ir::Function* function = header ? module.function_of(*header) : nullptr;
  const ir::Instruction* merge = header ? header->merge() : nullptr;
  if (!function || !merge || merge->opcode() != Op::OpLoopMerge) return false;
  const SymbolicValues& values = module.symbolic(*function);
  if (!values.induction(phi.result_id())) return false;
  for (const ir::Instruction& other : header->instructions) {
    if (other.opcode() == Op::OpPhi && &other != &phi && values.induction(other.result_id())) return false;
  }
  return true;
}

// "line 12", or "inc.glsl:12" for a line of another file than the module's.
std::string line_text(const Module& module, const Location& at) {
  return at.file == module.path() ? fmt::format("line {}", at.line) : fmt::format("{}:{}", at.file, at.line);
}

// The member of a block that `load` reads from (`n` of `uniform P { uint n; }`,
// `limits` of an element of `buffer B { uint limits[]; }`).
std::string loaded_member(const Module& module, const ir::Instruction& load) {
  const ir::Instruction* chain = module.def(load.word(2));
  if (!chain || chain->opcode() != Op::OpAccessChain || chain->operands().size() < 4) return {};
  const ir::Instruction* variable = module.def(chain->word(2));
  const ir::Instruction* pointer = variable ? module.def(variable->type_id()) : nullptr;
  std::optional<uint64_t> member = module.constant_value(chain->word(3));
  if (!pointer || !member) return {};
  return module.member_name(pointer->word(2), static_cast<uint32_t>(*member));
}

// What `load` reads, as the source writes it, where the access chain's
// indices are constants (`counts[1]`, `tile.sum`, `gl_LocalInvocationID.x`) or there are none
// (`count`); empty otherwise, or when a name is missing on the way.
std::string loaded_element(const Module& module, const ir::Instruction& load) {
  const ir::Instruction* pointer = module.def(load.word(2));
  std::vector<uint32_t> indices;
  if (pointer && (pointer->opcode() == Op::OpAccessChain || pointer->opcode() == Op::OpInBoundsAccessChain)) {
    for (size_t k = 3; k < pointer->operands().size(); ++k) indices.push_back(pointer->word(k));
    pointer = module.def(pointer->word(2));
  }
  if (!pointer || pointer->opcode() != Op::OpVariable) return {};
  std::string text = module.variable_name(pointer->result_id());
  if (text.starts_with('%')) return {};
  const ir::Instruction* type_pointer = module.def(pointer->type_id());
  const ir::Instruction* type = type_pointer ? module.def(type_pointer->word(2)) : nullptr;
  for (uint32_t index : indices) {
    std::optional<uint64_t> constant = module.constant_value(index);
    if (!type || !constant) return {};
    if (type->opcode() == Op::OpTypeVector && *constant < 4) {
      text += std::string(".") + "xyzw"[*constant];
      type = module.def(type->word(1));
    } else if (type->opcode() == Op::OpTypeArray || type->opcode() == Op::OpTypeRuntimeArray) {
      text += fmt::format("[{}]", *constant);
      type = module.def(type->word(1));
    } else if (type->opcode() == Op::OpTypeStruct && *constant + 1 < type->operands().size()) {
      const std::string member = module.member_name(type->result_id(), static_cast<uint32_t>(*constant));
      if (member.empty()) return {};
      text += "." + member;
      type = module.def(type->word(1 + static_cast<uint32_t>(*constant)));
    } else {
      return {};
    }
  }
  return text;
}

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

std::string loop_counter_name(const Module& module, const SourceText& source, uint32_t phi) {
  std::string name = module.name(phi);
  if (!name.starts_with('%')) return name;
  const ir::Instruction* def = module.def(phi);
  if (!def || def->opcode() != Op::OpPhi || !sole_induction(module, *def)) return {};
  const Location at = module.nearest_location(*module.block_of(*def)->merge());
  const std::vector<std::string>* lines = source.lines(at.file);
  if (!lines || !at.has_line() || at.line >= lines->size()) return {};
  return for_counter((*lines)[at.line]).value_or("");
}

std::string value_name(const Module& module, uint32_t id) {
  const std::string name = module.name(id);
  if (!name.starts_with('%')) return name;
  const ir::Instruction* def = module.def(id);
  if (!def) return name;
  if (def->opcode() == Op::OpLoad) {
    if (std::string member = loaded_member(module, *def); !member.empty()) return member;
    if (std::string element = loaded_element(module, *def); !element.empty()) return element;
  }
  const bool counter = def->opcode() == Op::OpPhi && sole_induction(module, *def);
  if (counter) {
    if (std::string named = loop_counter_name(module, source_text(module), id); !named.empty()) return named;
  }
  // Words, at the line the value comes from: a loop's values' is the loop's.
  const ir::Block* block = module.block_of(*def);
  const ir::Instruction* merge = block && def->opcode() == Op::OpPhi ? block->merge() : nullptr;
  const bool carried = merge && merge->opcode() == Op::OpLoopMerge;
  const Location line = module.nearest_location(carried ? *merge : *def);
  if (!line.has_line()) return name;
  if (counter) return "the loop counter at " + line_text(module, line);
  if (carried) return "a value the loop at " + line_text(module, line) + " carries";
  if (def->opcode() == Op::OpLoad) return "the value loaded at " + line_text(module, line);
  return "the value computed at " + line_text(module, line);
}

}  // namespace klint
