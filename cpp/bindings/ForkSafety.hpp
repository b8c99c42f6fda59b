// Device objects in a forked child (dx12kit/platform/Fork.hpp): the Python objects of a device
// created before the fork must not destroy their C++ objects in the child. Destroying them would
// release the parent's D3D12 objects (whose threads are gone, so that can block), take locks that
// a parent thread may have held at the fork, and ~Device would wait for GPU work that runs in the
// parent: the child's exit hung forever. InstallForkLeak wraps a bound type's deallocation: in a
// process forked since dx12kit watched for forks, an object whose device was created before the
// fork keeps its holder forever (leaked on purpose; the process's memory goes at exit). Everything
// it references (the Device, its queues, their work in flight) stays alive with it.
#pragma once

#include "dx12kit/platform/Fork.hpp"

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>

namespace dx12kit::bindings {

template <class T, class Holder>
struct ForkLeak {
    using Orphaned = bool (*)(const T&);
    static inline void (*s_Dealloc)(pybind11::detail::value_and_holder&) = nullptr;
    static inline Orphaned s_Orphaned = nullptr;

    static void Dealloc(pybind11::detail::value_and_holder& vh) {
        if (platform::ForkGeneration() != 0 && vh.holder_constructed()) {
            Holder& h = vh.template holder<Holder>();
            // No way to tell (s_Orphaned null): leak in any forked child; this only loses memory.
            if (h && (!s_Orphaned || s_Orphaned(*h))) (void)new Holder(std::move(h));
        }
        s_Dealloc(vh);  // destroys the (now empty) holder
    }
};

/// Makes the Python objects of bound type T leak their C++ object in a forked child when
/// `orphaned(object)` says its device was created before the fork (null: whenever forked).
/// Call once, after binding T.
template <class T, class Holder = std::shared_ptr<T>>
void InstallForkLeak(bool (*orphaned)(const T&)) {
    pybind11::detail::type_info* ti = pybind11::detail::get_type_info(typeid(T));
    if (!ti || !ti->dealloc) throw std::logic_error(std::string("InstallForkLeak: ") + typeid(T).name() + " is not bound");
    if (ti->dealloc == &ForkLeak<T, Holder>::Dealloc) return;
    ForkLeak<T, Holder>::s_Orphaned = orphaned;
    ForkLeak<T, Holder>::s_Dealloc = ti->dealloc;
    ti->dealloc = &ForkLeak<T, Holder>::Dealloc;
}

}  // namespace dx12kit::bindings
