// RunMpiPipeline (ge/pipeline/mpi_pipeline.h).
//
// Messages on MPI_COMM_WORLD: per batch one kData message from rank r to r + 1 holding stage r's
// sends end to end (their sizes are in the manifest, so nothing else travels); kAbort carries a
// failed rank's one-line error to every other rank, which answers kAck. Every wait is a loop of
// MPI_Test that also looks for kAbort and gives up at the deadline, sleeping a little between
// looks (the cores are the stages').
#include "ge/pipeline/mpi_pipeline.h"

#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <thread>

#include "ge/graph/utils/tensor_utils.h"
#include "ge/model/pipeline_model.h"
#include "ge/runtime/pipeline_run.h"

namespace ge {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kData = 1;
constexpr int kAbort = 2;
constexpr int kAck = 3;
constexpr size_t kMaxMessage = size_t{1} << 30;  // MPI counts are ints: larger sends are split
constexpr int kSendsInFlight = 2;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string Who(int rank) {
  return "rank " + std::to_string(rank) + " (stage " + std::to_string(rank) + ")";
}

// One rank's view of the job.
class Job {
 public:
  Job(int rank, int ranks, double timeout_seconds)
      : rank_(rank), ranks_(ranks), timeout_(timeout_seconds) {}

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  double wait_millis() const { return wait_millis_; }

