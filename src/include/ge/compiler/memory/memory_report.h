// Reports of a memory plan: a text summary, JSON, an SVG picture and a PNG of it.
#pragma once

#include <string>

#include "ge/compiler/memory/plan_options.h"
#include "ge/compiler/memory_plan_json.h"  // the same summary as JSON
#include "ge/graph/status.h"

namespace ge::memory {

/// A readable summary: arena, lower bound, ratio, per strategy, the peak step and its tensors.
std::string FormatMemoryPlanText(const MemoryPlan& plan);

/// The arena as a picture: time across, offset up, one rectangle per arena block (class
/// "tensor"), coloured by op type, the peak step marked (element id "peak-step").
std::string MemoryPlanToSvg(const MemoryPlan& plan);

/// Writes the SVG converted to PNG with `rsvg-convert` or ImageMagick `convert` from PATH; without
/// either, an error saying which package to install.
Status WriteMemoryPlanPng(const MemoryPlan& plan, const std::string& path);

}  // namespace ge::memory
