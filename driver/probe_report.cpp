#include "driver/probe_report.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>


namespace klint {
namespace {

// Executions of a probe shown per invocation before the count takes over.
constexpr size_t kExecutionsShown = 8;

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool is_number(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

size_t count_lines(const std::string& text) {
  const auto newlines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

bool same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

std::string type_text(const runner::ProbeSite& site) {
  static constexpr const char* kScalar[] = {"none", "float", "int", "uint", "bool"};
  static constexpr const char* kVector[] = {"", "vec", "ivec", "uvec", "bvec"};
  const auto type = static_cast<size_t>(site.value);
  return site.components == 1 ? kScalar[type] : fmt::format("{}{}", kVector[type], site.components);
}

// A cell of the table: the invocation's executions of one probe, in order.
std::string cell_text(std::vector<std::pair<uint32_t, std::string>> executions) {
  if (executions.empty()) return "-";
  std::sort(executions.begin(), executions.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::string text;
  for (size_t k = 0; k < executions.size() && k < kExecutionsShown; ++k) {
    text += (k ? " " : "") + executions[k].second;
  }
  if (executions.size() > kExecutionsShown) text += fmt::format(" ... ({} in all)", executions.size());
  return text;
}

std::string triple(uint64_t linear, const std::array<uint32_t, 3>& size) {
  return fmt::format("{},{},{}", linear % size[0], linear / size[0] % size[1], linear / (uint64_t{size[0]} * size[1]));
}

}  // namespace

std::optional<runner::ProbeRequest> parse_probe(const std::string& spec, const std::string& path,
                                                const std::string& text, std::string* error) {
  auto fail = [&](const std::string& reason) -> std::optional<runner::ProbeRequest> {
    *error = fmt::format("--probe '{}': {}", spec, reason);
    return std::nullopt;
  };
  runner::ProbeRequest request;
  request.label = spec;
  std::string_view head = spec;
  size_t colon = head.rfind(':');
  if (colon == std::string_view::npos) return fail("not FILE:LINE[:NAME]");
  if (!is_number(head.substr(colon + 1))) {
    request.name = head.substr(colon + 1);
    head = head.substr(0, colon);
    colon = head.rfind(':');
    if (colon == std::string_view::npos) return fail("not FILE:LINE[:NAME]");
    if (!is_identifier(request.name)) return fail(fmt::format("'{}' is not a name", request.name));
  }
  const std::string_view line = head.substr(colon + 1);
  const std::string file(head.substr(0, colon));
  auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), request.line);
  if (!is_number(line) || ec != std::errc() || end != line.data() + line.size()) {
    return fail(fmt::format("'{}' is not a line number", line));
  }
  if (request.line == 0) return fail("lines are numbered from 1");
  if (file.empty()) return fail("not FILE:LINE[:NAME]");
  if (!same_file(file, path)) return fail(fmt::format("{} is not the file being run ({})", file, path));
  const size_t lines = count_lines(text);
  if (request.line > lines) return fail(fmt::format("{} has {} line{}", path, lines, lines == 1 ? "" : "s"));
  // Locations name the file as it was compiled.
  request.file = path;
  return request;
}

void print_probes(std::ostream& out, const runner::ProbedKernel& kernel, std::span<const uint8_t> log, size_t rows) {
  const runner::Instrumented& in = kernel.instrumented;
  const runner::ProbeLog probes = runner::read_probes(in, log);
  for (const runner::ProbeSite& site : in.probes) {
    out << fmt::format("probe {}: {}, {}\n", site.request.label, site.what, type_text(site));
  }
  const std::array<uint32_t, 3>& local = in.workgroup_size;
  const std::array<uint32_t, 3>& grid = kernel.harness.grid;
  const uint64_t per_workgroup = uint64_t{local[0]} * local[1] * local[2];
  const uint64_t invocations = per_workgroup * grid[0] * grid[1] * grid[2];
  const size_t shown = static_cast<size_t>(std::min<uint64_t>(invocations, rows));

  // Row by row: the workgroup, the local id, then a cell per probe.
  std::vector<std::vector<std::vector<std::pair<uint32_t, std::string>>>> executions(
      shown, std::vector<std::vector<std::pair<uint32_t, std::string>>>(in.probes.size()));
  for (const runner::ProbeRecord& record : probes.records) {
    const uint64_t row = uint64_t{record.workgroup} * per_workgroup + record.invocation;
    if (row >= shown || record.invocation >= per_workgroup) continue;
    executions[row][record.probe].emplace_back(record.iteration,
                                              runner::probe_value_text(in.probes[record.probe], record));
  }
  std::vector<std::vector<std::string>> table;
  table.push_back({"workgroup", "local"});
  for (const runner::ProbeSite& site : in.probes) table.back().push_back(site.request.label);
  for (size_t row = 0; row < shown; ++row) {
    table.push_back({triple(row / per_workgroup, grid), triple(row % per_workgroup, local)});
    for (auto& cell : executions[row]) table.back().push_back(cell_text(std::move(cell)));
  }
  std::vector<size_t> widths(table.front().size(), 0);
  for (const auto& line : table) {
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  }
  for (const auto& line : table) {
    std::string text;
    for (size_t c = 0; c < line.size(); ++c) {
      text += c + 1 == line.size() ? line[c] : fmt::format("{:<{}}  ", line[c], widths[c]);
    }
    out << text << "\n";
  }
  if (shown < invocations) {
    out << fmt::format("{} more invocation{} not shown (--probe-rows N shows more)\n", invocations - shown,
                       invocations - shown == 1 ? "" : "s");
  }
  if (probes.truncated) {
    out << fmt::format("probe log full: the kernel logged {} records, the first {} were kept\n", probes.logged,
                       in.capacity);
  }
}

}  // namespace klint
