// The verdict on a finding no run showed (runner/evidence.h): "not reproduced"
// only where the runs could have shown it. A subgroup-size finding needs runs
// at two sizes: a device that offers one (an NVIDIA GPU runs 32 lanes only)
// leaves it inconclusive. The runs here are stood in for; lavapipe's three
// sizes are checked by the confirm fixtures.
#include <gtest/gtest.h>

#include "rules/rule.h"
#include "runner/evidence.h"

namespace klint::runner {
namespace {

Observation completed_at(uint32_t subgroup_size) {
  Observation run;
  run.verdict = Verdict::Completed;
  run.subgroup_size = subgroup_size;
  run.device = "a GPU";
  return run;
}

Confirmation verdict_after(const std::vector<Observation>& runs) {
  Diagnostic finding;
  finding.rule = RuleRegistry::find("subgroup-size-assumed");
  finding.location = Location{"k.comp", 16};
  Reach reach;
  note_reach(RunEvidence::SubgroupSizeDependence, Instrumented{}, runs, Covered{}, reach);
  return unshown_verdict(finding, reach, {"grid 2,1,1"}, {}, "", "");
}

TEST(UnshownVerdict, ASubgroupSizeFindingRunAtOneSizeIsInconclusive) {
  const Confirmation one = verdict_after({completed_at(0)});
  EXPECT_EQ(one.status, Confirmation::Status::Inconclusive);
  EXPECT_EQ(one.summary, "every run that completed had the device's subgroup size, so nothing could differ between "
                         "sizes, with grid 2,1,1");
  EXPECT_EQ(one.details, std::vector<std::string>{"tried: grid 2,1,1"});
}

TEST(UnshownVerdict, ASubgroupSizeFindingRunAtSeveralSizesIsNotReproduced) {
  const Confirmation several = verdict_after({completed_at(4), completed_at(8), completed_at(16)});
  EXPECT_EQ(several.status, Confirmation::Status::NotReproduced);
  EXPECT_EQ(several.summary, "no difference between subgroup sizes and nothing on its lines with grid 2,1,1");
  // A device that offers its own size and one it can be asked for.
  EXPECT_EQ(verdict_after({completed_at(0), completed_at(64)}).status, Confirmation::Status::NotReproduced);
}

}  // namespace
}  // namespace klint::runner
