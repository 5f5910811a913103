#include "driver/commands.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "analyzer/source.h"
#include "driver/compiler_args.h"
#include "driver/paths.h"
#include "driver/shell_words.h"

namespace klint {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Leading NAME=value words set the environment, not the compiler's arguments.
size_t first_program_word(const std::vector<std::string>& words) {
  size_t i = 0;
  while (i < words.size() && words[i].find('=') != std::string::npos && !words[i].starts_with("-") &&
         !words[i].starts_with("=")) {
    ++i;
  }
  return i;
}

std::string define_list(const CompileOptions& options) {
  if (options.defines.empty()) return "no defines";
  std::string list;
  for (const auto& [name, value] : options.defines) {
    list += (list.empty() ? "-D" : " -D") + name + (value.empty() ? "" : "=" + value);
  }
  return list;
}

bool same_compile(const CompileJob& a, const CompileJob& b) {
  return a.file == b.file && a.language == b.language && a.options.include_dirs == b.options.include_dirs &&
         a.options.defines == b.options.defines && a.options.target_env == b.options.target_env &&
         a.options.force_compute == b.options.force_compute && a.options.entry_point == b.options.entry_point;
}

class Reader {
 public:
  explicit Reader(fs::path base) : base_(std::move(base)) {}

  // Adds what `words` compiles, paths relative to `dir`. Other programs are
  // errors when `others_are_errors`, else passed over. `only_file` (JSON's
  // "file") keeps just that input.
  bool add(const std::vector<std::string>& words, const fs::path& dir, const std::string& origin,
           bool others_are_errors, const std::string& only_file, std::string* error) {
    size_t program = first_program_word(words);
    std::optional<Compiler> compiler = program < words.size() ? compiler_for(words[program]) : std::nullopt;
    if (!compiler) {
      if (!others_are_errors) return true;
      *error = program < words.size() ? fmt::format("{}: '{}' is not glslc or glslangValidator", origin, words[program])
                                      : fmt::format("{}: no program to run", origin);
      return false;
    }
    std::vector<std::string> args(words.begin() + static_cast<std::ptrdiff_t>(program) + 1, words.end());
    std::string reason;
    std::optional<CompilerCommand> command = read_compiler_args(*compiler, args, &reason);
    if (!command) {
      *error = fmt::format("{}: {}", origin, reason);
      return false;
    }
    std::string wanted = only_file.empty() ? "" : resolve_path(dir, only_file);
    bool found = wanted.empty();
    // Only a command that compiles one shader names its variant by its output.
    bool single = command->inputs.size() + command->skipped.size() == 1;
    for (const auto& [file, stage] : command->skipped) {
      std::string path = resolve_path(dir, file);
      if (!wanted.empty() && path != wanted) continue;
      found = true;
      result_.skipped.push_back(
          InputMessage{path, fmt::format("not a compute shader ({} stage); skipped", stage), false});
    }
    for (CompilerInput& input : command->inputs) {
      CompileJob job{resolve_path(dir, input.file), input.language, std::move(input.options), "", origin};
      if (!wanted.empty() && job.file != wanted) continue;
      found = true;
      for (std::string& include : job.options.include_dirs) include = resolve_path(dir, include);
      if (single && !input.output.empty() && input.output != "-") {
        job.variant = fs::path(input.output).stem().string();
      }
      add_job(std::move(job));
    }
    if (!found) {
      *error = fmt::format("{}: \"file\" names {}, which the command does not compile", origin, only_file);
      return false;
    }
    return true;
  }

  CompileCommands finish() {
    // Output stems can collide (one name in two build directories): those
    // jobs fall back to their defines, and a number if even those agree.
    std::map<std::string, std::vector<CompileJob*>> by_file;
    for (CompileJob& job : result_.jobs) by_file[job.file].push_back(&job);
    for (auto& entry : by_file) {
      std::vector<CompileJob*>& jobs = entry.second;
      auto count = [&](const std::string& name) {
        return std::count_if(jobs.begin(), jobs.end(), [&](const CompileJob* j) { return j->variant == name; });
      };
      std::vector<CompileJob*> renamed;
      for (CompileJob* job : jobs) {
        if (job->variant.empty() || count(job->variant) > 1) renamed.push_back(job);
      }
      for (CompileJob* job : renamed) job->variant = define_list(job->options);
      std::map<std::string, int> seen;
      for (CompileJob* job : jobs) {
        if (count(job->variant) > 1 && ++seen[job->variant] > 1) {
          job->variant += fmt::format(" ({})", seen[job->variant]);
        }
      }
    }
    return std::move(result_);
  }

