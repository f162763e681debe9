// Compiling a model as pipeline stages (ge/model/pipeline_model.h): the graph is optimized
// whole, its topological order is cut into stages of near-equal predicted time by the cost
// model (ge/compiler/cost_model.h), each cut where the fewest bytes cross it, and each stage is
// compiled as a model of its own.
#pragma once

#include <map>
#include <string>

#include "ge/compiler/compiler.h"
#include "ge/graph/compute_graph.h"
#include "ge/graph/status.h"
#include "ge/graph/visibility.h"
#include "ge/model/pipeline_model.h"

namespace ge {

/// Compiles `graph` (in place; copy it to keep it) with `options` cut into `stages` stages.
///
/// The graph goes through the prepare and optimize stages whole (so shape arithmetic folds and
/// fusion sees every pattern), then its top-level nodes, in topological order, are cut into
/// `stages` runs: each cut lies within 15% of a stage's share of the predicted time from where
/// an equal split would put it, at the place where the fewest bytes are live across it. A node
/// goes with its subgraphs; a weight goes to every stage that reads it. Each stage's graph reads
/// what it needs from earlier stages (and the model's inputs) as inputs and writes what later
/// stages need as outputs, and is compiled with `options` (without ge.inputShape, its shapes
/// being fixed) as its own model. The graph's shapes must all be known. `progress`, when given,
/// is told each stage's passes.
GE_API Result<PipelineModel> CompilePipeline(const std::map<std::string, std::string>& options,
                                             const ComputeGraphPtr& graph, int stages,
                                             const Compiler::ProgressFn& progress = {});

}  // namespace ge
