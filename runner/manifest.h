// A kernel manifest: what a [[kernel]] table of klint.toml says about running
// one kernel (docs/configuration.md): the shapes to try, and for each the
// grid, the sizes of its buffers' runtime arrays, its push constants and its
// specialization constants, as expressions of the shape's variables.
// driver/config_kernel.cpp reads it; this file turns it into harnesses.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "reflect/reflection.h"
#include "runner/expression.h"
#include "runner/harness.h"

namespace klint::runner {

// Where a name or value stands in the klint.toml, for errors found when the
// manifest meets the kernel's reflection.
struct ManifestLocation {
  uint32_t line = 0;
  uint32_t column = 0;
};

// `name = value`: a binding, push-constant member or specialization constant
// and its value.
struct ManifestSetting {
  std::string name;  // as written: a binding's name or "SET.BINDING", a member name, a constant's name or id
  Expression value;
  ManifestLocation name_at;
  ManifestLocation value_at;
};

// A value of `grid`.
struct ManifestValue {
  Expression value;
  ManifestLocation at;
};

// `expected = { binding = "pattern" }`.
struct ExpectedOutput {
  std::string binding;
  std::string pattern;  // relative to KernelManifest::dir; {var} stands for the shape's value of var
  ManifestLocation at;
};

struct KernelManifest {
  std::string config_path;  // the klint.toml, as messages name it
  std::filesystem::path dir;  // its directory, absolute
  ManifestLocation at;        // of the [[kernel]] header
  std::filesystem::path file;  // absolute, normalized
  std::optional<std::string> entry_point;  // nullopt: the first compute entry point
  std::optional<ManifestLocation> entry_point_at;
  std::vector<std::string> variables;
  std::vector<std::vector<Number>> matrix;  // one shape per row, each as long as `variables`; one empty row without
  std::vector<ManifestValue> grid;  // X, Y, Z; empty: (1,1,1), a guess
  std::vector<ManifestSetting> push_constants;
  std::vector<ManifestSetting> buffers;  // elements of each named binding's trailing runtime array
  std::vector<ManifestSetting> specialization;
  // Scalar members of uniform blocks by path ("frame.width"), written over
  // the buffer's seeded contents.
  std::vector<ManifestSetting> uniforms;
  uint64_t seed = 1;
  // Made by klint from how the kernel uses its inputs (runner/infer_setup.h),
  // not read from a klint.toml: its guesses say so, and nothing in it has a
  // location.
  bool inferred = false;
  std::optional<std::filesystem::path> reference;  // absolute
  std::vector<ExpectedOutput> expected;
};

// The matrix used when `variables` names exactly two variables and `matrix` is
// left out: row-wise shapes (rows, cols) from a single row to wide and tall
// ones, including sizes one past a power of two.
const std::vector<std::vector<Number>>& default_two_variable_matrix();

// Row `index` of the manifest's matrix as a Shape.
Shape shape_at(const KernelManifest& manifest, size_t index);

// "rows=1 cols=16"; "" without variables.
std::string describe_shape(const Shape& shape);

// `text` as a TOML basic string, for the klint.toml klint writes or prints:
// quotes, `"` and `\` escaped, control characters as \uXXXX.
std::string toml_string(std::string_view text);

// The compute entry point the manifest names, or the module's first. Fails
// with "klint.toml:LINE:COL: no compute entry point 'x' ..." when absent.
const reflect::EntryPoint* manifest_entry_point(const reflect::ModuleReflection& module,
                                                const KernelManifest& manifest, std::string* error);

// The harness for one shape. Buffers named in `buffers` get their trailing
// runtime array sized to the expression's elements (plus the block's fixed
// part); others keep default_harness's size, said in `guesses`. Contents are
// next_float() from manifest.seed in binding order, buffers the kernel only
// writes start as kSentinelWord. Push constants: each named member written at
// its offset in its type, members not named 0 (a guess). Specialization
// constants by id or name, in their reflected type; `grid` evaluated, else
// (1,1,1) (a guess). `options` sizes the bindings the manifest leaves out.
//
// Fails with one line "klint.toml:LINE:COL: reason": a name the kernel does
// not have (with did-you-mean against those it has), a value that does not
// fit its member or constant, a binding without a runtime array, a grid
// below 1, an expression that cannot be evaluated for this shape. `module`
// gives the specialization constants' names and types.
std::optional<Harness> manifest_harness(const reflect::EntryPoint& entry, const reflect::ModuleReflection& module,
                                        const KernelManifest& manifest, const Shape& shape,
                                        const HarnessOptions& options, std::string* error);

// The specialization constant `key` names: a constant_id, else a name. Fails
// with "no specialization constant 'x'; it has 0 (BLOCK_SIZE)", with a
// did-you-mean where a name is close.
const reflect::SpecializationConstant* find_specialization_constant(const reflect::ModuleReflection& module,
                                                                   const std::string& key, std::string* error);

// Writes `value` into the push-constant member `name` of the harness (whose
// push constants must be the block's size), in the member's type. Fails with
// a reason: no such member (with a did-you-mean), a member that is not a
// scalar, a value that does not fit it.
bool set_push_constant(const reflect::EntryPoint& entry, const std::string& name, const Number& value,
                       Harness& harness, std::string* error);

// A scalar type as reflection spells it ("uint16_t", "float"), as far as it
// can be written from a number; nullopt for others (vectors, structs).
struct ScalarType {
  bool is_float = false;
  bool is_signed = false;
  uint32_t bytes = 4;
};
std::optional<ScalarType> scalar_type(std::string_view type);

// The member of a block at `path` (member names, outermost first), with its
// offset from the block's start in `offset`; nullptr where there is none.
const reflect::Member* member_at(const std::vector<reflect::Member>& members, const std::vector<std::string>& path,
                                 uint32_t* offset);

// Writes `value` into the scalar member at `path` ("global_ubo.width", member
// names from the block down) of the first uniform block that has it, over the
// contents the harness gave that buffer. Fails with a reason: no uniform
// block has it, it is not a scalar, the value does not fit it.
bool set_uniform(const reflect::EntryPoint& entry, const std::string& path, const Number& value, Harness& harness,
                 std::string* error);

// Gives the constant `key` names `value` in its own type, replacing what the
// harness gave it. Fails with a reason when there is no such constant or the
// value does not fit it.
bool set_specialization(const reflect::ModuleReflection& module, const std::string& key, const Number& value,
                        Harness& harness, std::string* error);

// The workgroup size a dispatch of `harness` runs: the entry point's, with
// each dimension set by a specialization constant (local_size_x_id) as the
// harness sets that constant, else at its default.
std::array<uint32_t, 3> workgroup_size(const reflect::EntryPoint& entry, const Harness& harness);

// Sets dimension `axis` of the workgroup through its specialization
// constant; nothing for a dimension the module fixes.
void set_workgroup_size(const reflect::EntryPoint& entry, size_t axis, uint32_t value, Harness& harness);

// Gives every specialization constant the harness leaves out its declared
// default explicitly, and says so in the guesses. A pipeline given none takes
// the module's defaults, and those can disagree with what the source says:
// glslang gives `local_size_x_id` a constant of its own whose default is 1,
// beside the `constant_id` one the source declares with its value.
void give_default_specialization(const reflect::ModuleReflection& module, Harness& harness);

// The expected-output file for one shape: `output.pattern` with each {var}
// replaced by the shape's value (as describe_shape prints it), relative to the
// manifest's directory.
std::filesystem::path expected_file(const KernelManifest& manifest, const ExpectedOutput& output, const Shape& shape);

}  // namespace klint::runner