  const fs::path& base() const { return base_; }

 private:
  void add_job(CompileJob job) {
    auto same = [&](const CompileJob& other) { return same_compile(other, job); };
    if (std::none_of(result_.jobs.begin(), result_.jobs.end(), same)) result_.jobs.push_back(std::move(job));
  }

  fs::path base_;
  CompileCommands result_;
};

std::string json_error(const std::string& path, const json::parse_error& e) {
  const char* what = e.what();
  const char* at = std::strstr(what, "parse error at line ");
  unsigned line = 0;
  unsigned column = 0;
  if (at && std::sscanf(at, "parse error at line %u, column %u", &line, &column) == 2) {
    const char* reason = std::strstr(at, ": ");
    return fmt::format("{}:{}:{}: invalid JSON: {}", path, line, column, reason ? reason + 2 : what);
  }
  return fmt::format("{}: invalid JSON: {}", path, what);
}

bool read_json(std::string_view text, const std::string& path, Reader& reader, std::string* error) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    *error = json_error(path, e);
    return false;
  }
  if (!root.is_array()) {
    *error = fmt::format("{}: a compile database is a JSON array of commands", path);
    return false;
  }
  for (size_t i = 0; i < root.size(); ++i) {
    const json& entry = root[i];
    std::string origin = fmt::format("{}: entry {}", path, i + 1);
    auto fail = [&](std::string_view reason) {
      *error = fmt::format("{}: {}", origin, reason);
      return false;
    };
    if (!entry.is_object()) return fail("each entry must be an object");
    fs::path dir = reader.base();
    if (auto it = entry.find("directory"); it != entry.end()) {
      if (!it->is_string()) return fail("\"directory\" must be a string");
      dir = fs::path(resolve_path(reader.base(), it->get<std::string>()));
    }
    std::vector<std::string> words;
    if (auto it = entry.find("arguments"); it != entry.end()) {
      if (!it->is_array() || !std::all_of(it->begin(), it->end(), [](const json& w) { return w.is_string(); })) {
        return fail("\"arguments\" must be an array of strings");
      }
      for (const json& word : *it) words.push_back(word.get<std::string>());
    } else if (auto command = entry.find("command"); command != entry.end()) {
      if (!command->is_string()) return fail("\"command\" must be a string");
      ShellError shell_error;
      auto commands = split_shell_lines(command->get<std::string>(), &shell_error);
      if (!commands) return fail(fmt::format("\"command\": {}", shell_error.reason));
      if (commands->size() != 1) return fail("\"command\" must hold one command");
      words = std::move(commands->front().words);
    } else {
      return fail("an entry needs \"arguments\" or \"command\"");
    }
    std::string file;
    if (auto it = entry.find("file"); it != entry.end()) {
      if (!it->is_string()) return fail("\"file\" must be a string");
      file = it->get<std::string>();
    }
    if (!reader.add(words, dir, origin, false, file, error)) return false;
  }
  return true;
}

bool read_text(std::string_view text, const std::string& path, Reader& reader, std::string* error) {
  ShellError shell_error;
  std::optional<std::vector<ShellCommand>> commands = split_shell_lines(text, &shell_error);
  if (!commands) {
    *error = fmt::format("{}:{}: {}", path, shell_error.line, shell_error.reason);
    return false;
  }
  for (const ShellCommand& command : *commands) {
    if (!reader.add(command.words, reader.base(), fmt::format("{}:{}", path, command.line), true, "", error)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<CompileCommands> parse_commands(std::string_view text, const std::string& path, std::string* error) {
  Reader reader(fs::path(path).parent_path());
  size_t first = text.find_first_not_of(" \t\r\n");
  bool is_json = first != std::string_view::npos && text[first] == '[';
  if (!(is_json ? read_json(text, path, reader, error) : read_text(text, path, reader, error))) return std::nullopt;
  CompileCommands commands = reader.finish();
  if (commands.jobs.empty() && commands.skipped.empty()) {
    *error = fmt::format("{}: no glslc or glslangValidator commands", path);
    return std::nullopt;
  }
  return commands;
}

std::optional<CompileCommands> read_commands(const std::string& path, std::string* error) {
  ReadError read_error;
  std::optional<std::string> text = read_file(path, &read_error);
  if (!text) {
    *error = fmt::format("{}: {}", path, read_error.reason);
    return std::nullopt;
  }
  return parse_commands(*text, path, error);
}

}  // namespace klint
