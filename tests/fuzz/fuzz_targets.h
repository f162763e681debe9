// What each fuzzer does with one input, shared by the libFuzzer executables (fuzzer_main.cc, a
// clang build with OPENGE_FUZZ) and by the replay of the saved findings that every test build
// runs (fuzz_replay.cc). A target aborts, naming the broken invariant, when the input shows a
// bug; a crash or a sanitizer report is a finding as well. Inputs a target refuses are fine as
// long as the refusal says why (a non-empty message). Each returns true when the input went all
// the way (loaded and ran, parsed and compiled, ...), so a corpus can say how much it reaches.
#pragma once

#include <string_view>

namespace ge::fuzz {

/// GE's graph files (ModelSerialize, binary and text): a graph that loads passes GraphVerifier,
/// saves, and save(load(save(g))) == save(g); its DOT and JSON dumps do not crash.
bool GeLoad(std::string_view bytes);

/// An ONNX model (ParseOnnxBytes, no external data): a graph that parses passes GraphVerifier
/// and compiles, or the compiler says why not.
bool OnnxParse(std::string_view bytes);

/// A compiled model (.om): it loads or says why not; a model that loads runs on inputs made for
/// it (every unknown dim 2), or the run says why not.
bool OmRun(std::string_view bytes);

/// A .npy file: an array that parses serializes to bytes that parse to the same array.
bool Npy(std::string_view bytes);

/// A GE graph file (binary or text ModelDef, subgraphs nested to any depth): a graph that loads
/// compiles, or the compiler says why not; a compiled graph loads under a small memory limit and
/// runs on inputs made for it, or says why not.
bool GeRun(std::string_view bytes);

/// A pipeline .om (several stage models and their manifest): it loads or says why not; a
/// pipeline that loads under a small memory limit runs on inputs made from its manifest, or the
/// run says why not, and gives the manifest's outputs (count, dtype, shape).
bool PipelineRun(std::string_view bytes);

/// A caller's stored value: the first byte picks a DT_STRING tensor (StringsOf, its element
/// count from the second byte) or a sequence, optional or map (LoadComposite); what loads stores
/// again to the same value, and binding it for a run (StringStore::Bind) reads the same strings.
bool Values(std::string_view bytes);

using Target = bool (*)(std::string_view);

/// Every target's name, in the order scripts/fuzz.sh runs them.
inline constexpr std::string_view kTargetNames[] = {
    "ge_load", "ge_run", "onnx_parse", "om_run", "npy", "pipeline_run", "values"};

/// The target of that name (kTargetNames); null for any other name.
Target FindTarget(std::string_view name);

}  // namespace ge::fuzz
