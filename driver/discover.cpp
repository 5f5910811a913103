#include "driver/discover.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "analyzer/frontend.h"
#include "driver/config.h"

namespace klint {
namespace {

namespace fs = std::filesystem;

// Sniffing reads only the head of a file: a compute entry point's layout and
// main() are near the top, and a huge generated file must not stall the walk.
constexpr size_t kSniffBytes = 1 << 20;

struct FileId {
  dev_t device;
  ino_t inode;
  friend auto operator<=>(const FileId&, const FileId&) = default;
};

FileId id_of(const struct stat& st) { return {st.st_dev, st.st_ino}; }

// strerror's words in the lower case of `klint: error: PATH: REASON`.
std::string lower_first(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

std::string reason_for_errno(int error) { return lower_first(std::strerror(error)); }

// Why stat() failed on `path`, naming broken symbolic links as such: ENOENT on
// a link that exists means its target is missing.
std::string stat_failure_reason(const std::string& path, int error) {
  struct stat link {};
  if (error == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    return "dangling symbolic link";
  }
  return reason_for_errno(error);
}

// `dir/name` without the `./` and doubled slashes that joining adds. Unlike
// lexically_normal() it keeps `..`: `link/..` is not `.` when `link` is a
// symbolic link, and the path must still name the file that was found.
std::string join_path(const std::string& dir, const std::string& name) {
  fs::path joined;
  for (const fs::path& part : fs::path(dir) / name) {
    if (part.empty() || part == ".") continue;
    joined /= part;
  }
  return joined.empty() ? std::string(".") : joined.string();
}

// The first kSniffBytes of a file; nullopt (with errno set) if it cannot be read.
std::optional<std::string> read_head(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return std::nullopt;
  std::string head(kSniffBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (in.bad()) return std::nullopt;
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `main` as a whole word followed by `(`: a definition or a call, not "domain".
bool mentions_main_function(std::string_view text) {
  for (size_t at = text.find("main"); at != std::string_view::npos; at = text.find("main", at + 1)) {
    if (at > 0 && is_identifier_char(text[at - 1])) continue;
    size_t next = at + 4;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
    if (next < text.size() && text[next] == '(') return true;
  }
  return false;
}

bool is_glsl_compute_source(std::string_view text) {
  bool declares_compute = text.find("local_size_x") != std::string_view::npos ||
                          text.find("local_size_y") != std::string_view::npos ||
                          text.find("local_size_z") != std::string_view::npos ||
                          text.find("#pragma shader_stage(compute)") != std::string_view::npos;
  return declares_compute && mentions_main_function(text);
}

// Whether `text` holds `word`, a lower-case word, in any case: HLSL attribute
// names are case-insensitive ([numthreads] and [NumThreads]).
bool contains_any_case(std::string_view text, std::string_view word) {
  return std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         }) != text.end();
}

bool is_hlsl_compute_source(std::string_view text) { return contains_any_case(text, "numthreads"); }

// Whether a line of `text` is `#extension NAME ...`.
bool enables_extension(std::string_view text, std::string_view name) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const size_t start = text.rfind('\n', at) == std::string_view::npos ? 0 : text.rfind('\n', at) + 1;
    std::string_view before = text.substr(start, at - start);
    before.remove_prefix(std::min(before.find_first_not_of(" \t"), before.size()));
    if (before.starts_with("#") && before.find("extension") != std::string_view::npos) return true;
  }
  return false;
}

// not_a_kernel for a named file on disk. Only .glsl, .hlsl and .hlsli are
// read: a .comp, .spv or .spvasm is a kernel by its extension. An
// unreadable file is left to lint_file, which says why.
std::optional<std::string> not_a_kernel_on_disk(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext != ".glsl" && ext != ".hlsl" && ext != ".hlsli") return std::nullopt;
  std::optional<std::string> head = read_head(path);
  return head ? not_a_kernel(path, *head) : std::nullopt;
}

bool is_hidden(std::string_view name) { return name.starts_with('.') && name != "." && name != ".."; }

// The .gitignore and .ignore of `dir`, in rising precedence, leaving out empty ones.
void push_ignore_files(const fs::path& dir, std::vector<IgnoreList>& stack) {
  for (const char* name : {".gitignore", ".ignore"}) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / name, ec)) continue;
    IgnoreList list = IgnoreList::from_file(dir / name);
    if (!list.empty()) stack.push_back(std::move(list));
  }
}

