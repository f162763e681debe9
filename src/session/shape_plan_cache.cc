// ShapePlanCache: plans by input shapes, most recently used first, each compiled once.
#include "ge/session/shape_plan_cache.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <future>
#include <list>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ge/compiler/compile_options.h"
#include "ge/compiler/compiler.h"
#include "ge/graph/file_bytes.h"
#include "ge/graph/node.h"
#include "ge/graph/op_desc.h"
#include "ge/graph/op_types.h"
#include "ge/graph/sym_expr.h"
#include "ge/graph/types.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "shape_buckets.h"

namespace ge {
namespace {

using session_internal::Bucket;
using session_internal::ParseBuckets;
using session_internal::Resized;

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

Result<int64_t> LimitOption(const std::map<std::string, std::string>& options, const char* key,
                            int64_t fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  const std::string& text = it->second;
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 0) {
    return ParamInvalid("option " + std::string(key) + "='" + text +
                        "': expected a whole number, 0 or more");
  }
  return value;
}

// Operators whose state outlives a run: every plan would hold a copy of its own.
bool KeepsState(const std::string& type) {
  return type == kTypeVariable || type == "Stack" || type == "StackPush" || type == "StackPop" ||
         type == "StackClose";
}

// Making a compiler or loading a model initializes the engine plugins, whose state is the
// process's: one at a time.
std::mutex& CompileMutex() {
  static std::mutex compiling;
  return compiling;
}

bool HasState(const ComputeGraph& graph) {
  for (const NodePtr& node : graph.GetAllNodes()) {
    if (KeepsState(node->GetType())) return true;
  }
  return false;
}

bool IsKnown(const std::vector<int64_t>& dims) {
  return std::none_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text;
}

// The byte buffers of the graph's weights (Const values, subgraphs' too).
std::unordered_set<const uint8_t*> WeightBuffers(const ComputeGraph& graph) {
  std::unordered_set<const uint8_t*> buffers;
  for (const NodePtr& node : graph.GetAllNodes()) {
    if (!IsConstType(node->GetType())) continue;
    auto value = OpDescUtils::GetConstValue(*node);
    if (value.ok() && value->GetSize() > 0) buffers.insert(value->GetStoredData().data());
  }
  return buffers;
}

// The weights of `graph` that are not in `shared`, by buffer (each once) with their bytes: what
// a plan compiled from a copy adds to the graph it was copied from (folded and packed weights;
// packed ones may be another plan's too, the CPU engine packing a file's weight once).
std::map<const uint8_t*, int64_t> WeightsBeyond(const ComputeGraph& graph,
                                                const std::unordered_set<const uint8_t*>& shared) {
  std::map<const uint8_t*, int64_t> weights;
  for (const NodePtr& node : graph.GetAllNodes()) {
    if (!IsConstType(node->GetType())) continue;
    auto value = OpDescUtils::GetConstValue(*node);
    if (!value.ok() || value->GetSize() == 0) continue;
    const uint8_t* data = value->GetStoredData().data();
    if (shared.count(data) == 0) weights.emplace(data, static_cast<int64_t>(value->GetSize()));
  }
  return weights;
}

// A Const's name in every copy of its graph (CopyComputeGraph keeps graph and node names).
std::string ConstKey(const Node& node) {
  const ComputeGraphPtr owner = node.GetOwnerComputeGraph();
  return (owner == nullptr ? std::string() : owner->GetName()) + '\n' + node.GetName();
}

// The model's names of the dims of `desc` (kAttrSymbolicDims), one per dim, "" where unnamed.
std::vector<std::string> DimNames(const GeTensorDesc& desc, size_t rank) {
  std::vector<std::string> names;
  (void)AttrUtils::GetListStr(desc, kAttrSymbolicDims, names);
  names.resize(rank);
  return names;
}

}  // namespace

