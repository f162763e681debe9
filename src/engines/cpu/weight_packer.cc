// The CPU engine's weight packer: see weight_packer.h.
#include "weight_packer.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>
#include <utility>
#include <vector>

#include "cpu_options.h"
#include "ge/graph/anchor.h"
#include "ge/graph/node.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/graph_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "kernel_probe.h"
#include "kernels/cpu_kernel.h"

namespace ge::host_cpu {
namespace {

constexpr char kEngineName[] = "DNN_VM_HOST_CPU";

bool IsConst(const Node& node) { return node.GetType() == "Const" || node.GetType() == "Constant"; }

/// The desc of a weight stored in an engine layout: 1-D float over its bytes, with the logical
/// shape and format as origin.
GeTensorDesc StoredDesc(const GeTensorDesc& logical, size_t bytes) {
  GeTensorDesc desc(GeShape({static_cast<int64_t>(bytes / sizeof(float))}), FORMAT_ND, DT_FLOAT);
  desc.SetOriginShape(logical.GetShape());
  desc.SetOriginFormat(logical.GetFormat());
  desc.SetOriginDataType(DT_FLOAT);
  return desc;
}

// Marks the Consts that only this engine's kernels read as bytes (ReadsAnyAlignment: a gather's
// table), so the runtime may hand a weight over where it lies in the model file, unaligned,
// rather than copy it all for the few rows a run reads.
void MarkGatheredWeights(ComputeGraph& graph) {
  for (const NodePtr& node : graph.GetDirectNode()) {
    if (!IsConst(*node)) continue;
    const OutDataAnchorPtr out = node->GetOutDataAnchor(0);
    if (out == nullptr) continue;
    const auto readers = out->GetPeerInDataAnchors();
    bool as_bytes = !readers.empty();
    for (const InDataAnchorPtr& in : readers) {
      const OpDesc& reader = *in->GetOwnerNodeBarePtr()->GetOpDescBarePtr();
      as_bytes = as_bytes && reader.GetOpEngineName() == kEngineName &&
                 ReadsAnyAlignment(reader.GetType(), in->GetIdx());
    }
    if (as_bytes) AttrUtils::SetBool(node->GetOpDesc(), kAttrWeightAnyAlignment, true);
  }
}

}  // namespace

Status WeightPacker::Initialize(const std::map<std::string, std::string>& options) {
  // The host checked the value against CpuEngineOptions().
  enabled_ = EngineOptionValue(CpuWeightLayoutOption(), options) == "packed";
  return Status::Ok();
}

Status WeightPacker::GetAttributes(GraphOptimizerAttribute& attrs) const {
  attrs.engineName = kEngineName;
  attrs.scope = ENGINE;
  return Status::Ok();
}

std::vector<WeightPacker::Job> WeightPacker::FindJobs(const ComputeGraph& graph) {
  std::vector<Job> jobs;
  for (const NodePtr& node : graph.GetDirectNode()) {
    const OpDescPtr op = node->GetOpDesc();
    if (op->GetOpEngineName() != kEngineName || !PacksWeights(op->GetType()) ||
        AttrUtils::HasAttr(op, kAttrCpuWeightLayout)) {
      continue;
    }
    const InDataAnchorPtr in = node->GetInDataAnchor(1);
    const OutDataAnchorPtr peer = in == nullptr ? nullptr : in->GetPeerOutAnchor();
    if (peer == nullptr || !IsConst(*peer->GetOwnerNodeBarePtr())) continue;
    Job job;
    job.node = node;
    job.source = peer->GetOwnerNode();
    // The only reader of a Const whose bytes nothing else holds (a caller's tensor may share
    // them) lets the kernel release their pages as it packs them, so that a large weight is
    // never in memory twice (the Const is removed once packed). Pages of a file mapping may go
    // whoever else holds them: a later read brings the same bytes back from the file (a shape
    // plan cache compiling copies of one parsed graph, a weight read by two nodes, packed on
    // two threads at once). Deferred bytes are packed from their place in the file, so they too
    // are pages of the mapping.
    const auto* value =
        AttrUtils::GetPtr<GeTensor>(job.source->GetOpDescBarePtr(), kAttrConstValue);
    job.size = value != nullptr ? value->GetSize() : 0;
    job.file_mapped = value != nullptr && (value->IsFileMapped() || value->IsDeferred());
    const bool only_reader = value != nullptr && value->DataHolders() == 1 &&
                             peer->GetPeerInDataAnchors().size() == 1 &&
                             job.source->GetOutControlNodes().empty();
    job.releasing = only_reader || job.file_mapped;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

Status WeightPacker::OptimizeWholeGraph(ComputeGraph& graph) {
  MarkGatheredWeights(graph);
  if (!enabled_ || !AllShapesStatic(graph)) return Status::Ok();
  std::vector<Job> jobs = FindJobs(graph);
  // Each kernel is prepared and its weight packed on its own (oneDNN's primitive creation, the
  // reorder or Winograd transform, the page faults of the model file), so the cores share the
  // probes out, the largest weights first: in the graph's order a classifier's large matrix
  // would come last, alone on one core. Only this thread changes the graph, job by job in the
  // graph's order as each is probed (probing the next itself when no worker has taken it); a
  // probe reads its own node and the Consts it reads, which change only once every job reading
  // them is done. A framework weight whose pages the probe cannot release goes only once its
  // packed copy is in the graph, so the probes run ahead of the graph by a bounded sum of such
  // weights.
  constexpr size_t kHeldBytes = size_t{64} << 20;
  auto held_by = [&jobs](size_t i) { return jobs[i].releasing ? size_t{0} : jobs[i].size; };
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&jobs](size_t a, size_t b) { return jobs[a].size > jobs[b].size; });
  std::mutex mutex;
  std::condition_variable changed;
  size_t held = 0;   // of weights probed and not yet applied
  size_t first = 0;  // order[first..] holds every job not started
  bool stop = false;
  std::vector<char> started(jobs.size(), 0), done(jobs.size(), 0);
  // Probes job i, which the caller has claimed; called and returns with `lock` held.
  auto probe = [&](size_t i, std::unique_lock<std::mutex>& lock) {
    lock.unlock();
    Job& job = jobs[i];
    job.probed = CatchExceptions("packing a weight", [&job] {
      return ProbeKernel(*job.node, {}, {}, /*pack_weights=*/true,
                         job.releasing ? &job.released : nullptr);
    });
    lock.lock();
    done[i] = 1;
    changed.notify_all();
  };
  auto claim = [&](size_t i) {
    started[i] = 1;
    held += held_by(i);
  };
  auto work = [&] {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      while (first < order.size() && started[order[first]] != 0) ++first;
      if (stop || first == order.size()) return;
      auto fits = [&](size_t i) {
        return started[i] == 0 && (held == 0 || held + held_by(i) <= kHeldBytes);
      };
      const auto next =
          std::find_if(order.begin() + static_cast<std::ptrdiff_t>(first), order.end(), fits);
      if (next == order.end()) {
        changed.wait(lock);
        continue;
      }
      const size_t i = *next;
      claim(i);
      probe(i, lock);
    }
  };
  // The workers stop and are joined however this function leaves (an error, an exception).
  struct Workers {
    std::mutex& mutex;
    std::condition_variable& changed;
    bool& stop;
    std::vector<std::thread> threads;
    ~Workers() {
      {
        const std::lock_guard<std::mutex> lock(mutex);
        stop = true;
      }
      changed.notify_all();
      for (std::thread& t : threads) t.join();
    }
  } pool{mutex, changed, stop, {}};
  const size_t workers =
      std::min<size_t>(jobs.size(), std::max(1U, std::thread::hardware_concurrency()));
  for (size_t t = 0; t < workers; ++t) pool.threads.emplace_back(work);
  return Apply(graph, jobs, [&](size_t i) {
    std::unique_lock<std::mutex> lock(mutex);
    if (i > 0) {
      held -= held_by(i - 1);  // in the graph: its framework weight is gone
      changed.notify_all();
    }
    if (started[i] == 0) {
      claim(i);
      probe(i, lock);
    }
    changed.wait(lock, [&] { return done[i] != 0; });
  });
}

