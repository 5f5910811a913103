#include "driver/fingerprint.h"

#include <fmt/core.h>

#include <cctype>
#include <map>
#include <string_view>
#include <tuple>

#include "rules/rule.h"

namespace klint {
namespace {

class Fnv1a {
 public:
  void add(std::string_view text) {
    for (unsigned char c : text) {
      hash_ = (hash_ ^ c) * 0x100000001b3ULL;
    }
    hash_ = (hash_ ^ 0xff) * 0x100000001b3ULL;  // separator: "ab"+"c" differs from "a"+"bc"
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

std::string collapse_whitespace(std::string_view line) {
  std::string out;
  bool space = false;
  for (char c : line) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> fingerprints(const std::vector<Finding>& diagnostics, SourceCache& sources) {
  std::vector<std::string> out;
  out.reserve(diagnostics.size());
  std::map<std::tuple<std::string, uint64_t>, int> seen;  // (file, hash) -> how many so far
  for (const Diagnostic& diagnostic : diagnostics) {
    const Location& location = diagnostic.location;
    Fnv1a hash;
    // The rule's first id: a renamed rule's findings keep their fingerprints.
    hash.add(diagnostic.rule ? RuleRegistry::first_id(*diagnostic.rule) : "");
    const SourceFile* source = location.has_line() ? sources.get(location.file) : nullptr;
    if (source && location.line <= source->line_count()) {
      hash.add(collapse_whitespace(source->line(location.line)));
    } else {
      hash.add(collapse_whitespace(location.excerpt));
    }
    hash.add(location.token);
    int occurrence = ++seen[{location.file, hash.value()}];
    out.push_back(fmt::format("{:016x}:{}", hash.value(), occurrence));
  }
  return out;
}

}  // namespace klint