Result<std::vector<GeTensor>> ShapePlan::Run(const std::vector<GeTensor>& inputs) const {
  if (model_ == nullptr)
    return ParamInvalid("ShapePlan: an empty plan (from no lookup) runs nothing");
  if (pads_.empty()) return model_->Run(inputs);
  std::vector<GeTensor> padded = inputs;
  for (const Pad& pad : pads_) {
    const std::string what = "input " + std::to_string(pad.input);
    if (pad.input >= inputs.size() ||
        inputs[pad.input].GetTensorDesc().GetShape().GetDims() != pad.real) {
      return ParamInvalid("ShapePlan for " + shapes_ + ": " + what + " is not " +
                          GeShape(pad.real).ToString() + ", the shape it was looked up for");
    }
    GE_ASSIGN_OR_RETURN(padded[pad.input], Resized(inputs[pad.input], pad.padded, what));
  }
  GE_ASSIGN_OR_RETURN(std::vector<GeTensor> outputs, model_->Run(padded));
  std::map<size_t, std::vector<int64_t>> cut_dims;  // output → the dims it is cut to
  for (const Cut& cut : cuts_) {
    if (cut.output >= outputs.size()) continue;
    auto [it, first] =
        cut_dims.emplace(cut.output, outputs[cut.output].GetTensorDesc().GetShape().GetDims());
    std::vector<int64_t>& dims = it->second;
    if (cut.dim >= dims.size() || dims[cut.dim] != cut.padded) {
      return InternalError(
          "ShapePlan for " + shapes_ + ": output " + std::to_string(cut.output) + " is " +
          GeShape(outputs[cut.output].GetTensorDesc().GetShape().GetDims()).ToString() + ", not " +
          std::to_string(cut.padded) + " at dim " + std::to_string(cut.dim) +
          " as its dim names say: the padding cannot be cut back");
    }
    dims[cut.dim] = cut.real;
  }
  for (const auto& [output, dims] : cut_dims) {
    GE_ASSIGN_OR_RETURN(outputs[output],
                        Resized(outputs[output], dims, "output " + std::to_string(output)));
  }
  return outputs;
}

struct ShapePlanCache::Impl {
  // One set of input shapes: compiled by the first run that asked for it; the others wait on
  // `ready`. Fields below `ready` are written before it is set and only read after.
  struct Plan {
    std::string key;
    std::shared_future<void> ready;
    Status status;
    std::shared_ptr<LoadedModel> model;
    ShapePlanInfo info;       // info.bytes: what dropping it would free (BytesLocked)
    int64_t fixed_bytes = 0;  // arena and kernel scratch
    std::map<const uint8_t*, int64_t> weights;  // WeightsBeyond the graph's, by buffer
  };
  using PlanPtr = std::shared_ptr<Plan>;

  // A weight the graph holds as its desc only: its bytes are a copy of bytes in the model's
  // file (GeTensor::FileSource), which each compile copies again unless a plan alive holds
  // them. A plan that packs the weight drops the copy as it packs, so a plan costs what the
  // static model does, never a weight beside its packed form. The copy the parser made waits
  // for the first plan, which takes it: that plan copies nothing, as a static compile.
  struct FileWeight {
    std::shared_ptr<const uint8_t> source;
    size_t size = 0;
    mutable std::weak_ptr<const uint8_t> live;      // the copy the plans alive share
    mutable std::shared_ptr<const uint8_t> parked;  // the parser's copy, until a plan takes it
  };

  ComputeGraphPtr graph;
  std::map<std::string, FileWeight> file_weights;    // by ConstKey
  std::unordered_set<const uint8_t*> graph_weights;  // WeightBuffers(*graph)
  std::map<std::string, std::string> compile_options;
  RuntimeOptions runtime;
  std::vector<IoInfo> inputs;
  std::vector<IoInfo> outputs;
  // The model's names of each input's and output's dims (DimNames), outputs in run order.
  std::vector<std::vector<std::string>> input_dims;
  std::vector<std::vector<std::string>> output_dims;
  std::vector<std::string> output_names;
  std::map<std::string, Bucket> buckets;  // openge.shapeBuckets
  bool specializes = false;
  size_t max_entries = 8;
  int64_t max_bytes = 0;

  mutable std::mutex mutex;  // guards everything below
  std::list<PlanPtr> order;  // most recently used first
  std::unordered_map<std::string, std::list<PlanPtr>::iterator> by_key;
  ShapePlanStats totals;  // `plans` left empty: Stats() fills it from `order`

