// The rules' view of a SPIR-V module: the IR, what its ids mean (names,
// decorations, built-ins, definitions), where each instruction came from in the
// source, and analyses computed on first use and cached.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/cfg.h"
#include "analyzer/diagnostic.h"
#include "analyzer/inlined_calls.h"
#include "analyzer/ir/module.h"

namespace klint {

class Accesses;
class BarrierIntervals;
class CollisionFinder;
struct Loop;
class SymbolicValues;
class Uniformity;

// One dimension of a workgroup size: its value (a specialization constant's
// default) and, when a specialization constant gives it, the constant's SpecId.
struct WorkgroupDimension {
  uint64_t value = 1;
  std::optional<uint32_t> spec_id;
  // False when no `layout(constant_id = N) const uint X = ...;` declares the
  // constant behind `local_size_x_id = N`: the compiler then assumes 1.
  bool default_declared = true;
  // The host sets it and the source says nothing of its value.
  bool left_to_host() const { return spec_id && !default_declared; }
  friend bool operator==(const WorkgroupDimension&, const WorkgroupDimension&) = default;
};

struct EntryPoint {
  spv::ExecutionModel model;
  std::string name;
  const ir::Function* function = nullptr;
  const ir::Instruction* instruction = nullptr;  // the OpEntryPoint
  std::vector<const ir::Instruction*> execution_modes;  // OpExecutionMode and OpExecutionModeId
  // From the WorkgroupSize built-in if the module has one (it overrides the
  // execution mode), else LocalSizeId, else LocalSize; nullopt when none says.
  std::optional<std::array<WorkgroupDimension, 3>> workgroup_size;
};

// Where the module came from, for locations: the file the user linted and, for
// SPIR-V assembly, the text line of each instruction by ordinal.
struct ModuleOrigin {
  std::string path;
  std::vector<uint32_t> assembly_lines;
  // False when the source declares no workgroup size and the 1x1x1 in the
  // module is only the compiler's default (CompiledShader).
  bool workgroup_size_declared = true;
  // The dimensions the host sets (local_size_x_id) were given their size
  // (--workgroup-size, or one the lint assumes), so that a default the
  // source does not declare is still the size the kernel runs at.
  bool workgroup_size_given = false;
  // The SpecIds whose values the lint was given (--specialization, klint.toml,
  // the subgroup-size constant, a workgroup size): not defaults.
  std::set<uint32_t> given_spec_ids;
  // The subgroup width the host runs the kernel at, when the lint was told
  // it (a constant the host sets to the subgroup size, linted per width);
  // 0 when any width the targets run may be the one.
  uint32_t subgroup_size = 0;
  // The lines each function of the module as compiled spans, to tell which
  // call inlined code came from (analyzer/inlined_calls.h).
  std::vector<FunctionLines> function_lines;
};

class Module {
 public:
  Module(ir::Module ir, ModuleOrigin origin);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  const ir::Module& ir() const { return ir_; }
  const std::string& path() const { return origin_.path; }
  // False when the source declares no workgroup size: the host sets it when
  // it creates the pipeline, and the 1x1x1 the module holds says nothing.
  bool workgroup_size_declared() const { return origin_.workgroup_size_declared; }
  // The subgroup width this lint judges the kernel at; 0 when not fixed.
  uint32_t subgroup_size() const { return origin_.subgroup_size; }
  const std::vector<ir::Function>& functions() const { return ir_.functions; }
  const std::vector<EntryPoint>& entry_points() const { return entry_points_; }

  // The instruction that defines `id`, or nullptr.
  const ir::Instruction* def(uint32_t id) const;
  // The instructions that read `id` (see ir::Instruction::input_ids), in module order.
  const std::vector<const ir::Instruction*>& uses(uint32_t id) const;
  const ir::Function* function(uint32_t id) const;
  // The block an instruction of a function sits in, or nullptr for globals.
  const ir::Block* block_of(const ir::Instruction& instruction) const;
  const ir::Function* function_of(const ir::Block& block) const;

