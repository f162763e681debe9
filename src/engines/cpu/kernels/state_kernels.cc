// The operators that write a variable: Assign (ref = value), AssignAdd (ref += value) and
// AssignSub (ref -= value). Their output 0 is planned on input 0's memory (the prototype's
// UpdatesInput trait), a Variable's or a RefData's, so what the kernel writes there is the
// variable's new value, read by later nodes and later runs.
#include <cstring>

#include "kernel_util.h"

namespace ge::host_cpu {
namespace {

enum class Update { kSet, kAdd, kSub };

class AssignKernel final : public KernelBase {
 public:
  explicit AssignKernel(Update update) : update_(update) {}

  Status Run(const KernelArgs& args) override {
    GE_RETURN_IF_ERROR(CheckArity(args, 2, 1));
    const KernelTensor& ref = args.inputs[0];
    const KernelTensor& value = args.inputs[1];
    const KernelOutput& out = args.outputs[0];
    if (value.spec.dtype != ref.spec.dtype || out.spec.dtype != ref.spec.dtype) {
      return Error("value and ref must have one dtype");
    }
    const int64_t n = NumElements(ref.spec.dims);
    if (NumElements(value.spec.dims) != n || NumElements(out.spec.dims) != n) {
      return Error("value " + GeShape(value.spec.dims).ToString() + " does not fit ref " +
                   GeShape(ref.spec.dims).ToString());
    }
    if (out.data != ref.data) {
      return Error(
          "its output is not its ref input's memory, so the variable would not change "
          "(the model was planned without the operator's in-place output; recompile it)");
    }
    if (n == 0) return Status::Ok();
    if (update_ == Update::kSet) {
      std::memmove(out.data, value.data, static_cast<size_t>(n * ElementBytes(ref.spec.dtype)));
      return Status::Ok();
    }
    const bool ok = DispatchNumeric(ref.spec.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* v = static_cast<const T*>(value.data);
      T* r = static_cast<T*>(out.data);
      if (update_ == Update::kAdd) {
        for (int64_t i = 0; i < n; ++i) r[i] = static_cast<T>(r[i] + v[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) r[i] = static_cast<T>(r[i] - v[i]);
      }
    });
    return ok ? Status::Ok() : Unsupported(ref.spec.dtype);
  }

 private:
  Update update_;
};

template <Update kUpdate>
std::unique_ptr<CpuKernel> MakeAssign() {
  return std::make_unique<AssignKernel>(kUpdate);
}

}  // namespace

void RegisterStateKernels(KernelTable& t) {
  t.Add("Assign", MakeAssign<Update::kSet>);
  t.Add("AssignAdd", MakeAssign<Update::kAdd>);
  t.Add("AssignSub", MakeAssign<Update::kSub>);
}

}  // namespace ge::host_cpu