  // What a lookup finds out about the inputs it is given.
  struct Lookup {
    // "name:d0,d1;..." for the inputs whose dims the graph leaves to run time, rounded up to
    // their buckets: the plan's key and its ge.inputShape.
    std::string key;
    std::vector<ShapePlan::Pad> pads;
    std::map<std::string, std::pair<int64_t, int64_t>> sizes;  // bucketed dim: real, padded
  };

  // The Lookup of `given`, checked against the graph (count, rank, every known dim, and one
  // size for a bucketed name), so a misfit is refused before any compile.
  Result<Lookup> LookUp(const std::vector<GeTensor>& given) const {
    Lookup lookup;
    if (!specializes) return lookup;  // one plan; its model checks the inputs
    if (given.size() != inputs.size()) {
      return ParamInvalid("the graph has " + std::to_string(inputs.size()) + " input(s), " +
                          std::to_string(given.size()) + " given");
    }
    std::map<std::string, size_t> sized_by;  // bucketed dim name → the input that gave its size
    for (size_t i = 0; i < inputs.size(); ++i) {
      const IoInfo& want = inputs[i];
      if (IsKnown(want.dims)) continue;
      const GeShape& shape = given[i].GetTensorDesc().GetShape();
      const std::vector<int64_t>& dims = shape.GetDims();
      const bool any_rank = want.dims.size() == 1 && want.dims[0] == UNKNOWN_DIM_NUM;
      bool fits = IsKnown(dims) && !shape.IsUnknownDimNum() &&
                  (any_rank || dims.size() == want.dims.size());
      for (size_t d = 0; fits && !any_rank && d < dims.size(); ++d) {
        fits = want.dims[d] < 0 || want.dims[d] == dims[d];
      }
      if (!fits) {
        return ParamInvalid("input '" + want.name + "' (index " + std::to_string(i) + ") is " +
                            shape.ToString() + "; the graph wants " +
                            GeShape(want.dims).ToString() + " (-1: any size)");
      }
      std::vector<int64_t> padded = dims;
      for (size_t d = 0; !buckets.empty() && !any_rank && d < dims.size(); ++d) {
        const std::string& name = input_dims[i][d];
        auto bucket = buckets.find(name);
        if (bucket == buckets.end()) continue;
        padded[d] = bucket->second.SizeFor(dims[d]);
        auto [seen, first] = lookup.sizes.emplace(name, std::make_pair(dims[d], padded[d]));
        if (first) {
          sized_by[name] = i;
        } else if (seen->second.first != dims[d]) {
          return ParamInvalid(
              "input '" + want.name + "' (index " + std::to_string(i) + ") is " + shape.ToString() +
              ", its dim " + std::to_string(d) + " '" + name + "' " + std::to_string(dims[d]) +
              ", but input '" + inputs[sized_by[name]].name + "' gives '" + name + "' " +
              std::to_string(seen->second.first) + ": dims of one name are one size");
        }
      }
      if (padded != dims) lookup.pads.push_back({i, dims, padded});
      lookup.key += (lookup.key.empty() ? "" : ";") + want.name + ":" + DimsText(padded);
    }
    return lookup;
  }

  // The plan `lookup` found, running `model`: it pads the inputs and cuts back every output dim
  // that bears the name of a padded one.
  ShapePlan PlanOf(const Lookup& lookup, const std::shared_ptr<LoadedModel>& model) const {
    ShapePlan plan;
    plan.model_ = model;
    plan.shapes_ = lookup.key;
    plan.pads_ = lookup.pads;
    for (size_t o = 0; !plan.pads_.empty() && o < output_dims.size(); ++o) {
      for (size_t d = 0; d < output_dims[o].size(); ++d) {
        auto size = lookup.sizes.find(output_dims[o][d]);
        if (size == lookup.sizes.end() || size->second.first == size->second.second) continue;
        plan.cuts_.push_back({o, d, size->second.second, size->second.first});
      }
    }
    return plan;
  }

