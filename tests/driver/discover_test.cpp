#include "driver/discover.h"
#include "tests/support/scratch.h"
#include "tests/support/unprivileged.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace klint {
namespace {

namespace fs = std::filesystem;

constexpr const char* kGlslCompute = "#version 450\nlayout(local_size_x = 64) in;\nvoid main() {}\n";
constexpr const char* kGlslHeader = "// shared helpers, no entry point\nvec3 twice(vec3 v) { return 2.0 * v; }\n";

class DiscoverTest : public testing::ScratchCwdTest {
 protected:
  void link(const fs::path& target, const fs::path& link) {
    ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0) << link;
  }
};

std::vector<std::string> paths_of(const Discovery& discovery) {
  std::vector<std::string> paths;
  for (const InputFile& file : discovery.files) paths.push_back(file.path);
  return paths;
}

std::vector<std::string> messages_of(const Discovery& discovery) {
  std::vector<std::string> messages;
  for (const InputMessage& message : discovery.messages) {
    messages.push_back((message.is_error ? "error: " : "note: ") + message.path + ": " + message.reason);
  }
  return messages;
}

using Paths = std::vector<std::string>;

// What an unprivileged user is told, one line a file or message: as root,
// chmod 000 stops nothing.
std::string discovered_unprivileged(const std::string& input) {
  return testing::run_unprivileged([&] {
    Discovery discovery = discover_inputs({input}, false);
    std::string out;
    for (const std::string& p : paths_of(discovery)) out += "file " + p + "\n";
    for (const std::string& m : messages_of(discovery)) out += m + "\n";
    return out;
  });
}

TEST_F(DiscoverTest, WalksNestedDirectoriesInSortedOrder) {
  write("top.comp");
  write("b/z.comp");
  write("a/y.comp");
  write("a/sub/x.spv");
  write("c.spvasm");
  Discovery discovery = discover_inputs({"."}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"a/sub/x.spv", "a/y.comp", "b/z.comp", "c.spvasm", "top.comp"}));
  EXPECT_TRUE(discovery.messages.empty());
  EXPECT_EQ(discovery.files[0].language, Language::SpirvBinary);
  EXPECT_EQ(discovery.files[1].language, Language::Glsl);
  EXPECT_EQ(discovery.files[3].language, Language::SpirvAssembly);
  for (const InputFile& file : discovery.files) EXPECT_FALSE(file.named_explicitly) << file.path;
}

TEST_F(DiscoverTest, PathsKeepTheUsersSpelling) {
  write("shaders/a.comp");
  write("shaders/sub/b.comp");
  EXPECT_EQ(paths_of(discover_inputs({"shaders"}, false)), (Paths{"shaders/a.comp", "shaders/sub/b.comp"}));
  EXPECT_EQ(paths_of(discover_inputs({"shaders/"}, false)), (Paths{"shaders/a.comp", "shaders/sub/b.comp"}));
  EXPECT_EQ(paths_of(discover_inputs({"./shaders//"}, false)), (Paths{"shaders/a.comp", "shaders/sub/b.comp"}));
  // `..` stays: it cannot be removed without knowing whether a link precedes it.
  EXPECT_EQ(paths_of(discover_inputs({"shaders/sub/.."}, false)),
            (Paths{"shaders/sub/../a.comp", "shaders/sub/../sub/b.comp"}));
  // A file named explicitly is kept exactly as typed.
  EXPECT_EQ(paths_of(discover_inputs({"./shaders/a.comp"}, false)), (Paths{"./shaders/a.comp"}));
  const std::string absolute = path("shaders").string();
  EXPECT_EQ(paths_of(discover_inputs({absolute}, false)), (Paths{absolute + "/a.comp", absolute + "/sub/b.comp"}));
}

TEST_F(DiscoverTest, WalkingParentDirectoryKeepsDotDot) {
  write("a.comp");
  write("sub/b.comp");
  fs::current_path("sub");
  EXPECT_EQ(paths_of(discover_inputs({".."}, false)), (Paths{"../a.comp", "../sub/b.comp"}));
}

