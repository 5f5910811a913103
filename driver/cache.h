// The result cache: a file's FileReport kept on disk under a key made of
// klint's identity, the settings, the path and the file's text, and reused
// while every file it included still has the content it had. A re-run on
// unchanged files then reads JSON instead of compiling and analysing.
//
// Layout: DIR/v1/<2 hex>/<62 hex>.json, one entry per key (the key is a
// SHA-256, see sha256.h). Entries are never evicted; `rm -rf DIR` empties the
// cache at any time, also while klint runs.
//
// A cache that cannot be read or written never fails a run: a corrupt entry
// is a miss (and is overwritten by the fresh result), a failed write turns
// storing off for the rest of the run. Each becomes one warning.
//
// Known gap: an #include resolves to the first directory that has the file.
// The entry checks the files that were included, but not that no file has
// since appeared earlier in the search (next to the includer, or in an
// earlier -I directory), which would shadow them.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/source.h"
#include "driver/lint.h"

namespace klint {

// Where the cache lives when the caller names no directory: $KLINT_CACHE_DIR,
// else $XDG_CACHE_HOME/klint, else $HOME/.cache/klint. Empty variables count
// as unset and a relative XDG_CACHE_HOME is ignored, as the XDG spec says.
// nullopt when none applies.
std::optional<std::string> default_cache_dir();

// klint's version and the size and modification time of the running
// executable, so that a rebuilt development binary never reuses results of
// the old one (its rules may have changed without the version changing).
const std::string& klint_identity();

// Every LintOptions field that can change a report, serialized. Each target's
// full content goes in, not its name: a target file may change between runs.
// Settings the driver adds outside LintOptions must be appended by the caller.
std::string settings_key(const LintOptions& options);

// Safe for concurrent use: load and store may run on many threads at once,
// also in several klint processes sharing one directory (writes are atomic
// renames, last one wins, all write the same result).
class ResultCache {
 public:
  // Touches nothing on disk until the first store. `identity` is for tests.
  explicit ResultCache(std::string dir, std::string identity = klint_identity());

  // The report stored for `path` with content `text` under `settings_key`,
  // when each file it included still has the content it had. On a hit the
  // files' texts are in `sources` (where output formats look for excerpts).
  std::optional<FileReport> load(const std::string& path, const std::string& text, const std::string& settings_key,
                                 SourceCache& sources);

  // Keeps `report`, the result of linting `path` whose content was `text`;
  // `sources` must hold (or be able to read) the included files as the lint
  // read them. Reports that a later run could find different are not stored
  // (see cacheable() in cache.cpp).
  void store(const std::string& path, const std::string& text, const std::string& settings_key,
             const FileReport& report, SourceCache& sources);

  // The warnings since the last call, for the caller to print as
  // `klint: warning: MESSAGE`. At most one per kind in the cache's lifetime.
  std::vector<std::string> take_warnings();

  const std::string& dir() const { return dir_; }

 private:
  std::string entry_path(const std::string& path, const std::string& text, const std::string& settings_key) const;
  void corrupt(const std::string& entry, const std::string& reason);
  void write_failed(const std::string& reason);

  std::string dir_;
  std::string identity_;
  std::atomic<bool> storing_{true};
  std::mutex mutex_;  // guards the members below
  bool warned_corrupt_ = false;
  bool warned_write_ = false;
  std::vector<std::string> warnings_;
};

}  // namespace klint