  // Compiles a copy of the graph for the shapes `key` names and loads it. One plan at a time in
  // the process: making a compiler or loading a model initializes the engine plugins, whose
  // state is the process's. Runs of plans made already go on meanwhile.
  void Specialize(Plan& plan) const {
    std::lock_guard<std::mutex> one_at_a_time(CompileMutex());
    plan.status = CatchExceptions("ShapePlanCache", [&]() -> Status {
      auto start = std::chrono::steady_clock::now();
      std::unordered_set<const uint8_t*> shared = graph_weights;
      GE_ASSIGN_OR_RETURN(CompiledModel compiled, CompileCopyLocked(plan.key, shared));
      plan.info.compile_millis = MillisSince(start);
      // The copy shares the weights it did not change with the graph and the plans alive.
      plan.weights = WeightsBeyond(*compiled.graph, shared);
      start = std::chrono::steady_clock::now();
      GE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> model,
                          LoadedModel::Load(std::move(compiled), runtime));
      plan.info.load_millis = MillisSince(start);
      plan.fixed_bytes = model->arena_bytes() + model->workspace_bytes();
      plan.info.dynamic = model->runs_dynamically();
      plan.model = std::move(model);
      return Status::Ok();
    });
    if (!plan.status.ok()) {
      if (!plan.key.empty()) {
        plan.status.Prefix("compiling for the input shapes " + plan.key +
                           (buckets.empty()
                                ? std::string()
                                : " (rounded up by " + std::string(kOptShapeBuckets) + ")"));
      }
      plan.info.error = plan.status.message();
    }
  }

  // A copy of the graph (the weights DropFileWeights took given back, their buffers added to
  // `shared`) compiled for the input shapes `key` names, or for any shape when it is "". Under
  // the compile lock.
  Result<CompiledModel> CompileCopyLocked(const std::string& key,
                                          std::unordered_set<const uint8_t*>& shared) const {
    std::map<std::string, std::string> options = compile_options;
    if (!key.empty()) options[kOptInputShape] = key;
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(graph));
    RestoreFileWeights(*copy, shared);
    GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(options));
    return compiler->Compile(copy);
  }

  // Takes the bytes of every weight of the graph that is a copy out of the model's file and that
  // the graph alone holds into file_weights (parked for the first plan): later plans copy them
  // again while they need them. Weights a caller's graph shares stay as they are, and so do
  // small ones, not worth copying twice.
  void DropFileWeights() {
    constexpr size_t kWorthDropping = size_t{64} << 10;
    std::map<std::string, int> seen;
    for (const NodePtr& node : graph->GetAllNodes()) {
      if (IsConstType(node->GetType())) ++seen[ConstKey(*node)];
    }
    for (const NodePtr& node : graph->GetAllNodes()) {
      if (!IsConstType(node->GetType())) continue;
      OpDesc& op = *node->GetOpDescBarePtr();
      const auto* value = AttrUtils::GetPtr<GeTensor>(&op, kAttrConstValue);
      const std::string key = ConstKey(*node);
      if (value == nullptr || value->FileSource() == nullptr || value->DataHolders() != 1 ||
          value->GetSize() < kWorthDropping || seen[key] != 1) {
        continue;
      }
      // Deferred bytes are copied here, once, for the first plan to take (SharedData).
      file_weights[key] = {value->FileSource(), value->GetSize(), {}, value->SharedData()};
      op.MutableAttrMap().Set(kAttrConstValue, GeTensor(value->GetTensorDesc()));
    }
  }

  // Gives the Consts of `copy` (of the graph) the bytes DropFileWeights took: those a plan alive
  // holds, else the parser's copy if no plan took it yet, else a new copy out of the file. Their
  // buffers go into `shared`. Under the compile lock, which guards `live` and `parked`.
  void RestoreFileWeights(ComputeGraph& copy, std::unordered_set<const uint8_t*>& shared) const {
    if (file_weights.empty()) return;
    struct Restore {
      OpDesc* op;
      const FileWeight* weight;
      std::shared_ptr<const uint8_t> bytes;
    };
    std::vector<Restore> restores;
    std::vector<size_t> to_copy;  // indexes into restores of the weights copied out of the file
    for (const NodePtr& node : copy.GetAllNodes()) {
      if (!IsConstType(node->GetType())) continue;
      auto it = file_weights.find(ConstKey(*node));
      if (it == file_weights.end()) continue;
      const FileWeight& weight = it->second;
      std::shared_ptr<const uint8_t> bytes = weight.live.lock();
      if (bytes == nullptr && weight.parked != nullptr)
        bytes = std::exchange(weight.parked, nullptr);
      if (bytes == nullptr) to_copy.push_back(restores.size());
      restores.push_back({node->GetOpDescBarePtr(), &weight, std::move(bytes)});
    }
    // Copies fault in fresh pages, which the kernel zeroes one core at a time: the weights are
    // copied on every core.
    const size_t workers =
        std::min<size_t>(to_copy.size(), std::max(1U, std::thread::hardware_concurrency()));
    std::atomic<size_t> next{0};
    auto copy_some = [&] {
      for (size_t i = next++; i < to_copy.size(); i = next++) {
        Restore& r = restores[to_copy[i]];
        r.bytes = CopyOfFileSource(r.weight->source, r.weight->size);
      }
    };
    std::vector<std::thread> threads;
    for (size_t t = 1; t < workers; ++t) threads.emplace_back(copy_some);
    copy_some();
    for (std::thread& t : threads) t.join();
    for (Restore& r : restores) {
      r.weight->live = r.bytes;
      const auto* stripped = AttrUtils::GetPtr<GeTensor>(r.op, kAttrConstValue);
      GeTensor value(stripped == nullptr ? r.op->GetOutputDesc(0) : stripped->GetTensorDesc());
      value.SetSharedData(r.bytes, r.weight->size);
      value.SetFileSource(r.weight->source);
      shared.insert(r.bytes.get());
      r.op->MutableAttrMap().Set(kAttrConstValue, std::move(value));
    }
  }

  static bool Done(const Plan& plan) {
    return plan.ready.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }

  // The bytes the plans kept hold, a weight several share counted once (totals.bytes), and for
  // each what dropping it would free (info.bytes): its scratch and the weights no other holds.
  void RecountLocked() {
    std::map<const uint8_t*, int> holders;
    for (const PlanPtr& plan : order) {
      if (!Done(*plan)) continue;
      for (const auto& [buffer, bytes] : plan->weights) ++holders[buffer];
    }
    totals.bytes = 0;
    std::set<const uint8_t*> counted;
    for (const PlanPtr& plan : order) {
      if (!Done(*plan)) continue;
      plan->info.bytes = plan->fixed_bytes;
      totals.bytes += plan->fixed_bytes;
      for (const auto& [buffer, bytes] : plan->weights) {
        if (holders[buffer] == 1) plan->info.bytes += bytes;
        if (counted.insert(buffer).second) totals.bytes += bytes;
      }
    }
  }

  // Drops least recently used plans beyond the bounds; never `keep` nor one being compiled.
  void EvictLocked(const Plan* keep) {
    RecountLocked();
    auto over = [&] {
      return order.size() > max_entries || (max_bytes > 0 && totals.bytes > max_bytes);
    };
    for (auto it = order.end(); over() && it != order.begin();) {
      --it;
      Plan& plan = **it;
      if (&plan == keep || !Done(plan)) continue;
      ++totals.evictions;
      by_key.erase(plan.key);
      it = order.erase(it);
      RecountLocked();
    }
  }

  // input_dims, output_dims and output_names from the graph's Data nodes and NetOutput.
  Status ReadDimNames(const ComputeGraph& graph) {
    std::map<std::string, const OpDesc*> data_ops;
    const OpDesc* net_output = nullptr;
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (node->GetType() == kTypeNetOutput) net_output = node->GetOpDescBarePtr();
      if (node->GetType() == kTypeData || node->GetType() == kTypeRefData) {
        data_ops[node->GetName()] = node->GetOpDescBarePtr();
      }
    }
    for (const IoInfo& input : inputs) {
      const OpDesc* op = data_ops[input.name];
      if (op == nullptr || op->GetOutputsSize() == 0) {
        return ParamInvalid("ShapePlanCache: input '" + input.name + "' has no Data node");
      }
      input_dims.push_back(DimNames(op->GetOutputDesc(0), input.dims.size()));
    }
    if (net_output == nullptr) return Status::Ok();
    // In the order the model gives its outputs: the connected inputs of the NetOutput.
    for (const NodePtr& node : graph.GetDirectNode()) {
      if (node->GetOpDescBarePtr() != net_output) continue;
      for (const auto& anchor : node->GetAllInDataAnchors()) {
        if (anchor == nullptr || anchor->GetPeerOutAnchor() == nullptr) continue;
        const GeTensorDesc& desc =
            net_output->GetInputDesc(static_cast<uint32_t>(anchor->GetIdx()));
        output_dims.push_back(DimNames(desc, desc.GetShape().GetDims().size()));
        output_names.push_back(desc.GetName().empty()
                                   ? "output_" + std::to_string(output_names.size())
                                   : desc.GetName());
        if (desc.GetShape().IsUnknownDimNum()) output_dims.back() = {"?"};
        for (size_t d = 0; d < output_dims.back().size(); ++d) {
          if (desc.GetShape().GetDim(d) < 0 && output_dims.back()[d].empty())
            output_dims.back()[d] = "?";
        }
      }
    }
    return Status::Ok();
  }

  // The outputs' dims as shape inference and SymbolicShapes find them (on a copy of the graph:
  // a graph built in code has no output shapes before), in the terms of the inputs' dim names.
  // What they prove replaces the model's names: a bucketed name where the dim is exactly that
  // input dim (cut back), "" where it is known or does not depend on a bucketed dim (nothing to
  // cut), "=" and the expression otherwise (which CheckBuckets refuses); a dim known only at run
  // time that nothing proves keeps the model's name, or "?".
  Status DeriveOutputDims() {
    std::lock_guard<std::mutex> one_at_a_time(CompileMutex());
    GE_ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyComputeGraph(graph));
    GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(compile_options));
    GE_RETURN_IF_ERROR(compiler->RunPasses(copy, {"InferShape", "SymbolicShapesFinal"}).status());
    std::vector<GeTensorDesc> outputs;
    for (const NodePtr& node : copy->GetDirectNode()) {
      if (node->GetType() != kTypeNetOutput) continue;
      for (const auto& anchor : node->GetAllInDataAnchors()) {
        if (anchor == nullptr || anchor->GetPeerOutAnchor() == nullptr) continue;
        outputs.push_back(
            node->GetOpDescBarePtr()->GetInputDesc(static_cast<uint32_t>(anchor->GetIdx())));
      }
    }
    for (size_t o = 0; o < outputs.size() && o < output_dims.size(); ++o) {
      const auto derived = SymbolicDims(outputs[o]);
      if (!derived) continue;
      const GeShape& shape = outputs[o].GetShape();
      const bool model_names = output_dims[o].size() == derived->size();
      std::vector<std::string> names(derived->size());
      for (size_t d = 0; d < derived->size(); ++d) {
        const std::optional<SymExpr>& e = (*derived)[d];
        if (shape.GetDim(d) >= 0) continue;  // known: nothing to cut
        if (!e) {
          names[d] = model_names && !output_dims[o][d].empty() ? output_dims[o][d] : "?";
          continue;
        }
        const std::set<std::string> symbols = e->Symbols();
        const bool padded = std::any_of(symbols.begin(), symbols.end(), [&](const std::string& s) {
          return buckets.count(s) != 0;
        });
        if (padded) names[d] = e->SymbolName().value_or("=" + e->ToString());
      }
      output_dims[o] = std::move(names);
    }
    return Status::Ok();
  }

  // openge.shapeBuckets (`text`, parsed into `buckets`) against the graph: every dim it names is
  // an input's; padding has a plan per shape to pad to; every output dim known only at run time
  // is named after an input's, so the lookup knows which to cut back.
  Status CheckBuckets(const std::string& text, int64_t entries, bool shapes_given) const {
    if (buckets.empty()) return Status::Ok();
    auto refuse = [&](const std::string& why) {
      return ParamInvalid("option " + std::string(kOptShapeBuckets) + "='" + text + "': " + why);
    };
    if (!specializes) {
      const std::string why = shapes_given       ? std::string(kOptInputShape) + " fixes the shapes"
                              : entries == 0     ? std::string(kOptShapePlanEntries) + " is 0"
                              : HasState(*graph) ? "the graph keeps state across runs"
                                                 : "every input's shape is known";
      return refuse("no plan per shape to pad to (" + why + ")");
    }
    std::set<std::string> named;
    for (const auto& dims : input_dims) named.insert(dims.begin(), dims.end());
    named.erase("");
    std::string names;
    for (const std::string& name : named) names += (names.empty() ? "'" : ", '") + name + "'";
    for (const auto& [name, bucket] : buckets) {
      if (named.count(name) == 0) {
        return refuse("no input has a dim named '" + name + "' (" +
                      (names.empty() ? "the inputs name none" : "they name " + names) + ")");
      }
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const bool bucketed =
          std::any_of(input_dims[i].begin(), input_dims[i].end(),
                      [&](const std::string& n) { return buckets.count(n) != 0; });
      const int32_t element = TypeUtils::GetSizeByDataType(inputs[i].dtype);
      if (bucketed && (element <= 0 || element >= kDataTypeSizeBitOffset)) {
        return refuse("input '" + inputs[i].name + "' is " +
                      TypeUtils::DataTypeToSerialString(inputs[i].dtype) +
                      ", which is not padded element by element");
      }
    }
    for (size_t o = 0; o < output_dims.size(); ++o) {
      for (size_t d = 0; d < output_dims[o].size(); ++d) {
        const std::string& name = output_dims[o][d];
        if (name.empty() || named.count(name) != 0) continue;
        if (name[0] == '=') {
          return refuse("output '" + output_names[o] + "' has dim " + std::to_string(d) + " = " +
                        name.substr(1) +
                        ", which padding changes in a way that cannot be cut back (only a dim "
                        "that is exactly a padded input dim can be)");
        }
        return refuse("output '" + output_names[o] + "' has " +
                      (name == "?"
                           ? std::string("a dim known only at run time that it does not name and "
                                         "shape inference does not relate to the inputs' dims")
                           : "dim " + std::to_string(d) + " '" + name + "', which no input names") +
                      ", so the padding cannot be cut back from it; name its dims after the "
                      "inputs' (dynamic_axes of torch.onnx.export)");
      }
    }
    return Status::Ok();
  }

  Result<std::shared_ptr<LoadedModel>> Outcome(const Plan& plan) const {
    if (!plan.status.ok()) return plan.status;
    return plan.model;
  }
};

