#include "driver/variants.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace klint {
namespace {

auto identity(const Diagnostic& d) {
  return std::tuple(d.rule, d.severity, d.location.file, d.location.line,
                    d.location.column, d.message);
}

template <typename T>
void append_unique(std::vector<T>& to, const T& value) {
  if (std::find(to.begin(), to.end(), value) == to.end()) to.push_back(value);
}

}  // namespace

FileReport merge_variants(std::vector<FileReport> reports, const std::vector<std::string>& names) {
  FileReport merged;
  if (reports.empty()) return merged;
  merged.path = reports.front().path;
  std::map<decltype(identity(Diagnostic{})), size_t> index;  // -> position in merged.diagnostics
  std::map<std::tuple<std::string, uint32_t, const RuleInfo*>, size_t> suppressed_index;
  for (size_t r = 0; r < reports.size(); ++r) {
    FileReport& report = reports[r];
    for (Finding& diagnostic : report.diagnostics) {
      auto [at, inserted] = index.emplace(identity(diagnostic), merged.diagnostics.size());
      if (inserted) merged.diagnostics.push_back(std::move(diagnostic));
      append_unique(merged.diagnostics[at->second].variants, names[r]);
    }
    for (SuppressedDiagnostic& suppressed : report.suppressed) {
      const Diagnostic& d = suppressed.diagnostic;
      auto key = std::tuple(d.location.file, d.location.line, d.rule);
      auto [at, inserted] = suppressed_index.emplace(key, merged.suppressed.size());
      if (inserted) merged.suppressed.push_back(std::move(suppressed));
      append_unique(merged.suppressed[at->second].diagnostic.variants, names[r]);
    }
    for (const InputMessage& message : report.messages) {
      bool known = std::any_of(merged.messages.begin(), merged.messages.end(), [&](const InputMessage& m) {
        return m.path == message.path && m.reason == message.reason;
      });
      if (!known) merged.messages.push_back(message);
    }
    for (const std::string& file : report.files) append_unique(merged.files, file);
    for (const Inclusion& inclusion : report.includes) append_unique(merged.includes, inclusion);
  }
  std::stable_sort(merged.diagnostics.begin(), merged.diagnostics.end(), diagnostic_less);
  return merged;
}

}  // namespace klint
