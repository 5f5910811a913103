#include <gtest/gtest.h>
#include <fstream>
#include <sstream>
#include <iostream>
#include "analyzer/uniformity.h"
#include "tests/support/compile.h"
namespace klint::testing {
TEST(ZzDebug, Trace) {
  std::ifstream in("/tmp/fp/b.comp"); std::stringstream ss; ss << in.rdbuf();
  auto m = module_from_glsl(ss.str());
  const ir::Function& f = m->functions().front();
  const Uniformity& u = m->uniformity(f);
  for (const ir::Block& b : f.blocks) for (const ir::Instruction& i : b.instructions) {
    if (!i.result_id()) continue;
    const Divergence* d = u.value(i.result_id());
    if (d) std::cout << m->disassemble(i) << "   <- kind " << int(d->kind) << " cause: " << (d->cause ? m->disassemble(*d->cause) : "") << "\n";
  }
}
}