ShapePlanCache::ShapePlanCache() : impl_(std::make_unique<Impl>()) {}
ShapePlanCache::~ShapePlanCache() = default;

Result<std::unique_ptr<ShapePlanCache>> ShapePlanCache::Create(
    ComputeGraphPtr graph, const std::map<std::string, std::string>& compile_options,
    const RuntimeOptions& runtime) {
  if (graph == nullptr) return ParamInvalid("ShapePlanCache: null graph");
  GE_ASSIGN_OR_RETURN(int64_t entries, LimitOption(compile_options, kOptShapePlanEntries, 8));
  GE_ASSIGN_OR_RETURN(int64_t bytes, LimitOption(compile_options, kOptShapePlanBytes, 0));
  std::unique_ptr<ShapePlanCache> cache(new ShapePlanCache());
  Impl& impl = *cache->impl_;
  GE_ASSIGN_OR_RETURN(impl.inputs, GraphInputs(*graph));
  impl.outputs = GraphOutputs(*graph);
  {
    std::lock_guard<std::mutex> one_at_a_time(CompileMutex());
    GE_ASSIGN_OR_RETURN(std::unique_ptr<Compiler> compiler, Compiler::Create(compile_options));
    GE_RETURN_IF_ERROR(compiler->RunPasses(graph, {"VerifyNodes"}).status());
  }
  const bool run_time_shapes = std::any_of(impl.inputs.begin(), impl.inputs.end(),
                                           [](const IoInfo& i) { return !IsKnown(i.dims); });
  impl.specializes = run_time_shapes && entries > 0 && compile_options.count(kOptInputShape) == 0 &&
                     !HasState(*graph);
  GE_RETURN_IF_ERROR(impl.ReadDimNames(*graph));
  impl.max_entries = impl.specializes ? static_cast<size_t>(entries) : 1;
  impl.max_bytes = bytes;
  impl.graph = std::move(graph);
  impl.compile_options = compile_options;
  impl.runtime = runtime;
  if (auto it = compile_options.find(kOptShapeBuckets); it != compile_options.end()) {
    GE_ASSIGN_OR_RETURN(impl.buckets, ParseBuckets(it->second));
    if (impl.specializes && !impl.buckets.empty()) {
      GE_RETURN_IF_ERROR(impl.DeriveOutputDims());
    }
    GE_RETURN_IF_ERROR(
        impl.CheckBuckets(it->second, entries, compile_options.count(kOptInputShape) != 0));
  }
  // Only a graph the cache alone holds loses bytes: a caller's graph keeps them alive anyway.
  if (impl.graph.use_count() == 1) impl.DropFileWeights();
  impl.graph_weights = WeightBuffers(*impl.graph);
  return cache;
}

