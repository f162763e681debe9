// The one logger: GE's levels in GE's order, from ASCEND_GLOBAL_LOG_LEVEL or a tool's flag.
#include "ge/graph/log.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace ge {
namespace {

TEST(Log, LevelsParseByNameOrGesNumber) {
  EXPECT_EQ(*ParseLogLevel("debug"), LogLevel::kDebug);
  EXPECT_EQ(*ParseLogLevel("INFO"), LogLevel::kInfo);
  EXPECT_EQ(*ParseLogLevel("Warning"), LogLevel::kWarning);
  EXPECT_EQ(*ParseLogLevel("3"), LogLevel::kError);
  EXPECT_EQ(*ParseLogLevel("4"), LogLevel::kNone);
  auto bad = ParseLogLevel("loud");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("log level 'loud'"), std::string::npos);
  EXPECT_FALSE(ParseLogLevel("5").ok());
}

TEST(Log, TheThresholdDecidesAndReachesTheEnvironment) {
  SetLogThreshold(LogLevel::kInfo);
  EXPECT_STREQ(std::getenv("ASCEND_GLOBAL_LOG_LEVEL"), "1");  // for plugins loaded later
  EXPECT_TRUE(LogEnabled(LogLevel::kInfo));
  EXPECT_TRUE(LogEnabled(LogLevel::kError));
  EXPECT_FALSE(LogEnabled(LogLevel::kDebug));
  testing::internal::CaptureStderr();
  Log(LogLevel::kInfo, "[Load][Engine] cpu");
  Log(LogLevel::kDebug, "not shown");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "[GE][INFO] [Load][Engine] cpu\n");
  SetLogThreshold(LogLevel::kNone);
  EXPECT_FALSE(LogEnabled(LogLevel::kError));
  EXPECT_FALSE(LogEnabled(LogLevel::kNone));
  SetLogThreshold(LogLevel::kError);
}

}  // namespace
}  // namespace ge
