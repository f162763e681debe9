// RunMpiPipeline (ge/pipeline/mpi_pipeline.h).
//
// Messages on MPI_COMM_WORLD: per batch, rank r sends rank r + 1 a kData message announcing the
// byte count of each of stage r's sends (int64 each), then each send's bytes as kData messages
// of at most kMaxMessage bytes. The receiver checks the announced counts against the manifest
// before it receives any data, and probes each data message's size before receiving it, so a
// message of the wrong size is this rank's error naming the tensor and both counts (never a
// truncation inside MPI, nor a buffer part filled). kAbort carries a failed rank's one-line error
// to every other rank, which answers kAck. Every wait is a loop of MPI_Test or MPI_Iprobe that
// also looks for kAbort and gives up at the deadline, sleeping a little between looks (the
// cores are the stages'). MPI's own errors are returned, not fatal, so that they too become the
// rank's error line.
#include "ge/pipeline/mpi_pipeline.h"

#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <thread>

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

// The time `seconds` (> 0) after `start`. A wait of a year or more (or an infinite one) has no
// deadline: converting it to the clock's ticks would overflow.
Clock::time_point Deadline(Clock::time_point start, double seconds) {
  constexpr double kNoLimitSeconds = 365.0 * 24 * 3600;
  if (!(seconds < kNoLimitSeconds)) return Clock::time_point::max();
  return start +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// An MPI call's result as this rank's error (MPI_COMM_WORLD returns its errors).
Status Mpi(int code, const char* call, int rank) {
  if (code == MPI_SUCCESS) return Status::Ok();
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  return Failed(Who(rank) + ": " + call +
                " failed: " + std::string(text, static_cast<size_t>(std::max(length, 0))));
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
    return Until(what, [&]() -> Result<bool> {
      int done = 0;
      GE_RETURN_IF_ERROR(Mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test", rank_));
      return done != 0;
    });
  }

  // Waits for the next kData message from `source` and gives its size in bytes, without
  // receiving it.
  Result<int64_t> Probe(int source, const std::string& what) {
    int count = 0;
    GE_RETURN_IF_ERROR(Until(what, [&]() -> Result<bool> {
      int found = 0;
      MPI_Status status;
      GE_RETURN_IF_ERROR(
          Mpi(MPI_Iprobe(source, kData, MPI_COMM_WORLD, &found, &status), "MPI_Iprobe", rank_));
      if (found == 0) return false;
      GE_RETURN_IF_ERROR(Mpi(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count", rank_));
      return true;
    }));
    if (count == MPI_UNDEFINED || count < 0) {
      return Failed(Who(rank_) + ": " + what + " has no byte count");
    }
    return count;
  }

  // Receives the kData message from `source` that Probe found, of `bytes` bytes, into `data`.
  Status Take(void* data, int64_t bytes, int source, const std::string& what) {
    MPI_Request request;
    GE_RETURN_IF_ERROR(Mpi(
        MPI_Irecv(data, static_cast<int>(bytes), MPI_BYTE, source, kData, MPI_COMM_WORLD, &request),
        "MPI_Irecv", rank_));
    return Wait(request, what);
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
  // Calls `ready` until it is true, an error, another rank's failure or the deadline.
  Status Until(const std::string& what, const std::function<Result<bool>()>& ready) {
    const Clock::time_point start = Clock::now();
    const Clock::time_point deadline = Deadline(start, timeout_);
    while (true) {
      GE_ASSIGN_OR_RETURN(const bool done, ready());
      if (done) {
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

  int rank_;
  int ranks_;
  double timeout_;
  double wait_millis_ = 0;
  bool failed_ = false;
};

// The pieces of a tensor of `bytes` bytes, each a message MPI's int counts can hold: at least
// one (an empty tensor is an empty message).
std::vector<int64_t> Pieces(int64_t bytes) {
  std::vector<int64_t> pieces;
  int64_t at = 0;
  do {
    pieces.push_back(std::min<int64_t>(bytes - at, static_cast<int64_t>(kMaxMessage)));
    at += pieces.back();
  } while (at < bytes);
  return pieces;
}

// One batch's sends to the next rank: the tensors (their bytes stay alive until sent), the
// announced byte counts, and the requests.
struct Outgoing {
  std::vector<GeTensor> tensors;
  std::vector<int64_t> counts;
  std::vector<MPI_Request> requests;
};

// Posts `tensors` to `peer`: their byte counts, then each tensor's pieces.
Result<Outgoing> Send(std::vector<GeTensor> tensors, int peer, int rank) {
  Outgoing out;
  out.tensors = std::move(tensors);
  for (const GeTensor& t : out.tensors) out.counts.push_back(static_cast<int64_t>(t.GetSize()));
  auto post = [&](const void* data, int64_t bytes) -> Status {
    out.requests.emplace_back();
    return Mpi(MPI_Isend(data, static_cast<int>(bytes), MPI_BYTE, peer, kData, MPI_COMM_WORLD,
                         &out.requests.back()),
               "MPI_Isend", rank);
  };
  GE_RETURN_IF_ERROR(
      post(out.counts.data(), static_cast<int64_t>(out.counts.size() * sizeof(int64_t))));
  for (const GeTensor& t : out.tensors) {
    int64_t at = 0;
    for (const int64_t piece : Pieces(static_cast<int64_t>(t.GetSize()))) {
      GE_RETURN_IF_ERROR(post(t.GetData().data() + at, piece));
      at += piece;
    }
  }
  return out;
}

// Receives batch `batch`'s tensors of stage `rank` from the rank before into one buffer: the
// announced byte counts first, checked against the manifest, then each piece, its size probed
// and checked before it is received.
Result<std::vector<GeTensor>> Receive(Job& job, const PipelineModel& pipeline, int batch,
                                      int64_t receive_bytes) {
  const int rank = job.rank();
  const int source = rank - 1;
  const std::string what = "input " + std::to_string(batch) + " from " + Who(source);
  const std::string who = Who(rank) + ", " + what;
  const std::vector<std::string>& names = pipeline.Receives(static_cast<size_t>(rank));
  const auto header_bytes = static_cast<int64_t>(names.size() * sizeof(int64_t));
  GE_ASSIGN_OR_RETURN(const int64_t announced, job.Probe(source, what));
  if (announced != header_bytes) {
    return ParamInvalid(who + ": the message announcing its " + std::to_string(names.size()) +
                        " tensor(s) is " + std::to_string(announced) + " bytes, not " +
                        std::to_string(header_bytes) +
                        " (the ranks run different pipelines, or a rank is not this program)");
  }
  std::vector<int64_t> counts(names.size());
  GE_RETURN_IF_ERROR(job.Take(counts.data(), header_bytes, source, what));
  Status agreed = CheckPipelineReceive(pipeline, static_cast<size_t>(rank), counts, Who(source));
  if (!agreed.ok()) {
    return std::move(agreed).Prefix("rank " + std::to_string(rank) + ", input " +
                                    std::to_string(batch));
  }
  auto buffer = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(receive_bytes));
  std::vector<GeTensor> received;
  size_t at = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const PipelineTensor* t = pipeline.Tensor(names[i]);
    for (const int64_t piece : Pieces(counts[i])) {
      GE_ASSIGN_OR_RETURN(const int64_t arrived, job.Probe(source, what));
      if (arrived != piece) {
        return ParamInvalid(who + ": a piece of '" + names[i] + "' is " + std::to_string(arrived) +
                            " bytes; the stage expected " + std::to_string(piece) + " of its " +
                            std::to_string(counts[i]));
      }
      GE_RETURN_IF_ERROR(job.Take(buffer->data() + at, piece, source, what));
      at += static_cast<size_t>(piece);
    }
    GeTensor tensor(GeTensorDesc(GeShape(t->dims), FORMAT_ND, t->dtype));
    const auto size = static_cast<size_t>(counts[i]);
    tensor.SetSharedData(std::shared_ptr<const uint8_t>(buffer, buffer->data() + at - size), size);
    received.push_back(std::move(tensor));
  }
  return received;
}

// What a rank holds beside its stage's model: one batch received (rank 0: one input set), and
// its sends until the next rank takes them (the last rank: its outputs).
struct MessageBytes {
  int64_t received = 0;
  int64_t sends = 0;
  int64_t total = 0;
};

Result<MessageBytes> MessagesOf(const PipelineModel& pipeline, int rank, int ranks) {
  const std::string who = Who(rank);
  MessageBytes m;
  GE_ASSIGN_OR_RETURN(m.received,
                      PipelineBytes(pipeline, pipeline.Receives(static_cast<size_t>(rank)), who));
  GE_ASSIGN_OR_RETURN(
      const int64_t sends,
      PipelineBytes(pipeline, pipeline.stages[static_cast<size_t>(rank)].sends, who));
  const int64_t held_sends = rank + 1 < ranks ? kSendsInFlight + 1 : 1;
  if (__builtin_mul_overflow(sends, held_sends, &m.sends) ||
      __builtin_add_overflow(m.received, m.sends, &m.total)) {
    return ParamInvalid(who + ": its messages need more bytes than int64 counts");
  }
  return m;
}

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
  // The manifest against the stage's model, and the messages' bytes against the memory limit,
  // before anything is allocated.
  Status agrees = CheckPipelineStage(pipeline, static_cast<size_t>(rank));
  if (!agrees.ok()) return std::move(agrees).Prefix(who);
  GE_ASSIGN_OR_RETURN(const MessageBytes messages, MessagesOf(pipeline, rank, ranks));
  const int64_t limit = options.runtime.max_memory_bytes;  // 0: the stage's own default
  if (limit < 0) {
    return ParamInvalid(who + ": max_memory_bytes must be 0 (the machine's memory) or more, not " +
                        std::to_string(limit));
  }
  if (limit > 0 && messages.total >= limit) {
    return ParamInvalid(who + ": its messages take " + std::to_string(messages.total) +
                        " bytes (received " + std::to_string(messages.received) + ", sends held " +
                        std::to_string(messages.sends) + "), over the memory limit of " +
                        std::to_string(limit) + " (RuntimeOptions::max_memory_bytes)");
  }
  RuntimeOptions runtime = options.runtime;
  if (limit > 0) runtime.max_memory_bytes = limit - messages.total;
  Result<std::unique_ptr<LoadedModel>> model =
      LoadedModel::Load(pipeline.stages[static_cast<size_t>(rank)].model, runtime);
  if (!model.ok()) {
    return Status(model.status())
        .Prefix(limit > 0 ? who + ", with " + std::to_string(limit - messages.total) + " of the " +
                                std::to_string(limit) + "-byte memory limit left after its messages"
                          : who);
  }
  const std::vector<std::string>& receives = pipeline.Receives(static_cast<size_t>(rank));
  std::vector<std::vector<GeTensor>> sets;
  if (rank == 0) {
    std::vector<IoInfo> inputs;
    for (const std::string& name : receives) {
      const PipelineTensor* t = pipeline.Tensor(name);
      IoInfo info;
      info.name = name;
      info.dtype = t->dtype;
      info.dims = t->dims;
      inputs.push_back(std::move(info));
    }
    // The input sets take the place of the one batch received.
    int64_t inputs_limit = 0;
    if (limit > 0) {
      const int64_t held = messages.sends + (*model)->arena_bytes() + (*model)->workspace_bytes();
      inputs_limit = limit - std::min(limit, held);
      if (inputs_limit == 0) {
        return ParamInvalid(who + ": nothing is left of the memory limit of " +
                            std::to_string(limit) + " bytes for the inputs (the stage and its " +
                            "sends take " + std::to_string(held) + ")");
      }
    }
    Result<std::vector<std::vector<GeTensor>>> given = make_inputs(inputs, inputs_limit);
    if (!given.ok()) return Status(given.status()).Prefix(who);
    sets = std::move(given).value();
    if (sets.empty()) return ParamInvalid(who + ": no inputs to run");
  }

  // Every rank loaded: the clock starts for all at once.
  MPI_Request barrier;
  GE_RETURN_IF_ERROR(Mpi(MPI_Ibarrier(MPI_COMM_WORLD, &barrier), "MPI_Ibarrier", rank));
  GE_RETURN_IF_ERROR(job.Wait(barrier, "every rank to load its stage"));
  if (options.on_start) options.on_start(rank);
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
      GE_ASSIGN_OR_RETURN(received, Receive(job, pipeline, batch, messages.received));
    }
    GE_RETURN_IF_ERROR(job.CheckAbort());
    const Clock::time_point run_start = Clock::now();
    Result<std::vector<GeTensor>> sends =
        RunPipelineStage(**model, pipeline, static_cast<size_t>(rank), received);
    busy += MillisSince(run_start);
    if (!sends.ok()) return Status(sends.status()).Prefix(who + ", input " + std::to_string(batch));
    if (rank + 1 < ranks) {
      GE_ASSIGN_OR_RETURN(Outgoing out, Send(std::move(sends).value(), rank + 1, rank));
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
  GE_RETURN_IF_ERROR(Mpi(MPI_Igather(mine, 5, MPI_DOUBLE, all.data(), 5, MPI_DOUBLE, ranks - 1,
                                     MPI_COMM_WORLD, &gather),
                         "MPI_Igather", rank));
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
  if (!(options.timeout_seconds > 0)) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%g", options.timeout_seconds);
    return ParamInvalid(std::string("--timeout must be a positive number of seconds, not ") +
                        seconds);
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized == 0) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      return Failed("MPI did not start (run the pipeline with mpirun)");
    }
  }
  // MPI's errors come back as results, to be this rank's error line (by default MPI ends the
  // job with a line of its own, and the rank's own message is lost).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
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