const std::vector<IoInfo>& ShapePlanCache::inputs() const { return impl_->inputs; }

const std::vector<IoInfo>& ShapePlanCache::outputs() const { return impl_->outputs; }

Result<CompiledModel> ShapePlanCache::CompileForAnyShape() const {
  std::lock_guard<std::mutex> one_at_a_time(CompileMutex());
  return CatchExceptions("ShapePlanCache", [&]() -> Result<CompiledModel> {
    std::unordered_set<const uint8_t*> shared;
    return impl_->CompileCopyLocked("", shared);
  });
}

bool ShapePlanCache::specializes() const { return impl_->specializes; }

Result<ShapePlan> ShapePlanCache::PlanFor(const std::vector<GeTensor>& inputs) {
  Impl& impl = *impl_;
  GE_ASSIGN_OR_RETURN(Impl::Lookup lookup, impl.LookUp(inputs));
  const std::string& key = lookup.key;
  std::unique_lock<std::mutex> lock(impl.mutex);
  if (!lookup.pads.empty()) ++impl.totals.padded;
  if (auto it = impl.by_key.find(key); it != impl.by_key.end()) {
    impl.order.splice(impl.order.begin(), impl.order, it->second);
    Impl::PlanPtr plan = *it->second;
    ++impl.totals.hits;
    ++plan->info.runs;
    lock.unlock();
    plan->ready.wait();
    GE_ASSIGN_OR_RETURN(std::shared_ptr<LoadedModel> model, impl.Outcome(*plan));
    return impl.PlanOf(lookup, model);
  }
  auto plan = std::make_shared<Impl::Plan>();
  std::promise<void> compiled;
  plan->key = key;
  plan->ready = compiled.get_future().share();
  plan->info.shapes = key;
  plan->info.runs = 1;
  impl.order.push_front(plan);
  impl.by_key.emplace(key, impl.order.begin());
  ++impl.totals.misses;
  lock.unlock();

  impl.Specialize(*plan);
  compiled.set_value();

  lock.lock();
  impl.totals.specialize_millis += plan->info.compile_millis + plan->info.load_millis;
  if (impl.by_key.count(key) != 0) {  // still kept (Stats counts only what is kept)
    impl.EvictLocked(plan.get());
  }
  GE_ASSIGN_OR_RETURN(std::shared_ptr<LoadedModel> model, impl.Outcome(*plan));
  return impl.PlanOf(lookup, model);
}

Result<std::shared_ptr<LoadedModel>> ShapePlanCache::ModelFor(const std::vector<GeTensor>& inputs) {
  GE_ASSIGN_OR_RETURN(ShapePlan plan, PlanFor(inputs));
  return plan.model();
}

Result<std::vector<GeTensor>> ShapePlanCache::Run(const std::vector<GeTensor>& inputs) {
  GE_ASSIGN_OR_RETURN(ShapePlan plan, PlanFor(inputs));
  return plan.Run(inputs);
}

ShapePlanStats ShapePlanCache::Stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  ShapePlanStats stats = impl_->totals;
  for (const Impl::PlanPtr& plan : impl_->order) {
    if (plan->ready.wait_for(std::chrono::seconds(0)) != std::future_status::ready) continue;
    stats.plans.push_back(plan->info);
  }
  return stats;
}

}  // namespace ge