  // OpName, or "%<id>" when there is none.
  std::string name(uint32_t id) const;
  // name(), except that an anonymous block's instance (`shared Tile { ... };`,
  // which glslang leaves nameless) goes by its block's name.
  std::string variable_name(uint32_t variable) const;
  // A struct member's OpMemberName; empty when it has none.
  std::string member_name(uint32_t struct_id, uint32_t member) const;
  // The built-in a variable (or a struct member 0 of a built-in block) is decorated with.
  std::optional<spv::BuiltIn> builtin(uint32_t variable_id) const;
  bool has_decoration(uint32_t id, spv::Decoration decoration) const;
  // The first literal of a decoration (OpDecorate id Decoration literal), 0 when
  // it has none; nullopt when the id lacks the decoration.
  std::optional<uint32_t> decoration(uint32_t id, spv::Decoration decoration) const;
  std::optional<uint32_t> member_decoration(uint32_t struct_id, uint32_t member, spv::Decoration decoration) const;
  // The SpecId of a specialization constant.
  std::optional<uint32_t> spec_id(uint32_t constant_id) const;
  // The integer value of an OpConstant, of a specialization constant at its
  // default, or of an OpSpecConstantOp of integer arithmetic over those (a
  // select on a comparison of them included).
  std::optional<uint64_t> constant_value(uint32_t id) const;
  // A boolean constant, or a specialization constant's comparison of integer
  // constants, at their defaults.
  std::optional<bool> constant_bool(uint32_t id) const { return constant_bool(id, 0); }
  // Whether the value `id` is computed from a specialization constant at its
  // declared default, one the lint was not given and that is not a workgroup
  // dimension (those the lint judges at their default, with a note): the
  // host may give it another value. Follows arithmetic and phis, not memory.
  bool reads_specialization_default(uint32_t id) const;
  // The storage class of a pointer-typed value, if it is one.
  std::optional<spv::StorageClass> storage_class(uint32_t pointer_id) const;
  // Bytes a type occupies in Workgroup memory (no explicit layout: natural sizes,
  // arrays as count * element). nullopt for runtime arrays and unknown types.
  std::optional<uint64_t> type_size(uint32_t type_id) const;

  // The source location of an instruction: its OpLine, or for assembly input
  // its text line, or the file alone with the disassembled instruction.
  Location location(const ir::Instruction& instruction) const;
  // The instruction's 1-based position in module order (ir::Module::for_each_instruction),
  // which an encode and a decode of the module keep; 0 for one not in this module.
  size_t ordinal(const ir::Instruction& instruction) const;
  // The calls, outermost first, that the inliner put the instruction's code
  // in place of; empty for code of the function itself.
  std::span<const InlinedCall> inlined_calls(const ir::Instruction& instruction) const;
  // Where a global variable is declared: its OpLine if it has one, else the
  // line of the main source (kept in OpSource) that declares a variable of its
  // name, else the entry point's location.
  Location declaration(uint32_t variable_id) const;
  // The first line of the main source (kept in OpSource) holding `word` as a
  // whole identifier, with the word as the location's token; nullopt when the
  // module carries no source text or no such line. For constructs SPIR-V
  // gives no line, such as `layout(local_size_x = 64) in;`.
  std::optional<Location> source_line(std::string_view word) const;
  // source_line, matching the word in any case (HLSL's semantics are
  // case-insensitive), with the word as the source spells it as the token.
  std::optional<Location> source_line_any_case(std::string_view word) const;
  // The text of the line `at` names (its file and line), from the source text
  // the module carries; nullopt when it carries none of that line.
  std::optional<std::string> source_line_text(const Location& at) const;
  // The source language OpSource names.
  bool is_hlsl() const { return source_language_ == spv::SourceLanguage::HLSL; }
  // location(), or, when inlining or a branch left the instruction without a
  // line, the last line before it in its block or in the blocks dominating it
  // (glslang gives a statement one line, before the branches of a `?:` in it).
  Location nearest_location(const ir::Instruction& instruction) const;
  // Text of one instruction in SPIR-V assembly, with friendly names.
  std::string disassemble(const ir::Instruction& instruction) const;