TEST_F(DiscoverTest, GlslInDirectoriesOnlyWithAComputeEntryPoint) {
  write("kernel.glsl", kGlslCompute);
  write("common.glsl", kGlslHeader);
  write("pragma.glsl", "#pragma shader_stage(compute)\nvoid main () {}\n");
  write("z_only.glsl", "#extension GL_EXT_foo : require\nlayout(local_size_z = 2) in;\nvoid main(){}\n");
  // A fragment shader in .glsl: main() but no workgroup size.
  write("frag.glsl", "out vec4 color;\nvoid main() { color = vec4(1); }\n");
  // A workgroup size and "main" inside other words, but no main().
  write("domain.glsl", "layout(local_size_x = 8) in;\nfloat domain(float remaining) { return remaining; }\n");
  Discovery discovery = discover_inputs({"."}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"kernel.glsl", "pragma.glsl", "z_only.glsl"}));
  EXPECT_TRUE(discovery.messages.empty());
}

TEST_F(DiscoverTest, SniffingReadsOnlyTheFirstMebibyte) {
  write("late.glsl", "//" + std::string(1 << 20, 'x') + "\n" + kGlslCompute);
  write("early.glsl", kGlslCompute + std::string("//") + std::string(1 << 20, 'x') + "\n");
  EXPECT_EQ(paths_of(discover_inputs({"."}, false)), (Paths{"early.glsl"}));
}

TEST_F(DiscoverTest, HlslInDirectoriesOnlyWithNumthreads) {
  write("blur.hlsl", "[numthreads(64, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {}\n");
  write("caps.hlsl", "[NumThreads(8, 8, 1)]\nvoid CSMain() {}\n");
  write("pixel.hlsl", "float4 main() : SV_Target { return 0; }\n");
  write("common.hlsli", "[numthreads(64, 1, 1)]\nvoid main() {}\n");
  Discovery discovery = discover_inputs({"."}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"blur.hlsl", "caps.hlsl"}));
  EXPECT_EQ(discovery.files[0].language, Language::Hlsl);
}

TEST_F(DiscoverTest, OtherFilesInDirectoriesAreIgnoredSilently) {
  write("a.vert", "void main() {}\n");
  write("b.frag");
  write("README.md");
  write("Makefile");
  write("c.comp");
  Discovery discovery = discover_inputs({"."}, /*force_compute=*/true);
  EXPECT_EQ(paths_of(discovery), (Paths{"c.comp"}));
  EXPECT_TRUE(discovery.messages.empty());
}

// What a walk takes depends on the lists the user keeps, not on names that
// look like build output; hidden entries are never walked, only named.
TEST_F(DiscoverTest, HiddenEntriesAreSkippedAndBuildIsWalkedUnlessIgnored) {
  write(".cache/a.comp");
  write(".hidden.comp");
  write("build/b.comp");
  EXPECT_EQ(paths_of(discover_inputs({"."}, false)), (Paths{"build/b.comp"}));
  EXPECT_EQ(paths_of(discover_inputs({".cache", ".hidden.comp"}, false)), (Paths{".cache/a.comp", ".hidden.comp"}));
}

TEST_F(DiscoverTest, GitignoreAndIgnoreFilesLeaveOutWhatTheyName) {
  write(".gitignore", "# build output\n/build/\n*.spv\n!keep.spv\n");
  write("build/b.comp");
  write("src/build/c.comp");  // `/build/` is anchored: this one stays
  write("src/a.spv");
  write("src/keep.spv");
  write("src/gen/.ignore", "*.comp\n");
  write("src/gen/g.comp");
  write("src/gen/.gitignore", "!g.comp\n");  // .ignore wins over .gitignore in one folder
  write("src/sub/.gitignore", "!a2.spv\n");  // a deeper file wins over a shallower one
  write("src/sub/a2.spv");
  EXPECT_EQ(paths_of(discover_inputs({"."}, false)), (Paths{"src/build/c.comp", "src/keep.spv", "src/sub/a2.spv"}));
  WalkOptions no_ignore;
  no_ignore.ignore_files = false;
  EXPECT_EQ(paths_of(discover_inputs({"."}, no_ignore)),
            (Paths{"build/b.comp", "src/a.spv", "src/build/c.comp", "src/gen/g.comp", "src/keep.spv", "src/sub/a2.spv"}));
}

