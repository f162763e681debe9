// Strings from untrusted files: UTF-8 checks, messages, and text put into pages.
#include "ge/graph/utils/string_utils.h"

#include <gtest/gtest.h>

namespace ge {
namespace {

TEST(StringUtils, EscapeMarkupLeavesNoTagOrAttributeOpen) {
  EXPECT_EQ(EscapeMarkup(R"(<b a="1" c='2'>&</b>)"),
            "&lt;b a=&quot;1&quot; c=&apos;2&apos;&gt;&amp;&lt;/b&gt;");
  EXPECT_EQ(EscapeMarkup("plain /name:0"), "plain /name:0");
  EXPECT_EQ(EscapeMarkup(""), "");
  // Bytes that are not markup, UTF-8 included, pass through.
  EXPECT_EQ(EscapeMarkup("\xc3\xa9t\xc3\xa9"), "\xc3\xa9t\xc3\xa9");
}

TEST(StringUtils, IsValidUtf8RefusesMalformedBytes) {
  EXPECT_TRUE(IsValidUtf8("ascii and \xc3\xa9"));
  EXPECT_FALSE(IsValidUtf8("\xc3"));          // cut short
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));  // a surrogate
}

}  // namespace
}  // namespace ge
