// A TOML table's entries in the order written: toml++ keeps them sorted by
// key, but the first error should be the first in the file, and defines keep
// their order.
#pragma once

#include <toml++/toml.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace klint {

inline std::vector<std::pair<const toml::key*, const toml::node*>> in_file_order(const toml::table& table) {
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (const auto& [key, value] : table) entries.emplace_back(&key, &value);
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const toml::source_position& x = a.first->source().begin;
    const toml::source_position& y = b.first->source().begin;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  return entries;
}

}  // namespace klint