TEST_F(DiscoverTest, IgnoreFilesAboveTheWalkCountUpToTheRepositoryRoot) {
  write("outside/.gitignore", "*.comp\n");  // above the repository: not read
  write("outside/repo/.git/HEAD", "ref: refs/heads/main\n");
  write("outside/repo/.gitignore", "gen/\n");
  write("outside/repo/shaders/gen/g.comp");
  write("outside/repo/shaders/a.comp");
  EXPECT_EQ(paths_of(discover_inputs({"outside/repo/shaders"}, false)), (Paths{"outside/repo/shaders/a.comp"}));
}

TEST_F(DiscoverTest, ExcludeListsLeaveOutWalkedPathsButNotNamedOnes) {
  write("a.comp");
  write("gen/g.comp");
  write("third_party/t.comp");
  std::string error;
  WalkOptions options;
  options.exclude = IgnoreList::from_patterns({"gen/"}, fs::current_path(), &error);
  options.extend_exclude = IgnoreList::from_patterns({"third_party"}, fs::current_path(), &error);
  EXPECT_EQ(paths_of(discover_inputs({"."}, options)), (Paths{"a.comp"}));
  EXPECT_EQ(paths_of(discover_inputs({"gen/g.comp", "third_party"}, options)),
            (Paths{"gen/g.comp", "third_party/t.comp"}));
}

TEST_F(DiscoverTest, ADirectoryWithoutShadersIsAnErrorUnlessAllowed) {
  write("docs/readme.md");
  write("shaders/.gitignore", "*\n");
  write("shaders/a.comp");
  Discovery discovery = discover_inputs({"docs", "shaders"}, false);
  EXPECT_EQ(messages_of(discovery), (std::vector<std::string>{"error: docs: no shaders found under docs",
                                                              "error: shaders: no shaders found under shaders"}));
  WalkOptions allow;
  allow.allow_empty = true;
  EXPECT_TRUE(discover_inputs({"docs"}, allow).messages.empty());
}

TEST_F(DiscoverTest, MissingExplicitPathIsAnError) {
  write("a.comp");
  Discovery discovery = discover_inputs({"missing.comp", "a.comp", "gone/"}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"a.comp"}));
  EXPECT_EQ(messages_of(discovery), (Paths{"error: missing.comp: no such file or directory",
                                           "error: gone/: no such file or directory"}));
}

TEST_F(DiscoverTest, ExplicitFileOfUnknownTypeIsAnErrorUnlessForcedCompute) {
  write("kernel.cl");
  Discovery discovery = discover_inputs({"kernel.cl"}, false);
  EXPECT_TRUE(discovery.files.empty());
  EXPECT_EQ(messages_of(discovery),
            (Paths{"error: kernel.cl: unknown file type: use -fshader-stage=compute for GLSL with other extensions"}));

  Discovery forced = discover_inputs({"kernel.cl"}, true);
  ASSERT_EQ(paths_of(forced), (Paths{"kernel.cl"}));
  EXPECT_EQ(forced.files[0].language, Language::Glsl);
  EXPECT_TRUE(forced.files[0].named_explicitly);
  EXPECT_TRUE(forced.messages.empty());
}

TEST_F(DiscoverTest, ExplicitNonComputeStageIsANote) {
  write("a.vert");
  write("b.rchit");
  Discovery discovery = discover_inputs({"a.vert", "b.rchit"}, false);
  EXPECT_TRUE(discovery.files.empty());
  EXPECT_EQ(messages_of(discovery), (Paths{"note: a.vert: not a compute shader (vertex stage); skipped",
                                           "note: b.rchit: not a compute shader (closest stage); skipped"}));
}