// The folders above `dir` whose ignore files apply to it, outermost first: up
// to the repository root, the nearest one holding .git; none outside a repository.
std::vector<fs::path> repository_parents(const fs::path& dir) {
  std::vector<fs::path> parents;
  for (fs::path at = dir; at != at.parent_path();) {
    std::error_code ec;
    if (fs::exists(at / ".git", ec)) {
      std::reverse(parents.begin(), parents.end());
      return parents;
    }
    at = at.parent_path();
    parents.push_back(at);
  }
  return {};
}

fs::path absolute_path(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  return ec ? fs::path(path) : absolute.lexically_normal();
}

class Discoverer {
 public:
  explicit Discoverer(const WalkOptions& options) : options_(options), force_compute_(options.force_compute) {}

  void add_argument(const std::string& path);
  Discovery finish();

 private:
  enum class Sniff { Shader, NotShader, Unreadable };

  void walk(const std::string& dir, FileId id);
  void visit_entry(const std::string& path, const ConfigFile* config);
  bool left_out(const std::string& path, bool is_dir, const ConfigFile* config) const;
  Sniff sniff_walked_file(const std::string& path);
  void take(const std::string& path, const struct stat& st, Language language, bool named);
  void error(const std::string& path, std::string reason) {
    result_.messages.push_back({path, std::move(reason), true});
  }

  const WalkOptions& options_;
  bool force_compute_;
  std::vector<IgnoreList> ignore_stack_;  // the ignore files that apply where the walk is, deepest last
  Discovery result_;
  std::set<FileId> files_taken_;
  std::map<FileId, std::string> dirs_walked_;  // with the path they were first walked under
  std::set<FileId> walk_stack_;
};

void Discoverer::add_argument(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return error(path, stat_failure_reason(path, errno));
  if (S_ISDIR(st.st_mode)) {
    // A directory named twice, or inside another one named, is walked once.
    if (dirs_walked_.contains(id_of(st))) return;
    const size_t files_before = result_.files.size();
    const size_t messages_before = result_.messages.size();
    if (options_.ignore_files) {
      for (const fs::path& parent : repository_parents(absolute_path(path))) push_ignore_files(parent, ignore_stack_);
    }
    walk(path, id_of(st));
    ignore_stack_.clear();
    // A CI step that names the wrong folder must not pass for months; a walk
    // that met errors has said why already.
    const bool nothing_found = result_.files.size() == files_before && result_.messages.size() == messages_before;
    if (nothing_found && !options_.allow_empty) {
      InputMessage message{path, "no shaders found under " + path, true};
      message.reason_names_path = true;
      result_.messages.push_back(std::move(message));
    }
    return;
  }
  // Reading a FIFO or a device would block or never end.
  if (!S_ISREG(st.st_mode)) return error(path, "not a regular file");
  // -x says what the file is: no extension or header sniffing overrides it.
  if (options_.language) return take(path, st, *options_.language, /*named=*/true);
  if (std::optional<Language> language = language_for_path(path, force_compute_)) {
    // -fshader-stage=compute says the file is a kernel: it is compiled as one.
    if (std::optional<std::string> reason = force_compute_ ? std::nullopt : not_a_kernel_on_disk(path)) {
      result_.messages.push_back({path, *reason + "; skipped", false});
      return;
    }
    return take(path, st, *language, /*named=*/true);
  }
  if (std::optional<std::string> stage = non_compute_stage_for_path(path)) {
    result_.messages.push_back({path, "not a compute shader (" + *stage + " stage); skipped", false});
    return;
  }
  error(path, "unknown file type: use -fshader-stage=compute for GLSL with other extensions");
}

// What a walk takes depends on the lists the user keeps (.gitignore, .ignore,
// exclude), never on names that happen to look like build output.
void Discoverer::walk(const std::string& dir, FileId id) {
  dirs_walked_.emplace(id, dir);
  walk_stack_.insert(id);
  const size_t ignore_depth = ignore_stack_.size();
  const fs::path absolute = absolute_path(dir);
  if (options_.ignore_files) push_ignore_files(absolute, ignore_stack_);
  const ConfigFile* config = options_.configs ? options_.configs->config_for_directory(absolute) : nullptr;
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) error(dir, lower_first(ec.message()));
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (!is_hidden(name)) visit_entry(join_path(dir, name), config);
  }
  ignore_stack_.erase(ignore_stack_.begin() + static_cast<std::ptrdiff_t>(ignore_depth), ignore_stack_.end());
  walk_stack_.erase(id);
}

