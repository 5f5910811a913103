// Rewrites a kernel so that it logs every access to workgroup memory, every
// plain store to a storage buffer and every load from one inside a loop, into
// one extra storage buffer: the
// debug output buffer a person would add by hand to see who touched what,
// added by klint. runner/shadow.h reads the log back into findings.
//
// Each logged access is one record of kRecordWords words:
//   site         which instruction (an index into Instrumented::sites)
//   workgroup    the workgroup's linear index (x + y·nx + z·nx·ny)
//   invocation   gl_LocalInvocationIndex
//   element      workgroup memory: the first scalar the access touches, the
//                variable flattened into scalars in declaration order;
//                storage buffers: the byte offset in the binding
//   epoch        how many barriers that order workgroup memory this
//                invocation has passed (a control barrier of workgroup scope
//                or wider whose semantics include WorkgroupMemory)
//   value        the 32-bit value stored, loaded or returned by an atomic,
//                as bits; 0 for other types
//   out_of_range a bit per dynamic array index of the access chain that was
//                at or past its array's length (bit 0: the first index)
//   reserved     0
//
// Each control barrier that makes the workgroup wait logs a record of the
// same shape before it (kind Barrier: element and value 0), so that the
// reader can count how many times each invocation arrived; each conditional
// branch InstrumentOptions::branches names logs one before it (kind Branch:
// value 1 when the condition holds, else 0); each subgroup operation
// InstrumentOptions::group_operations names logs one before it (kind
// GroupOperation: element the invocation's lane, epoch gl_SubgroupSize,
// then the first three words of the ballot of the lanes active there).
//
// Records go where an atomic counter says, so their order is one the device
// really ran in: a write that a barrier makes visible to a read is logged
// before it. When the log is full the counter goes on counting and the
// records that do not fit all land in one spare record past the end, which
// the reader ignores; a full log is a prefix of the run, and what it shows
// still happened.
//
// Value probes (runner/probe.h) share the log. Each execution of a probed
// instruction appends one record:
//   site         kProbeSite | the probe's index into Instrumented::probes
//   workgroup    as above
//   invocation   as above
//   iteration    how many times this invocation recorded this probe before
//   components   words 4..7: the value's components as bits (bool: 0 or 1),
//                0 past the last
// The shadow reader skips them: their site is past every access site.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyzer/diagnostic.h"
#include "analyzer/module.h"
#include "runner/executor.h"

