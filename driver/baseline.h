// Adopting klint on an existing codebase: `--write-baseline FILE` records
// today's findings, `--baseline FILE` reports only the others. A finding is
// matched by its file, its rule and the fingerprint of the code around it
// (driver/fingerprint.h), never by its line, so an edit elsewhere in the file
// does not resurface it, while a new instance of the rule does appear.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analyzer/source.h"
#include "driver/finding.h"

namespace klint {

class Baseline {
 public:
  // Reads a baseline written by write(); nullopt with *error when it cannot be
  // read or is not one.
  static std::optional<Baseline> load(const std::string& path, std::string* error);
  // The same for a text already read; `path` names it in errors and anchors
  // its relative file names.
  static std::optional<Baseline> parse(std::string_view text, const std::string& path, std::string* error);

  // Removes from `diagnostics` (the findings of one file, in output order)
  // those the baseline holds; returns how many it removed.
  size_t filter(std::vector<Finding>& diagnostics, SourceCache& sources) const;

 private:
  using Key = std::tuple<std::string, const RuleInfo*, std::string>;  // file, rule, fingerprint
  std::string directory_;  // file paths are relative to the baseline's directory
  std::set<Key> known_;
};

// Collects findings, one file's report at a time (fingerprints are counted
// per report, as Baseline::filter counts them), and writes them as a baseline.
class BaselineWriter {
 public:
  explicit BaselineWriter(std::string path);
  void add(const std::vector<Finding>& diagnostics, SourceCache& sources);
  size_t size() const { return findings_.size(); }
  // Writes atomically; false with *error when the file cannot be written.
  bool write(std::string* error) const;

 private:
  struct Entry {
    std::string file;
    std::string rule;
    std::string fingerprint;
    uint32_t line;
    std::string message;
  };
  std::string path_;
  std::string directory_;
  std::vector<Entry> findings_;
};

}  // namespace klint
