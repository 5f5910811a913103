#include "driver/baseline.h"

#include <fmt/core.h>

#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "driver/output/atomic_file.h"
#include "driver/fingerprint.h"
#include "driver/output/text.h"
#include "rules/rule.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
constexpr std::string_view kSchema = "klint-baseline-1";

// The path of `file` relative to `directory`, both taken from the current
// directory, with `/` separators: the same finding gets the same name whether
// klint runs at the root or below it.
std::string relative_to(const std::string& directory, const std::string& file) {
  fs::path from = fs::absolute(directory).lexically_normal();
  fs::path path = fs::absolute(file).lexically_normal();
  fs::path relative = path.lexically_relative(from);
  return (relative.empty() ? path : relative).generic_string();
}

// A name that is not UTF-8 cannot be a JSON string: "file" shows it escaped,
// and "file_bytes" keeps its bytes, in hex, for matching.
constexpr std::string_view kFileBytes = "file_bytes";

std::string to_hex(std::string_view bytes) {
  std::string out;
  for (unsigned char byte : bytes) out += fmt::format("{:02x}", byte);
  return out;
}

std::optional<std::string> from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(hex.data() + i, hex.data() + i + 2, value, 16);
    if (ec != std::errc() || end != hex.data() + i + 2) return std::nullopt;
    out += static_cast<char>(value);
  }
  return out;
}

std::string directory_of(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

}  // namespace

std::optional<Baseline> Baseline::load(const std::string& path, std::string* error) {
  ReadError read_error;
  std::optional<std::string> text = read_file(path, &read_error);
  if (!text) {
    *error = fmt::format("{}: {}", path, read_error.reason);
    return std::nullopt;
  }
  return parse(*text, path, error);
}

std::optional<Baseline> Baseline::parse(std::string_view text, const std::string& path, std::string* error) {
  Baseline baseline;
  baseline.directory_ = directory_of(path);
  try {
    nlohmann::json document = nlohmann::json::parse(text);
    if (!document.is_object() || document.value("schema", "") != kSchema) {
      *error = fmt::format("{}: not a klint baseline (no \"schema\": \"{}\")", path, kSchema);
      return std::nullopt;
    }
    for (const nlohmann::json& finding : document.at("findings")) {
      // A rule klint no longer has finds nothing for the entry to hold back.
      const RuleInfo* rule = RuleRegistry::find(finding.at("rule").get<std::string>());
      if (!rule) continue;
      std::string file = finding.at("file").get<std::string>();
      if (finding.contains(kFileBytes)) {
        std::optional<std::string> bytes = from_hex(finding.at(kFileBytes).get<std::string>());
        if (!bytes) {
          *error = fmt::format("{}: not a klint baseline: \"{}\" is not hexadecimal", path, kFileBytes);
          return std::nullopt;
        }
        file = std::move(*bytes);
      }
      baseline.known_.emplace(std::move(file), rule, finding.at("fingerprint").get<std::string>());
    }
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's messages start with "[json.exception.parse_error.101] ...".
    std::string reason = e.what();
    if (size_t bracket = reason.find("] "); reason.starts_with("[json.") && bracket != std::string::npos) {
      reason = reason.substr(bracket + 2);
    }
    *error = fmt::format("{}: not a klint baseline: {}", path, reason);
    return std::nullopt;
  }
  return baseline;
}

size_t Baseline::filter(std::vector<Finding>& diagnostics, SourceCache& sources) const {
  std::vector<std::string> prints = fingerprints(diagnostics, sources);
  size_t index = 0;
  size_t removed = std::erase_if(diagnostics, [&](const Finding& diagnostic) {
    const std::string& print = prints[index++];
    return known_.contains({relative_to(directory_, diagnostic.location.file), diagnostic.rule, print});
  });
  return removed;
}

BaselineWriter::BaselineWriter(std::string path) : path_(std::move(path)), directory_(directory_of(path_)) {}

void BaselineWriter::add(const std::vector<Finding>& diagnostics, SourceCache& sources) {
  std::vector<std::string> prints = fingerprints(diagnostics, sources);
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    const Finding& diagnostic = diagnostics[i];
    findings_.push_back(Entry{relative_to(directory_, diagnostic.location.file), std::string(diagnostic.rule->id),
                                prints[i], diagnostic.location.line, diagnostic.message});
  }
}

bool BaselineWriter::write(std::string* error) const {
  nlohmann::json findings = nlohmann::json::array();
  for (const Entry& finding : findings_) {
    // line and message are for the reader of the file; matching ignores them.
    nlohmann::json entry{{"file", sanitize(finding.file)},
                         {"rule", finding.rule},
                         {"fingerprint", finding.fingerprint},
                         {"line", finding.line},
                         {"message", finding.message}};
    if (entry["file"] != finding.file) entry[kFileBytes] = to_hex(finding.file);
    findings.push_back(std::move(entry));
  }
  nlohmann::json document{{"schema", kSchema}, {"version", KLINT_VERSION}, {"findings", findings}};
  std::string text = document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  return write_file_atomically(path_, text + "\n", error);
}

}  // namespace klint
