// aclgrphBuild*: a ge::Graph through the compiler into the bytes of a .om.
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

#include "build_options.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/model/compiled_model.h"
#include "ge/session/ge_ir_build.h"

namespace ge {
namespace {

struct BuildState {
  std::mutex mutex;
  session::Options global;
};

BuildState& State() {
  static BuildState state;
  return state;
}

}  // namespace

graphStatus aclgrphBuildInitialize(const std::map<AscendString, AscendString>& global_options) {
  return aclgrphBuildInitialize(session::FromAscend(global_options));
}

graphStatus aclgrphBuildInitialize(const std::map<std::string, std::string>& global_options) {
  std::lock_guard<std::mutex> lock(State().mutex);
  State().global = global_options;
  return GRAPH_SUCCESS;
}

void aclgrphBuildFinalize() {
  std::lock_guard<std::mutex> lock(State().mutex);
  State().global.clear();
}

graphStatus aclgrphBuildModel(const Graph& graph,
                              const std::map<AscendString, AscendString>& build_options,
                              ModelBufferData& model) {
  return aclgrphBuildModel(graph, session::FromAscend(build_options), model);
}

graphStatus aclgrphBuildModel(const Graph& graph,
                              const std::map<std::string, std::string>& build_options,
                              ModelBufferData& model) {
  session::Options global;
  {
    std::lock_guard<std::mutex> lock(State().mutex);
    global = State().global;
  }
  Result<std::string> bytes = CatchExceptions("aclgrphBuildModel", [&]() -> Result<std::string> {
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr compute_graph, graph.ToComputeGraph());
    GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler,
                        Compiler::Create(session::CompilerOptions(global, build_options)));
    GE_ASSIGN_OR_RETURN(CompiledModel compiled, compiler->Compile(compute_graph));
    return compiled.Serialize();
  });
  if (!bytes.ok()) {
    return ReportStatus(
        Status(bytes.status()).Prefix("aclgrphBuildModel of graph '" + graph.GetName() + "'"));
  }
  // The buffer is the serialized string itself (shared ownership), not a second copy of it.
  auto owner = std::make_shared<std::string>(std::move(bytes).value());
  model.length = owner->size();
  model.data = std::shared_ptr<uint8_t>(owner, reinterpret_cast<uint8_t*>(owner->data()));
  return GRAPH_SUCCESS;
}

graphStatus aclgrphSaveModel(const char* output_file, const ModelBufferData& model) {
  if (output_file == nullptr || *output_file == '\0') {
    return ReportStatus(ParamInvalid("aclgrphSaveModel: no output file name"));
  }
  return aclgrphSaveModel(std::string(output_file), model);
}

graphStatus aclgrphSaveModel(const std::string& output_file, const ModelBufferData& model) {
  if (model.data == nullptr || model.length == 0) {
    return ReportStatus(
        ParamInvalid("aclgrphSaveModel: the model buffer is empty (build it "
                     "with aclgrphBuildModel first)"));
  }
  std::string path = output_file;
  if (path.size() < 3 || path.compare(path.size() - 3, 3, ".om") != 0) path += ".om";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(model.data.get()),
            static_cast<std::streamsize>(model.length));
  out.close();
  if (!out) {
    return ReportStatus(
        Failed("aclgrphSaveModel: cannot write '" + path + "': " + std::strerror(errno)));
  }
  return GRAPH_SUCCESS;
}

}  // namespace ge