  // What an analysis left out for its budget, said once each: the driver
  // shows these as notes on the file. The analysis then answers "unknown",
  // which never makes a finding.
  void note_budget(std::string what) const;
  const std::vector<std::string>& budget_notes() const { return budget_notes_; }

  // Analyses, computed on first use.
  const Cfg& cfg(const ir::Function& function) const;
  const DominatorTree& dominators(const ir::Function& function) const;
  const DominatorTree& post_dominators(const ir::Function& function) const;
  const ControlDependence& control_dependence(const ir::Function& function) const;
  // The structured loops, innermost first (loops.h).
  const std::vector<Loop>& loops(const ir::Function& function) const;
  // Uniformity across the invocations of a workgroup.
  const Uniformity& uniformity(const ir::Function& function) const;
  const SymbolicValues& symbolic(const ir::Function& function) const;
  const Accesses& accesses(const ir::Function& function) const;
  const CollisionFinder& collisions(const ir::Function& function) const;
  const BarrierIntervals& barrier_intervals(const ir::Function& function) const;
  // Uniformity across the invocations of a subgroup, on targets whose
  // subgroups hold at most `max_subgroup_size` invocations (0: unknown).
  const Uniformity& subgroup_uniformity(const ir::Function& function, uint32_t max_subgroup_size) const;

 private:
  struct FunctionAnalyses;
  FunctionAnalyses& analyses(const ir::Function& function) const;
  void index();

  ir::Module ir_;
  ModuleOrigin origin_;
  std::vector<EntryPoint> entry_points_;
  std::optional<std::array<WorkgroupDimension, 3>> workgroup_size(const EntryPoint& entry) const;
  std::optional<WorkgroupDimension> dimension(uint32_t constant_id) const;
  std::optional<uint64_t> constant_value(uint32_t id, int depth) const;
  std::optional<bool> constant_bool(uint32_t id, int depth) const;
  // The first line of the source text that `match` accepts: match(text), or
  // match(text, path, line) to know where the line is.
  template <class Match>
  std::optional<Location> find_line(Match&& match, std::string_view token) const;

  std::unordered_map<uint32_t, const ir::Instruction*> defs_;
  std::unordered_map<uint32_t, std::vector<const ir::Instruction*>> uses_;
  std::unordered_map<uint32_t, std::string> names_;
  std::map<std::pair<uint32_t, uint32_t>, std::string> member_names_;  // (struct, member) -> OpMemberName
  std::unordered_map<uint32_t, std::string> strings_;  // OpString
  spv::SourceLanguage source_language_ = spv::SourceLanguage::Unknown;
  // The text OpSource and OpSourceContinued carry, one entry per file, the
  // main file first (glslang adds one for each #include'd file after it).
  struct SourceText {
    std::string path;
    std::string text;
  };
  std::vector<SourceText> sources_;
  std::unordered_multimap<uint32_t, const ir::Instruction*> decorations_;
  std::unordered_map<const ir::Block*, const ir::Function*> functions_of_;
  // What index() learns of each instruction; one entry, not a map per fact,
  // and the location's file by number: a large module has a million.
  struct Indexed {
    size_t ordinal = 0;
    const ir::Block* block = nullptr;  // nullptr for globals
    uint32_t file = 0;  // 1 + index into location_files_; 0 when it has no location
    uint32_t line = 0, column = 0;
    uint32_t calls = 0;  // 1 + index into call_chains_; 0 when inlined from no call
  };
  std::unordered_map<const ir::Instruction*, Indexed> indexed_;
  std::vector<std::vector<InlinedCall>> call_chains_;
  std::vector<std::string> location_files_;
  std::optional<Location> indexed_location(const ir::Instruction& instruction) const;
  mutable std::vector<std::string> disassembly_;  // by ordinal - 1, made on first use
  mutable std::map<const ir::Function*, std::unique_ptr<FunctionAnalyses>> analyses_;
  mutable std::vector<std::string> budget_notes_;
};

}  // namespace klint
