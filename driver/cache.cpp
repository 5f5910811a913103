#include "driver/cache.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>

#include "driver/report_json.h"
#include "driver/sha256.h"
#include "validate/targets.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// In the key and in each entry; bumped (with the v1 directory) when the entry
// format changes, though klint_identity() already separates builds.
constexpr const char* kSchema = "klint-cache-2";

std::string lower_first(std::string reason) {
  if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
  return reason;
}

std::string errno_reason() { return lower_first(std::strerror(errno)); }

// Fields joined so that no two different lists give the same text.
class KeyWriter {
 public:
  KeyWriter& field(std::string_view text) {
    out_ += std::to_string(text.size());
    out_ += ':';
    out_ += text;
    return *this;
  }
  KeyWriter& fields(const std::vector<std::string>& texts) {
    field(std::to_string(texts.size()));
    for (const std::string& text : texts) field(text);
    return *this;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Whether everything that produced `report` is in its key or its entry's
// dependencies, so that a later run with the same key would lint it alike:
// - a compile error may be a missing #include that appears later, and the
//   missing file is in neither;
// - input messages mean the file was unreadable (nothing to key on) or not a
//   compute shader, which klint finds out without compiling it anyway;
// - an internal error may be transient (out of memory) or fixed by the next
//   build; retrying costs little as it is rare;
// - an empty file list means nothing was read.
bool cacheable(const FileReport& report) {
  auto unstable = [](const Diagnostic& d) { return d.rule == &kCompileError || d.rule == &kInternalError; };
  return report.messages.empty() && !report.files.empty() &&
         std::none_of(report.diagnostics.begin(), report.diagnostics.end(), unstable) &&
         std::none_of(report.suppressed.begin(), report.suppressed.end(),
                      [&](const SuppressedDiagnostic& s) { return unstable(s.diagnostic); });
}

// Writes `content` to `path` through a new file in the same directory and a
// rename, so that a reader (another thread or klint process) sees the old
// entry or the new one, never a part. Returns why it failed. No fsync: after
// a crash a torn entry reads as corrupt, which costs one warning and a re-lint.
std::optional<std::string> write_atomically(const fs::path& path, std::string_view content) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error) return lower_first(error.message());
  static std::atomic<uint64_t> counter{0};
  std::string temporary = fmt::format("{}.{}-{}.tmp", path.string(), ::getpid(), counter++);
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return errno_reason();
  std::optional<std::string> failure;
  for (size_t written = 0; written < content.size() && !failure;) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n > 0) {
      written += static_cast<size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      failure = errno_reason();
    }
  }
  if (::close(fd) != 0 && !failure) failure = errno_reason();
  if (!failure && ::rename(temporary.c_str(), path.c_str()) != 0) failure = errno_reason();
  if (failure) ::unlink(temporary.c_str());
  return failure;
}

const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

