// libFuzzer target over the loader: every input is read as a binary and as a text ModelDef. A
// crash, a sanitizer report, or a loaded graph that breaks an invariant is a finding:
//   - a loaded graph passes GraphVerifier,
//   - it saves, and what it saves loads and saves to the same bytes (save is a fixed point),
//   - DOT and JSON dumps of it do not crash.
// Failing loads must explain themselves (a non-empty message).
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "ge/graph/graph_verifier.h"
#include "ge/graph/serialize/graph_dump.h"
#include "ge/graph/serialize/model_serialize.h"

namespace {

[[noreturn]] void Finding(const char* what, const ge::Status& status) {
  std::fprintf(stderr, "model_load_fuzzer: %s: %s\n", what, status.ToString().c_str());
  std::abort();
}

void CheckLoaded(const ge::ComputeGraph& graph) {
  const ge::Status verified = ge::GraphVerifier::Verify(graph);
  if (!verified.ok()) Finding("a loaded graph fails GraphVerifier", verified);
  ge::Result<std::string> saved = ge::ModelSerialize::Serialize(graph);
  if (!saved.ok()) Finding("a loaded graph does not save", saved.status());
  ge::Result<ge::ComputeGraphPtr> again = ge::ModelSerialize::Deserialize(saved.value());
  if (!again.ok()) Finding("a saved graph does not load", again.status());
  ge::Result<std::string> resaved = ge::ModelSerialize::Serialize(*again.value());
  if (!resaved.ok()) Finding("a reloaded graph does not save", resaved.status());
  if (resaved.value() != saved.value()) {
    Finding("save(load(save(g))) differs from save(g)", ge::Status::Ok());
  }
  (void)ge::GraphDump::ToDot(graph);
  (void)ge::GraphDump::ToJson(graph);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (ge::SerializeFormat format : {ge::SerializeFormat::kBinary, ge::SerializeFormat::kText}) {
    ge::Result<ge::ComputeGraphPtr> graph = ge::ModelSerialize::Deserialize(bytes, format);
    if (graph.ok()) {
      CheckLoaded(*graph.value());
    } else if (graph.status().message().empty()) {
      Finding("a load failed without a message", graph.status());
    }
  }
  return 0;
}