TEST_F(DiscoverTest, ExplicitHeadersWithoutAnEntryPointAreSkippedWithANote) {
  write("common.glsl", kGlslHeader);
  write("common.hlsli", "float twice(float x) { return 2 * x; }\n");
  write("pixel.hlsl", "float4 main() : SV_Target { return 0; }\n");
  write("empty.hlsli");
  Discovery discovery = discover_inputs({"common.glsl", "common.hlsli", "pixel.hlsl", "empty.hlsli"}, false);
  EXPECT_TRUE(discovery.files.empty());
  EXPECT_EQ(messages_of(discovery), (Paths{"note: common.glsl: no compute entry point; skipped",
                                           "note: common.hlsli: no compute entry point; skipped",
                                           "note: pixel.hlsl: no compute entry point; skipped",
                                           "note: empty.hlsli: no compute entry point; skipped"}));
}

// Named files need only an entry point: a workgroup size may come from an
// include, which a directory walk's sniffing cannot see.
TEST_F(DiscoverTest, ExplicitFilesWithAnEntryPointAreTaken) {
  write("kernel.glsl", "#include \"size.h\"\nvoid main() {}\n");
  write("kernel.hlsli", "[numthreads(64, 1, 1)]\nvoid main() {}\n");
  write("header.comp", kGlslHeader);  // .comp always names a compute shader
  Discovery discovery = discover_inputs({"kernel.glsl", "kernel.hlsli", "header.comp"}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"header.comp", "kernel.glsl", "kernel.hlsli"}));
  EXPECT_EQ(discovery.files[2].language, Language::Hlsl);
  for (const InputFile& file : discovery.files) EXPECT_TRUE(file.named_explicitly);
  EXPECT_TRUE(discovery.messages.empty());
}

TEST_F(DiscoverTest, ForcedComputeLintsExplicitHeaders) {
  write("common.glsl", kGlslHeader);
  write("common.hlsli");
  Discovery discovery = discover_inputs({"common.hlsli", "common.glsl"}, /*force_compute=*/true);
  EXPECT_EQ(paths_of(discovery), (Paths{"common.glsl", "common.hlsli"}));
  EXPECT_TRUE(discovery.messages.empty());
}

// An unreadable header is taken: lint_file says why it cannot be read, which
// a note that it was skipped would hide.
TEST_F(DiscoverTest, UnreadableExplicitHeaderIsTaken) {
  write("secret.glsl", kGlslHeader);
  fs::permissions("secret.glsl", fs::perms::none);
  std::string seen = discovered_unprivileged("secret.glsl");
  EXPECT_EQ(seen, "file secret.glsl\n");
}

TEST_F(DiscoverTest, ExplicitSpecialFileIsAnError) {
  ASSERT_EQ(::mkfifo("pipe.comp", 0600), 0);
  write("dir/a.comp");
  ASSERT_EQ(::mkfifo("dir/fifo.comp", 0600), 0);
  Discovery discovery = discover_inputs({"pipe.comp", "dir"}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"dir/a.comp"}));
  EXPECT_EQ(messages_of(discovery), (Paths{"error: pipe.comp: not a regular file"}));
}

TEST_F(DiscoverTest, SymlinkLoopIsReportedAndNotEntered) {
  write("dir/a.comp");
  link("..", "dir/loop");
  Discovery discovery = discover_inputs({"."}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"dir/a.comp"}));
  EXPECT_EQ(messages_of(discovery), (Paths{"error: dir/loop: symlink loop: points back to ."}));
}

TEST_F(DiscoverTest, SymlinkLoopNamesTheDirectoryItReturnsTo) {
  write("shaders/deep/a.comp");
  link("../../shaders", "shaders/deep/up");
  Discovery discovery = discover_inputs({"shaders"}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"shaders/deep/a.comp"}));
  EXPECT_EQ(messages_of(discovery), (Paths{"error: shaders/deep/up: symlink loop: points back to shaders"}));
}