namespace klint::runner {

constexpr uint32_t kRecordWords = 8;
// Words before the records: the counter and the capacity.
constexpr uint32_t kLogHeaderWords = 2;

// Marks a probe record's site word.
constexpr uint32_t kProbeSite = 0x80000000u;

enum class AccessKind : uint8_t {
  Read,          // OpLoad from workgroup memory
  Write,         // OpStore to workgroup memory
  Atomic,        // an atomic on workgroup memory
  StorageWrite,  // a plain OpStore to a storage buffer
  StorageRead,   // an OpLoad from a storage buffer inside a loop
  Barrier,       // a control barrier that makes the workgroup wait, logged as an invocation arrives
  Branch,        // a conditional branch, logged with the condition's value
  GroupOperation,  // a subgroup operation, logged with the lanes active at it
};

enum class ValueType : uint8_t { None, Float, Int, Uint, Bool };

// One instrumented instruction.
struct AccessSite {
  AccessKind kind = AccessKind::Read;
  // Into Instrumented::workgroup for workgroup accesses, into
  // Instrumented::storage for storage writes.
  uint32_t target = 0;
  // Scalars (workgroup) or bytes (storage) the access covers; for a group
  // operation, the lanes of its group (4 for a quad, a cluster's size), 0
  // for the whole subgroup.
  uint32_t count = 0;
  ValueType value = ValueType::None;
  Location location;  // the nearest source line
  // The access's ordinal in the module given to instrument() (Module::ordinal),
  // 0 when instrumenting had to inline calls first and ordinals changed.
  size_t instruction = 0;
  // The dynamic array lengths the access chain checks, in out_of_range bit order.
  std::vector<uint64_t> lengths;
  // A workgroup access: the bytes of each scalar it moves (banks are words).
  uint32_t scalar_bytes = 4;
};

struct WorkgroupTarget {
  std::string name;
  uint64_t scalars = 0;       // the variable's size in scalars
  bool scalar_array = false;  // an array of scalars, whose elements are its scalars
  Location declaration;
};

struct StorageTarget {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::string name;
};

// FILE:LINE[:NAME], as runner/probe.h reads it.
struct ProbeRequest {
  std::string file;  // as the module's locations name it
  uint32_t line = 0;
  std::string name;   // empty: the line's own value
  std::string label;  // as the user wrote it, for headings
};

// One probe placed in the module.
struct ProbeSite {
  ProbeRequest request;
  ValueType value = ValueType::None;
  uint32_t components = 1;  // 1 for a scalar, else the vector's size (at most 4)
  std::string what;         // e.g. "the value stored to y"
  Location location;        // of the probed instruction
};

struct InstrumentOptions {
  uint32_t capacity = 1u << 18;  // records the log holds
  // The values the pipeline will specialize the module with: array lengths
  // and strides depend on them.
  std::vector<SpecializationValue> specialization;
  // Values to record (runner/probe.h); an unmatched probe fails instrument().
  std::vector<ProbeRequest> probes;
  // False: log the probes only, not the accesses shadow memory reads.
  bool accesses = true;
  // Conditional branches to log, by ordinal in the module given to
  // instrument() (Module::ordinal): the branches findings name, whose
  // direction explains who skipped a barrier.
  std::vector<size_t> branches;
  // Subgroup operations to log with the lanes active at them, by ordinal as
  // above: the operations findings name.
  std::vector<size_t> group_operations;
  // Loads and stores of storage buffers to log, by ordinal as above, where
  // they would not be (a load outside a loop, any access with `storage`
  // false): the accesses coalescing findings name.
  std::vector<size_t> storage_accesses;
  // False: log no access to workgroup memory, for runs whose findings are
  // about barriers, subgroup operations or storage buffers alone.
  bool workgroup = true;
  // False: log no storage-buffer access but those named. A run that
  // looks only at workgroup memory, barriers or subgroup operations leaves
  // them out: in a kernel that streams a matrix they are most of the records
  // and of the code lavapipe compiles.
  bool storage = true;
  // Log every subgroup operation, not only those named (`klint run --shadow`).
  bool all_group_operations = false;
  // Log each invocation's arrivals at every workgroup barrier (for a finding
  // of a barrier some skip, and `klint run --shadow`): lavapipe compiles a
  // barrier into a coroutine's suspension, and code beside it costs compile
  // time, so runs that need no arrivals leave them out.
  bool barriers = false;
  // Have the reader measure how each access spread over banks and cache
  // lines (ShadowReport::spreads), for a bank-conflict or coalescing finding.
  bool spreads = false;
};

struct Instrumented {
  std::vector<uint32_t> spirv;
  std::vector<AccessSite> sites;
  std::vector<WorkgroupTarget> workgroup;
  std::vector<StorageTarget> storage;
  uint32_t log_set = 0;  // the log's descriptor: a set no binding of the kernel uses, binding 0
  uint32_t capacity = 0;
  bool spreads = false;  // InstrumentOptions::spreads
  std::vector<ProbeSite> probes;  // in the order of InstrumentOptions::probes
  // The entry point's, after specialization: turns a local index into an id.
  std::array<uint32_t, 3> workgroup_size{1, 1, 1};
  // Accesses left as they were, one line each, e.g. "line 12: a store through
  // a pointer klint cannot follow to its variable".
  std::vector<std::string> skipped;
};

// Instruments every function of `spirv` (a valid module). `origin` names the
// file for locations, as klint::Module takes it. Fails with a reason for a
// module it cannot decode, or one that already uses every descriptor set the
// runner can give (eight).
std::optional<Instrumented> instrument(std::span<const uint32_t> spirv, const ModuleOrigin& origin,
                                       const InstrumentOptions& options, std::string* error);

// The log buffer to add to the harness: zeroed, with its capacity in word 1.
BufferSpec log_buffer(const Instrumented& instrumented);

}  // namespace klint::runner