bool Discoverer::left_out(const std::string& path, bool is_dir, const ConfigFile* config) const {
  const fs::path absolute = absolute_path(path);
  // --exclude replaces the configuration's `exclude`; each extend-exclude adds.
  const std::optional<IgnoreList>* exclude = options_.exclude ? &options_.exclude : config ? &config->exclude : nullptr;
  const std::optional<IgnoreList>* config_extend = config ? &config->extend_exclude : nullptr;
  for (const std::optional<IgnoreList>* list : {exclude, config_extend, &options_.extend_exclude}) {
    if (list && *list && (*list)->verdict(absolute, is_dir) == true) return true;
  }
  for (auto it = ignore_stack_.rbegin(); it != ignore_stack_.rend(); ++it) {
    if (std::optional<bool> verdict = it->verdict(absolute, is_dir)) return *verdict;
  }
  return false;
}

void Discoverer::visit_entry(const std::string& path, const ConfigFile* config) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return error(path, stat_failure_reason(path, errno));
  if (left_out(path, S_ISDIR(st.st_mode), config)) return;
  if (S_ISDIR(st.st_mode)) {
    const FileId id = id_of(st);
    if (walk_stack_.contains(id)) return error(path, "symlink loop: points back to " + dirs_walked_[id]);
    // Reached before through another link: its files are already taken.
    if (dirs_walked_.contains(id)) return;
    return walk(path, id);
  }
  if (!S_ISREG(st.st_mode)) return;
  // -fshader-stage=compute widens only what is named explicitly: a directory
  // walk never takes files of unknown type.
  std::optional<Language> language = language_for_path(path, /*force_compute=*/false);
  if (!language) return;
  switch (sniff_walked_file(path)) {
    case Sniff::Shader: return take(path, st, *language, /*named=*/false);
    case Sniff::NotShader: return;
    case Sniff::Unreadable: return error(path, reason_for_errno(errno ? errno : EACCES));
  }
}

// Whether a file found in a directory holds a compute shader. SPIR-V and .comp
// files are taken unread; .glsl and .hlsl are also used for headers and other
// stages, so only those that declare a compute entry point are taken.
Discoverer::Sniff Discoverer::sniff_walked_file(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext == ".comp" || ext == ".spv" || ext == ".spvasm") return Sniff::Shader;
  if (ext != ".glsl" && ext != ".hlsl") return Sniff::NotShader;
  errno = 0;
  std::optional<std::string> head = read_head(path);
  if (!head) return Sniff::Unreadable;
  bool compute = ext == ".glsl" ? is_glsl_compute_source(*head) : is_hlsl_compute_source(*head);
  return compute && !non_compute_stage_of(path, *head) ? Sniff::Shader : Sniff::NotShader;
}

// A file reachable twice (named twice, or through a link and its real path) is
// linted once, under the first path it was found by.
void Discoverer::take(const std::string& path, const struct stat& st, Language language, bool named) {
  if (!files_taken_.insert(id_of(st)).second) return;
  result_.files.push_back({path, language, named});
}

Discovery Discoverer::finish() {
  std::sort(result_.files.begin(), result_.files.end(),
            [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
  return std::move(result_);
}

}  // namespace

Discovery discover_inputs(const std::vector<std::string>& paths, const WalkOptions& options) {
  Discoverer discoverer(options);
  for (const std::string& path : paths) discoverer.add_argument(path);
  return discoverer.finish();
}

Discovery discover_inputs(const std::vector<std::string>& paths, bool force_compute) {
  WalkOptions options;
  options.force_compute = force_compute;
  return discover_inputs(paths, options);
}

std::optional<std::string> non_compute_stage_of(const std::string& path, std::string_view text) {
  if (std::optional<std::string> stage = non_compute_stage_for_path(path)) return stage;
  const std::string ext = extension_of(path);
  auto has = [&](std::string_view word) { return text.find(word) != std::string_view::npos; };
  if (ext == ".glsl" && (enables_extension(text, "GL_EXT_mesh_shader") || enables_extension(text, "GL_NV_mesh_shader"))) {
    return has("EmitMeshTasksEXT") || has("taskNV") ? "task" : "mesh";
  }
  if (ext == ".hlsl" || ext == ".hlsli") {
    if (contains_any_case(text, "outputtopology")) return "mesh";
    if (has("DispatchMesh")) return "amplification";
  }
  return std::nullopt;
}

std::optional<std::string> not_a_kernel(const std::string& path, std::string_view text) {
  if (std::optional<std::string> stage = non_compute_stage_of(path, text)) {
    return "not a compute shader (" + *stage + " stage)";
  }
  const std::string ext = extension_of(path);
  const bool header = ext == ".glsl" ? !mentions_main_function(text)
                                     : (ext == ".hlsl" || ext == ".hlsli") && !is_hlsl_compute_source(text);
  if (header) return "no compute entry point";
  return std::nullopt;
}

}  // namespace klint