  // Waits for `request` to complete, looking for another rank's failure meanwhile; `what` says
  // what is awaited, for the error.
  Status Wait(MPI_Request& request, const std::string& what) {
    const Clock::time_point start = Clock::now();
    const Clock::time_point deadline =
        start + std::chrono::microseconds(static_cast<int64_t>(timeout_ * 1e6));
    while (true) {
      int done = 0;
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done != 0) {
        wait_millis_ += MillisSince(start);
        return Status::Ok();
      }
      GE_RETURN_IF_ERROR(CheckAbort());
      if (Clock::now() > deadline) {
        char seconds[32];
        std::snprintf(seconds, sizeof(seconds), "%g", timeout_);
        return Failed(Who(rank_) + ": waited " + seconds + " s for " + what +
                      " (--timeout); stopping the job");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  // Another rank's failure, as this rank's error (answered, so the failed rank knows).
  Status CheckAbort() {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kAbort, MPI_COMM_WORLD, &flag, &status);
    if (flag == 0) return Status::Ok();
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    std::string message(static_cast<size_t>(std::max(count, 0)), '\0');
    MPI_Recv(message.data(), count, MPI_CHAR, status.MPI_SOURCE, kAbort, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    int ack = rank_;
    MPI_Send(&ack, 1, MPI_INT, status.MPI_SOURCE, kAck, MPI_COMM_WORLD);
    failed_ = true;
    return Failed(Who(rank_) + ": stopped because " + message);
  }

  // Tells every other rank that this one failed with `error`, and waits for each to have
  // heard, so that each reports it before the job ends.
  void Tell(const Status& error) {
    if (failed_) return;  // it was another rank's failure: that rank tells
    failed_ = true;
    const std::string message = error.message();
    std::vector<MPI_Request> sends;
    for (int peer = 0; peer < ranks_; ++peer) {
      if (peer == rank_) continue;
      sends.emplace_back();
      MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_CHAR, peer, kAbort,
                MPI_COMM_WORLD, &sends.back());
    }
    // A rank still loading its stage looks only when it first waits: up to --timeout (at most
    // 30 s) for every rank to have heard.
    const Clock::time_point deadline =
        Clock::now() +
        std::chrono::milliseconds(static_cast<int64_t>(std::min(timeout_, 30.0) * 1e3));
    // A peer has heard when it answers, or when it failed too and tells this rank (answered
    // here, so that its own wait ends).
    std::vector<bool> heard(static_cast<size_t>(ranks_), false);
    heard[static_cast<size_t>(rank_)] = true;
    auto all_heard = [&] {
      return std::all_of(heard.begin(), heard.end(), [](bool h) { return h; });
    };
    while (!all_heard() && Clock::now() < deadline) {
      // Only the small control messages: a data message could need its stopped sender to
      // move (a large one is pulled from the sender), so none is touched here.
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kAck, MPI_COMM_WORLD, &flag, &status);
      if (flag == 0) MPI_Iprobe(MPI_ANY_SOURCE, kAbort, MPI_COMM_WORLD, &flag, &status);
      if (flag == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      const int peer = status.MPI_SOURCE;
      if (status.MPI_TAG == kAck) {
        int who = 0;
        MPI_Recv(&who, 1, MPI_INT, peer, kAck, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        int count = 0;
        MPI_Get_count(&status, MPI_CHAR, &count);
        std::string message(static_cast<size_t>(std::max(count, 0)), '\0');
        MPI_Recv(message.data(), count, MPI_CHAR, peer, kAbort, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int ack = rank_;
        MPI_Send(&ack, 1, MPI_INT, peer, kAck, MPI_COMM_WORLD);
      }
      heard[static_cast<size_t>(peer)] = true;
    }
    // The messages must be out before this rank goes (their text lives here).
    int sent = 0;
    while (sent == 0 && Clock::now() < deadline) {
      MPI_Testall(static_cast<int>(sends.size()), sends.data(), &sent, MPI_STATUSES_IGNORE);
      if (sent == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

 private:
  int rank_;
  int ranks_;
  double timeout_;
  double wait_millis_ = 0;
  bool failed_ = false;
};

// Bytes of `tensors` end to end, in one buffer of their own.
std::shared_ptr<std::vector<uint8_t>> Pack(const std::vector<GeTensor>& tensors) {
  size_t total = 0;
  for (const GeTensor& t : tensors) total += t.GetSize();
  auto buffer = std::make_shared<std::vector<uint8_t>>(total);
  size_t at = 0;
  for (const GeTensor& t : tensors) {
    if (t.GetSize() > 0) std::memcpy(buffer->data() + at, t.GetData().data(), t.GetSize());
    at += t.GetSize();
  }
  return buffer;
}

// Posts the receives (or sends) of `bytes` bytes at `data` from (to) `peer`, in pieces MPI's int
// counts can hold.
void Post(bool send, uint8_t* data, size_t bytes, int peer, std::vector<MPI_Request>& requests) {
  size_t at = 0;
  do {
    const size_t piece = std::min(bytes - at, kMaxMessage);
    requests.emplace_back();
    if (send) {
      MPI_Isend(data + at, static_cast<int>(piece), MPI_BYTE, peer, kData, MPI_COMM_WORLD,
                &requests.back());
    } else {
      MPI_Irecv(data + at, static_cast<int>(piece), MPI_BYTE, peer, kData, MPI_COMM_WORLD,
                &requests.back());
    }
    at += piece;
  } while (at < bytes);
}

struct Outgoing {
  std::shared_ptr<std::vector<uint8_t>> bytes;
  std::vector<MPI_Request> requests;
};

Result<MpiPipelineResult> RunRank(Job& job, const std::string& path,
                                  const MpiPipelineInputs& make_inputs,
                                  const MpiPipelineOptions& options) {
  const int rank = job.rank();
  const int ranks = job.ranks();
  const std::string who = Who(rank);
  Result<PipelineModel> loaded = PipelineModel::LoadFromFile(path, rank);
  if (!loaded.ok()) return Status(loaded.status()).Prefix(who);
  const PipelineModel pipeline = std::move(loaded).value();
  if (static_cast<int>(pipeline.stages.size()) != ranks) {
    return ParamInvalid(who + ": '" + path + "' has " + std::to_string(pipeline.stages.size()) +
                        " stages; run it with mpirun -n " + std::to_string(pipeline.stages.size()) +
                        ", not " + std::to_string(ranks));
  }
  Result<std::unique_ptr<Model>> model = Model::Load(pipeline.stages[rank].model, options.runtime);
  if (!model.ok()) return Status(model.status()).Prefix(who);
  const std::vector<std::string>& receives = pipeline.Receives(static_cast<size_t>(rank));
  std::vector<GeTensorDesc> descs;
  size_t receive_bytes = 0;
  for (const std::string& name : receives) {
    const PipelineTensor* t = pipeline.Tensor(name);
    descs.emplace_back(GeShape(t->dims), FORMAT_ND, t->dtype);
    receive_bytes += static_cast<size_t>(t->Bytes());
  }
  std::vector<std::vector<GeTensor>> sets;
  if (rank == 0) {
    std::vector<IoInfo> inputs;
    for (size_t i = 0; i < receives.size(); ++i) {
      IoInfo info;
      info.name = receives[i];
      info.dtype = descs[i].GetDataType();
      info.dims = descs[i].GetShape().GetDims();
      inputs.push_back(std::move(info));
    }
    Result<std::vector<std::vector<GeTensor>>> given = make_inputs(inputs);
    if (!given.ok()) return Status(given.status()).Prefix(who);
    sets = std::move(given).value();
    if (sets.empty()) return ParamInvalid(who + ": no inputs to run");
  }

  // Every rank loaded: the clock starts for all at once.
  MPI_Request barrier;
  MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  GE_RETURN_IF_ERROR(job.Wait(barrier, "every rank to load its stage"));
  const Clock::time_point start = Clock::now();
  double busy = 0;
  MpiPipelineResult result;
  result.rank = rank;
  result.ranks = ranks;
  std::deque<Outgoing> in_flight;
  std::vector<GeTensor> last_sends;
  for (int batch = 0; batch < options.batches; ++batch) {
    std::vector<GeTensor> received;
    if (rank == 0) {
      received = sets[static_cast<size_t>(batch) % sets.size()];
    } else {
      auto buffer = std::make_shared<std::vector<uint8_t>>(receive_bytes);
      std::vector<MPI_Request> requests;
      Post(false, buffer->data(), receive_bytes, rank - 1, requests);
      for (MPI_Request& r : requests) {
        GE_RETURN_IF_ERROR(
            job.Wait(r, "input " + std::to_string(batch) + " from " + Who(rank - 1)));
      }
      size_t at = 0;
      for (const GeTensorDesc& desc : descs) {
        GeTensor t(desc);
        const auto size = static_cast<size_t>(TensorUtils::CalcTensorMemSize(desc));
        t.SetSharedData(std::shared_ptr<const uint8_t>(buffer, buffer->data() + at), size);
        received.push_back(std::move(t));
        at += size;
      }
    }
    GE_RETURN_IF_ERROR(job.CheckAbort());
    const Clock::time_point run_start = Clock::now();
    Result<std::vector<GeTensor>> sends =
        RunPipelineStage(**model, pipeline, static_cast<size_t>(rank), received);
    busy += MillisSince(run_start);
    if (!sends.ok()) return Status(sends.status()).Prefix(who + ", input " + std::to_string(batch));
    if (rank + 1 < ranks) {
      Outgoing out;
      out.bytes = Pack(*sends);
      Post(true, out.bytes->data(), out.bytes->size(), rank + 1, out.requests);
      in_flight.push_back(std::move(out));
      while (static_cast<int>(in_flight.size()) > kSendsInFlight) {
        for (MPI_Request& r : in_flight.front().requests) {
          GE_RETURN_IF_ERROR(job.Wait(
              r, Who(rank + 1) + " to take input " + std::to_string(batch - kSendsInFlight)));
        }
        in_flight.pop_front();
      }
    } else {
      last_sends = std::move(sends).value();
    }
  }
  while (!in_flight.empty()) {
    for (MPI_Request& r : in_flight.front().requests) {
      GE_RETURN_IF_ERROR(job.Wait(r, Who(rank + 1) + " to take the last inputs"));
    }
    in_flight.pop_front();
  }
  result.millis = MillisSince(start);

  // Every rank's figures, on the last rank.
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double mine[5] = {busy, job.wait_millis(), static_cast<double>(usage.ru_maxrss),
                          static_cast<double>((*model)->weight_bytes()),
                          static_cast<double>((*model)->arena_bytes())};
  std::vector<double> all(static_cast<size_t>(5 * ranks));
  MPI_Request gather;
  MPI_Igather(mine, 5, MPI_DOUBLE, all.data(), 5, MPI_DOUBLE, ranks - 1, MPI_COMM_WORLD, &gather);
  GE_RETURN_IF_ERROR(job.Wait(gather, "every rank's figures"));
  if (rank == ranks - 1) {
    result.outputs = std::move(last_sends);
    result.output_names = pipeline.output_names;
    for (int r = 0; r < ranks; ++r) {
      const double* f = all.data() + static_cast<ptrdiff_t>(5) * r;
      result.busy_millis.push_back(f[0]);
      result.wait_millis.push_back(f[1]);
      result.peak_kib.push_back(static_cast<int64_t>(f[2]));
      result.weight_bytes.push_back(static_cast<int64_t>(f[3]));
      result.arena_bytes.push_back(static_cast<int64_t>(f[4]));
    }
  }
  return result;
}

// The line a rank writes when mpirun ends the job under it (another rank died or exited):
// mpirun names that rank; this one says which stage stopped.
char g_stopped_line[160];
volatile std::sig_atomic_t g_stopped_length = 0;

extern "C" void StoppedByMpirun(int /*signal*/) {
  if (g_stopped_length > 0) {
    (void)!::write(2, g_stopped_line, static_cast<size_t>(g_stopped_length));
  }
  std::_Exit(1);
}

void OnTerminate(int rank) {
  const int n = std::snprintf(g_stopped_line, sizeof(g_stopped_line),
                              "gec: error: pipeline %s: stopped by mpirun (another rank ended; "
                              "mpirun names it)\n",
                              Who(rank).c_str());
  g_stopped_length = n > 0 ? static_cast<std::sig_atomic_t>(std::min<size_t>(
                                 static_cast<size_t>(n), sizeof(g_stopped_line) - 1))
                           : 0;
  struct sigaction action {};
  action.sa_handler = StoppedByMpirun;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

bool UnderMpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

Result<MpiPipelineResult> RunMpiPipeline(const std::string& path, const MpiPipelineInputs& inputs,
                                         const MpiPipelineOptions& options) {
  if (options.batches < 1) return ParamInvalid("--batches must be at least 1");
  if (!(options.timeout_seconds > 0)) return ParamInvalid("--timeout must be positive");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized == 0) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      return Failed("MPI did not start (run the pipeline with mpirun)");
    }
  }
  int rank = 0;
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Job job(rank, ranks, options.timeout_seconds);
  OnTerminate(rank);
  Result<MpiPipelineResult> result = RunRank(job, path, inputs, options);
  if (!result.ok()) {
    job.Tell(result.status());
    return result;
  }
  MPI_Finalize();
  return result;
}

void StopMpiJob(int code) {
  g_stopped_length = 0;  // this rank has said why it stops: the kill that follows is silent
  std::fflush(stdout);
  std::fflush(stderr);
  int initialized = 0;
  MPI_Initialized(&initialized);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initialized != 0 && finalized == 0) {
    // mpirun forwards each rank's output on its own schedule; the other ranks' error lines
    // would be lost to the kill that MPI_Abort starts.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  std::_Exit(code);
}

}  // namespace ge
