// Options of the build and session calls in GE's spelling, turned into the compiler's.
#pragma once

#include <map>
#include <string>

#include "ge/api/ascend_string.h"
#include "ge/graph/status.h"

namespace ge::session {

using Options = std::map<std::string, std::string>;

Options FromAscend(const std::map<AscendString, AscendString>& options);

/// `base` with `over` on top, GE's build option names ("input_shape") renamed to the compiler's
/// ("ge.inputShape") and the ones without effect here ("soc_version", "log") dropped.
Options CompilerOptions(const Options& base, const Options& over);

/// The engine and prototype library options the runtime needs of `options`.
Options RuntimeOptionsOf(const Options& options);

}  // namespace ge::session
