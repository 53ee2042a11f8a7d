// guard.hpp
//    The one place that turns C++ exceptions into NddStatus at the C boundary, and the cancellation
//    check that long loops use.
#ifndef NDD_GUARD_HPP
#define NDD_GUARD_HPP

#include <new>
#include <stdexcept>

#include "ndd_status.h"

namespace ndd {

// Thrown by a long loop when the interrupt callback fires; becomes NDD_CANCELLED.
struct Cancelled {};

// Thrown for a caller bug the boundary reports as NDD_INVALID_ARGUMENT.
struct InvalidArgument : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// Polls the interrupt callback every `stride` calls so hot loops pay a counter increment only.
class InterruptPoller {
public:
    explicit InterruptPoller(NddInterruptFn fn, unsigned stride = 4096) : fn_(fn), stride_(stride) {}
    void tick() {
        if (fn_ && ++count_ >= stride_) {
            count_ = 0;
            if (fn_()) throw Cancelled{};
        }
    }
    void check() const {
        if (fn_ && fn_()) throw Cancelled{};
    }

private:
    NddInterruptFn fn_;
    unsigned stride_;
    unsigned count_ = 0;
};

// Runs body() and maps every exception to a status. Every extern "C" entry point of the core is
// `return ndd::guarded([&] { ... });`.
template <typename Body>
NddStatus guarded(Body&& body) noexcept {
    try {
        body();
        return NDD_OK;
    } catch (const Cancelled&) {
        return NDD_CANCELLED;
    } catch (const std::bad_alloc&) {
        return NDD_OUT_OF_MEMORY;
    } catch (const InvalidArgument&) {
        return NDD_INVALID_ARGUMENT;
    } catch (...) {
        return NDD_INTERNAL;
    }
}

}  // namespace ndd

#endif  // NDD_GUARD_HPP