bool is_digest(const json& value) {
  if (!value.is_string()) return false;
  const std::string& text = value.get_ref<const std::string&>();
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

std::optional<std::string> default_cache_dir() {
  auto variable = [](const char* name) -> std::string {
    const char* value = std::getenv(name);
    return value ? value : "";
  };
  if (std::string dir = variable("KLINT_CACHE_DIR"); !dir.empty()) return dir;
  if (std::string xdg = variable("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/') {
    return (fs::path(xdg) / "klint").string();
  }
  if (std::string home = variable("HOME"); !home.empty()) return (fs::path(home) / ".cache" / "klint").string();
  return std::nullopt;
}

const std::string& klint_identity() {
  static const std::string identity = [] {
    struct stat st {};
    // Without /proc (not Linux) only the version tells builds apart.
    if (::stat("/proc/self/exe", &st) != 0) return std::string("klint " KLINT_VERSION);
    return fmt::format("klint {} {} {}.{:09}", KLINT_VERSION, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  }();
  return identity;
}

std::string settings_key(const LintOptions& options) {
  // These bindings stop compiling when a field is added to one of the structs:
  // then decide whether the new field can change a report, and key it if so.
  const auto& [compile, selection, rule_options, specialization, keep_shader] = options;
  static_cast<void>(keep_shader);  // what --confirm runs on; the report is the same
  const auto& [include_dirs, defines, target_env, force_compute, entry_point] = compile;
  const auto& [select, ignore] = selection;
  const auto& [targets, targets_declared, max_shared_memory] = rule_options;

  KeyWriter key;
  key.fields(include_dirs).field(std::to_string(defines.size()));
  for (const auto& [name, value] : defines) key.field(name).field(value);
  key.field(target_env ? std::string(to_string(*target_env)) : "").field(force_compute ? "1" : "0").field(entry_point);
  for (const std::vector<const RuleInfo*>* rules : {&select, &ignore}) {
    key.field(std::to_string(rules->size()));
    for (const RuleInfo* rule : *rules) key.field(rule->id);
  }
  key.field(std::to_string(targets.size()));
  for (const Target* target : targets) key.field(target_to_json(*target));
  key.field(targets_declared ? "declared" : "defaults");
  key.field(max_shared_memory ? std::to_string(*max_shared_memory) : "none");
  // Origins go in too: errors and notes name them.
  const auto& [constants, workgroup_size, subgroup_size_constant, subgroup_size] = specialization;
  key.field(std::to_string(constants.size()));
  for (const auto& [setting, origin] : constants) {
    key.field(setting.key).field(std::to_string(setting.value.index())).field(runner::to_string(setting.value));
    key.field(origin);
  }
  if (workgroup_size) {
    key.field(fmt::format("{},{},{}", workgroup_size->size[0], workgroup_size->size[1], workgroup_size->size[2]))
        .field(workgroup_size->origin);
  } else {
    key.field("no workgroup size");
  }
  if (subgroup_size_constant) {
    key.field(subgroup_size_constant->key).field(subgroup_size_constant->origin);
  } else {
    key.field("no subgroup-size constant");
  }
  key.field(std::to_string(subgroup_size));
  return key.take();
}

ResultCache::ResultCache(std::string dir, std::string identity)
    : dir_(std::move(dir)), identity_(std::move(identity)) {}

std::string ResultCache::entry_path(const std::string& path, const std::string& text,
                                    const std::string& settings_key) const {
  std::string fields = KeyWriter().field(kSchema).field(identity_).field(settings_key).field(path).take();
  // The text, last and length-prefixed like the fields, is hashed in place
  // rather than copied.
  std::string key = Sha256().update(fields).update(std::to_string(text.size()) + ':').update(text).hex();
  return (fs::path(dir_) / "v1" / key.substr(0, 2) / (key.substr(2) + ".json")).string();
}

std::optional<FileReport> ResultCache::load(const std::string& path, const std::string& text,
                                            const std::string& settings_key, SourceCache& sources) {
  std::string entry = entry_path(path, text, settings_key);
  std::error_code error;
  if (!fs::exists(entry, error)) return std::nullopt;
  ReadError read_error;
  std::optional<std::string> content = read_file(entry, &read_error);
  if (!content) {
    corrupt(entry, fmt::format("unreadable ({})", read_error.reason));
    return std::nullopt;
  }
  json document = json::parse(*content, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    corrupt(entry, "not valid JSON");
    return std::nullopt;
  }
  const json* schema = member(document, "schema");
  const json* dependencies = member(document, "dependencies");
  const json* stored = member(document, "report");
  if (!schema || *schema != kSchema || !dependencies || !dependencies->is_object() || !stored) {
    corrupt(entry, fmt::format("not a {} entry", kSchema));
    return std::nullopt;
  }
  std::string reason;
  std::optional<FileReport> report = report_from_json(*stored, &reason);
  if (!report) {
    corrupt(entry, reason);
    return std::nullopt;
  }
  if (report->path != path) {
    corrupt(entry, fmt::format("it holds the report of {}", report->path));
    return std::nullopt;
  }
  for (const std::string& file : report->files) {
    if (file == path) continue;  // its text is in the key
    const json* digest = member(*dependencies, file.c_str());
    if (!digest || !is_digest(*digest)) {
      corrupt(entry, fmt::format("no digest for {}", file));
      return std::nullopt;
    }
    const SourceFile* source = sources.get(file);
    if (!source || sha256_hex(source->text()) != digest->get_ref<const std::string&>()) return std::nullopt;
  }
  sources.add(path, text);
  return report;
}

void ResultCache::store(const std::string& path, const std::string& text, const std::string& settings_key,
                        const FileReport& report, SourceCache& sources) {
  if (!storing_ || report.path != path || !cacheable(report)) return;
  json dependencies = json::object();
  for (const std::string& file : report.files) {
    const SourceFile* source = sources.get(file);
    // The files as this run read them. A main file whose text is not the one
    // keyed changed while klint ran: its report may belong to either text.
    if (!source || (file == path && source->text() != text)) return;
    if (file != path) dependencies[file] = sha256_hex(source->text());
  }
  json document{{"schema", kSchema}, {"dependencies", std::move(dependencies)}, {"report", report_to_json(report)}};
  std::string content;
  try {
    content = document.dump();
  } catch (const json::type_error&) {
    return;  // JSON strings are UTF-8: a path or message with other bytes is not stored
  }
  if (std::optional<std::string> failure = write_atomically(entry_path(path, text, settings_key), content)) {
    write_failed(*failure);
  }
}

std::vector<std::string> ResultCache::take_warnings() {
  std::lock_guard lock(mutex_);
  return std::exchange(warnings_, {});
}

void ResultCache::corrupt(const std::string& entry, const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (std::exchange(warned_corrupt_, true)) return;
  warnings_.push_back(fmt::format("ignoring corrupt cache entry {}: {}", entry, reason));
}

void ResultCache::write_failed(const std::string& reason) {
  storing_ = false;
  std::lock_guard lock(mutex_);
  if (std::exchange(warned_write_, true)) return;
  warnings_.push_back(fmt::format("cannot write the result cache {}: {}; results of this run are not stored", dir_, reason));
}

}  // namespace klint