TEST_F(DiscoverTest, SelfReferentialSymlinkIsAnError) {
  link("a.comp", "a.comp");
  Discovery walked = discover_inputs({"."}, false);
  EXPECT_TRUE(walked.files.empty());
  EXPECT_EQ(messages_of(walked), (Paths{"error: a.comp: too many levels of symbolic links"}));
  EXPECT_EQ(messages_of(discover_inputs({"a.comp"}, false)),
            (Paths{"error: a.comp: too many levels of symbolic links"}));
}

TEST_F(DiscoverTest, DanglingSymlinkIsAnError) {
  link("nowhere.comp", "gone.comp");
  write("ok.comp");
  Discovery walked = discover_inputs({"."}, false);
  EXPECT_EQ(paths_of(walked), (Paths{"ok.comp"}));
  EXPECT_EQ(messages_of(walked), (Paths{"error: gone.comp: dangling symbolic link"}));
  EXPECT_EQ(messages_of(discover_inputs({"gone.comp"}, false)), (Paths{"error: gone.comp: dangling symbolic link"}));
}

TEST_F(DiscoverTest, FileReachedTwiceIsLintedOnceUnderTheFirstPath) {
  write("real/a.comp");
  link("real/a.comp", "alias.comp");
  // Named twice, and once more through a link: the first spelling wins.
  EXPECT_EQ(paths_of(discover_inputs({"real/a.comp", "alias.comp", "real/a.comp"}, false)),
            (Paths{"real/a.comp"}));
  // In a walk "alias.comp" sorts before "real".
  Discovery walked = discover_inputs({"."}, false);
  EXPECT_EQ(paths_of(walked), (Paths{"alias.comp"}));
  EXPECT_TRUE(walked.messages.empty());
}

TEST_F(DiscoverTest, DirectoryReachedTwiceIsWalkedOnceWithoutError) {
  write("real/a.comp");
  write("real/sub/b.comp");
  link("real", "linked");
  Discovery discovery = discover_inputs({"real", "real/sub", "linked"}, false);
  EXPECT_EQ(paths_of(discovery), (Paths{"real/a.comp", "real/sub/b.comp"}));
  EXPECT_TRUE(discovery.messages.empty());
}

TEST_F(DiscoverTest, SymlinkedDirectoryIsFollowed) {
  write("elsewhere/k.comp");
  fs::create_directory("shaders");
  link("../elsewhere", "shaders/linked");
  EXPECT_EQ(paths_of(discover_inputs({"shaders"}, false)), (Paths{"shaders/linked/k.comp"}));
}

TEST_F(DiscoverTest, UnreadableDirectoryIsAnErrorAndTheWalkGoesOn) {
  write("locked/a.comp");
  write("open/b.comp");
  fs::permissions("locked", fs::perms::none);
  std::string seen = discovered_unprivileged(".");
  EXPECT_EQ(seen, "file open/b.comp\nerror: locked: permission denied\n");
}

TEST_F(DiscoverTest, UnreadableGlslInADirectoryIsAnError) {
  write("k.glsl", kGlslCompute);
  fs::permissions("k.glsl", fs::perms::none);
  std::string seen = discovered_unprivileged(".");
  EXPECT_EQ(seen, "error: k.glsl: permission denied\n");
}

TEST_F(DiscoverTest, MessagesKeepTheOrderFound) {
  write("b/x.comp");
  link("missing", "b/y.comp");
  Discovery discovery = discover_inputs({"z.comp", "b", "a.comp"}, false);
  EXPECT_EQ(messages_of(discovery),
            (Paths{"error: z.comp: no such file or directory", "error: b/y.comp: dangling symbolic link",
                   "error: a.comp: no such file or directory"}));
}

}  // namespace
}  // namespace klint
