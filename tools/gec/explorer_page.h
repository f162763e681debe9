// gec's side of the compile explorer: snapshots of the graph as each compiler stage ends, the
// compiled model's report and plan, a run's profile, and the page written from them.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ge/compiler/explorer.h"
#include "ge/runtime/loaded_model.h"
#include "gec.h"

namespace gec {

class ExplorerPage {
 public:
  /// A page to be written to `path`.
  ExplorerPage(size_t max_view_nodes, std::string path)
      : max_view_nodes_(max_view_nodes), path_(std::move(path)) {}

  /// Makes a compile with `flags` snapshot each stage and size each node's arithmetic. The
  /// callbacks put in `flags` point at this page, which must outlive the compile.
  void Attach(CompileFlags& flags);

  /// Keeps what the page shows of `compiled` (its report and root plan; the built graph when no
  /// compile was watched, as for a .om), before the model is handed to the runtime.
  void Keep(const ge::CompiledModel& compiled);

  /// Writes the page, titled by the model file's name; `profile` is a run's task times (empty:
  /// none).
  ge::Status Write(const std::string& model_path, const std::vector<ge::TaskTiming>& profile = {});

 private:
  size_t max_view_nodes_;
  std::string path_;
  std::vector<ge::explorer::GraphView> stages_;
  std::map<std::string, double> flops_;  ///< node -> arithmetic, from its engine
  ge::CompileReport report_;
  ge::memory::MemoryPlan plan_;
  bool has_report_ = false;
  bool has_plan_ = false;
};

}  // namespace gec
