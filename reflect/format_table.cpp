#include <fmt/core.h>

#include <algorithm>

#include "reflect/format.h"

namespace klint::reflect {
namespace {

// Names come from OpName, which a hand-written module may fill with anything:
// control characters would reach the terminal.
std::string printable(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

// Columns as wide as their widest cell, two spaces apart, no trailing blanks.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }

  void print(std::ostream& out, std::string_view indent) const {
    std::vector<size_t> widths;
    for (const auto& row : rows_) {
      widths.resize(std::max(widths.size(), row.size()));
      for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    }
    for (const auto& row : rows_) {
      std::string line(indent);
      for (size_t i = 0; i < row.size(); ++i) {
        line += row[i];
        if (i + 1 < row.size()) line.append(widths[i] - row[i].size() + 2, ' ');
      }
      line.erase(line.find_last_not_of(' ') + 1);
      out << line << '\n';
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

std::string join(const std::vector<std::string>& items) {
  if (items.empty()) return "-";
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + printable(item);
  return out;
}

std::string ops_text(const MemoryOps& ops) {
  if (ops.scalar == 0 && ops.vector == 0) return "-";
  std::string out;
  if (ops.scalar) out = fmt::format("{} scalar", ops.scalar);
  if (ops.vector) out += fmt::format("{}{} vector", out.empty() ? "" : " + ", ops.vector);
  return fmt::format("{} ({}-bit)", out, ops.widest_bits);
}

std::string workgroup_size_text(const std::optional<std::array<WorkgroupDimension, 3>>& size) {
  if (!size) return "unknown";
  const auto& [x, y, z] = *size;
  std::string out = fmt::format("{} x {} x {}", x.value, y.value, z.value);
  std::vector<std::string> from;
  const char* axes[] = {"x", "y", "z"};
  for (size_t i = 0; i < 3; ++i) {
    if (!(*size)[i].spec_id) continue;
    from.push_back(fmt::format("{} from specialization constant {}{}", axes[i], *(*size)[i].spec_id,
                               (*size)[i].default_declared ? "" : ", no default declared: 1 assumed"));
  }
  if (!from.empty()) out += " (" + join(from) + ")";
  return out;
}

std::string value_text(const ConstantValue& value) {
  if (auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (auto* i = std::get_if<int64_t>(&value)) return fmt::format("{}", *i);
  if (auto* u = std::get_if<uint64_t>(&value)) return fmt::format("{}", *u);
  std::string text = fmt::format("{}", std::get<double>(value));
  // A float default reads as one: 1.0, not 1.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

void add_members(Table& table, const std::vector<Member>& members, int depth) {
  for (const Member& member : members) {
    std::vector<std::string> layout;
    if (member.array_stride) layout.push_back(fmt::format("array stride {}", *member.array_stride));
    if (member.matrix_stride) layout.push_back(fmt::format("matrix stride {}", *member.matrix_stride));
    if (member.row_major) layout.push_back("row-major");
    table.add({std::to_string(member.offset), std::to_string(member.size), printable(member.type),
               std::string(2 * depth, ' ') + printable(member.name), layout.empty() ? "" : join(layout)});
    add_members(table, member.members, depth + 1);
  }
}

// "0 bytes + 16 per element" for a block that ends in a runtime array: the
// size of a buffer of n elements is what the host needs.
std::string block_size_text(const BlockLayout& block) {
  std::string text = fmt::format("{} bytes", block.size);
  if (!block.members.empty()) {
    const Member& last = block.members.back();
    if (last.array_stride && last.type.ends_with("[]")) text += fmt::format(" + {} per element", *last.array_stride);
  }
  return text;
}

void print_block(std::ostream& out, const std::string& title, const BlockLayout& block) {
  out << fmt::format("\n  {}: block {}, {}\n", title, printable(block.type_name), block_size_text(block));
  Table table({"offset", "size", "type", "name", "layout"});
  add_members(table, block.members, 0);
  table.print(out, "    ");
}

void print_entry_point(std::ostream& out, const std::string& path, const EntryPoint& entry) {
  out << fmt::format("{}: entry point {}\n", printable(path), printable(entry.name));
  const WorkgroupMemory& memory = entry.workgroup_memory;
  Table summary({"workgroup size", workgroup_size_text(entry.workgroup_size)});
  summary.add({"workgroup memory", fmt::format("{} bytes", memory.total_bytes)});
  summary.add({"barriers", fmt::format("{} workgroup, {} memory", entry.barriers.workgroup, entry.barriers.memory)});
  summary.print(out, "  ");

  if (!entry.occupancy.empty()) {
    out << "\n  occupancy (workgroups resident per compute unit)\n";
    Table table({"target", "fits", "resident", "limited by"});
    for (const Residency& r : entry.occupancy) {
      table.add({r.target, r.fits ? "yes" : "no", r.resident_workgroups ? std::to_string(*r.resident_workgroups) : "-",
                 r.limited_by.empty() ? "-" : r.limited_by});
    }
    table.print(out, "    ");
  }

  if (!entry.bindings.empty()) {
    out << "\n  bindings\n";
    Table table({"set", "binding", "type", "name", "count", "declared", "access", "loads", "stores", "atomics"});
    for (const Binding& b : entry.bindings) {
      bool buffer = b.block.has_value();
      table.add({std::to_string(b.set), std::to_string(b.binding), std::string(to_string(b.type)), printable(b.name),
                 b.array_size == 0 ? "unbounded" : std::to_string(b.array_size), std::string(to_string(b.declared)),
                 std::string(to_string(b.access)), buffer ? ops_text(b.loads) : "", buffer ? ops_text(b.stores) : "",
                 !buffer ? "" : b.atomics ? std::to_string(b.atomics) : "-"});
    }
    table.print(out, "    ");
    for (const Binding& b : entry.bindings) {
      if (b.block) print_block(out, fmt::format("set {} binding {} {}", b.set, b.binding, printable(b.name)), *b.block);
    }
  }
  if (entry.push_constants) {
    print_block(out, fmt::format("push constants {} ({})", printable(entry.push_constants->name),
                                 to_string(entry.push_constants->access)),
                entry.push_constants->block);
  }
  if (!memory.variables.empty()) {
    out << "\n  workgroup variables\n";
    Table table({"name", "type", "bytes", "used"});
    for (const WorkgroupVariable& v : memory.variables) {
      table.add({printable(v.name), printable(v.type), v.bytes ? std::to_string(*v.bytes) : "?", v.used ? "yes" : "no"});
    }
    table.print(out, "    ");
  }
}

void print_module(std::ostream& out, const ReflectedFile& file) {
  const ModuleReflection& module = file.module;
  out << fmt::format("{}: module\n", printable(file.path));
  Table summary({"capabilities", join(module.capabilities)});
  summary.add({"extensions", join(module.extensions)});
  summary.add({"subgroup operations", join(module.features.subgroup_operations)});
  summary.add({"arithmetic types", join(module.features.arithmetic_types)});
  summary.add({"8/16-bit storage", join(module.features.storage)});
  summary.print(out, "  ");
  if (!module.specialization_constants.empty()) {
    out << "\n  specialization constants\n";
    Table table({"id", "name", "type", "default"});
    for (const SpecializationConstant& c : module.specialization_constants) {
      table.add({std::to_string(c.id), printable(c.name), printable(c.type), value_text(c.default_value)});
    }
    table.print(out, "    ");
  }
}

}  // namespace

void write_table(std::ostream& out, const std::vector<ReflectedFile>& files) {
  bool first = true;
  for (const ReflectedFile& file : files) {
    for (const EntryPoint& entry : file.module.entry_points) {
      out << (first ? "" : "\n");
      first = false;
      print_entry_point(out, file.path, entry);
    }
    out << (first ? "" : "\n");
    first = false;
    print_module(out, file);
  }
}

}  // namespace klint::reflect
