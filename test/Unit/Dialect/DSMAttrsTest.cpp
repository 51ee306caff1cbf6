//===- DSMAttrsTest.cpp - unit tests of dsm attributes and types ----------===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dsm;

namespace {

class DSMAttrsTest : public ::testing::Test {
protected:
  DSMAttrsTest() { ctx.loadDialect<DSMDialect>(); }

  ScheduleAttr parseSchedule(StringRef text) {
    return dyn_cast_or_null<ScheduleAttr>(parseAttribute(text, &ctx));
  }

  MLIRContext ctx;
};

// The paper's Fig. 7 examples: (2,4,2,4) gives shuffle 2 and reduce 2;
// (2,4,2,8) gives shuffle 4 and reduce 1.
TEST_F(DSMAttrsTest, Fig7GroupSizes) {
  ScheduleAttr a = parseSchedule(
      "#dsm.schedule<cluster = [2, 4, 2, 4], block = [128, 128, 128, 128], "
      "grid = [1, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, k, l], "
      "residency = [dsm], collectives = [all_exchange, shuffle, "
      "reduce_scatter], stages = 2, cost_ns = 1000>");
  ASSERT_TRUE(a);
  EXPECT_EQ(a.getClusterSize(), 16);
  EXPECT_EQ(a.getShuffleGroupSize(), 2);
  EXPECT_EQ(a.getReduceGroupSize(), 2);

  ScheduleAttr b = parseSchedule(
      "#dsm.schedule<cluster = [2, 4, 2, 8], block = [128, 128, 128, 128], "
      "grid = [1, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, k, l], "
      "residency = [dsm], collectives = [all_exchange, shuffle], stages = 2, "
      "cost_ns = 1000>");
  ASSERT_TRUE(b);
  EXPECT_EQ(b.getShuffleGroupSize(), 4);
  EXPECT_EQ(b.getReduceGroupSize(), 1);
  EXPECT_TRUE(b.uses(CollectiveKind::shuffle));
  EXPECT_FALSE(b.uses(CollectiveKind::reduce_scatter));
  EXPECT_TRUE(b.isSpatial(LoopDim::l));
}

TEST_F(DSMAttrsTest, ScheduleTableLookup) {
  auto table = dyn_cast_or_null<ScheduleTableAttr>(parseAttribute(
      "#dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], "
      "block = [64, 64, 64, 64], grid = [1, 1, 1, 1], order = [m, n, k, l], "
      "spatial = [m], residency = [smem], collectives = [], stages = 2, "
      "cost_ns = 1000, m_lo = 1, m_hi = 64>, #dsm.schedule<cluster = [1, 1, 1, 1], "
      "block = [128, 64, 64, 64], grid = [1, 1, 1, 1], order = [m, n, k, l], "
      "spatial = [m], residency = [smem], collectives = [], stages = 3, "
      "cost_ns = 2000, m_lo = 65, m_hi = 4096>]>",
      &ctx));
  ASSERT_TRUE(table);
  EXPECT_EQ(table.lookup(1).getBlock()[0], 64);
  EXPECT_EQ(table.lookup(64).getBlock()[0], 64);
  EXPECT_EQ(table.lookup(65).getBlock()[0], 128);
  EXPECT_EQ(table.lookup(4096).getStages(), 3);
  EXPECT_FALSE(table.lookup(4097));
}

TEST_F(DSMAttrsTest, BufferPieces) {
  auto buf = dyn_cast_or_null<BufferType>(
      parseType("!dsm.buffer<128x1024xbf16, split = [1, 4]>", &ctx));
  ASSERT_TRUE(buf);
  EXPECT_EQ(buf.getNumPieces(), 4);
  EXPECT_EQ(buf.getPieceShape(), (SmallVector<int64_t>{128, 256}));
  EXPECT_EQ(buf.getPieceBytes(), 128 * 256 * 2);
}

} // namespace