Status WeightPacker::Apply(ComputeGraph& graph, std::vector<Job>& jobs,
                           const std::function<void(size_t)>& wait_for) {
  std::map<std::pair<const Node*, std::string>, NodePtr> made;  // (old Const, layout) -> new
  size_t packed = 0, bytes = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    wait_for(i);
    Job& job = jobs[i];
    const NodePtr& node = job.node;
    const NodePtr& source = job.source;
    const OpDescPtr op = node->GetOpDesc();
    const InDataAnchorPtr in = node->GetInDataAnchor(1);
    const OutDataAnchorPtr peer = source->GetOutDataAnchor(0);
    // The kernel, and its copies of the Const values, go when this job is done.
    const Result<ProbedKernel> probed = std::exchange(job.probed, ParamInvalid("applied"));
    if (!probed.ok()) {
      // A weight released in part cannot be read again: the compile cannot go on. A kernel that
      // refuses its node otherwise is reported by the runtime when the model loads.
      if (job.released && !job.file_mapped) {
        return Status(probed.status())
            .Prefix("packing the weight of node '" + node->GetName() + "' (" + node->GetType() +
                    ")");
      }
      continue;
    }
    const std::string impl = probed->kernel->ImplInfo();
    if (!AttrUtils::HasAttr(op, kAttrKernelImpl)) AttrUtils::SetStr(op, kAttrKernelImpl, impl);
    const std::optional<PackedWeight> weight = probed->kernel->PackedWeights();
    // No packed weight: oneDNN wants the framework's layout as it is (read in place).
    if (!weight || weight->input != 1 || weight->layout.empty()) continue;
    NodePtr& stored = made[{source.get(), weight->layout}];
    const GeTensorDesc desc = StoredDesc(op->GetInputDesc(1), weight->size);
    if (stored == nullptr) {
      GeTensor value(desc);
      value.SetSharedData(weight->bytes, weight->size);  // the kernel's buffer: no copy
      OpDescPtr const_op =
          OpDescUtils::CreateConstOp(source->GetName() + "/" + weight->layout, value);
      const_op->SetOpEngineName(source->GetOpDescBarePtr()->GetOpEngineName());
      const_op->SetOpKernelLibName(source->GetOpDescBarePtr()->GetOpKernelLibName());
      GE_ASSIGN_OR_RETURN(stored, graph.AddNode(const_op));
      bytes += weight->size;
    }
    GE_RETURN_IF_ERROR(GraphUtils::ReplaceEdgeSrc(peer, in, stored->GetOutDataAnchor(0)));
    GE_RETURN_IF_ERROR(op->UpdateInputDesc(1, desc));
    AttrUtils::SetStr(op, kAttrCpuWeightLayout, weight->layout);
    ++packed;
    // The framework's weight goes as soon as nothing reads it, bytes included (the node list
    // being walked still holds the node): a model's weights are never all in memory twice.
    if (peer->GetPeerInDataAnchors().empty() && source->GetOutControlNodes().empty()) {
      GE_RETURN_IF_ERROR(GraphUtils::RemoveNodeWithoutRelink(graph.shared_from_this(), source));
      source->GetOpDesc()->MutableAttrMap().Set(kAttrConstValue, GeTensor());
    }
  }
  if (packed > 0) {
    KernelLog(1, "graph '" + graph.GetName() + "': " + std::to_string(packed) +
                     " weights stored in oneDNN's layouts (" + std::to_string(made.size()) +
                     " Consts, " + std::to_string(bytes) + " bytes)");
  }
  return Status::Ok();
}

}  // namespace ge::host_cpu
