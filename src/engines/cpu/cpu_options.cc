#include "cpu_options.h"

namespace ge::host_cpu {
namespace {

EngineOptionDef Choice(const char* key, std::vector<std::string> choices, const char* help) {
  EngineOptionDef def;
  def.key = key;
  def.type = EngineOptionDef::Type::kChoice;
  def.default_value = choices.front();
  def.choices = std::move(choices);
  def.help = help;
  return def;
}

}  // namespace

const EngineOptionDef& CpuLayoutOption() {
  static const EngineOptionDef kDef = Choice(
      "openge.cpuLayout", {"blocked", "plain"},
      "'blocked' runs convolution chains in NC1HWC0 (oneDNN's nChw16c) with TransData at their "
      "boundaries; 'plain' keeps every tensor NCHW");
  return kDef;
}

const EngineOptionDef& CpuWeightLayoutOption() {
  static const EngineOptionDef kDef = Choice(
      "openge.cpuWeightLayout", {"packed", "plain"},
      "'packed' stores Const weights of convolutions and matrix products in the layout oneDNN "
      "reads (no reorder at load, no second copy); 'plain' keeps the framework's");
  return kDef;
}

const EngineOptionDef& CpuConvAlgorithmOption() {
  static const EngineOptionDef kDef = Choice(
      "openge.cpuConvAlgorithm", {"auto", "direct"},
      "'auto' runs 3x3 stride-1 convolutions on maps of 14x14 or more with Winograd's algorithm "
      "where oneDNN has it (fewer multiplications, results within float rounding of the direct "
      "ones); 'direct' never does");
  return kDef;
}

std::vector<EngineOptionDef> CpuEngineOptions() {
  return {CpuLayoutOption(), CpuWeightLayoutOption(), CpuConvAlgorithmOption()};
}

}  // namespace ge::host_cpu
